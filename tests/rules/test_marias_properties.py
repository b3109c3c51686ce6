"""Properties of Mariáš čtyřka pricing that hold for every valid hand (hypothesis)."""

from __future__ import annotations

import copy
import re
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import rules
from rules.base import RulesError, Score
from rules.i18n import LANGUAGES, MINUS, format_money, override, pgettext
from tests.rules.strategies_marias import (
    COLOUR_CONTRACTS,
    HAND_FIELDS,
    PLAYERS,
    components,
    marias_any_documents,
    marias_documents,
    marias_impossible_documents,
)


def component_amount(result: Score, component: str) -> Decimal:
    """The money line of one component ("sedma v lepších, re" belongs to sedma; "tichá sedma …" does not)."""
    found = [
        line.amount
        for line in result.lines
        if line.amount is not None and line.label.split(",")[0].split()[0] == component
    ]
    assert len(found) == 1, result.lines
    assert found[0] is not None
    return found[0]


def side_of(doc: dict[str, Any]) -> set[str]:
    hand = doc["hand"]
    return {hand["declarer"], hand.get("partner", hand["declarer"])}


@given(marias_documents())
def test_amounts_sum_to_zero_and_lines_add_up_to_the_value(doc: dict[str, Any]) -> None:
    result = rules.score(doc)
    assert sum(result.amounts.values()) == 0
    assert set(result.amounts) == set(PLAYERS)
    assert sum(line.amount for line in result.lines if line.amount is not None) == result.value


@given(marias_documents(laid=False, renonc=False), st.data())
def test_each_flek_level_doubles_exactly_its_component(doc: dict[str, Any], data: st.DataObject) -> None:
    hand = doc["hand"]
    component = data.draw(st.sampled_from(components(hand["contract"], doc["rules"])))
    assume(hand["flek"][component] < 5)
    before = rules.score(doc)
    raised = copy.deepcopy(doc)
    raised["hand"]["flek"][component] += 1
    after = rules.score(raised)
    assert component_amount(after, component) == 2 * component_amount(before, component)
    assert after.value - before.value == component_amount(before, component)


@given(marias_documents(contracts=COLOUR_CONTRACTS, laid=False, renonc=False))
def test_hearts_double_every_colour_component(doc: dict[str, Any]) -> None:
    doc["rules"]["red_doubles"] = True
    in_bells = copy.deepcopy(doc)
    in_bells["hand"]["trump"] = "bells"
    in_hearts = copy.deepcopy(doc)
    in_hearts["hand"]["trump"] = "hearts"
    assert rules.score(in_hearts).value == 2 * rules.score(in_bells).value
    in_hearts["rules"]["red_doubles"] = False
    assert rules.score(in_hearts).value == rules.score(in_bells).value


@given(marias_documents(contracts=("betl", "durch")))
def test_red_doubling_never_touches_betl_or_durch(doc: dict[str, Any]) -> None:
    on = copy.deepcopy(doc)
    on["rules"]["red_doubles"] = True
    off = copy.deepcopy(doc)
    off["rules"]["red_doubles"] = False
    assert rules.score(on).amounts == rules.score(off).amounts


@given(marias_documents(contracts=("stovka", "stosedm"), played_out=True, laid=False, renonc=False))
def test_a_lost_stovka_never_costs_less_than_one_step(doc: dict[str, Any]) -> None:
    stovka = component_amount(rules.score(doc), "stovka")
    assume(stovka < 0)
    hand = doc["hand"]
    stake = Decimal("0.10" if doc["rules"]["preset"] == "ctyrka-desetnik" else "0.20")
    red = 2 if hand["trump"] == "hearts" and doc["rules"]["red_doubles"] else 1
    one_step = 4 * stake * red * 2 ** hand["flek"]["stovka"]
    assert -stovka >= one_step


@given(marias_documents(laid=False, renonc=False))
def test_two_against_two_and_alone_are_zero_sum_with_equal_shares(doc: dict[str, Any]) -> None:
    result = rules.score(doc)
    side = side_of(doc)
    winners = [result.amounts[p] for p in PLAYERS if p in side]
    payers = [result.amounts[p] for p in PLAYERS if p not in side]
    assert len(set(winners)) == 1 and len(set(payers)) == 1
    assert sum(winners) == -sum(payers)
    if len(side) == 2:
        times = 2 if doc["rules"]["pay_2v2"] == "each" else 1
        assert winners[0] == times * result.value
    else:
        times = 2 if doc["rules"]["pay_alone"] == "double" else 1
        assert winners[0] == 3 * times * result.value
        assert payers[0] == -times * result.value


@given(marias_documents(laid=True, renonc=False))
def test_a_laid_flek_moves_money_only_between_the_defenders(doc: dict[str, Any]) -> None:
    result = rules.score(doc)
    plain = copy.deepcopy(doc)
    plain["hand"].pop("flekked_by", None)
    plain["hand"]["laid"] = False
    plain["hand"]["played_out"] = False
    fair = rules.score(plain)
    side = side_of(doc)
    assert result.value == fair.value
    assert all(result.amounts[p] == fair.amounts[p] for p in side)
    flekker = doc["hand"].get("flekked_by")
    for player in set(PLAYERS) - side - {flekker}:
        assert result.amounts[player] >= fair.amounts[player]  # the flekker pays for the others


