"""The limits every ruleset option keeps, and the guard that keeps every priced amount storable.

The ledger stores money as Decimal(14, 4): 4 decimal places, 10 digits before the point. A number option has at
most 4 places and a size within ±1,000,000 (or its own tighter range); a stake is more than nothing and at most
1000; rules.score refuses a hand worth more than one hand can move, and turns any decimal error into a RulesError.
"""

from __future__ import annotations

import io
import json
from decimal import Decimal, InvalidOperation, Overflow
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rules
from rules import i18n
from rules.__main__ import main
from rules.base import MAX_AMOUNT, MAX_STAKE, MIN_STAKE, OPTION_LIMIT, Option, RulesError
from tests.rules.samples import MARIAS, SKAT, SNAPSER
from tests.rules.strategies import skat_documents
from tests.rules.strategies_marias import marias_documents
from tests.rules.strategies_snapser import snapser_documents

DOCUMENTS = {"skat": SKAT, "marias": MARIAS, "snapser": SNAPSER}
STAKE_RULE = "must be a number from 0.0001 to 1000 with at most 4 decimal places"


def refused(document: dict[str, Any], **rules_: Any) -> RulesError:
    with pytest.raises(RulesError) as caught:
        rules.score(document | {"rules": rules_})
    return caught.value


# --------------------------------------------------------------------------------------------------------------
# Decimal options: stakes and fees


@pytest.mark.parametrize("game", list(DOCUMENTS))
@pytest.mark.parametrize(
    "stake",
    ["1E+30", "1000.0001", "1000000", "0.00003", "0.12345", "0", "0.0000", "-0.20", "-1E+30", "1e-30"],
)
def test_a_stake_out_of_range_or_too_precise_is_refused_when_the_table_is_set(game: str, stake: str) -> None:
    error = refused(DOCUMENTS[game], stake=stake)
    assert (error.field, error.message) == ("rules.stake", STAKE_RULE)
    with pytest.raises(RulesError) as caught:
        rules.resolve(game, {"stake": stake})  # what the ledger calls when a table is created
    assert caught.value.field == "rules.stake"


@pytest.mark.parametrize("game", list(DOCUMENTS))
@pytest.mark.parametrize("stake", ["0.0001", "1000", "0.2", "12.3456"])
def test_a_stake_within_the_limits_prices(game: str, stake: str) -> None:
    result = rules.score(DOCUMENTS[game] | {"rules": {"stake": stake}})
    assert sum(result.amounts.values()) == 0
    assert any(result.amounts.values())


@pytest.mark.parametrize(
    ("given_", "stored"), [("1E+3", "1000"), ("0.200000", "0.2000"), ("0,50", "0.50"), (" 2 ", "2"), (3, "3")]
)
def test_a_stake_is_kept_in_one_spelling(given_: object, stored: str) -> None:
    assert rules.resolve("skat", {"stake": given_})["stake"] == stored


def test_the_message_says_what_is_allowed_in_the_active_language() -> None:
    with i18n.override("cs"):
        error = refused(SKAT, stake="0.00003")
    assert error.message == "musí být číslo od 0,0001 do 1000 s nejvýše 4 desetinnými místy"
    with i18n.override("de"):
        error = refused(MARIAS, renonc_other="-1")
    assert error.message == "muss eine Zahl von 0 bis 1000000 mit höchstens 4 Nachkommastellen sein"


@pytest.mark.parametrize("option", ["renonc_talon", "renonc_other"])
@pytest.mark.parametrize(("fee", "allowed"), [("0", True), ("1000000", True), ("-0.01", False), ("1000000.01", False)])
def test_a_renonc_fee_is_from_nothing_to_a_million(option: str, fee: str, allowed: bool) -> None:
    document = MARIAS | {"rules": {option: fee}}
    if allowed:
        rules.score(document)
    else:
        assert refused(MARIAS, **{option: fee}).field == f"rules.{option}"
    assert refused(MARIAS, **{option: "0.00001"}).field == f"rules.{option}"


# --------------------------------------------------------------------------------------------------------------
# Whole-number options


