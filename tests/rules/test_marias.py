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


# --------------------------------------------------------------------------------------------------------------
# RULES.md §2, rows M1–M12 (dvacetník)

# The seed's own example: lepší sedma, re on the sedma, flek on the hra; the seven lost, 120 made silently.
M1 = document(
    contract="sedma",
    trump="hearts",
    flek={"hra": 1, "sedma": 2},
    points=80,
    marriages={"declarer": [40]},
    seven={"side": "declarer", "won": False},
)

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
]


@pytest.mark.parametrize(("doc", "value", "expected"), M_ROWS)
def test_it_prices_the_worked_examples(doc: dict[str, Any], value: str, expected: list[str]) -> None:
    result = score(doc)
    assert str(result.value) == value
    assert amounts(result) == expected
    assert result.won is (Decimal(value) > 0)
    assert result.score is None


def test_it_explains_m1_in_english_keeping_the_table_words() -> None:
    # Czech, Slovak and German: tests/rules/test_translations.py.
    result = score(M1)
    assert result.label == "Sedma in hearts (lepší), re on the sedma, flek on the hra"
    assert money_lines(result) == [
        f"hra in hearts (lepší), flek, silent hundred (tichá stovka) 120: 0.20 × 2 × 2 × 8 = 6.40{NBSP}Kč",
        f"sedma in hearts (lepší), re: 0.40 × 2 × 4 = −3.20{NBSP}Kč",
    ]
    assert result.lines[0].detail == "declarer's side 80 + hlášky (marriages) 40 = 120, defenders 10 + hlášky 0 = 10"


def test_the_line_amounts_add_up_to_the_value() -> None:
    result = score(M1)
    assert sum(line.amount for line in result.lines if line.amount is not None) == Decimal("3.20")


# --------------------------------------------------------------------------------------------------------------
# Silent extras, stovka details


def test_the_defenders_silent_seven_costs_the_declarer_side() -> None:
    result = score(document(contract="hra", trump="bells", points=60, seven={"side": "defenders", "won": True}))
    assert result.value == Decimal("0.00")
    assert result.won is False
    assert f"silent seven (tichá sedma) in bells, the defenders', won: 0.20 = −0.20{NBSP}Kč" in money_lines(result)


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


def test_a_lost_stovka_doubles_for_the_defenders_silent_hundred_as_the_seed_says() -> None:
    marriages = {"declarer": [20], "defenders": [40]}
    doc = document(contract="stovka", trump="bells", points=30, marriages=marriages)
    assert score(doc).value == Decimal("-14.40")  # 9 steps × 0.80, ×2 for the defenders' 100
    doc["rules"] = {"stovka_silent_hundred": False}
    assert score(doc).value == Decimal("-7.20")


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
    assert f"limit: 10 × 0.20 = 2.00{NBSP}Kč" in money_lines(result)


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
    assert money_lines(result) == ["hra in acorns: 0.20 = €0.20"]


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


def test_it_rejects_a_seven_for_the_defenders_in_an_announced_sedma() -> None:
    doc = document(contract="sedma", trump="bells", points=60, seven={"side": "defenders", "won": True})
    rejects(doc, "seven.side", "defenders cannot hold it")


def test_it_rejects_won_for_a_colour_game() -> None:
    rejects(document(contract="hra", trump="bells", points=60, won=True), "won", "only betl and durch")


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
