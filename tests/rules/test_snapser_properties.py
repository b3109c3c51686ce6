"""Properties of Šnapser pricing that must hold for every valid hand (RULES.md §3), and for every other document."""

from __future__ import annotations

import copy
import re
from decimal import Decimal
from itertools import pairwise
from typing import Any

from hypothesis import Phase, assume, given, settings

import rules
from rules.base import payment_line
from rules.i18n import LANGUAGES, override
from rules.snapser import FIELDS
from tests.rules.strategies_snapser import (
    RESULTS,
    snapser_any_documents,
    snapser_documents,
    snapser_impossible_documents,
)

PLAYED = ("hram", "za12", "durch")
# Where a refusal may point: the table, the ruleset, the hand as a whole, or one field of the hand.
DOCUMENT_FIELDS = {"players", "rules", "hand", *FIELDS}


def _amounts(document: dict[str, Any]) -> dict[str, Decimal]:
    return dict(rules.score(document).amounts)


def _with(document: dict[str, Any], **fields: Any) -> dict[str, Any]:
    changed = copy.deepcopy(document)
    changed["hand"].update(fields)
    return changed


def _without_end(document: dict[str, Any]) -> dict[str, Any]:
    changed = copy.deepcopy(document)
    changed["hand"].pop("end", None)
    return changed


@given(snapser_documents())
def test_every_hand_is_zero_sum_and_moves_money(document: dict[str, Any]) -> None:
    amounts = _amounts(document)
    assert list(amounts) == document["players"]
    assert sum(amounts.values(), Decimal(0)) == 0
    assert all(amount != 0 for amount in amounts.values())


@given(snapser_any_documents())
def test_a_document_is_priced_zero_sum_or_refused_with_a_field_path(document: dict[str, Any]) -> None:
    try:
        score = rules.score(document)
    except rules.RulesError as error:
        assert error.field in DOCUMENT_FIELDS or error.field.startswith("rules."), error.as_dict()
        assert error.message
        return
    assert list(score.amounts) == document["players"]
    assert sum(score.amounts.values(), Decimal(0)) == 0


def test_any_document_is_priced_a_third_of_the_time_or_more() -> None:
    """The property above checks the priced branch only on the documents that price: at least a third of those the
    strategy draws (a fixed seed, so that the count is the same on every run)."""
    priced: list[bool] = []

    @settings(max_examples=300, database=None, derandomize=True, phases=[Phase.generate])
    @given(snapser_any_documents())
    def draw(document: dict[str, Any]) -> None:
        try:
            rules.score(document)
        except rules.RulesError:
            priced.append(False)
        else:
            priced.append(True)

    draw()
    assert len(priced) == 300
    assert sum(priced) * 3 >= len(priced), f"{sum(priced)} of {len(priced)} priced"


@given(snapser_impossible_documents())
def test_an_impossible_document_is_always_refused(case: tuple[dict[str, Any], str]) -> None:
    document, field = case
    try:
        score = rules.score(document)
    except rules.RulesError as error:
        assert error.field == field, error.as_dict()
        return
    raise AssertionError(f"priced an impossible hand: {document['hand']} as {score.label}")


@given(snapser_documents())
def test_the_declarer_side_shares_one_fate(document: dict[str, Any]) -> None:
    score = rules.score(document)
    hand = document["hand"]
    declarer_side = {hand["declarer"], hand.get("partner") or hand["declarer"]}
    for player, amount in score.amounts.items():
        # The declarer's side gains exactly when it won; the defenders the other way round.
        assert (amount > 0) == ((player in declarer_side) == score.won)
    assert score.won == (hand.get("winner") == "declarer")


@given(snapser_documents(announcements=PLAYED))
def test_each_raise_doubles_every_amount(document: dict[str, Any]) -> None:
    raises = document["hand"]["raises"]
    assume(raises < 4)
    before = _amounts(document)
    after = _amounts(_with(document, raises=raises + 1))
    assert after == {player: 2 * amount for player, amount in before.items()}


