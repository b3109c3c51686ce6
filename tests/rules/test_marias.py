"""Mariáš čtyřka: the worked examples of RULES.md §2, the house-rule options, and validation."""

from __future__ import annotations

import io
import json
from decimal import Decimal
from typing import Any

import pytest

import rules
from rules.__main__ import main
from rules.base import RulesError, Score

PLAYERS = ["Ana", "Ben", "Cyril", "Dana"]
NBSP = "\N{NO-BREAK SPACE}"


def document(rules_: dict[str, Any] | None = None, **hand: Any) -> dict[str, Any]:
    """A 2 against 2 hand of Ana (declarer) and Cyril (partner) unless the hand says otherwise."""
    doc: dict[str, Any] = {"game": "marias", "players": PLAYERS, "hand": {"declarer": "Ana", "partner": "Cyril"}}
    doc["hand"].update(hand)
    if rules_ is not None:
        doc["rules"] = rules_
    return doc


def alone(rules_: dict[str, Any] | None = None, **hand: Any) -> dict[str, Any]:
    doc = document(rules_, **hand)
    del doc["hand"]["partner"]
    return doc


def score(doc: dict[str, Any]) -> Score:
    return rules.score(doc)


def amounts(result: Score) -> list[str]:
    """Amounts in seat order (Ana, Ben, Cyril, Dana) as strings, so a failing test shows the money."""
    return [str(result.amounts[player]) for player in PLAYERS]


def pair(v: str) -> list[str]:
    """2 against 2 with Ana and Cyril on the declarer's side: each balance moves by V."""
    minus = str(-Decimal(v))
    return [v, minus, v, minus]


def money_lines(result: Score) -> list[str]:
    return [f"{line.label}: {line.detail}" for line in result.lines if line.amount is not None]


def own_lines(doc: dict[str, Any]) -> list[str]:
    """The game's own explanation, without the payment line that rules.score adds to every game's."""
    game, table = rules.table(doc)
    result = game.price(table, game.parse(table, doc["hand"]))
    return [f"{line.label}: {line.detail}" for line in result.lines]


# --------------------------------------------------------------------------------------------------------------
# RULES.md §2, rows M1–M13 (dvacetník)

# The seed's own example: lepší sedma, re on the sedma, flek on the hra; the seven lost, 120 made silently.
M1 = document(
    contract="sedma",
    trump="hearts",
    flek={"hra": 1, "sedma": 2},
    points=80,
    marriages={"declarer": [40]},
    seven={"side": "declarer", "won": False},
)

# Stovka in leaves, no flek: the declarer's side 50 card points and a 20 reaches 70; the defenders' 40 card points,
# a 40 and a 20 make their silent hundred. 3 tens short + 6 for their hlášky = 9 tens × 0.80, doubled at 100.
M13 = document(contract="stovka", trump="leaves", points=50, marriages={"declarer": [20], "defenders": [40, 20]})

M_ROWS = [
    pytest.param(M1, "3.20", pair("3.20"), id="M1-seed-lepsi-sedma-re-flek-ticha-stovka-120"),
    pytest.param(document(contract="hra", trump="bells", points=60), "0.20", pair("0.20"), id="M2-hra-won"),
    pytest.param(document(contract="hra", trump="bells", points=30), "-0.20", pair("-0.20"), id="M2-hra-lost"),
    pytest.param(
        document(contract="sedma", trump="bells", points=50, seven={"side": "declarer", "won": True}),
        "0.60",
        pair("0.60"),
        id="M3-sedma-both-won",
    ),
    pytest.param(
        document(contract="sedma", trump="hearts", points=60, seven={"side": "declarer", "won": False}),
        "-0.40",
        pair("-0.40"),
        id="M4-lepsi-sedma-killed-hra-won",
    ),
    pytest.param(
        document(contract="stovka", trump="bells", points=70, marriages={"declarer": [40]}),
        "1.60",
        pair("1.60"),
        id="M5-stovka-110",
    ),
    pytest.param(
        document(contract="stovka", trump="hearts", points=80, marriages={"declarer": [40]}),
        "4.80",
        pair("4.80"),
        id="M6-lepsi-stovka-120",
    ),
    pytest.param(
        document(contract="stovka", trump="bells", points=40, marriages={"declarer": [40]}),
        "-1.60",
        pair("-1.60"),
        id="M7-stovka-40-and-a-forty",
    ),
    pytest.param(
        document(contract="stovka", trump="bells", points=40, marriages={"declarer": [40], "defenders": [20]}),
        "-3.20",
        pair("-3.20"),
        id="M8-stovka-defenders-twenty",
    ),
    pytest.param(document(contract="stovka", trump="bells", points=90), "-0.80", pair("-0.80"), id="M9-stovka-90"),
    pytest.param(
        document(contract="hra", trump="bells", points=60, seven={"side": "declarer", "won": True}),
        "0.40",
        pair("0.40"),
        id="M10-hra-and-ticha-sedma",
    ),
    pytest.param(
        alone(contract="betl", flek={"betl": 1}, won=True),
        "4.00",
        ["12.00", "-4.00", "-4.00", "-4.00"],
        id="M11-betl-flek-won-alone",
    ),
    pytest.param(
        alone(contract="durch", won=False),
        "-4.00",
        ["-12.00", "4.00", "4.00", "4.00"],
        id="M11-durch-lost-alone",
    ),
    pytest.param(
        document(contract="hra", trump="bells", flek={"hra": 1}, points=90, marriages={"declarer": [20]}),
        "1.60",
        pair("1.60"),
        id="M12-hra-flek-ticha-stovka-110",
    ),
    pytest.param(M13, "-14.40", pair("-14.40"), id="M13-stovka-defenders-silent-hundred"),
]


