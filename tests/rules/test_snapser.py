"""Šnapser pricing (RULES.md §3): the worked examples N1–N9, the house-rule options, the explanation and what is
refused (every document shape no deal can produce)."""

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


# What a player reads for each example: the category and why, each factor once, the value (a minus when the
# chooser's side lost), and who pays whom in their words.
EXPLAINED = {
    "N1": [
        ("s vodou", "the losers have 33 points or more, × 2"),
        ("s vodou", "2 × €0.10 = €0.20"),
        ("Ben and Cyril pay Ana €0.20 each", ""),
    ],
    "N2": [
        ("bez vody", "the losers have fewer than 33 points, × 4"),
        ("bez vody", "4 × €0.10 = €0.40"),
        ("Ben and Cyril pay Ana €0.40 each", ""),
    ],
    "N3": [
        ("bez vody", "the losers have fewer than 33 points, × 4"),
        ("hearts trump", "× 2"),
        ("bez vody in hearts", "4 × 2 × €0.10 = €0.80"),
        ("Ben and Cyril pay Ana €0.80 each", ""),
    ],
    "N4": [
        ("bez vody", "the losers have fewer than 33 points, × 4"),
        ("hearts trump", "× 2"),
        ("kontra, re", "× 4"),
        ("bez vody in hearts, re", "4 × 2 × 4 × €0.10 = €3.20"),
        ("Ben and Cyril pay Ana €3.20 each", ""),
    ],
    "N5": [
        ("za 12", "announced: 66 and “dosť” before the other side takes a trick; not made, the opponents win, × 12"),
        ("za 12, the chooser lost", "−12 × €0.10 = −€1.20"),
        ("Ana pays Ben and Cyril €1.20 each", ""),
    ],
    "N6": [
        ("durch", "announced: the chooser takes every trick, × 36"),
        ("durch", "36 × €0.10 = €3.60"),
        ("Ben and Cyril pay Ana €3.60 each", ""),
    ],
    "N7": [
        ("nehrám", "the chooser gave up and loses at once, × 6"),
        ("nehrám, the chooser lost", "−6 × €0.10 = −€0.60"),
        ("Ana pays Ben and Cyril €0.60 each", ""),
    ],
    "N8": [
        ("tichý durch", "the winners took every trick without announcing it, × 18"),
        ("tichý durch, the chooser lost", "−18 × €0.10 = −€1.80"),
        ("Ana pays Ben and Cyril €1.80 each", ""),
    ],
    "N9": [
        ("bez vody", "the losers have fewer than 33 points, × 4"),
        ("hearts trump", "× 2"),
        ("bez vody in hearts", "4 × 2 × €0.10 = €0.80"),
        ("two against two", "each loser pays every winner €0.80"),
        ("Ben and Dana pay Ana and Cyril €1.60 each", ""),
    ],
}


@pytest.mark.parametrize(("players", "hand", "expected"), EXAMPLES)
def test_it_explains_the_worked_examples(
    request: pytest.FixtureRequest, players: list[str], hand: dict[str, Any], expected: dict[str, str]
) -> None:
    example = request.node.callspec.id
    assert [(line.label, line.detail) for line in _score(hand, players).lines] == EXPLAINED[example]


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
    assert ("kontra", "× 2") in [(line.label, line.detail) for line in score.lines]  # not "kontra: kontra: × 2"


def test_it_shows_a_lost_hand_with_its_minus() -> None:
    score = _score(_hand(winner="defenders", trump="hearts", raises=1), FOUR)
    total = [(line.label, line.detail, line.amount) for line in score.lines if line.amount is not None]
    assert total == [("bez vody in hearts, kontra, the chooser lost", "−4 × 2 × 2 × €0.10 = −€1.60", Decimal("-1.60"))]
    assert score.lines[-1].label == "Ana pays Ben, Cyril and Dana €1.60 each"


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
    # Each pays what the hand is worth: the payment line says it all, no "two against two" sum is needed.
    assert [line.label for line in score.lines[-2:]] == [
        "bez vody in hearts",
        "Ben and Dana pay Ana and Cyril €0.80 each",
    ]


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
    assert ("false “dosť”", "said without 66 points, so the other side wins by the caller's points") in [
        (line.label, line.detail) for line in score.lines
    ]


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
    assert score.lines[-1].label == "Ben and Cyril pay Ana 2.00\N{NO-BREAK SPACE}Kč each"


# --------------------------------------------------------------------------------------------------------------
# Tichý durch: one side took every trick, whatever was announced (RULES.md §3, the seed's "akúkoľvek hru")


@pytest.mark.parametrize(
    ("winner", "expected"),
    [
        ("declarer", {"Ana": "3.60", "Ben": "-1.80", "Cyril": "-1.80"}),
        ("defenders", {"Ana": "-3.60", "Ben": "1.80", "Cyril": "1.80"}),
    ],
)
def test_a_za12_in_which_one_side_takes_every_trick_is_paid_as_tichy_durch(
    winner: str, expected: dict[str, str]
) -> None:
    score = _score(_hand(announcement="za12", winner=winner, result="tichy_durch", end="last_trick"))
    assert _amounts(score) == expected
    assert score.lines[0] == rules.Line("tichý durch", "za 12 announced, the winners took every trick, × 18")


def test_a_table_can_pay_that_za12_as_announced() -> None:
    hand = _hand(announcement="za12", winner="defenders", result="tichy_durch")
    score = _score(hand, tichy_durch_on_za12=False)
    assert _amounts(score) == {"Ana": "-2.40", "Ben": "1.20", "Cyril": "1.20"}
    assert score.label == "za 12, the chooser lost"
    assert ("tichý durch", "paid as za 12 (house rule)") in [(line.label, line.detail) for line in score.lines]