@given(
    marias_documents(played_out=True, laid=False, renonc=False),
    st.sampled_from(PLAYERS),
    st.sampled_from(("talon", "other")),
)
def test_a_renonc_on_a_played_hand_adds_only_the_fee(doc: dict[str, Any], offender: str, kind: str) -> None:
    before = rules.score(doc)
    doc["hand"]["renonc"] = {"player": offender, "kind": kind}
    after = rules.score(doc)
    fee = Decimal("5.00" if kind == "talon" else "2.00")
    side = side_of(doc)
    opponents = [p for p in PLAYERS if (p in side) != (offender in side)]
    assert after.value == before.value
    assert after.amounts[offender] - before.amounts[offender] == -fee * len(opponents)
    for player in opponents:
        assert after.amounts[player] - before.amounts[player] == fee


# --------------------------------------------------------------------------------------------------------------
# Impossible hands are refused, not priced (RULES.md)


@settings(max_examples=300)
@given(marias_any_documents())
def test_any_document_is_priced_zero_sum_or_refused_naming_a_field_of_the_hand(doc: dict[str, Any]) -> None:
    try:
        result = rules.score(doc)
    except RulesError as error:
        assert error.message
        # "hand": worth more than one hand can move (rules.score's last guard).
        assert error.field == "hand" or error.field.split(".")[0] in HAND_FIELDS, error.field
        return
    assert set(result.amounts) == set(PLAYERS)
    assert sum(result.amounts.values()) == 0


@settings(max_examples=200)
@given(marias_impossible_documents())
def test_a_document_no_deal_can_produce_is_refused_naming_the_field(case: tuple[dict[str, Any], str]) -> None:
    doc, field = case
    with pytest.raises(RulesError) as caught:
        rules.score(doc)
    assert caught.value.field == field, caught.value


# --------------------------------------------------------------------------------------------------------------
# The explanation, read without arithmetic


def own_lines(doc: dict[str, Any]) -> list[rules.Line]:
    """The game's own lines (rules.score adds the payment line to every game's)."""
    game, table = rules.table(doc)
    return list(game.price(table, game.parse(table, doc["hand"])).lines)


@given(marias_documents(), st.sampled_from(LANGUAGES))
def test_every_money_line_carries_its_sign_and_a_lost_component_says_so(doc: dict[str, Any], language: str) -> None:
    currency = "CZK"
    with override(language):
        lines = own_lines(doc)
        won, lost = pgettext("marias result", "won"), pgettext("marias result", "lost")
        limit, seven = pgettext("marias", "limit"), pgettext("marias", "silent seven (tichá sedma)")
        shown = {line.detail: format_money(line.amount, currency) for line in lines if line.amount is not None}
    for line in lines:
        if line.amount is None:
            continue
        assert line.detail.endswith(shown[line.detail])
        if line.label.startswith(limit):
            continue  # "2.00 − 3.20 = −1.20": what the cap gives back
        assert line.detail.startswith(MINUS) is (line.amount < 0), line
        if seven not in line.label:
            words = [word.split(" (")[0] for word in line.label.split(", ")]
            assert (lost if line.amount < 0 else won) in words, line


@given(marias_documents(), st.sampled_from(LANGUAGES))
def test_no_line_repeats_a_word(doc: dict[str, Any], language: str) -> None:
    with override(language):
        lines = own_lines(doc)
    for line in lines:
        words = repeated_words(f"{line.label}: {line.detail}", language)
        assert not words, (words, line)


# The small words every sentence repeats ("re on the sedma, flek on the hra"), and the currency.
STOP_WORDS = {
    "en": {"the", "in", "on", "of", "and", "a", "with", "for", "to"},
    "cs": {"v", "s", "se", "a", "na", "i", "za"},
    "sk": {"v", "s", "so", "a", "na", "aj", "za"},
    "de": {"in", "die", "der", "den", "des", "mit", "und", "auf", "von", "für"},
}


def repeated_words(text: str, language: str = "en") -> set[str]:
    """Words said twice in one line, leaving out the small ones every sentence repeats and the players' names."""
    words = [word.lower().rstrip("'") for word in re.findall(r"[^\W\d_]+(?:'[^\W\d_]*)?", text)]
    ignored = STOP_WORDS[language] | {"kč", "eur"} | {player.lower() for player in PLAYERS}
    words = [word for word in words if word not in ignored]
    return {word for word in words if words.count(word) > 1}


def test_repeated_words_finds_a_word_said_twice() -> None:
    assert repeated_words("hra in bells, lost (30:60), hra in bells") == {"hra", "bells"}
    assert repeated_words("re on the sedma, flek on the hra: 0.20 Kč") == set()


def test_the_any_strategy_draws_every_field_of_the_hand_document() -> None:
    assert set(HAND_FIELDS) == set(rules.game("marias").hand_schema()["properties"])