@pytest.mark.parametrize(
    ("game", "option", "value", "message"),
    [
        ("skat", "seeger_won_bonus", 10**12, "must be a whole number from 0 to 1000"),
        ("skat", "seeger_lost_penalty", 1001, "must be a whole number from 0 to 1000"),
        ("skat", "seeger_others_bonus_3", -1, "must be a whole number from 0 to 1000"),
        ("skat", "seeger_others_bonus_4", 10**30, "must be a whole number from 0 to 1000"),
        ("skat", "bock_big_game_value", 265, "must be a whole number from 1 to 264"),
        ("skat", "bock_big_game_value", 0, "must be a whole number from 1 to 264"),
        ("marias", "hand_limit", 10**12, "must be a whole number from 0 to 1000000"),
        ("marias", "hand_limit", -1, "must be a whole number from 0 to 1000000"),
        ("marias", "flek_cap", 6, "must be a whole number from 0 to 5"),
        ("marias", "flek_cap", "3", "must be a whole number from 0 to 5"),
    ],
)
def test_a_whole_number_option_out_of_range_is_refused(game: str, option: str, value: object, message: str) -> None:
    error = refused(DOCUMENTS[game], **{option: value})
    assert (error.field, error.message) == (f"rules.{option}", message)


def test_an_option_without_its_own_range_keeps_the_shared_limits() -> None:
    whole = Option(0, "a number")
    assert whole.bounds() == (-OPTION_LIMIT, OPTION_LIMIT)
    with pytest.raises(RulesError, match=r"rules\.n: must be a whole number from -1000000 to 1000000"):
        whole.coerce("n", OPTION_LIMIT + 1)
    loose = Option(Decimal(1), "an amount", min=Decimal(-(10**9)), max=Decimal(10**9))
    assert loose.bounds() == (-OPTION_LIMIT, OPTION_LIMIT)
    assert loose.coerce("x", "-1000000") == Decimal(-OPTION_LIMIT)


@pytest.mark.parametrize("game", rules.GAME_NAMES)
def test_every_number_option_has_a_range_inside_the_shared_limits_and_every_stake_is_positive(game: str) -> None:
    for name, option in rules.game(game).options.items():
        if isinstance(option.default, bool) or not isinstance(option.default, int | Decimal):
            continue
        lo, hi = option.bounds()
        assert -OPTION_LIMIT <= lo <= option.default <= hi <= OPTION_LIMIT, name
        assert option.min is not None, f"{game}.{name} needs a lower bound"
    assert rules.game(game).options["stake"].bounds() == (MIN_STAKE, MAX_STAKE)


def test_the_schema_states_the_range_of_whole_number_options() -> None:
    properties = rules.schema("marias")["properties"]["rules"]["properties"]
    assert properties["flek_cap"] == {"type": "integer", "minimum": 0, "maximum": 5}
    assert properties["hand_limit"] == {"type": "integer", "minimum": 0, "maximum": OPTION_LIMIT}


# --------------------------------------------------------------------------------------------------------------
# The last guard in rules.score, and the command line

# A doubling stovka lost with no card points against every hláška, at kalhoty, in hearts, alone, paid double:
# 2^19 steps and a silent hundred of 2^10 make it worth about 1.6 × 10^11 at a stake of 0.20.
HUGE_STOVKA = {
    "game": "marias",
    "players": ["Ana", "Ben", "Cyril", "Dana"],
    "rules": {"stovka_steps": "doubling", "pay_alone": "double"},
    "hand": {
        "declarer": "Ana",
        "contract": "stovka",
        "trump": "hearts",
        "flek": {"stovka": 5},
        "points": 0,
        "marriages": {"defenders": [40, 20, 20, 20]},
    },
}


def test_a_hand_worth_more_than_the_ledger_can_store_is_refused() -> None:
    game, table = rules.table(HUGE_STOVKA)
    unguarded = game.price(table, game.parse(table, HUGE_STOVKA["hand"]))
    assert max(abs(a) for a in unguarded.amounts.values()) > MAX_AMOUNT
    with pytest.raises(RulesError) as caught:
        rules.score(HUGE_STOVKA)
    assert caught.value.field == "hand"
    assert caught.value.message.startswith("is worth 10000000000 or more to one player")
    with i18n.override("sk"), pytest.raises(RulesError) as translated:
        rules.score(HUGE_STOVKA)
    assert translated.value.message.startswith("má pre jedného hráča hodnotu 10000000000 alebo viac")