@pytest.mark.parametrize(("doc", "value", "expected"), M_ROWS)
def test_it_prices_the_worked_examples(doc: dict[str, Any], value: str, expected: list[str]) -> None:
    result = score(doc)
    assert str(result.value) == value
    assert amounts(result) == expected
    assert result.won is (Decimal(value) > 0)
    assert result.score is None


# What a player reads for each row, in English (Czech, Slovak and German: tests/rules/test_translations.py). A
# component says won or lost with the points that decided it; the first factor carries the sign; the factors follow
# the words in order (hearts ×2, flek ×2, re ×4, the silent hundred ×2 and ×2 per ten above it).
M_LINES = [
    pytest.param(
        M1,
        [
            "card points + hlášky (marriages): declarer's side 80 + 40 = 120, defenders 10",
            "hra in hearts (lepší), flek, won (120:10), silent hundred (tichá stovka): 0.20 × 2 × 2 × 2 × 2 × 2 = 6.40",
            "sedma in hearts (lepší), re, lost (seven killed): −0.40 × 2 × 4 = −3.20",
        ],
        id="M1",
    ),
    pytest.param(
        document(contract="hra", trump="bells", points=30),
        ["card points: declarer's side 30, defenders 60", "hra in bells, lost (30:60): −0.20"],
        id="M2-lost",
    ),
    pytest.param(
        document(contract="sedma", trump="bells", points=50, seven={"side": "declarer", "won": True}),
        [
            "card points: declarer's side 50, defenders 40",
            "hra in bells, won (50:40): 0.20",
            "sedma in bells, won: 0.40",
        ],
        id="M3",
    ),
    pytest.param(
        document(contract="sedma", trump="hearts", points=60, seven={"side": "declarer", "won": False}),
        [
            "card points: declarer's side 60, defenders 30",
            "hra in hearts (lepší), won (60:30): 0.20 × 2 = 0.40",
            "sedma in hearts (lepší), lost (seven killed): −0.40 × 2 = −0.80",
        ],
        id="M4",
    ),
    pytest.param(
        document(contract="stovka", trump="hearts", points=80, marriages={"declarer": [40]}),
        [
            "card points + hlášky (marriages): declarer's side 80 + 40 = 120, defenders 10",
            "stovka in hearts (lepší), won (120), 2 tens above: 0.80 × 2 × (1 + 2) = 4.80",
        ],
        id="M6",
    ),
    pytest.param(
        document(contract="stovka", trump="bells", points=40, marriages={"declarer": [40], "defenders": [20]}),
        [
            "card points + hlášky (marriages): declarer's side 40 + 40 = 80, defenders 50 + 20 = 70",
            "stovka in bells, lost (80), 2 tens short, defenders' hlášky 20: −0.80 × (2 + 2) = −3.20",
        ],
        id="M8",
    ),
    pytest.param(
        document(contract="stovka", trump="bells", points=90),
        ["card points: declarer's side 90, defenders 0", "stovka in bells, lost (90), 1 ten short: −0.80"],
        id="M9",
    ),
    pytest.param(
        document(contract="hra", trump="bells", points=60, seven={"side": "declarer", "won": True}),
        [
            "card points: declarer's side 60, defenders 30",
            "hra in bells, won (60:30): 0.20",
            "silent seven (tichá sedma) in bells, the declarer's, won: 0.20",
        ],
        id="M10",
    ),
    pytest.param(
        alone(contract="betl", flek={"betl": 1}, won=True), ["betl, flek, won: 2.00 × 2 = 4.00"], id="M11-betl"
    ),
    pytest.param(alone(contract="durch", won=False), ["durch, lost: −4.00"], id="M11-durch"),
    pytest.param(
        M13,
        [
            "card points + hlášky (marriages): declarer's side 50 + 20 = 70, defenders 40 + 60 = 100",
            "stovka in leaves, lost (70), 3 tens short, defenders' hlášky 60, silent hundred with 100: "
            "−0.80 × (3 + 6) × 2 = −14.40",
        ],
        id="M13",
    ),
]


