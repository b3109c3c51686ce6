"""Properties of Skat pricing over random valid hands and over any document (strategies: tests/rules/strategies.py)."""

from __future__ import annotations

import copy
import re
from decimal import Decimal
from itertools import pairwise
from typing import Any

from hypothesis import assume, given
from hypothesis import strategies as st

import rules
from rules.base import Line
from rules.i18n import LANGUAGES, format_number, override
from rules.skat import FIELDS, TRUMP_GAMES
from tests.rules.strategies import skat_any_documents, skat_documents, skat_impossible_documents

DECLARED = (*TRUMP_GAMES, "null")
# Where a refusal may point: the table, the ruleset, the hand as a whole, or one field of the hand (one player's
# Ramsch points: ramsch_points.Ana).
DOCUMENT_FIELDS = {"players", "rules", "hand", *FIELDS}
# What the Skat's two cards can hold (two of A 11, 10 10, K 4, Q 3, J 2, 9/8/7 0), written out from the deck.
SKAT_HOLDS = {0, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15, 20, 21, 22}


def with_rules(document: dict[str, Any], **overrides: Any) -> dict[str, Any]:
    changed = copy.deepcopy(document)
    changed["rules"] |= overrides
    return changed


def with_hand(document: dict[str, Any], **fields: Any) -> dict[str, Any]:
    changed = copy.deepcopy(document)
    changed["hand"] |= fields
    return changed


@given(skat_documents())
def test_amounts_sum_to_exactly_zero(document: dict[str, Any]) -> None:
    result = rules.score(document)
    assert sum(result.amounts.values(), Decimal(0)) == 0
    assert list(result.amounts) == document["players"]


@given(skat_documents())
def test_amounts_are_the_pairwise_differences_of_the_list_points(document: dict[str, Any]) -> None:
    result = rules.score(document)
    assert result.score is not None
    stake = Decimal(document["rules"]["stake"])
    total = sum(result.score.values())
    n = len(document["players"])
    assert result.amounts == {p: stake * (n * s - total) for p, s in result.score.items()}


@given(skat_documents(DECLARED))
def test_a_lost_game_scores_minus_twice_its_value(document: dict[str, Any]) -> None:
    result = rules.score(with_rules(document, scoring="classic"))
    assert result.score is not None
    declarer = document["hand"]["declarer"]
    expected = result.value if result.won else -2 * result.value
    assert result.score[declarer] == expected
    assert all(s == 0 for p, s in result.score.items() if p != declarer)


@given(skat_documents(("null",)))
def test_a_lost_null_scores_minus_twice_the_same_null_won(document: dict[str, Any]) -> None:
    document = with_rules(document, scoring="classic")
    declarer = document["hand"]["declarer"]
    won, lost = (rules.score(with_hand(document, won=flag)).score for flag in (True, False))
    assert won is not None and lost is not None
    assert lost[declarer] == -2 * won[declarer]


@given(skat_documents(TRUMP_GAMES), st.integers(61, 89), st.integers(31, 60))
def test_a_lost_suit_or_grand_scores_minus_twice_the_same_game_won(
    document: dict[str, Any], winning: int, losing: int
) -> None:
    # Between 31 and 89 card points neither side is Schneider, so only the result differs, never the value.
    plain = {"schwarz": False, "schneider_announced": False, "schwarz_announced": False, "ouvert": False}
    document = with_hand(with_rules(document, scoring="classic"), **plain)
    declarer = document["hand"]["declarer"]
    won = rules.score(with_hand(document, declarer_points=winning))
    assume(won.won)  # an overbid game is lost either way
    lost = rules.score(with_hand(document, declarer_points=losing))
    assert won.score is not None and lost.score is not None
    assert (lost.won, lost.value) == (False, won.value)
    assert lost.score[declarer] == -2 * won.score[declarer]


