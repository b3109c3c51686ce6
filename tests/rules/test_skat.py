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

# RULES.md §1, rows S1–S20, each checked against the table there: (row, hand, players, rules, the declarer's list
# score, everybody else's). "Grand ouvert" is a hand game (ouvert suit and grand games always are).
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
    ("S17 Grand", grand(4, 120, schwarz=True, hand=True, ouvert=True), THREE, {}, 264, others(0)),
    ("S17 Clubs", suit("clubs", 11, 120, schwarz=True, hand=True, ouvert=True), THREE, {}, 216, others(0)),
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
    money = next(line for line in result.lines if line.label.startswith("Money"))
    assert money.detail == "Ana +0.96 · Ben −0.48 · Cyril −0.48"


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
    assert "Money at 0.10\N{NO-BREAK SPACE}Kč a point" in [line.label for line in result.lines]


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


def test_ouvert_announces_schneider_and_schwarz_even_when_they_are_left_out() -> None:
    result = skat(suit("hearts", 1, 120, schwarz=True, hand=True, ouvert=True))
    assert result.value == Decimal(10 * (1 + 1 + 1 + 4 + 1))
    assert result.label == "Hearts Ouvert with 1"


def test_an_ouvert_game_where_the_defenders_take_a_trick_is_lost() -> None:
    result = skat(grand(4, 118, hand=True, ouvert=True))
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
        (grand(4, 120, schwarz=True, hand=True, ouvert=True), "Grand Ouvert with 4"),
        # Schneider and Schwarz are named for the side that made them: here the defenders, on a lost game
        (suit("hearts", 1, 25), "Hearts with 1, declarer Schneider"),
        (suit("hearts", 1, 30), "Hearts with 1, declarer Schneider"),
        (suit("hearts", 1, 31), "Hearts with 1"),
        (suit("hearts", 1, 10, schwarz=True), "Hearts with 1, declarer Schwarz"),
        (suit("hearts", 1, 0, schwarz=True, hand=True), "Hearts Hand with 1, declarer Schwarz"),
        (
            grand(1, 20, hand=True, schneider_announced=True),
            "Grand Hand Schneider announced with 1, declarer Schneider",
        ),
        (grand(1, 95, schwarz=False), "Grand Schneider with 1"),
        (null(True, hand=True, ouvert=True), "Null Ouvert Hand"),
        ({"contract": "passed"}, "Passed in"),
    ],
)
def test_it_labels_the_game_the_way_players_call_it(hand: dict[str, Any], label: str) -> None:
    assert skat(hand).label == label


def lines(result: Score, count: int | None = None) -> list[tuple[str, str]]:
    """The game's own lines as (label, detail), up to the money line (rules.score may add lines after it)."""
    labels = [line.label for line in result.lines]
    money = next(i for i, label in enumerate(labels) if label.startswith("Money at"))
    return [(line.label, line.detail) for line in result.lines[:money]][:count]


def test_it_counts_out_the_multiplier_the_way_players_say_it() -> None:
    result = skat(grand(2, 95, hand=True))
    assert [(line.label, line.amount) for line in result.lines[:2]] == [
        ("Grand with 2, game 3, hand 4, Schneider 5 × 24 = 120", Decimal(120)),
        ("Won: Ana +120", Decimal(120)),
    ]


def test_an_announcement_is_counted_after_the_level_it_promises() -> None:
    result = skat(grand(1, 120, schwarz=True, hand=True, schwarz_announced=True))
    assert lines(result, 1) == [
        ("Grand with 1, game 2, hand 3, Schneider 4, announced 5, Schwarz 6, announced 7 × 24 = 168", "120 card points")
    ]