@pytest.mark.parametrize(("doc", "lines"), M_LINES)
def test_it_explains_the_worked_examples_in_english_keeping_the_table_words(
    doc: dict[str, Any], lines: list[str]
) -> None:
    assert own_lines(doc) == [line if line.startswith("card points") else f"{line}{NBSP}Kč" for line in lines]


def test_a_sedma_whose_seven_was_played_before_the_last_trick_is_lost_and_says_why() -> None:
    doc = document(contract="sedma", trump="acorns", points=60)
    assert score(doc).value == Decimal("-0.20")
    assert own_lines(doc)[-1] == f"sedma in acorns, lost (seven not in the last trick): −0.40{NBSP}Kč"


def test_a_hand_not_played_out_says_won_or_lost_without_points() -> None:
    doc = document(
        contract="sedma", trump="hearts", flek={"hra": 2, "sedma": 1}, played_out=False, conceded_by="declarer"
    )
    assert own_lines(doc) == [
        f"hra in hearts (lepší), re, lost: −0.20 × 2 × 4 = −1.60{NBSP}Kč",
        f"sedma in hearts (lepší), flek, lost: −0.40 × 2 × 2 = −1.60{NBSP}Kč",
    ]


def test_the_explanation_ends_with_who_pays_whom_once() -> None:
    result = score(M1)
    assert len(result.lines) == len(own_lines(M1)) + 1
    assert not any("2 against 2" in line.detail or line.label == "payment" for line in result.lines)


def test_it_names_the_m1_hand_as_the_table_says_it() -> None:
    assert score(M1).label == "Sedma in hearts (lepší), re on the sedma, flek on the hra"


def test_the_line_amounts_add_up_to_the_value() -> None:
    result = score(M1)
    assert sum(line.amount for line in result.lines if line.amount is not None) == Decimal("3.20")


# --------------------------------------------------------------------------------------------------------------
# Silent extras, stovka details


def test_the_defenders_silent_seven_costs_the_declarer_side() -> None:
    result = score(document(contract="hra", trump="bells", points=60, seven={"side": "defenders", "won": True}))
    assert result.value == Decimal("0.00")
    assert result.won is False
    assert f"silent seven (tichá sedma) in bells, the defenders', won: −0.20{NBSP}Kč" in money_lines(result)


def test_a_killed_silent_seven_of_the_defenders_pays_the_declarer_side_double_in_hearts() -> None:
    result = score(document(contract="hra", trump="hearts", points=60, seven={"side": "defenders", "won": False}))
    assert result.value == Decimal("0.80")


def test_the_defenders_silent_hundred_multiplies_the_hra_they_win() -> None:
    result = score(document(contract="hra", trump="bells", points=20, marriages={"defenders": [40]}))
    assert result.value == Decimal("-0.80")  # 0.20 × 2 for the hundred × 2 for the ten above


def test_a_silent_hundred_at_exactly_100_doubles_the_hra() -> None:
    result = score(document(contract="hra", trump="bells", points=80, marriages={"declarer": [20]}))
    assert result.value == Decimal("0.40")


def test_stovka_counts_one_hlaska_and_the_others_once_a_hundred_is_reached() -> None:
    result = score(document(contract="stovka", trump="bells", points=70, marriages={"declarer": [20, 40]}))
    assert result.value == Decimal("3.20")  # 70 + 40 = 110 reaches it, then the 20 counts: 130


