"""Šnapser pricing (RULES.md §3): the worked examples N1–N9, the house-rule options and the validation."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

import rules
from rules.base import RulesError, Table, resolve_settings
from rules.snapser import GAME

THREE = ["Ana", "Ben", "Cyril"]
FOUR = ["Ana", "Ben", "Cyril", "Dana"]


def _hand(**fields: Any) -> dict[str, Any]:
    """A hrám won bez vody by Ana in leaves, overridden by ``fields`` (None drops a field)."""
    hand: dict[str, Any] = {
        "declarer": "Ana",
        "trump": "leaves",
        "announcement": "hram",
        "winner": "declarer",
        "result": "bez_vody",
    }
    hand.update(fields)
    return {key: value for key, value in hand.items() if value is not None}


def _score(hand: dict[str, Any], players: list[str] = THREE, **overrides: Any) -> rules.Score:
    return rules.score({"game": "snapser", "players": players, "rules": overrides, "hand": hand})


def _amounts(score: rules.Score) -> dict[str, str]:
    return {player: str(amount) for player, amount in score.amounts.items()}


def _error(hand: dict[str, Any], players: list[str] = THREE, **overrides: Any) -> RulesError:
    with pytest.raises(RulesError) as caught:
        _score(hand, players, **overrides)
    return caught.value


# --------------------------------------------------------------------------------------------------------------
# The worked examples of RULES.md §3 (3 players unless said, stake 0.10 EUR)

EXAMPLES = [
    pytest.param(THREE, _hand(result="s_vodou"), {"Ana": "0.40", "Ben": "-0.20", "Cyril": "-0.20"}, id="N1"),
    pytest.param(THREE, _hand(), {"Ana": "0.80", "Ben": "-0.40", "Cyril": "-0.40"}, id="N2"),
    pytest.param(THREE, _hand(trump="hearts"), {"Ana": "1.60", "Ben": "-0.80", "Cyril": "-0.80"}, id="N3"),
    pytest.param(THREE, _hand(trump="hearts", raises=2), {"Ana": "6.40", "Ben": "-3.20", "Cyril": "-3.20"}, id="N4"),
    pytest.param(
        THREE,
        _hand(announcement="za12", winner="defenders", result=None),
        {"Ana": "-2.40", "Ben": "1.20", "Cyril": "1.20"},
        id="N5",
    ),
    pytest.param(
        THREE,
        _hand(announcement="durch", result=None),
        {"Ana": "7.20", "Ben": "-3.60", "Cyril": "-3.60"},
        id="N6",
    ),
    pytest.param(
        THREE,
        _hand(announcement="nehram", winner=None, result=None),
        {"Ana": "-1.20", "Ben": "0.60", "Cyril": "0.60"},
        id="N7",
    ),
    pytest.param(
        THREE,
        _hand(winner="defenders", result="tichy_durch"),
        {"Ana": "-3.60", "Ben": "1.80", "Cyril": "1.80"},
        id="N8",
    ),
    pytest.param(
        FOUR,
        _hand(partner="Cyril", trump="hearts"),
        {"Ana": "1.60", "Ben": "-1.60", "Cyril": "1.60", "Dana": "-1.60"},
        id="N9",
    ),
]


@pytest.mark.parametrize(("players", "hand", "expected"), EXAMPLES)
def test_it_prices_the_worked_examples(players: list[str], hand: dict[str, Any], expected: dict[str, str]) -> None:
    assert _amounts(_score(hand, players)) == expected


def test_it_labels_the_hand_with_the_table_words_and_the_arithmetic() -> None:
    # In Slovak ("bez vody v červenom, kontra"): tests/rules/test_translations.py.
    score = _score(_hand(trump="hearts", raises=1))
    assert score.label == "bez vody in hearts, kontra"
    assert score.won is True
    assert score.value == Decimal("1.60")
    total = [line for line in score.lines if line.amount is not None]
    assert [(line.label, line.detail, line.amount) for line in total] == [
        ("bez vody in hearts, kontra", "4 × 2 × 2 × €0.10 = €1.60", Decimal("1.60"))
    ]


def test_it_says_the_chooser_lost_in_the_label() -> None:
    assert _score(_hand(announcement="za12", winner="defenders", result=None)).label == "za 12, the chooser lost"
    assert (
        _score(_hand(winner="defenders", result="tichy_durch", raises=4)).label == "tichý durch, boty, the chooser lost"
    )


def test_it_keeps_nehram_label_short() -> None:
    score = _score(_hand(announcement="nehram", trump="hearts", winner=None, result=None))
    assert (score.label, score.won, score.value) == ("nehrám in hearts", False, Decimal("1.20"))


def test_it_prices_a_hand_for_two_players() -> None:
    assert _amounts(_score(_hand(result="za_6"), ["Ana", "Ben"])) == {"Ana": "0.60", "Ben": "-0.60"}


def test_it_prices_the_chooser_alone_against_three() -> None:
    hand = _hand(partner="Ana", announcement="durch", winner="defenders", result=None)
    assert _amounts(_score(hand, FOUR)) == {"Ana": "-10.80", "Ben": "3.60", "Cyril": "3.60", "Dana": "3.60"}


def test_it_treats_a_missing_partner_with_four_players_as_alone() -> None:
    assert _amounts(_score(_hand(result="s_vodou"), FOUR)) == {
        "Ana": "0.60",
        "Ben": "-0.20",
        "Cyril": "-0.20",
        "Dana": "-0.20",
    }


def test_it_doubles_every_raise_up_to_boty() -> None:
    declarer = [_score(_hand(raises=raises)).amounts["Ana"] for raises in range(5)]
    assert [str(amount) for amount in declarer] == ["0.80", "1.60", "3.20", "6.40", "12.80"]


# --------------------------------------------------------------------------------------------------------------
# House rules


def test_it_pays_one_winner_per_loser_when_asked() -> None:
    score = _score(_hand(partner="Cyril", trump="hearts"), FOUR, payment="each_loser_one_winner")
    assert _amounts(score) == {"Ana": "0.80", "Ben": "-0.80", "Cyril": "0.80", "Dana": "-0.80"}
    assert score.lines[-1].detail == "each loser pays one winner €0.80"


def test_it_keeps_the_seed_payment_for_three_players_when_one_winner_is_paid() -> None:
    # The seed: a losing chooser pays both opponents the full value.
    score = _score(_hand(winner="defenders"), payment="each_loser_one_winner")
    assert _amounts(score) == {"Ana": "-0.80", "Ben": "0.40", "Cyril": "0.40"}


def test_it_can_leave_nehram_and_durch_undoubled_in_red() -> None:
    nehram = _hand(announcement="nehram", trump="hearts", winner=None, result=None)
    durch = _hand(announcement="durch", trump="hearts", result=None)
    assert _score(nehram, red_on_nehram=False).amounts["Ana"] == Decimal("-1.20")
    assert _score(durch, red_on_durch=False).amounts["Ana"] == Decimal("7.20")
    assert _score(durch).amounts["Ana"] == Decimal("14.40")
    assert any("not doubled for durch" in line.detail for line in _score(durch, red_on_durch=False).lines)


def test_it_prices_a_false_dost_by_the_points_entered() -> None:
    score = _score(_hand(winner="defenders", result="s_vodou", end="false_dost"))
    assert _amounts(score) == {"Ana": "-0.40", "Ben": "0.20", "Cyril": "0.20"}
    assert "false “dosť”" in [line.label for line in score.lines]


def test_it_prices_a_false_dost_at_the_fixed_category_of_the_table() -> None:
    score = _score(_hand(winner="defenders", result=None, end="false_dost"), false_dost="za_6")
    assert _amounts(score) == {"Ana": "-1.20", "Ben": "0.60", "Cyril": "0.60"}
    assert score.label == "za 6, the chooser lost"


def test_it_uses_the_stake_and_currency_of_the_table() -> None:
    score = _score(_hand(), stake="0.50", currency="CZK")
    assert _amounts(score) == {"Ana": "4.00", "Ben": "-2.00", "Cyril": "-2.00"}
    assert [line.detail for line in score.lines if line.amount is not None] == [
        "4 × 0.50\N{NO-BREAK SPACE}Kč = 2.00\N{NO-BREAK SPACE}Kč"
    ]


def test_it_offers_the_seed_preset_by_default() -> None:
    assert rules.resolve("snapser") == {
        "preset": "seed",
        "stake": "0.10",
        "currency": "EUR",
        "payment": "every_loser_every_winner",
        "red_on_nehram": True,
        "red_on_durch": True,
        "false_dost": "by_points",
    }


# --------------------------------------------------------------------------------------------------------------
# Validation: each error names the hand key and says what is allowed


def test_it_rejects_raises_on_nehram() -> None:
    error = _error(_hand(announcement="nehram", winner=None, result=None, raises=1))
    assert error.field == "raises"
    assert "cannot be raised" in error.message


def test_it_rejects_more_than_four_raises() -> None:
    error = _error(_hand(raises=5))
    assert (error.field, error.message) == ("raises", "must be a whole number from 0 to 4")


@pytest.mark.parametrize("announcement", ["za12", "durch", "nehram"])
def test_it_rejects_a_result_on_an_announced_game(announcement: str) -> None:
    winner = None if announcement == "nehram" else "declarer"
    error = _error(_hand(announcement=announcement, winner=winner, result="bez_vody"))
    assert error.field == "result"
    assert "only hrám has a result category" in error.message


def test_it_rejects_hram_without_a_result() -> None:
    error = _error(_hand(result=None))
    assert error.field == "result"
    assert "is required" in error.message


@pytest.mark.parametrize("players", [["Ana", "Ben"], THREE])
def test_it_rejects_a_partner_with_two_or_three_players(players: list[str]) -> None:
    error = _error(_hand(partner="Ben"), players)
    assert error.field == "partner"
    assert "only with 4 players" in error.message


def test_it_rejects_a_partner_who_is_not_at_the_table() -> None:
    error = _error(_hand(partner="Eva"), FOUR)
    assert error.field == "partner"
    assert "not at this table" in error.message


@pytest.mark.parametrize("players", [["Ana"], [*FOUR, "Eva"]])
def test_it_rejects_fewer_than_two_or_more_than_four_players(players: list[str]) -> None:
    error = _error(_hand(), players)
    assert error.field == "players"
    assert "2 or 3 or 4 players" in error.message


@pytest.mark.parametrize("players", [("Ana",), ("Ana", "Ben", "Cyril", "Dana", "Eva")])
def test_it_rejects_a_table_of_the_wrong_size_inside_parse(players: tuple[str, ...]) -> None:
    table = Table(players, resolve_settings(GAME.options, GAME.presets, GAME.default_preset, None))
    with pytest.raises(RulesError) as caught:
        GAME.parse(table, _hand())
    assert caught.value.field == "players"
    assert f"not {len(players)}" in caught.value.message


@pytest.mark.parametrize("announcement", ["hram", "za12", "durch"])
def test_it_rejects_a_missing_winner(announcement: str) -> None:
    result = "s_vodou" if announcement == "hram" else None
    error = _error(_hand(announcement=announcement, winner=None, result=result))
    assert error.field == "winner"
    assert "is required; allowed: declarer, defenders" in error.message


def test_it_rejects_a_declarer_who_wins_nehram() -> None:
    error = _error(_hand(announcement="nehram", result=None))
    assert error.field == "winner"
    assert "always the defenders" in error.message


def test_it_rejects_a_won_za12_after_a_false_dost() -> None:
    error = _error(_hand(announcement="za12", result=None, end="false_dost"))
    assert error.field == "winner"
    assert "false “dosť” loses za 12" in error.message


def test_it_rejects_tichy_durch_after_a_false_dost() -> None:
    error = _error(_hand(winner="defenders", result="tichy_durch", end="false_dost"))
    assert error.field == "result"
    assert "stops the hand early" in error.message


def test_it_rejects_a_result_other_than_the_fixed_false_dost_category() -> None:
    error = _error(_hand(winner="defenders", result="s_vodou", end="false_dost"), false_dost="bez_vody")
    assert error.field == "result"
    assert "always counts bez vody" in error.message


def test_it_rejects_an_end_on_nehram() -> None:
    error = _error(_hand(announcement="nehram", winner=None, result=None, end="dost"))
    assert error.field == "end"


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"trump": "spades"}, "trump", "allowed: hearts, bells, leaves, acorns"),
        ({"trump": None}, "trump", "is required"),
        ({"announcement": "betl"}, "announcement", "allowed: hram, za12, durch, nehram"),
        ({"declarer": "Eva"}, "declarer", "not at this table"),
        ({"winner": "Ana"}, "winner", "allowed: declarer, defenders"),
        ({"result": "schwarz"}, "result", "allowed: s_vodou, bez_vody, za_6, tichy_durch"),
        ({"end": "timeout"}, "end", "allowed: dost, last_trick, false_dost"),
        ({"raises": True}, "raises", "whole number"),
        ({"flek": 1}, "flek", "unknown field"),
    ],
)
def test_it_rejects_bad_fields(fields: dict[str, Any], field: str, message: str) -> None:
    error = _error(_hand(**fields))
    assert error.field == field
    assert message in error.message


def test_it_rejects_an_unknown_option() -> None:
    error = _error(_hand(), flek_cap=3)
    assert error.field == "rules.flek_cap"


def test_its_schema_lists_the_hand_fields() -> None:
    schema = rules.schema("snapser")["properties"]["hand"]
    assert set(schema["properties"]) == {
        "declarer",
        "partner",
        "trump",
        "announcement",
        "raises",
        "winner",
        "result",
        "end",
    }
    assert schema["properties"]["raises"]["maximum"] == 4
    assert schema["additionalProperties"] is False