def test_the_same_hand_at_a_hand_limit_prices() -> None:
    capped = HUGE_STOVKA | {"rules": HUGE_STOVKA["rules"] | {"hand_limit": 1000}}
    result = rules.score(capped)
    assert result.amounts["Ana"] == -Decimal("0.20") * 1000 * 3 * 2  # the lone declarer lost


@pytest.mark.parametrize("error", [InvalidOperation, Overflow])
def test_a_decimal_error_while_pricing_becomes_a_rules_error(monkeypatch: pytest.MonkeyPatch, error: type) -> None:
    game = rules.game("skat")

    def explode(*_args: object) -> None:
        raise error("boom")

    monkeypatch.setattr(game, "price", explode)
    with pytest.raises(RulesError) as caught:
        rules.score(SKAT)
    assert caught.value.field == "rules"
    assert "too large to price" in caught.value.message


def _cli(document: object) -> tuple[int, Any]:
    out = io.StringIO()
    status = main(["score", "-"], stdin=io.StringIO(json.dumps(document)), stdout=out)
    return status, json.loads(out.getvalue())


@pytest.mark.parametrize(
    ("document", "field"),
    [
        (SKAT | {"rules": {"stake": "1E+30"}}, "rules.stake"),
        (SKAT | {"rules": {"stake": "0.00003"}}, "rules.stake"),
        (SKAT | {"rules": {"preset": "seeger-fabian", "seeger_won_bonus": 10**12}}, "rules.seeger_won_bonus"),
        (HUGE_STOVKA, "hand"),
    ],
)
def test_the_cli_exits_2_with_the_field(document: dict[str, Any], field: str) -> None:
    status, output = _cli(document)
    assert status == 2
    assert output["field"] == field
    assert output["error"]


def test_the_cli_exits_2_on_a_decimal_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def explode(*_args: object) -> None:
        raise InvalidOperation("boom")

    monkeypatch.setattr(rules.game("skat"), "price", explode)
    assert _cli(SKAT)[0] == 2


# --------------------------------------------------------------------------------------------------------------
# Property: every accepted ruleset prices every valid hand into storable money

STAKES = st.decimals(min_value=MIN_STAKE, max_value=MAX_STAKE, places=4)
WHOLE = st.integers(0, OPTION_LIMIT)


@st.composite
def priced_documents(draw: st.DrawFn) -> dict[str, Any]:
    """A valid hand of any game at a ruleset with random numbers anywhere within the options' limits."""
    game = draw(st.sampled_from(rules.GAME_NAMES))
    if game == "skat":
        document = draw(skat_documents())
        seeger = st.integers(0, 1000)
        overrides = {name: draw(seeger) for name in ("seeger_won_bonus", "seeger_lost_penalty")}
        overrides |= {f"seeger_others_bonus_{n}": draw(seeger) for n in (3, 4)}
        overrides["bock_big_game_value"] = draw(st.integers(1, 264))
    elif game == "marias":
        document = draw(marias_documents())
        fees = st.decimals(min_value=0, max_value=OPTION_LIMIT, places=4)
        overrides = {"renonc_talon": draw(fees), "renonc_other": draw(fees), "hand_limit": draw(st.just(0) | WHOLE)}
    else:
        document = draw(snapser_documents())
        overrides = {}
    overrides["stake"] = draw(STAKES | st.sampled_from([MIN_STAKE, MAX_STAKE]))
    as_json = {name: str(value) if isinstance(value, Decimal) else value for name, value in overrides.items()}
    return document | {"rules": document["rules"] | as_json}


@given(priced_documents())
def test_any_accepted_ruleset_prices_any_valid_hand_into_storable_money(document: dict[str, Any]) -> None:
    try:
        result = rules.score(document)
    except RulesError as error:
        # Only Mariáš's exponential stovka can outgrow the ledger, and then the guard says so.
        assert (document["game"], error.field) == ("marias", "hand"), error
        game, table = rules.table(document)
        unguarded = game.price(table, game.parse(table, document["hand"]))
        assert max(abs(amount) for amount in unguarded.amounts.values()) > MAX_AMOUNT
        return
    assert sum(result.amounts.values()) == 0
    for amount in result.amounts.values():
        exponent = amount.as_tuple().exponent
        assert isinstance(exponent, int) and exponent >= -4, amount  # at most 4 decimal places
        assert abs(amount) <= MAX_AMOUNT
        assert len(amount.quantize(Decimal("0.0001")).as_tuple().digits) <= 14  # Decimal(14, 4)