def test_stovka_counts_only_the_best_hlaska_when_the_hundred_is_missed() -> None:
    result = score(document(contract="stovka", trump="bells", points=50, marriages={"declarer": [40, 20]}))
    assert result.value == Decimal("-0.80")  # 50 + 40 = 90: the 20 would have made 110, but does not count


def test_stosedm_prices_stovka_and_sedma_separately() -> None:
    doc = document(
        contract="stosedm",
        trump="hearts",
        flek={"stovka": 1},
        points=70,
        marriages={"declarer": [40]},
        seven={"won": True},
    )
    result = score(doc)
    assert result.value == Decimal("7.20")  # stovka 0.80 × 2 × 2 × 2 + sedma 0.40 × 2
    assert result.label == "Stosedm in hearts (lepší), flek on the stovka"


def test_the_defenders_silent_hundred_against_a_stovka_can_be_switched_off() -> None:
    doc = M13 | {"rules": {"stovka_silent_hundred": False}}
    assert score(doc).value == Decimal("-7.20")  # M13 without the doubling: 9 tens × 0.80
    assert own_lines(doc)[-1] == (
        f"stovka in leaves, lost (70), 3 tens short, defenders' hlášky 60: −0.80 × (3 + 6) = −7.20{NBSP}Kč"
    )


def test_the_defenders_silent_hundred_doubles_again_for_each_ten_above_it() -> None:
    doc = document(contract="stovka", trump="bells", points=30, marriages={"declarer": [20], "defenders": [40, 20]})
    # 5 tens short + 6 for their hlášky = 11 tens × 0.80; their 120 doubles it at 100 and for each of 2 tens above.
    assert score(doc).value == Decimal("-70.40")
    assert own_lines(doc)[-1].endswith(f"−0.80 × (5 + 6) × 2 × 2 × 2 = −70.40{NBSP}Kč")


def test_the_defenders_silent_hundred_is_on_in_every_preset() -> None:
    for preset in rules.game("marias").presets:
        assert rules.resolve("marias", {"preset": preset})["stovka_silent_hundred"] is True


def test_a_missed_stovka_says_that_only_the_best_hlaska_counts() -> None:
    doc = document(contract="stovka", trump="bells", points=50, marriages={"declarer": [40, 20]})
    assert own_lines(doc)[-1] == (
        f"stovka in bells, lost (90), only the best hláška counts, 1 ten short: −0.80{NBSP}Kč"
    )


def test_stovka_steps_can_double_instead_of_adding() -> None:
    doc = document(
        {"stovka_steps": "doubling"},
        contract="stovka",
        trump="bells",
        points=40,
        marriages={"declarer": [40], "defenders": [20]},
    )
    assert score(doc).value == Decimal("-6.40")  # 4 steps: 0.80 × 2 × 2 × 2


# --------------------------------------------------------------------------------------------------------------
# Options and presets


def test_the_csm_reading_of_ticha_stovka_grows_linearly() -> None:
    doc = M1 | {"rules": {"ticha_stovka": "csm"}}
    assert score(doc).value == Decimal("1.60")  # hra 0.80 × 6 − sedma 3.20


def test_the_desetnik_preset_halves_the_stake() -> None:
    doc = M1 | {"rules": {"preset": "ctyrka-desetnik"}}
    assert score(doc).value == Decimal("1.60")
    assert rules.resolve("marias", {"preset": "ctyrka-desetnik"})["stake"] == "0.10"


def test_a_stovka_can_pay_the_hra_too() -> None:
    doc = document({"stovka_pays_hra": True}, contract="stovka", trump="bells", points=70, marriages={"declarer": [40]})
    assert score(doc).value == Decimal("1.80")


def test_betl_and_durch_multiples_are_a_house_rule() -> None:
    result = score(alone({"betl_durch": "15/30"}, contract="betl", won=True))
    assert amounts(result) == ["9.00", "-3.00", "-3.00", "-3.00"]


def test_red_doubling_can_be_switched_off() -> None:
    doc = document({"red_doubles": False}, contract="stovka", trump="hearts", points=80, marriages={"declarer": [40]})
    assert score(doc).value == Decimal("2.40")


