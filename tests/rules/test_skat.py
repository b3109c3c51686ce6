"""Skat pricing: the worked examples S1–S20 of RULES.md §1, then the pub rules, labels and explanations."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

import rules
from rules.base import Score

THREE = ["Ana", "Ben", "Cyril"]
FOUR = ["Ana", "Ben", "Cyril", "Dora"]


def skat(hand: dict[str, Any], players: list[str] | None = None, **table_rules: Any) -> Score:
    """Price one Skat hand; Ana declares unless the hand says otherwise."""
    document = {"game": "skat", "players": players or THREE, "rules": table_rules, "hand": hand}
    return rules.score(document)


def grand(matadors: int = 1, points: int = 61, **fields: Any) -> dict[str, Any]:
    return {"declarer": "Ana", "contract": "grand", "matadors": matadors, "declarer_points": points} | fields


def suit(contract: str, matadors: int, points: int, **fields: Any) -> dict[str, Any]:
    return {"declarer": "Ana", "contract": contract, "matadors": matadors, "declarer_points": points} | fields


def null(won: bool, **fields: Any) -> dict[str, Any]:
    return {"declarer": "Ana", "contract": "null", "won": won} | fields


def others(score: int) -> dict[str, int]:
    return {"Ben": score, "Cyril": score}


PUB: dict[str, Any] = {"preset": "pub"}
SF: dict[str, Any] = {"preset": "seeger-fabian"}

# (row, hand, players, rules, the declarer's list score, everybody else's)
EXAMPLES = [
    ("S1", grand(), THREE, {}, 48, others(0)),
    ("S2", grand(points=60), THREE, {}, -96, others(0)),
    ("S3 Kontra", grand(points=60, kontra=1), THREE, PUB, -192, others(0)),
    ("S3 Re", grand(points=60, kontra=2), THREE, PUB, -384, others(0)),
    ("S4", grand(hand=True), THREE, {}, 72, others(0)),
    ("S5", grand(points=90), THREE, {}, 72, others(0)),
    ("S6", grand(points=120, schwarz=True), THREE, {}, 96, others(0)),
    ("S7", grand(points=90, hand=True, schneider_announced=True), THREE, {}, 120, others(0)),
    ("S8", grand(points=120, schwarz=True, hand=True, schwarz_announced=True), THREE, {}, 168, others(0)),
    ("S9 with 4", grand(4), THREE, {}, 120, others(0)),
    ("S9 Schneider", grand(4, 90), THREE, {}, 144, others(0)),
    ("S9 Schwarz", grand(4, 120, schwarz=True), THREE, {}, 168, others(0)),
    ("S10", grand(2, 89, without=True), THREE, {}, 72, others(0)),
    ("S11", suit("clubs", 4, 61, without=True), THREE, {}, 60, others(0)),
    ("S12 won", suit("clubs", 1, 61), THREE, {}, 24, others(0)),
    ("S12 lost", suit("clubs", 1, 60), THREE, {}, -48, others(0)),
    ("S13", suit("diamonds", 1, 89, without=True, bid=22), THREE, {}, -54, others(0)),
    ("S14", suit("diamonds", 1, 90, without=True, bid=22), THREE, {}, 27, others(0)),
    ("S15 Null", null(True), THREE, {}, 23, others(0)),
    ("S15 Null Hand", null(True, hand=True), THREE, {}, 35, others(0)),
    ("S15 Null Ouvert", null(True, ouvert=True), THREE, {}, 46, others(0)),
    ("S15 Null Ouvert Hand", null(True, hand=True, ouvert=True), THREE, {}, 59, others(0)),
    ("S16 Null", null(False), THREE, {}, -46, others(0)),
    ("S16 Null Hand", null(False, hand=True), THREE, {}, -70, others(0)),
    ("S16 Null Ouvert", null(False, ouvert=True), THREE, {}, -92, others(0)),
    ("S16 Null Ouvert Hand", null(False, hand=True, ouvert=True), THREE, {}, -118, others(0)),
    ("S17 Grand", grand(4, 120, schwarz=True, ouvert=True), THREE, {}, 264, others(0)),
    ("S17 Clubs", suit("clubs", 11, 120, schwarz=True, ouvert=True), THREE, {}, 216, others(0)),
    ("S18 won", grand(), THREE, SF, 98, others(0)),
    ("S18 lost", grand(points=60), THREE, SF, -146, others(40)),
    ("S19", grand(points=60, dealer="Dora"), FOUR, SF, -146, others(30) | {"Dora": 30}),
]


@pytest.mark.parametrize(
    ("hand", "players", "table_rules", "declarer", "rest"),
    [pytest.param(*row[1:], id=row[0]) for row in EXAMPLES],
)
def test_it_scores_the_worked_examples_of_the_rules(
    hand: dict[str, Any], players: list[str], table_rules: dict[str, Any], declarer: int, rest: dict[str, int]
) -> None:
    result = skat(hand, players, **table_rules)
    assert result.score == {"Ana": declarer} | rest
    assert sum(result.amounts.values()) == 0


def test_it_turns_list_points_into_money_pairwise_s20() -> None:
    result = skat(grand())
    assert result.amounts == {"Ana": Decimal("0.96"), "Ben": Decimal("-0.48"), "Cyril": Decimal("-0.48")}
    assert result.lines[-1].detail == "Ana +0.96 · Ben −0.48 · Cyril −0.48"


def test_the_sitting_dealer_settles_with_the_table() -> None:
    result = skat(grand(dealer="Dora"), FOUR)
    assert result.score == {"Ana": 48, "Ben": 0, "Cyril": 0, "Dora": 0}
    assert result.amounts == {
        "Ana": Decimal("1.44"),
        "Ben": Decimal("-0.48"),
        "Cyril": Decimal("-0.48"),
        "Dora": Decimal("-0.48"),
    }


def test_it_prices_at_the_stake_and_currency_of_the_table() -> None:
    result = skat(grand(points=60), stake="0.10", currency="CZK")
    assert result.amounts == {"Ana": Decimal("-19.20"), "Ben": Decimal("9.60"), "Cyril": Decimal("9.60")}
    assert result.lines[-1].label == "Money at 0.10\N{NO-BREAK SPACE}Kč a point"


@pytest.mark.parametrize(
    ("hand", "value", "score"),
    [
        pytest.param(grand(points=30), 72, -144, id="lost Schneider: declarer has 30"),
        pytest.param(grand(points=10, schwarz=True), 96, -192, id="lost Schwarz: declarer only has the Skat"),
        pytest.param(grand(points=80, hand=True, schneider_announced=True), 120, -240, id="Schneider announced, 80"),
        pytest.param(grand(points=120, hand=True, schwarz_announced=True), 168, -336, id="Schwarz announced, a trick"),
        pytest.param(suit("diamonds", 1, 50, without=True, bid=22), 27, -54, id="overbid and too few points"),
        pytest.param(grand(points=95, bid=59), 72, 72, id="Schneider rescues a Grand bid 59"),
        pytest.param(grand(points=61, bid=59), 72, -144, id="Grand with 1 bid 59 is charged 72"),
        pytest.param(grand(points=0), 72, -144, id="no points is still not Schwarz without the flag"),
    ],
)
def test_it_prices_lost_announced_and_overbid_games(hand: dict[str, Any], value: int, score: int) -> None:
    result = skat(hand)
    assert (result.value, result.score and result.score["Ana"]) == (Decimal(value), score)
    assert result.won is (score > 0)


def test_ouvert_implies_hand_and_both_announcements_even_when_they_are_left_out() -> None:
    result = skat(suit("hearts", 1, 120, schwarz=True, ouvert=True, hand=False))
    assert result.value == Decimal(10 * (1 + 1 + 1 + 4 + 1))
    assert result.label == "Hearts Ouvert with 1"


def test_an_ouvert_game_where_the_defenders_take_a_trick_is_lost() -> None:
    result = skat(grand(4, 118, ouvert=True))
    assert (result.won, result.score and result.score["Ana"]) == (False, -528)


@pytest.mark.parametrize(
    ("hand", "label"),
    [
        (grand(), "Grand with 1"),
        (grand(2, 95, hand=True), "Grand Hand Schneider with 2"),
        (grand(1, 90, hand=True, schneider_announced=True), "Grand Hand Schneider announced with 1"),
        (
            grand(1, 120, schwarz=True, hand=True, schneider_announced=True),
            "Grand Hand Schneider announced Schwarz with 1",
        ),
        (grand(1, 120, schwarz=True, hand=True, schwarz_announced=True), "Grand Hand Schwarz announced with 1"),
        (suit("diamonds", 1, 89, without=True, bid=22), "Diamonds without 1"),
        (grand(4, 120, schwarz=True, ouvert=True), "Grand Ouvert with 4"),
        (null(True, hand=True, ouvert=True), "Null Ouvert Hand"),
        ({"contract": "passed"}, "Passed in"),
    ],
)
def test_it_labels_the_game_the_way_players_call_it(hand: dict[str, Any], label: str) -> None:
    assert skat(hand).label == label


def test_it_counts_out_the_multiplier_the_way_players_say_it() -> None:
    result = skat(grand(2, 95, hand=True))
    assert [(line.label, line.amount) for line in result.lines[:2]] == [
        ("Grand with 2, game 3, hand 4, Schneider 5 × 24 = 120", Decimal(120)),
        ("Won: Ana +120", Decimal(120)),
    ]


def test_it_explains_an_overbid() -> None:
    result = skat(suit("diamonds", 1, 89, without=True, bid=22))
    labels = [line.label for line in result.lines]
    assert labels[:3] == ["Diamonds without 1, game 2 × 9 = 18", "Overbid: bid 22, worth 18", "Lost: −2 × 27 = −54"]
    assert result.lines[1].detail == "charged at the smallest multiple of 9 covering the bid: 3 × 9"
    assert result.lines[2].detail == "overbid: bid 22, the game is worth 18"


def test_it_explains_the_seeger_fabian_bonuses() -> None:
    result = skat(grand(points=60), **SF)
    details = [line.detail for line in result.lines if line.label.startswith("Seeger-Fabian")]
    assert details == ["Ana −50", "+40 to each of Ben, Cyril"]


def test_kontra_doubles_a_won_game_too() -> None:
    result = skat(grand(kontra=1), **PUB)
    assert (result.value, result.score) == (Decimal(96), {"Ana": 96} | others(0))
    assert "Kontra × 2" in [line.label for line in result.lines]


def test_seeger_fabian_bonuses_are_not_doubled_by_kontra() -> None:
    result = skat(grand(points=60, kontra=1), preset="seeger-fabian", kontra=True)
    assert result.score == {"Ana": -192 - 50} | others(40)


def test_pending_bocks_multiply_the_hand() -> None:
    assert skat(grand(bock=1), **PUB).score == {"Ana": 96} | others(0)
    assert skat(grand(points=60, kontra=1, bock=2), **PUB).score == {"Ana": -96 * 2 * 4} | others(0)


@pytest.mark.parametrize(
    ("hand", "rounds"),
    [
        pytest.param(grand(), 0, id="a plain won Grand"),
        pytest.param(grand(points=60), 1, id="lost 60:60"),
        pytest.param(grand(points=50, kontra=1), 1, id="lost Kontra"),
        pytest.param(grand(points=50, kontra=2), 2, id="lost Kontra and Re"),
        pytest.param(grand(points=61, kontra=2), 1, id="Re given, won"),
        pytest.param(grand(hand=True), 2, id="Grand Hand won, worth 72"),
        pytest.param(grand(hand=True, points=50), 1, id="Grand Hand lost, worth 72"),
        pytest.param(suit("clubs", 5, 61), 1, id="worth 72"),
        pytest.param(suit("clubs", 4, 61, bock=1), 0, id="worth 60, doubled to 120 by the Bock"),
        pytest.param(null(False, kontra=1), 1, id="a Null lost after Kontra"),
    ],
)
def test_it_reports_the_bock_rounds_a_hand_starts(hand: dict[str, Any], rounds: int) -> None:
    assert skat(hand, **PUB).bock_rounds == rounds


def test_each_bock_trigger_can_be_switched_off() -> None:
    switches: dict[str, Any] = {
        f"bock_{name}": False for name in ("lost_60", "lost_kontra", "re", "grand_hand", "big_game")
    }
    assert skat(grand(hand=True, points=60, kontra=2), **PUB, **switches).bock_rounds == 0
    assert skat(grand(hand=True, points=60, kontra=2), **PUB).bock_rounds == 4
    assert skat(suit("clubs", 2, 61), **PUB, bock_big_game_value=36).bock_rounds == 1


def test_no_bock_rounds_start_when_bock_is_off() -> None:
    assert skat(grand(hand=True)).bock_rounds == 0


def test_a_passed_in_hand_scores_nothing() -> None:
    result = skat({"contract": "passed", "bock": 1}, **PUB)
    assert (result.won, result.value, result.score) == (None, Decimal(0), {"Ana": 0} | others(0))
    assert set(result.amounts.values()) == {Decimal(0)}


def ramsch(points: dict[str, int], **fields: Any) -> dict[str, Any]:
    return {"contract": "ramsch", "ramsch_points": points} | fields


@pytest.mark.parametrize(
    ("hand", "label", "score"),
    [
        pytest.param(ramsch({"Ana": 62, "Ben": 40, "Cyril": 18}), "Ramsch", {"Ana": -62} | others(0), id="plain"),
        pytest.param(
            ramsch({"Ana": 50, "Ben": 50, "Cyril": 20}, ramsch_loser="Ben"),
            "Ramsch",
            {"Ana": 0, "Ben": -50, "Cyril": 0},
            id="a tie, the scorekeeper names the loser",
        ),
        pytest.param(
            ramsch({"Ana": 100, "Ben": 20, "Cyril": 0}, jungfrau=["Cyril"]),
            "Ramsch Jungfrau",
            {"Ana": -200} | others(0),
            id="Jungfrau",
        ),
        pytest.param(
            ramsch({"Ana": 62, "Ben": 40, "Cyril": 18}, bock=1),
            "Ramsch",
            {"Ana": -124} | others(0),
            id="in a Bock round",
        ),
        pytest.param(
            {"contract": "ramsch", "durchmarsch": "Ben"},
            "Durchmarsch",
            {"Ana": 0, "Ben": 120, "Cyril": 0},
            id="Durchmarsch",
        ),
    ],
)
def test_it_scores_ramsch(hand: dict[str, Any], label: str, score: dict[str, int]) -> None:
    result = skat(hand, **PUB)
    assert (result.label, result.won, result.score) == (label, None, score)
    assert result.value == Decimal(max(abs(s) for s in score.values()))


def test_two_jungfrau_double_twice_when_durchmarsch_is_off() -> None:
    hand = ramsch({"Ana": 120, "Ben": 0, "Cyril": 0}, jungfrau=["Ben", "Cyril"])
    assert skat(hand, **PUB, durchmarsch=False).score == {"Ana": -480} | others(0)


def test_ramsch_at_a_four_seat_table_leaves_the_dealer_out() -> None:
    hand = ramsch({"Ben": 70, "Cyril": 30, "Dora": 20}, dealer="Ana")
    result = skat(hand, FOUR, **PUB)
    assert result.score == {"Ana": 0, "Ben": -70, "Cyril": 0, "Dora": 0}
    assert result.amounts["Ana"] == Decimal("0.70")


def test_the_presets_set_what_the_rules_say() -> None:
    isko, seeger, pub = (rules.resolve("skat", {"preset": name}) for name in ("isko", "seeger-fabian", "pub"))
    assert (isko["scoring"], isko["kontra"], isko["bock"], isko["ramsch"], isko["stake"]) == (
        "classic",
        False,
        False,
        False,
        "0.01",
    )
    assert (seeger["scoring"], seeger["seeger_won_bonus"], seeger["seeger_others_bonus_4"]) == ("seeger-fabian", 50, 30)
    assert (pub["kontra"], pub["bock"], pub["ramsch"], pub["jungfrau"], pub["durchmarsch"]) == (True,) * 5
    assert rules.resolve("skat") == isko


def test_the_seeger_fabian_bonuses_are_settings() -> None:
    result = skat(grand(points=60), **SF, seeger_lost_penalty=60, seeger_others_bonus_3=50, seeger_won_bonus=0)
    assert result.score == {"Ana": -156} | others(50)
    assert skat(grand(), **SF, seeger_won_bonus=0).score == {"Ana": 48} | others(0)
