"""Hypothesis strategies for random valid Mariáš čtyřka hand documents."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from hypothesis import assume
from hypothesis import strategies as st

import rules
from rules.base import MAX_AMOUNT

PLAYERS = ("Ana", "Ben", "Cyril", "Dana")
CONTRACTS = ("hra", "sedma", "stovka", "stosedm", "betl", "durch")
COLOUR_CONTRACTS = ("hra", "sedma", "stovka", "stosedm")
TRUMPS = ("hearts", "bells", "leaves", "acorns")
COMPONENTS = {
    "hra": ("hra",),
    "sedma": ("hra", "sedma"),
    "stovka": ("stovka",),
    "stosedm": ("stovka", "sedma"),
    "betl": ("betl",),
    "durch": ("durch",),
}


def components(contract: str, rules: dict[str, Any]) -> tuple[str, ...]:
    """The flekkable components of a contract under the table's rules (stovka may pay the hra too)."""
    parts = COMPONENTS[contract]
    return ("hra", *parts) if rules.get("stovka_pays_hra") and "stovka" in parts else parts


@st.composite
def marias_rules(draw: st.DrawFn) -> dict[str, Any]:
    """House rules that change the arithmetic but never cap it (no per-hand limit)."""
    return {
        "preset": draw(st.sampled_from(("ctyrka-dvacetnik", "ctyrka-desetnik"))),
        "betl_durch": draw(st.sampled_from(("10/20", "15/30", "5/10"))),
        "red_doubles": draw(st.booleans()),
        "stovka_steps": draw(st.sampled_from(("linear", "doubling"))),
        "stovka_silent_hundred": draw(st.booleans()),
        "ticha_stovka": draw(st.sampled_from(("seed", "csm"))),
        "stovka_pays_hra": draw(st.booleans()),
        "pay_2v2": draw(st.sampled_from(("pair", "each"))),
        "pay_alone": draw(st.sampled_from(("each", "double"))),
    }


@st.composite
def _marriages(draw: st.DrawFn) -> dict[str, list[int]]:
    # Four marriages exist, one of them in trumps (40); each is announced by one side or by nobody.
    owners = draw(st.lists(st.sampled_from(("declarer", "defenders", None)), min_size=4, max_size=4))
    result: dict[str, list[int]] = {"declarer": [], "defenders": []}
    for value, owner in zip((40, 20, 20, 20), owners, strict=True):
        if owner is not None:
            result[owner].append(value)
    return result


@st.composite
def _played(draw: st.DrawFn, contract: str) -> dict[str, Any]:
    if contract in ("betl", "durch"):
        return {"won": draw(st.booleans())}
    hand: dict[str, Any] = {"points": 10 * draw(st.integers(0, 9)), "marriages": draw(_marriages())}
    if "sedma" in COMPONENTS[contract]:
        hand["seven"] = {"side": "declarer", "won": draw(st.booleans())}
    elif draw(st.booleans()):
        hand["seven"] = {"side": draw(st.sampled_from(("declarer", "defenders"))), "won": draw(st.booleans())}
    return hand


@st.composite
def marias_documents(
    draw: st.DrawFn,
    *,
    contracts: tuple[str, ...] = CONTRACTS,
    rules: dict[str, Any] | None = None,
    played_out: bool | None = None,
    laid: bool | None = None,
    renonc: bool | None = None,
) -> dict[str, Any]:
    """A valid hand document; keyword arguments pin what a property needs (None: drawn)."""
    rules = draw(marias_rules()) if rules is None else rules
    contract = draw(st.sampled_from(contracts))
    declarer = draw(st.sampled_from(PLAYERS))
    hand: dict[str, Any] = {"declarer": declarer, "contract": contract}
    if contract in COLOUR_CONTRACTS:
        hand["trump"] = draw(st.sampled_from(TRUMPS))
        partner = draw(st.sampled_from((None, *PLAYERS)))
        if partner is not None:
            hand["partner"] = partner  # equal to the declarer: he called his own card and plays alone
    side = {declarer, hand.get("partner", declarer)}
    is_laid = draw(st.booleans()) if laid is None else laid
    top = 1 if is_laid else 5
    hand["flek"] = {name: draw(st.integers(0, top)) for name in components(contract, rules)}
    if is_laid:
        hand["laid"] = True
        if any(hand["flek"].values()):
            hand["flekked_by"] = draw(st.sampled_from([p for p in PLAYERS if p not in side]))
        is_played = False
    else:
        is_played = draw(st.booleans()) if played_out is None else played_out
        hand["played_out"] = is_played
    has_renonc = draw(st.booleans()) if renonc is None else renonc
    if has_renonc:
        hand["renonc"] = {"player": draw(st.sampled_from(PLAYERS)), "kind": draw(st.sampled_from(("talon", "other")))}
    if is_played:
        hand.update(draw(_played(contract)))
    elif not has_renonc and not is_laid:
        hand["conceded_by"] = draw(st.sampled_from(("declarer", "defenders")))
    document = {"game": "marias", "players": list(PLAYERS), "rules": rules, "hand": hand}
    # A doubling stovka lost at kalhoty against every hláška is worth more than one hand can move, and rules.score
    # refuses it (tests/rules/test_options_limits.py); leave such hands out, with room for the properties that
    # double a drawn hand (one more flek, hearts).
    assume(largest_amount(document) <= MAX_AMOUNT / 8)
    return document


def largest_amount(document: dict[str, Any]) -> Decimal:
    """The largest amount (in absolute value) the game prices for ``document``, without rules.score's limit."""
    game, table = rules.table(document)
    return max(abs(amount) for amount in game.price(table, game.parse(table, document["hand"])).amounts.values())