def test_the_hand_limit_caps_the_value_per_player() -> None:
    doc = M1 | {"rules": {"hand_limit": 10}}
    result = score(doc)
    assert amounts(result) == pair("2.00")
    assert f"limit 10 × 0.20: 2.00 − 3.20 = −1.20{NBSP}Kč" in money_lines(result)


def test_a_limit_on_a_lost_hand_gives_back_what_is_beyond_it() -> None:
    doc = document({"hand_limit": 10}, contract="stovka", trump="bells", points=30, marriages={"defenders": [40]})
    result = score(doc)
    assert amounts(result) == pair("-2.00")
    assert f"limit 10 × 0.20: −2.00 + 17.60 = 15.60{NBSP}Kč" in money_lines(result)


def test_two_against_two_can_pay_each_opponent() -> None:
    result = score(document({"pay_2v2": "each"}, contract="sedma", trump="bells", points=50, seven={"won": True}))
    assert result.value == Decimal("0.60")
    assert amounts(result) == pair("1.20")


def test_a_lone_player_can_be_paid_double() -> None:
    result = score(alone({"pay_alone": "double"}, contract="betl", won=True))
    assert amounts(result) == ["12.00", "-4.00", "-4.00", "-4.00"]  # betl 2.00, twice from each


def test_a_player_who_called_his_own_card_plays_alone() -> None:
    result = score(document(contract="hra", trump="leaves", partner="Ana", points=60))
    assert amounts(result) == ["0.60", "-0.20", "-0.20", "-0.20"]
    assert result.label == "Hra in leaves, alone"


def test_amounts_are_in_the_tables_currency() -> None:
    result = score(document({"currency": "EUR"}, contract="hra", trump="acorns", points=60))
    assert money_lines(result) == ["hra in acorns, won (60:30): €0.20"]


# --------------------------------------------------------------------------------------------------------------
# Hands not played out, laid games, renonc


def test_a_hand_not_played_out_pays_the_announced_components_at_their_flek() -> None:
    doc = document(contract="sedma", trump="hearts", flek={"hra": 2, "sedma": 1}, played_out=False)
    result = score(doc)
    assert result.value == Decimal("3.20")  # hra 0.20 × 2 × 4 + sedma 0.40 × 2 × 2, no silent extras
    assert result.label == "Sedma in hearts (lepší), re on the hra, flek on the sedma, conceded by the defenders"


def test_a_declarer_can_concede() -> None:
    result = score(document(contract="stovka", trump="bells", played_out=False, conceded_by="declarer"))
    assert result.value == Decimal("-0.80")  # one step


def test_a_defender_who_flekked_a_laid_game_pays_the_increase_for_his_partners() -> None:
    result = score(alone(contract="betl", flek={"betl": 1}, laid=True, flekked_by="Ben"))
    assert result.value == Decimal("4.00")
    # Unflekked betl 2.00 from each; Ben's flek added 2.00 per payer, and he pays it for Cyril and Dana too.
    assert amounts(result) == ["12.00", "-8.00", "-2.00", "-2.00"]
    assert result.label == "Betl, flek, laid"


def test_the_laid_flek_penalty_in_two_against_two() -> None:
    result = score(document(contract="hra", trump="bells", flek={"hra": 1}, laid=True, flekked_by="Dana"))
    assert amounts(result) == ["0.40", "-0.20", "0.40", "-0.60"]


def test_a_renonc_fee_is_paid_by_the_offender_to_each_opponent_on_top_of_the_hand() -> None:
    doc = document(contract="hra", trump="bells", points=60, renonc={"player": "Ben", "kind": "other"})
    result = score(doc)
    assert result.value == Decimal("0.20")
    assert amounts(result) == ["2.20", "-4.20", "2.20", "-0.20"]


def test_a_renonc_on_a_hand_not_played_out_costs_only_the_fee() -> None:
    doc = document(contract="hra", trump="bells", flek={"hra": 2}, played_out=False)
    doc["hand"]["renonc"] = {"player": "Ana", "kind": "talon"}
    result = score(doc)
    assert result.value == Decimal(0)
    assert result.won is None
    assert amounts(result) == ["-10.00", "5.00", "0.00", "5.00"]


def test_a_defenders_renonc_in_betl_is_paid_to_the_lone_player_only() -> None:
    result = score(alone(contract="betl", won=True, renonc={"player": "Ben", "kind": "shuffle"}))
    assert amounts(result) == ["11.00", "-7.00", "-2.00", "-2.00"]