@given(skat_documents(TRUMP_GAMES), st.integers(61, 120).filter(lambda points: points != 119))
def test_more_matadors_never_lower_a_won_games_value(document: dict[str, Any], points: int) -> None:
    hand = document["hand"]
    assume(hand["matadors"] < (4 if hand["contract"] == "grand" else 11))
    # Random card points would lose most games; make this one reach what it announced.
    if hand["schwarz_announced"]:
        points = 120
    elif hand["schneider_announced"]:
        points = max(points, 90)
    document = with_hand(document, declarer_points=points, schwarz=points == 120 and hand["schwarz_announced"])
    fewer = rules.score(document)
    assume(fewer.won)  # not overbid
    more = rules.score(with_hand(document, matadors=hand["matadors"] + 1))
    assert more.won
    assert more.value > fewer.value


@given(skat_documents())
def test_seeger_fabian_is_the_classic_score_plus_its_fixed_bonuses(document: dict[str, Any]) -> None:
    classic = rules.score(with_rules(document, scoring="classic"))
    seeger = rules.score(with_rules(document, scoring="seeger-fabian"))
    assert classic.score is not None and seeger.score is not None
    declarer = document["hand"].get("declarer")
    bonus = {p: 0 for p in document["players"]}
    if declarer is not None and classic.won:
        bonus[declarer] = 50
    elif declarer is not None:
        each = 40 if len(document["players"]) == 3 else 30
        bonus = {p: -50 if p == declarer else each for p in bonus}
    assert seeger.score == {p: s + bonus[p] for p, s in classic.score.items()}
    assert (seeger.won, seeger.value, seeger.label) == (classic.won, classic.value, classic.label)


@given(skat_documents())
def test_one_more_pending_bock_doubles_every_list_score(document: dict[str, Any]) -> None:
    document = with_rules(document, bock=True, scoring="classic")
    before = rules.score(document)
    after = rules.score(with_hand(document, bock=document["hand"].get("bock", 0) + 1))
    assert before.score is not None and after.score is not None
    assert after.score == {p: 2 * s for p, s in before.score.items()}
    assert after.bock_rounds <= before.bock_rounds


@given(skat_documents(seats=(4,)))
def test_the_sitting_dealer_scores_nothing_in_the_classic_list(document: dict[str, Any]) -> None:
    result = rules.score(with_rules(document, scoring="classic"))
    assert result.score is not None
    assert result.score[document["hand"]["dealer"]] == 0


# --------------------------------------------------------------------------------------------------------------
# Any document: priced zero-sum, or refused naming a field; never an impossible hand priced


@given(skat_any_documents())
def test_a_document_is_priced_zero_sum_or_refused_with_a_field_path(document: dict[str, Any]) -> None:
    try:
        score = rules.score(document)
    except rules.RulesError as error:
        head = error.field.split(".")[0]
        assert head in DOCUMENT_FIELDS, error.as_dict()
        assert error.field == head or head in ("rules", "ramsch_points"), error.as_dict()
        assert error.message
        return
    assert list(score.amounts) == document["players"]
    assert sum(score.amounts.values(), Decimal(0)) == 0


@given(skat_any_documents())
def test_a_priced_document_is_one_a_deal_can_produce(document: dict[str, Any]) -> None:
    try:
        rules.score(document)
    except rules.RulesError:
        return
    assert _possible(document["hand"]), document["hand"]


def _possible(hand: dict[str, Any]) -> bool:
    """RULES.md §1 and "Impossible hands are refused", written out once more, independently of the engine."""
    contract = hand["contract"]
    flag = {name: bool(hand.get(name)) for name in ("hand", "ouvert", "schneider_announced", "schwarz_announced")}
    if contract in TRUMP_GAMES:
        points = hand["declarer_points"]
        took_no_trick_or_all = points == 120 or points in SKAT_HOLDS
        return (
            points not in (1, 119)  # no cards add up to 1
            and (took_no_trick_or_all or not hand.get("schwarz"))
            and (flag["hand"] or not (flag["ouvert"] or flag["schneider_announced"] or flag["schwarz_announced"]))
        )
    if contract == "null":
        return isinstance(hand["won"], bool)
    if hand.get("bid", 18) != 18:  # Ramsch or passed in: everybody passed, nobody bid
        return False
    if contract == "ramsch" and "durchmarsch" not in hand:
        points = hand["ramsch_points"]
        return (
            sum(points.values()) == 120
            and not {1, 119} & set(points.values())
            and not any(points[player] for player in hand.get("jungfrau", []))
        )
    return True


