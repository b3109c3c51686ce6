"""Hypothesis strategies for Mariáš čtyřka hand documents: valid ones, any ones, and ones no deal can produce."""

from __future__ import annotations

import copy
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
SIDES = ("declarer", "defenders")
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
def _marriages(draw: st.DrawFn, most_for_the_declarer: int = 4) -> dict[str, list[int]]:
    # Four marriages exist, one of them in trumps (40); each is announced by one side or by nobody. A lone
    # declarer holding the trump seven has room for three (``most_for_the_declarer``).
    owners = draw(st.lists(st.sampled_from(("declarer", "defenders", None)), min_size=4, max_size=4))
    if owners.count("declarer") > most_for_the_declarer:
        owners[0] = None
    result: dict[str, list[int]] = {"declarer": [], "defenders": []}
    for value, owner in zip((40, 20, 20, 20), owners, strict=True):
        if owner is not None:
            result[owner].append(value)
    return result


@st.composite
def _played(draw: st.DrawFn, contract: str, alone: bool) -> dict[str, Any]:
    """What a deal can produce: the trump seven in the last trick says who took it, and that trick counts 10."""
    if contract in ("betl", "durch"):
        return {"won": draw(st.booleans())}
    hand: dict[str, Any] = {}
    announced = "sedma" in COMPONENTS[contract]
    if announced:
        # The announced seven took the last trick or it did not (the form asks won or lost; the engine also takes a
        # sedma without its seven, one played before the last trick: tests/rules/test_marias.py).
        hand["seven"] = {"side": "declarer", "won": draw(st.booleans())}
    elif draw(st.booleans()):
        hand["seven"] = {"side": draw(st.sampled_from(("declarer", "defenders"))), "won": draw(st.booleans())}
    seven = hand.get("seven")
    lowest, highest = 0, 9
    if seven is not None and seven["won"]:
        lowest, highest = (1, 9) if seven["side"] == "declarer" else (0, 8)
    elif seven is not None and seven["side"] == "declarer" and alone:
        highest = 8  # a defender beat the lone declarer's seven: the last trick is theirs
    hand["points"] = 10 * draw(st.integers(lowest, highest))
    holds_seven = announced or (seven is not None and seven["side"] == "declarer")
    hand["marriages"] = draw(_marriages(3 if alone and holds_seven else 4))
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
        hand.update(draw(_played(contract, alone=len(side) == 1)))
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


# --------------------------------------------------------------------------------------------------------------
# Any document: every field drawn from its values or left out, with no regard for what a deal can produce

# Each field's values, near misses among them (a stranger, a wrong number, a 20 too many, a seven without its result).
_SEVENS = [{"side": side, "won": won} for side in SIDES for won in (True, False)]
ANY_VALUES: dict[str, tuple[Any, ...]] = {
    "declarer": (*PLAYERS, "Eva", ""),
    "partner": (*PLAYERS, None, "Eva"),
    "contract": (*CONTRACTS, "kilo"),
    "trump": (*TRUMPS, None, "hearts ", 3),
    "flek": ({}, {"hra": 1}, {"sedma": 2}, {"stovka": 5}, {"betl": 1}, {"durch": 6}, {"hra": "re"}),
    "played_out": (True, False, None, "yes"),
    "laid": (True, False),
    "flekked_by": (*PLAYERS, None),
    "conceded_by": (*SIDES, "nobody"),
    "points": (*range(0, 100, 10), None, 5, -10, 100, 60.0, True),
    "marriages": (
        {},
        {"declarer": [40]},
        {"defenders": [20, 20]},
        {"declarer": [20, 20], "defenders": [20, 20]},
        {"declarer": [40, 20, 20, 20]},
        {"declarer": [40], "defenders": [40]},
        {"declarer": [20, 20, 20], "defenders": [20, 40]},
        {"declarer": None},
        {"declarer": [30]},
    ),
    "seven": (*_SEVENS, None, {"won": True}, {"side": "defenders"}, {}),
    "won": (True, False, None, "won"),
    "renonc": ({"player": "Ben", "kind": "other"}, {"player": "Ana", "kind": "talon"}, {"player": "Eva"}, None),
}
HAND_FIELDS = tuple(ANY_VALUES)  # every field of the Mariáš hand document (DESIGN.md)


@st.composite
def marias_any_documents(draw: st.DrawFn) -> dict[str, Any]:
    """A valid document with one to four hand fields redrawn or left out, with no regard for what a deal produces.

    The engine must price it zero-sum or refuse it naming a field of the hand.
    """
    document: dict[str, Any] = draw(marias_documents())
    hand = document["hand"]
    for name in draw(st.lists(st.sampled_from(sorted(ANY_VALUES)), min_size=1, max_size=4)):
        if draw(st.integers(0, 4)) == 0:
            hand.pop(name, None)
        else:
            hand[name] = copy.deepcopy(draw(st.sampled_from(ANY_VALUES[name])))
    return document


# --------------------------------------------------------------------------------------------------------------
# Impossible documents: a valid one broken in one way that no deal can produce, with the field that says so