# --------------------------------------------------------------------------------------------------------------
# Validation: the error names the field and says what is allowed


def rejects(doc: dict[str, Any], field: str, words: str) -> None:
    with pytest.raises(RulesError) as caught:
        score(doc)
    assert caught.value.field == field
    assert words in caught.value.message


def test_it_rejects_points_not_in_tens() -> None:
    rejects(document(contract="hra", trump="bells", points=75), "points", "in tens")


def test_it_rejects_points_over_90() -> None:
    rejects(document(contract="hra", trump="bells", points=100), "points", "from 0 to 90")


def test_it_requires_points_for_a_played_colour_game() -> None:
    rejects(document(contract="hra", trump="bells"), "points", "is required")


def test_it_rejects_a_flek_beyond_the_cap() -> None:
    doc = document({"flek_cap": 3}, contract="hra", trump="bells", flek={"hra": 4}, points=60)
    rejects(doc, "flek.hra", "from 0 to 3 (dobrá, flek, re, tutti)")


def test_it_rejects_a_flek_on_a_component_the_contract_does_not_have() -> None:
    rejects(document(contract="hra", trump="bells", flek={"sedma": 1}, points=60), "flek.sedma", "no sedma")


def test_it_rejects_a_flek_level_that_is_not_a_number() -> None:
    rejects(document(contract="hra", trump="bells", flek={"hra": "re"}, points=60), "flek.hra", "flek level")


def test_it_rejects_a_partner_who_is_not_at_the_table() -> None:
    rejects(document(contract="hra", trump="bells", partner="Zoe", points=60), "partner", "not at this table")


def test_it_rejects_a_partner_in_betl() -> None:
    rejects(document(contract="betl", won=True), "partner", "always played alone")


def test_it_rejects_a_trump_for_betl() -> None:
    rejects(alone(contract="betl", trump="hearts", won=True), "trump", "without trumps")


def test_it_rejects_a_seven_for_durch() -> None:
    rejects(alone(contract="durch", won=True, seven={"side": "declarer", "won": True}), "seven", "no trumps")


def test_it_requires_a_trump_for_a_colour_game() -> None:
    rejects(document(contract="sedma", points=60), "trump", "is required")


def test_it_rejects_a_hlaska_that_is_not_20_or_40() -> None:
    rejects(
        document(contract="hra", trump="bells", points=60, marriages={"declarer": [30]}),
        "marriages.declarer",
        "20 or 40",
    )


def test_it_rejects_a_hlaska_written_as_a_fraction() -> None:
    doc = document(contract="hra", trump="bells", points=60, marriages={"defenders": [20.0]})
    rejects(doc, "marriages.defenders", "20 or 40")


def test_it_rejects_more_than_four_hlasky() -> None:
    marriages = {"declarer": [20, 20], "defenders": [20, 20, 40]}
    rejects(document(contract="hra", trump="bells", points=60, marriages=marriages), "marriages.defenders", "four")


def test_it_rejects_more_than_one_40() -> None:
    marriages = {"declarer": [40], "defenders": [40]}
    rejects(document(contract="hra", trump="bells", points=60, marriages=marriages), "marriages.defenders", "one")


# What no deal can produce (RULES.md: impossible hands are refused, not priced), each with the field and the words
# that say what is allowed.
IMPOSSIBLE = [
    pytest.param(
        document(contract="hra", trump="bells", points=60, marriages={"declarer": [20, 20], "defenders": [20, 20]}),
        "marriages.defenders",
        "at most three hlášky are 20",
        id="four-20s-the-trump-marriage-is-40",
    ),
    pytest.param(
        document(contract="hra", trump="bells", points=60, marriages={"declarer": [20, 20, 20, 20]}),
        "marriages.declarer",
        "in trumps and counts 40",
        id="four-20s-on-one-side",
    ),
    pytest.param(
        document(contract="sedma", trump="bells", points=0, seven={"side": "declarer", "won": True}),
        "points",
        "at least 10",
        id="declarer-seven-took-the-last-trick-with-0-points",
    ),
    pytest.param(
        document(contract="hra", trump="bells", points=90, seven={"side": "defenders", "won": True}),
        "points",
        "at most 80",
        id="defenders-seven-took-the-last-trick-with-0-points",
    ),
    pytest.param(
        alone(contract="stosedm", trump="acorns", points=90, seven={"side": "declarer", "won": False}),
        "points",
        "beat the lone declarer's trump seven",
        id="lone-declarer-seven-beaten-yet-every-point",
    ),
    pytest.param(
        alone(contract="sedma", trump="bells", points=60, marriages={"declarer": [40, 20, 20, 20]}),
        "marriages.declarer",
        "only 7 other cards: at most three hlášky",
        id="lone-sedma-and-four-hlasky",
    ),
    pytest.param(
        alone(
            contract="hra",
            trump="bells",
            points=60,
            marriages={"declarer": [40, 20, 20, 20]},
            seven={"side": "declarer", "won": True},
        ),
        "marriages.declarer",
        "at most three hlášky",
        id="lone-silent-seven-and-four-hlasky",
    ),
    pytest.param(
        document(contract="hra", trump="bells", points=60, seven={"side": "defenders"}),
        "seven.won",
        "true if the trump seven took the last trick",
        id="seven-without-its-result",
    ),
    pytest.param(alone(contract="betl"), "won", "true if the declarer took no trick", id="betl-without-won"),
    pytest.param(alone(contract="durch"), "won", "true if the declarer took every trick", id="durch-without-won"),
]


