"""Properties of Šnapser pricing that must hold for every valid hand (RULES.md §3)."""

from __future__ import annotations

import copy
from decimal import Decimal
from typing import Any

from hypothesis import assume, given

import rules
from tests.rules.strategies_snapser import RESULTS, snapser_documents

PLAYED = ("hram", "za12", "durch")


def _amounts(document: dict[str, Any]) -> dict[str, Decimal]:
    return dict(rules.score(document).amounts)


def _with(document: dict[str, Any], **fields: Any) -> dict[str, Any]:
    changed = copy.deepcopy(document)
    changed["hand"].update(fields)
    return changed


@given(snapser_documents())
def test_every_hand_is_zero_sum_and_moves_money(document: dict[str, Any]) -> None:
    amounts = _amounts(document)
    assert list(amounts) == document["players"]
    assert sum(amounts.values(), Decimal(0)) == 0
    assert all(amount != 0 for amount in amounts.values())


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
    declarer = document["hand"]["declarer"]
    paid = [abs(_amounts(_with(document, result=result))[declarer]) for result in RESULTS]
    # s vodou < bez vody < za 6 < tichý durch, for the same raises and trump.
    assert paid == sorted(paid)
    assert len(set(paid)) == len(RESULTS)


@given(snapser_documents(announcements=PLAYED))
def test_the_other_winner_turns_every_amount_round(document: dict[str, Any]) -> None:
    assume(document["hand"].get("end") != "false_dost")
    flipped = "defenders" if document["hand"]["winner"] == "declarer" else "declarer"
    before = _amounts(document)
    after = _amounts(_with(document, winner=flipped))
    assert after == {player: -amount for player, amount in before.items()}


@given(snapser_documents())
def test_the_json_result_keeps_money_exact(document: dict[str, Any]) -> None:
    result = rules.score(document).as_dict()
    assert sum((Decimal(amount) for amount in result["amounts"].values()), Decimal(0)) == 0
    assert [line["amount"] for line in result["lines"] if line["amount"] is not None] == [result["value"]]