@given(snapser_documents())
def test_red_doubles_unless_the_table_exempts_nehram_or_durch(document: dict[str, Any]) -> None:
    assume(document["hand"]["trump"] != "hearts")
    announcement = document["hand"]["announcement"]
    exempt = (announcement == "nehram" and not document["rules"]["red_on_nehram"]) or (
        announcement == "durch" and not document["rules"]["red_on_durch"]
    )
    before = _amounts(document)
    after = _amounts(_with(document, trump="hearts"))
    factor = 1 if exempt else 2
    assert after == {player: factor * amount for player, amount in before.items()}


@given(snapser_documents(announcements=("hram",)))
def test_the_categories_are_ordered(document: dict[str, Any]) -> None:
    assume(document["hand"].get("end") != "false_dost")
    # Without an end every category is possible (the end can rule out za 6 or tichý durch).
    document = _without_end(document)
    declarer = document["hand"]["declarer"]
    paid = [abs(_amounts(_with(document, result=result))[declarer]) for result in RESULTS]
    # s vodou < bez vody < za 6 < tichý durch, for the same raises and trump.
    assert paid == sorted(paid)
    assert len(set(paid)) == len(RESULTS)


@given(snapser_documents(announcements=("za12",)))
def test_a_za12_with_every_trick_is_paid_as_tichy_durch_unless_the_table_says_otherwise(
    document: dict[str, Any],
) -> None:
    every_trick = _with(_without_end(document), result="tichy_durch")
    za12 = _without_end(document)
    za12["hand"].pop("result", None)
    as_za12 = _amounts(za12)
    paid = _amounts(every_trick)
    factor = Decimal(18) / 12 if document["rules"]["tichy_durch_on_za12"] else 1
    assert paid == {player: amount * factor for player, amount in as_za12.items()}


@given(snapser_documents(announcements=PLAYED))
def test_the_other_winner_turns_every_amount_round(document: dict[str, Any]) -> None:
    assume(document["hand"].get("end") != "false_dost")
    # How the hand ended may rule out the other winner (a durch won by "dosť"), so it is left out.
    document = _without_end(document)
    flipped = "defenders" if document["hand"]["winner"] == "declarer" else "declarer"
    before = _amounts(document)
    after = _amounts(_with(document, winner=flipped))
    assert after == {player: -amount for player, amount in before.items()}


@given(snapser_documents())
def test_the_json_result_keeps_money_exact(document: dict[str, Any]) -> None:
    result = rules.score(document).as_dict()
    assert sum((Decimal(amount) for amount in result["amounts"].values()), Decimal(0)) == 0
    # One line carries the money, seen from the chooser: the value, with a minus when his side lost.
    signed = Decimal(result["value"]) if result["won"] else -Decimal(result["value"])
    assert [Decimal(line["amount"]) for line in result["lines"] if line["amount"] is not None] == [signed]


@given(snapser_documents())
def test_the_explanation_ends_with_who_pays_whom(document: dict[str, Any]) -> None:
    score = rules.score(document)
    last = score.lines[-1]
    assert last == payment_line(score.amounts, document["rules"]["currency"])
    assert all(player in last.label for player in document["players"])


@given(snapser_documents())
def test_a_lost_hand_says_so_and_shows_the_minus(document: dict[str, Any]) -> None:
    score = rules.score(document)
    (total,) = [line for line in score.lines if line.amount is not None]
    assert total.amount is not None
    if score.won:
        assert total.amount > 0 and "−" not in total.detail
    else:
        assert total.amount < 0 and "lost" in total.label
        assert total.detail.startswith("−") and "= −" in total.detail


_WORD = re.compile(r"[^\W\d_]{3,}")
_SMALL = {"the", "and"}


@given(snapser_documents())
def test_no_line_says_a_word_twice(document: dict[str, Any]) -> None:
    # "kontra: kontra: × 2" or "in hearts: hearts are trump" say nothing the first word did not.
    for language in LANGUAGES:
        with override(language):
            lines = rules.score(document).lines
        for line in lines:
            label = {word.lower() for word in _WORD.findall(line.label)} - _SMALL
            detail = {word.lower() for word in _WORD.findall(line.detail)} - _SMALL
            assert not label & detail, (language, line)
            # Numbers may meet ("za 12: 12 × €0.10" is the name and its multiple); words may not.
            words = [word.lower().strip(":,") for word in f"{line.label} {line.detail}".split()]
            pairs = pairwise(words)
            assert not [a for a, b in pairs if a == b and _WORD.match(b)], (language, line)