@pytest.mark.parametrize(("doc", "field", "words"), IMPOSSIBLE)
def test_it_refuses_what_no_deal_can_produce(doc: dict[str, Any], field: str, words: str) -> None:
    rejects(doc, field, words)


POSSIBLE = [
    pytest.param(
        document(contract="sedma", trump="bells", points=90, seven={"side": "declarer", "won": False}),
        id="partner-overtook-the-declarers-seven",
    ),
    pytest.param(
        alone(contract="hra", trump="bells", points=0, seven={"side": "defenders", "won": False}),
        id="a-defender-overtook-a-defenders-seven",
    ),
    pytest.param(
        alone(contract="hra", trump="bells", points=60, marriages={"declarer": [40, 20, 20, 20]}),
        id="alone-with-every-marriage-and-no-seven",
    ),
    pytest.param(
        document(contract="sedma", trump="bells", points=60, marriages={"declarer": [40, 20, 20, 20]}),
        id="two-against-two-with-the-seven-and-every-marriage",
    ),
    pytest.param(document(contract="hra", trump="bells", points=0), id="no-ace-or-ten-and-not-the-last-trick"),
    pytest.param(alone(contract="durch", played_out=False), id="durch-conceded-needs-no-won"),
]


@pytest.mark.parametrize("doc", POSSIBLE)
def test_it_prices_the_edge_cases_a_deal_can_produce(doc: dict[str, Any]) -> None:
    assert sum(score(doc).amounts.values()) == 0


def test_it_rejects_a_seven_for_the_defenders_in_an_announced_sedma() -> None:
    doc = document(contract="sedma", trump="bells", points=60, seven={"side": "defenders", "won": True})
    rejects(doc, "seven.side", "defenders cannot hold it")


def test_it_rejects_won_with_points_for_a_colour_game() -> None:
    rejects(document(contract="hra", trump="bells", points=60, won=True), "won", "the points or won, not both")


# A hra (alone or under a sedma) without hlášky can be entered as won or lost: no card points change its price
# (each side has at most 90, so no silent hundred, and more than 45 wins). RULES.md §2, M2 to M4.
@pytest.mark.parametrize(
    ("doc", "ana"),
    [
        pytest.param(document(contract="hra", trump="bells", won=True), "0.20", id="M2-won"),
        pytest.param(document(contract="hra", trump="bells", won=False), "-0.20", id="M2-lost"),
        pytest.param(document(contract="hra", trump="hearts", won=True, flek={"hra": 1}), "0.80", id="hearts-flek-won"),
        pytest.param(
            document(contract="sedma", trump="bells", won=True, seven={"won": True}), "0.60", id="M3-both-won"
        ),
        pytest.param(
            document(contract="sedma", trump="hearts", won=True, seven={"won": False}), "-0.40", id="M4-seven-killed"
        ),
        pytest.param(alone(contract="hra", trump="leaves", won=True), "0.60", id="alone-won"),
    ],
)
def test_a_hra_without_hlasky_is_priced_from_won_or_lost(doc: dict[str, Any], ana: str) -> None:
    result = score(doc)
    assert str(result.amounts["Ana"]) == ana
    assert sum(result.amounts.values()) == 0
    with_points = json.loads(json.dumps(doc))
    del with_points["hand"]["won"]
    with_points["hand"]["points"] = 60 if doc["hand"]["won"] else 30
    assert score(with_points).amounts == result.amounts  # the same money as the card points would give