def _broken(draw: st.DrawFn, contracts: tuple[str, ...], *, alone: bool | None = None) -> dict[str, Any]:
    """A valid played-out document of one of ``contracts`` (alone or not, if asked), to be broken."""
    document: dict[str, Any] = draw(marias_documents(contracts=contracts, played_out=True, laid=False))
    hand = document["hand"]
    if alone is not None and contracts != ("betl", "durch"):
        if alone:
            hand.pop("partner", None)
        else:
            hand["partner"] = draw(st.sampled_from([p for p in PLAYERS if p != hand["declarer"]]))
    return document


def _without_won(draw: st.DrawFn) -> tuple[dict[str, Any], str]:
    document = _broken(draw, ("betl", "durch"))
    del document["hand"]["won"]
    return document, "won"


def _seven_without_won(draw: st.DrawFn) -> tuple[dict[str, Any], str]:
    document = _broken(draw, COLOUR_CONTRACTS)
    document["hand"]["seven"] = {"side": "declarer"}
    return document, "seven.won"


def _last_trick_with_nothing(draw: st.DrawFn) -> tuple[dict[str, Any], str]:
    # The declarer's side took the last trick with its seven, and says it has no card points.
    document = _broken(draw, COLOUR_CONTRACTS)
    document["hand"] |= {"seven": {"side": "declarer", "won": True}, "points": 0}
    return document, "points"


def _defenders_last_trick_with_nothing(draw: st.DrawFn) -> tuple[dict[str, Any], str]:
    document = _broken(draw, ("hra", "stovka"))
    document["hand"] |= {"seven": {"side": "defenders", "won": True}, "points": 90}
    return document, "points"


def _lone_seven_beaten_yet_every_point(draw: st.DrawFn) -> tuple[dict[str, Any], str]:
    document = _broken(draw, COLOUR_CONTRACTS, alone=True)
    document["hand"] |= {"seven": {"side": "declarer", "won": False}, "points": 90}
    return document, "points"


def _four_twenties(draw: st.DrawFn) -> tuple[dict[str, Any], str]:
    document = _broken(draw, COLOUR_CONTRACTS, alone=False)
    mine = draw(st.integers(0, 4))
    document["hand"]["marriages"] = {"declarer": [20] * mine, "defenders": [20] * (4 - mine)}
    return document, "marriages.declarer" if mine == 4 else "marriages.defenders"


def _two_forties(draw: st.DrawFn) -> tuple[dict[str, Any], str]:
    document = _broken(draw, COLOUR_CONTRACTS)
    document["hand"]["marriages"] = {"declarer": [40], "defenders": [40]}
    return document, "marriages.defenders"


def _five_marriages(draw: st.DrawFn) -> tuple[dict[str, Any], str]:
    document = _broken(draw, COLOUR_CONTRACTS)
    mine = draw(st.integers(1, 3))
    document["hand"]["marriages"] = {"declarer": [40, 20, 20][:mine], "defenders": [20] * (5 - mine)}
    return document, "marriages.defenders"


def _lone_seven_and_every_marriage(draw: st.DrawFn) -> tuple[dict[str, Any], str]:
    # Alone with eight cards: the announced trump seven and four marriages (eight cards) make nine.
    document = _broken(draw, ("sedma", "stosedm"), alone=True)
    document["hand"].pop("seven", None)
    document["hand"]["marriages"] = {"declarer": [40, 20, 20, 20]}
    return document, "marriages.declarer"


def _points_not_in_tens(draw: st.DrawFn) -> tuple[dict[str, Any], str]:
    document = _broken(draw, COLOUR_CONTRACTS)
    document["hand"]["points"] = draw(st.sampled_from((-10, 5, 45, 100, 120)))
    return document, "points"


def _play_without_betl_or_durch(draw: st.DrawFn) -> tuple[dict[str, Any], str]:
    document = _broken(draw, ("betl", "durch"))
    name = draw(st.sampled_from(("points", "marriages", "seven")))
    document["hand"][name] = {"points": 0, "marriages": {"declarer": [20]}, "seven": {"side": "declarer"}}[name]
    return document, name


_IMPOSSIBLE = {
    "a played-out betl or durch without its result": _without_won,
    "a trump seven in the last trick without its result": _seven_without_won,
    "the declarer's seven took the last trick, 0 card points": _last_trick_with_nothing,
    "the defenders' seven took the last trick, 90 card points": _defenders_last_trick_with_nothing,
    "a lone declarer's seven beaten, 90 card points": _lone_seven_beaten_yet_every_point,
    "four hlášky of 20": _four_twenties,
    "a 40 on each side": _two_forties,
    "five hlášky": _five_marriages,
    "a lone declarer with the seven and four hlášky": _lone_seven_and_every_marriage,
    "card points not in tens from 0 to 90": _points_not_in_tens,
    "card points, hlášky or a seven in betl or durch": _play_without_betl_or_durch,
}


@st.composite
def marias_impossible_documents(draw: st.DrawFn) -> tuple[dict[str, Any], str]:
    """A document no deal can produce and the field the engine must name when it refuses it."""
    kind = draw(st.sampled_from(sorted(_IMPOSSIBLE)))
    return _IMPOSSIBLE[kind](draw)