@given(skat_impossible_documents())
def test_an_impossible_document_is_always_refused(case: tuple[dict[str, Any], str]) -> None:
    document, field = case
    try:
        score = rules.score(document)
    except rules.RulesError as error:
        assert error.field == field, (error.as_dict(), document["hand"])
        return
    raise AssertionError(f"priced an impossible hand: {document['hand']} as {score.label}")


# --------------------------------------------------------------------------------------------------------------
# Explanations a player reads without arithmetic, in every language


def _own_lines(document: dict[str, Any], language: str) -> tuple[str, list[Line]]:
    """The label and the game's own lines (rules.score adds a payment line after them), priced in ``language``."""
    with override(language):
        game, table = rules.table(document)
        score = game.price(table, game.parse(table, document["hand"]))
    return score.label, list(score.lines)


@given(skat_documents(), st.sampled_from(LANGUAGES))
def test_every_line_writes_out_its_amount_and_a_negative_one_with_its_sign(
    document: dict[str, Any], language: str
) -> None:
    for line in _own_lines(document, language)[1]:
        if line.amount is None:
            continue
        text = f"{line.label}: {line.detail}"
        written = format_number(abs(line.amount), places=0)
        # the whole number, not a part of a longer one ("36" is not in "364" nor in "0,36")
        assert re.search(rf"(?<!\d)(?<!\d[.,]){re.escape(written)}(?!\d|[.,]\d)", text), (line, language)
        if line.amount < 0:
            assert f"\N{MINUS SIGN}{written}" in text, (line, language)


def _words(text: str) -> list[str]:
    return [word for word in re.findall(r"[^\W\d_]+", text.lower()) if len(word) > 2]


@given(skat_documents(), st.sampled_from(LANGUAGES))
def test_no_line_repeats_a_word_or_another_lines_detail(document: dict[str, Any], language: str) -> None:
    """No "Kontra: Kontra × 2", no "61 card points" twice. Counting out may name a level twice, as players say
    it ("Schneider 4, announced 5, Schwarz 6, announced 7"), but never twice in a row."""
    lines = _own_lines(document, language)[1]
    for line in lines:
        label, detail = _words(line.label), _words(line.detail)
        assert not set(label) & set(detail), (line, language)
        assert len(detail) == len(set(detail)), (line, language)
        assert all(a != b for a, b in pairwise(label)), (line, language)
    details = [line.detail for line in lines if line.detail]
    assert len(details) == len(set(details)), (lines, language)


@given(skat_documents(TRUMP_GAMES))
def test_a_declarer_who_is_schneider_or_schwarz_is_not_labelled_as_if_he_made_it(document: dict[str, Any]) -> None:
    hand = document["hand"]
    label = rules.score(document).label
    points = hand["declarer_points"]
    own_schwarz = hand["schwarz"] and points < 120
    if own_schwarz:
        assert label.endswith(", declarer Schwarz")
    elif points <= 30:
        assert label.endswith(", declarer Schneider")
    else:
        assert "declarer" not in label
    game = label.split(", declarer")[0]
    # Ouvert says Schwarz announced by itself
    schwarz = (hand["schwarz_announced"] or (hand["schwarz"] and not own_schwarz)) and not hand["ouvert"]
    assert ("Schwarz" in game) == schwarz
    if not (hand["schneider_announced"] or hand["schwarz"] or points >= 90):
        assert "Schneider" not in game


@given(skat_documents())
def test_a_hand_starts_one_bock_round_however_many_triggers_it_fires(document: dict[str, Any]) -> None:
    document = with_rules(document, bock=True)
    once = rules.score(with_rules(document, bock_per_trigger=False)).bock_rounds
    each = rules.score(with_rules(document, bock_per_trigger=True)).bock_rounds
    assert once == min(each, 1)