def test_a_hra_entered_as_won_says_no_card_points() -> None:
    result = score(document(contract="hra", trump="bells", won=True))
    assert result.lines[0].label == "hra in bells, won"
    assert not any("card points" in line.label for line in result.lines)


@pytest.mark.parametrize(
    ("doc", "words"),
    [
        pytest.param(
            document(contract="hra", trump="bells", won=True, marriages={"declarer": [20]}),
            "with hlášky the card points decide",
            id="a-hlaska-of-the-declarer",
        ),
        pytest.param(
            document(contract="sedma", trump="bells", won=True, seven={"won": True}, marriages={"defenders": [40]}),
            "with hlášky the card points decide",
            id="a-hlaska-of-the-defenders",
        ),
        pytest.param(document(contract="stovka", trump="bells", won=True), "enter the points", id="stovka"),
    ],
)
def test_won_is_refused_where_the_points_decide(doc: dict[str, Any], words: str) -> None:
    rejects(doc, "won", words)


def test_it_rejects_points_on_a_hand_not_played_out() -> None:
    rejects(document(contract="hra", trump="bells", points=60, played_out=False), "points", "not played out")


def test_it_rejects_re_on_a_laid_game() -> None:
    rejects(alone(contract="durch", flek={"durch": 2}, laid=True, flekked_by="Ben"), "flek.durch", "no re")


def test_it_rejects_a_laid_game_marked_as_played_out() -> None:
    rejects(alone(contract="durch", laid=True, played_out=True, won=True), "played_out", "not played out")


def test_it_rejects_a_flekked_laid_game_without_the_flekker() -> None:
    rejects(alone(contract="betl", flek={"betl": 1}, laid=True), "flekked_by", "is required")


def test_it_rejects_flekked_by_a_player_on_the_declarers_side() -> None:
    doc = document(contract="hra", trump="bells", flek={"hra": 1}, points=60, flekked_by="Cyril")
    rejects(doc, "flekked_by", "only a defender")


def test_it_rejects_conceded_by_on_a_played_hand() -> None:
    rejects(document(contract="hra", trump="bells", points=60, conceded_by="declarer"), "conceded_by", "played out")


def test_it_rejects_an_unknown_renonc_kind() -> None:
    doc = document(contract="hra", trump="bells", points=60, renonc={"player": "Ben", "kind": "late"})
    rejects(doc, "renonc.kind", "talon, shuffle, other")


def test_it_rejects_unknown_fields() -> None:
    rejects(document(contract="hra", trump="bells", points=60, bid=18), "bid", "unknown field")


def test_it_rejects_an_unknown_option() -> None:
    rejects(
        document({"stovka_steps": "tripling"}, contract="hra", trump="bells", points=60), "rules.stovka_steps", "linear"
    )


def test_it_is_played_by_four() -> None:
    doc = document(contract="hra", trump="bells", points=60)
    doc["players"] = PLAYERS[:3]
    rejects(doc, "players", "4 players")


# --------------------------------------------------------------------------------------------------------------
# CLI and schema


def test_the_cli_prices_a_hand() -> None:
    out = io.StringIO()
    doc = json.dumps(document(contract="sedma", trump="bells", points=50, seven={"won": True}))
    assert main(["score", "-"], stdin=io.StringIO(doc), stdout=out) == 0
    printed = json.loads(out.getvalue())
    assert printed["value"] == "0.60"
    assert printed["amounts"] == {"Ana": "0.60", "Ben": "-0.60", "Cyril": "0.60", "Dana": "-0.60"}


def test_the_cli_answers_bad_input_with_the_field() -> None:
    out = io.StringIO()
    doc = json.dumps(document(contract="hra", trump="bells", points=75))
    assert main(["score", "-"], stdin=io.StringIO(doc), stdout=out) == 2
    assert json.loads(out.getvalue())["field"] == "points"


def test_the_schema_lists_every_hand_field() -> None:
    hand = rules.schema("marias")["properties"]["hand"]
    assert set(hand["properties"]) >= {"declarer", "partner", "flek", "marriages", "seven", "renonc", "conceded_by"}
    assert hand["properties"]["points"]["multipleOf"] == 10