@pytest.mark.parametrize(
    ("hand", "explained"),
    [
        pytest.param(
            grand(),
            [("Grand with 1, game 2 × 24 = 48", "61 card points"), ("Won: Ana +48", "")],
            id="won: the card points are said once",
        ),
        pytest.param(
            grand(points=60),
            [("Grand with 1, game 2 × 24 = 48", "60 card points"), ("Lost: −2 × 48 = −96", "61 needed")],
            id="lost: what was missing, not the points again",
        ),
        pytest.param(
            grand(points=80, hand=True, schneider_announced=True),
            [
                ("Grand with 1, game 2, hand 3, Schneider 4, announced 5 × 24 = 120", "80 card points"),
                ("Lost: −2 × 120 = −240", "Schneider announced, 90 needed"),
            ],
            id="Schneider announced and missed",
        ),
        pytest.param(
            grand(points=120, hand=True, schwarz_announced=True),
            [
                (
                    "Grand with 1, game 2, hand 3, Schneider 4, announced 5, Schwarz 6, announced 7 × 24 = 168",
                    "120 card points",
                ),
                ("Lost: −2 × 168 = −336", "Schwarz announced, the defenders took a trick"),
            ],
            id="Schwarz announced and missed",
        ),
        pytest.param(
            suit("diamonds", 1, 89, without=True, bid=22),
            [
                ("Diamonds without 1, game 2 × 9 = 18", "89 card points"),
                ("Overbid: bid 22, worth 18", "charged at 3 × 9 = 27, the smallest multiple of 9 that covers it"),
                ("Lost: −2 × 27 = −54", ""),
            ],
            id="an overbid says it once",
        ),
        pytest.param(
            null(False, kontra=1),
            [("Null = 23", ""), ("Kontra × 2", "game value 46"), ("Lost: −2 × 46 = −92", "the declarer took a trick")],
            id="Null lost after Kontra",
        ),
        pytest.param(
            grand(points=60, kontra=2, bock=2),
            [
                ("Grand with 1, game 2 × 24 = 48", "60 card points"),
                ("Kontra and Re × 4", "game value 192"),
                ("2 Bocks × 4", "game value 768"),
                ("Lost: −2 × 768 = −1536", "61 needed"),
            ],
            id="Kontra, Re and two Bocks",
        ),
        pytest.param(
            {
                "contract": "ramsch",
                "ramsch_points": {"Ana": 100, "Ben": 20, "Cyril": 0},
                "jungfrau": ["Cyril"],
                "bock": 1,
            },
            [
                ("Ramsch: Ana has the most card points", "−100"),
                ("Jungfrau × 2", "Cyril took no trick; Ana −200"),
                ("Bock × 2", "Ana −400"),
            ],
            id="Ramsch: each line carries the loser's sign",
        ),
        pytest.param(
            {"contract": "ramsch", "durchmarsch": "Ben", "bock": 1},
            [("Durchmarsch: Ben took every trick", "+120"), ("Bock × 2", "Ben +240")],
            id="Durchmarsch",
        ),
        pytest.param({"contract": "passed"}, [("Nobody bid: everybody scores 0", "")], id="passed in"),
    ],
)
def test_it_explains_each_step_with_its_result(hand: dict[str, Any], explained: list[tuple[str, str]]) -> None:
    assert lines(skat(hand, **PUB)) == explained


def test_it_explains_the_seeger_fabian_bonuses() -> None:
    lost = lines(skat(grand(points=60), **SF))[-2:]
    assert lost == [
        ("Seeger-Fabian: lost game", "Ana −50; +40 to each of Ben, Cyril"),
        ("List", "Ana −146 · Ben +40 · Cyril +40"),
    ]
    won = lines(skat(grand(dealer="Dora"), FOUR, **SF))[-2:]
    assert won == [("Seeger-Fabian: won game", "Ana +50"), ("List", "Ana +98 · Ben 0 · Cyril 0 · Dora 0")]


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


# (hand, the triggers it fires): RULES.md §1 adds one round per hand that fires any, however many it fires
BOCK_TRIGGERS = [
    pytest.param(grand(), 0, id="a plain won Grand"),
    pytest.param(grand(points=60), 1, id="lost 60:60"),
    pytest.param(grand(points=50, kontra=1), 1, id="lost Kontra"),
    pytest.param(grand(points=50, kontra=2), 2, id="lost Kontra, and Re given"),
    pytest.param(grand(points=61, kontra=2), 1, id="Re given, won"),
    pytest.param(grand(hand=True), 2, id="Grand Hand won, worth 72"),
    pytest.param(grand(hand=True, points=50), 1, id="Grand Hand lost, worth 72"),
    pytest.param(grand(hand=True, points=60, kontra=2), 4, id="Grand Hand 60:60 after Re, worth 72"),
    pytest.param(suit("clubs", 5, 61), 1, id="worth 72"),
    pytest.param(suit("clubs", 4, 61, bock=1), 0, id="worth 60, doubled to 120 by the Bock"),
    pytest.param(null(False, kontra=1), 1, id="a Null lost after Kontra"),
]


@pytest.mark.parametrize(("hand", "triggers"), BOCK_TRIGGERS)
def test_a_hand_that_fires_any_bock_trigger_starts_one_round(hand: dict[str, Any], triggers: int) -> None:
    assert skat(hand, **PUB).bock_rounds == min(triggers, 1)


@pytest.mark.parametrize(("hand", "triggers"), BOCK_TRIGGERS)
def test_with_bock_per_trigger_each_trigger_starts_its_own_round(hand: dict[str, Any], triggers: int) -> None:
    assert skat(hand, **PUB, bock_per_trigger=True).bock_rounds == triggers


def test_one_round_per_hand_is_the_default_of_every_preset() -> None:
    assert {
        rules.resolve("skat", {"preset": name})["bock_per_trigger"] for name in ("isko", "seeger-fabian", "pub")
    } == {False}


def test_each_bock_trigger_can_be_switched_off() -> None:
    switches: dict[str, Any] = {
        f"bock_{name}": False for name in ("lost_60", "lost_kontra", "re", "grand_hand", "big_game")
    }
    per_trigger = {"bock_per_trigger": True}
    assert skat(grand(hand=True, points=60, kontra=2), **PUB, **switches, **per_trigger).bock_rounds == 0
    # lost 60:60, lost after Kontra, Re given, worth 72 (a lost Grand Hand is no "Grand Hand won")
    for name in ("bock_lost_60", "bock_lost_kontra", "bock_re", "bock_big_game"):
        assert skat(grand(hand=True, points=60, kontra=2), **PUB, **per_trigger, **{name: False}).bock_rounds == 3
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