def test_the_defenders_win_tichy_durch_in_hram_too() -> None:
    score = _score(_hand(winner="defenders", result="tichy_durch", end="last_trick"), FOUR)
    assert _amounts(score) == {"Ana": "-5.40", "Ben": "1.80", "Cyril": "1.80", "Dana": "1.80"}


def test_it_offers_the_seed_preset_by_default() -> None:
    assert rules.resolve("snapser") == {
        "preset": "seed",
        "stake": "0.10",
        "currency": "EUR",
        "payment": "every_loser_every_winner",
        "red_on_nehram": True,
        "red_on_durch": True,
        "tichy_durch_on_za12": True,
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


@pytest.mark.parametrize(
    ("announcement", "result"), [("durch", "bez_vody"), ("durch", "tichy_durch"), ("nehram", "za_6")]
)
def test_it_rejects_a_result_on_a_game_paid_as_announced(announcement: str, result: str) -> None:
    winner = None if announcement == "nehram" else "declarer"
    error = _error(_hand(announcement=announcement, winner=winner, result=result))
    assert error.field == "result"
    assert "is paid as announced, whatever the tricks; leave result out" in error.message


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


@pytest.mark.parametrize(("announcement", "name"), [("za12", "za 12"), ("durch", "durch")])
def test_it_rejects_an_announced_game_won_after_a_false_dost(announcement: str, name: str) -> None:
    error = _error(_hand(announcement=announcement, result=None, end="false_dost"))
    assert (error.field, error.message) == ("winner", f"a false “dosť” loses {name}: the defenders win it")


# Every document shape no deal can produce (RULES.md, "Impossible hands are refused"): the field to correct and
# what the message says is allowed. The same shapes are drawn at random in test_snapser_properties.py.
IMPOSSIBLE = [
    pytest.param(
        _hand(result="za_6", end="last_trick"),
        "result",
        "the winners took every trick: that is tichy_durch (za_6 ends with “dosť”)",
        id="za_6-played-to-the-last-trick",
    ),
    pytest.param(
        _hand(winner="defenders", result="za_6", end="last_trick"),
        "result",
        "that is tichy_durch",
        id="za_6-of-the-defenders-played-to-the-last-trick",
    ),
    pytest.param(
        _hand(result="tichy_durch", end="dost"),
        "end",
        "a tichý durch takes every trick, so it ends with the last trick: end is last_trick or left out",
        id="tichy_durch-after-dost",
    ),
    pytest.param(
        _hand(announcement="za12", result="tichy_durch", end="dost"),
        "end",
        "end is last_trick or left out",
        id="za12-tichy_durch-after-dost",
    ),
    pytest.param(
        _hand(announcement="za12", winner="defenders", result="tichy_durch", end="false_dost"),
        "result",
        "a false “dosť” stops the hand early, so nobody took every trick",
        id="za12-tichy_durch-after-a-false-dost",
    ),
    pytest.param(
        _hand(announcement="za12", result="bez_vody"),
        "result",
        "za 12 is paid as announced; its only result is tichy_durch, when one side took every trick",
        id="za12-with-bez_vody",
    ),
    pytest.param(
        _hand(announcement="za12", winner="defenders", result="za_6"),
        "result",
        "its only result is tichy_durch",
        id="za12-with-za_6",
    ),
    pytest.param(
        _hand(announcement="za12", result=None, end="last_trick"),
        "result",
        "a za 12 played to the last trick is won only by taking every trick: result tichy_durch, or the defenders won",
        id="za12-won-without-dost-or-every-trick",
    ),
    pytest.param(
        _hand(announcement="durch", result=None, end="dost"),
        "end",
        "a won durch takes every trick, so it ends with the last trick: end is last_trick or left out",
        id="durch-won-with-dost",
    ),
    pytest.param(
        _hand(announcement="durch", result=None, end="false_dost"),
        "winner",
        "a false “dosť” loses durch: the defenders win it",
        id="durch-won-after-a-false-dost",
    ),
    pytest.param(
        _hand(announcement="durch", winner="defenders", result="tichy_durch"),
        "result",
        "durch is paid as announced, whatever the tricks; leave result out",
        id="durch-lost-as-tichy_durch",
    ),
]


@pytest.mark.parametrize(("hand", "field", "message"), IMPOSSIBLE)
def test_it_refuses_a_hand_no_deal_can_produce(hand: dict[str, Any], field: str, message: str) -> None:
    error = _error(hand)
    assert error.field == field
    assert message in error.message


@pytest.mark.parametrize(
    "hand",
    [
        pytest.param(_hand(result="za_6", end="dost"), id="za_6-with-dost"),
        pytest.param(_hand(result="tichy_durch", end="last_trick"), id="tichy_durch-at-the-last-trick"),
        pytest.param(_hand(result="bez_vody", end="last_trick"), id="bez_vody-at-the-last-trick"),
        pytest.param(_hand(announcement="za12", result=None, end="dost"), id="za12-won-with-dost"),
        pytest.param(_hand(announcement="za12", winner="defenders", result=None, end="last_trick"), id="za12-lost"),
        pytest.param(_hand(announcement="durch", result=None, end="last_trick"), id="durch-won"),
        pytest.param(_hand(announcement="durch", winner="defenders", result=None, end="dost"), id="durch-lost"),
    ],
)
def test_it_prices_the_neighbours_of_those_hands(hand: dict[str, Any]) -> None:
    assert sum(_score(hand).amounts.values()) == 0


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
