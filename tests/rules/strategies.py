"""Hypothesis strategies for Skat hand documents (other games keep their strategies elsewhere).

Three kinds: documents the engine must accept (``skat_documents``: what a real deal can produce), any document
(``skat_any_documents``: fields drawn with no regard for the deal) and impossible ones
(``skat_impossible_documents``: a valid document broken in one way, with the field the refusal must name).
"""

from __future__ import annotations

from typing import Any

from hypothesis import assume
from hypothesis import strategies as st

import rules
from rules.skat import CONTRACTS, HOLDABLE, LEGAL_BIDS, NULL_VALUES, SKAT_HOLDS, TRUMP_GAMES

PLAYERS = ("Ana", "Ben", "Cyril", "Dora")
STAKES = ("0.01", "0.05", "0.10", "1", "0.005")
BIDS = sorted(LEGAL_BIDS)


@st.composite
def skat_rules(draw: st.DrawFn) -> dict[str, Any]:
    """A preset with a few random overrides of the pub switches."""
    chosen: dict[str, Any] = {"preset": draw(st.sampled_from(["isko", "seeger-fabian", "pub"]))}
    chosen["stake"] = draw(st.sampled_from(STAKES))
    for switch in ("kontra", "bock", "ramsch", "jungfrau", "durchmarsch"):
        if draw(st.booleans()):
            chosen[switch] = draw(st.booleans())
    return chosen


@st.composite
def skat_documents(
    draw: st.DrawFn,
    contracts: tuple[str, ...] | None = None,
    seats: tuple[int, ...] = (3, 4),
    rules_set: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A random hand document that the engine must accept: 3 or 4 seats, any preset, any contract it allows.

    ``contracts`` narrows the contract (e.g. ``TRUMP_GAMES``), ``seats`` the table size, ``rules_set`` fixes some
    options (``{"ramsch": True}`` to draw a Ramsch); a contract the drawn ruleset forbids is never drawn.
    """
    players = list(PLAYERS[: draw(st.sampled_from(seats))])
    table_rules = draw(skat_rules()) | (rules_set or {})
    settings = rules.resolve("skat", table_rules)
    hand: dict[str, Any] = {}
    dealer = draw(st.sampled_from(players)) if len(players) == 4 else draw(st.none() | st.sampled_from(players))
    if dealer is not None:
        hand["dealer"] = dealer
    active = [p for p in players if len(players) == 3 or p != dealer]
    allowed = [*TRUMP_GAMES, "null", "passed"] + (["ramsch"] if settings["ramsch"] else [])
    contract = draw(st.sampled_from([c for c in allowed if contracts is None or c in contracts]))
    hand["contract"] = contract
    if contract in TRUMP_GAMES:
        hand |= draw(_trump_fields(contract, active))
    elif contract == "null":
        hand |= draw(_null_fields(active))
    elif contract == "ramsch":
        hand |= draw(_ramsch_fields(active, bool(settings["jungfrau"]), bool(settings["durchmarsch"])))
    if settings["kontra"] and contract not in ("ramsch", "passed"):
        hand["kontra"] = draw(st.integers(0, 2))
    if settings["bock"]:
        hand["bock"] = draw(st.integers(0, 3))
    return {"game": "skat", "players": players, "rules": table_rules, "hand": hand}


@st.composite
def _trump_fields(draw: st.DrawFn, contract: str, active: list[str]) -> dict[str, Any]:
    ouvert = draw(st.booleans())
    hand = ouvert or draw(st.booleans())
    schwarz_announced = hand and draw(st.booleans())
    points = draw(st.sampled_from(sorted(HOLDABLE)))
    # Real bids are mostly low; drawing from every bid would make nearly every game an overbid.
    bid = draw(st.sampled_from([18, 20, 22, 23, 24]) | st.sampled_from(BIDS))
    return {
        "declarer": draw(st.sampled_from(active)),
        "matadors": draw(st.integers(1, 4 if contract == "grand" else 11)),
        "without": draw(st.booleans()),
        "hand": hand,
        "ouvert": ouvert,
        "schneider_announced": schwarz_announced or (hand and draw(st.booleans())),
        "schwarz_announced": schwarz_announced,
        "bid": bid,
        "declarer_points": points,
        # Schwarz: the declarer took every card or only the Skat's two
        "schwarz": (points == 120 or points in SKAT_HOLDS) and draw(st.booleans()),
    }


@st.composite
def _null_fields(draw: st.DrawFn, active: list[str]) -> dict[str, Any]:
    hand, ouvert = draw(st.booleans()), draw(st.booleans())
    value = NULL_VALUES[(hand, ouvert)]
    return {
        "declarer": draw(st.sampled_from(active)),
        "hand": hand,
        "ouvert": ouvert,
        "bid": draw(st.sampled_from([b for b in BIDS if b <= value])),
        "won": draw(st.booleans()),
    }


@st.composite
def _ramsch_fields(draw: st.DrawFn, active: list[str], jungfrau: bool, durchmarsch: bool) -> dict[str, Any]:
    if durchmarsch and draw(st.integers(0, 9)) == 0:
        return {"durchmarsch": draw(st.sampled_from(active))}
    # Three shares of the 120 card points; no cards add up to 1, so no share is 1 (nor 119).
    cut = draw(
        st.lists(st.integers(0, 120), min_size=2, max_size=2)
        .map(sorted)
        .filter(lambda c: all(share in HOLDABLE for share in (c[0], c[1] - c[0], 120 - c[1])))
    )
    points = dict(zip(active, [cut[0], cut[1] - cut[0], 120 - cut[1]], strict=True))
    if durchmarsch and list(points.values()).count(0) == 2:
        # Two players without a trick is a Durchmarsch when the rule is on: spread the points instead.
        points = dict(zip(active, [40, 40, 40], strict=True))
    fields: dict[str, Any] = {"ramsch_points": points}
    empty = [p for p in active if points[p] == 0]
    if jungfrau and empty:
        fields["jungfrau"] = draw(st.lists(st.sampled_from(empty), unique=True, max_size=len(empty)))
    most = max(points.values())
    tied = [p for p in active if points[p] == most]
    if len(tied) > 1 or draw(st.booleans()):
        fields["ramsch_loser"] = draw(st.sampled_from(tied))
    return fields


# --------------------------------------------------------------------------------------------------------------
# Any document: a valid one with a few fields redrawn from everything the field's type allows


ANY_VALUES: dict[str, tuple[Any, ...]] = {
    "declarer": (*PLAYERS, "Eva"),
    "dealer": (*PLAYERS, "Eva"),
    "contract": CONTRACTS,
    "matadors": (0, 1, 2, 4, 5, 11, 12),
    "without": (True, False),
    "hand": (True, False),
    "ouvert": (True, False),
    "schneider_announced": (True, False),
    "schwarz_announced": (True, False),
    "bid": (17, 18, 20, 23, 24, 27, 35, 46, 59, 60, 72, 264, 265),
    "declarer_points": (-1, 0, 1, 9, 16, 22, 23, 30, 60, 61, 89, 90, 119, 120, 121),
    "schwarz": (True, False),
    "won": (True, False),
    "kontra": (0, 1, 2, 3),
    "bock": (0, 1, 4, 9),
    "ramsch_loser": (*PLAYERS, "Eva"),
    "durchmarsch": (*PLAYERS, "Eva"),
}


@st.composite
def skat_any_documents(draw: st.DrawFn) -> dict[str, Any]:
    """A valid document with one to four hand fields redrawn or left out, with no regard for what a deal produces.

    The engine must price it zero-sum or refuse it naming a field.
    """
    document = draw(skat_documents())
    hand = document["hand"]
    for name in draw(st.lists(st.sampled_from([*ANY_VALUES, "ramsch_points", "jungfrau"]), min_size=1, max_size=4)):
        if draw(st.integers(0, 4)) == 0:
            hand.pop(name, None)
        elif name == "ramsch_points":
            players = draw(st.lists(st.sampled_from(PLAYERS), unique=True, min_size=2, max_size=4))
            hand[name] = {p: draw(st.sampled_from(sorted(ANY_VALUES["declarer_points"]))) for p in players}
        elif name == "jungfrau":
            hand[name] = draw(st.lists(st.sampled_from(PLAYERS), unique=True, max_size=3))
        else:
            hand[name] = draw(st.sampled_from(ANY_VALUES[name]))
    return document


# --------------------------------------------------------------------------------------------------------------
# Impossible documents: a valid one broken in one way that no deal can produce, with the field that says so


def _broken(draw: st.DrawFn, contracts: tuple[str, ...], **rules_set: Any) -> dict[str, Any]:
    """A valid document of one of ``contracts``, under rules that allow it, to be broken."""
    document: dict[str, Any] = draw(skat_documents(contracts, rules_set=rules_set))
    return document


def _trump(draw: st.DrawFn, **fields: Any) -> dict[str, Any]:
    document = _broken(draw, TRUMP_GAMES)
    document["hand"] |= fields
    return document


def _ramsch(draw: st.DrawFn) -> dict[str, Any]:
    """A valid Ramsch counted by card points (not a Durchmarsch), its points in ``hand["ramsch_points"]``."""
    return _broken(draw, ("ramsch",), ramsch=True, durchmarsch=False, jungfrau=True)


def _ramsch_points_not_120(draw: st.DrawFn) -> tuple[dict[str, Any], str]:
    document = _ramsch(draw)
    points = document["hand"]["ramsch_points"]
    player = draw(st.sampled_from(sorted(points)))
    change = draw(st.sampled_from([d for d in range(-points[player], 121 - points[player]) if d]))
    # Still a share some cards make: only the sum is wrong.
    assume(points[player] + change in HOLDABLE)
    points[player] += change
    document["hand"].pop("ramsch_loser", None)
    document["hand"].pop("jungfrau", None)
    return document, "ramsch_points"


def _ramsch_point_of_one(draw: st.DrawFn) -> tuple[dict[str, Any], str]:
    document = _ramsch(draw)
    points = document["hand"]["ramsch_points"]
    player = draw(st.sampled_from(sorted(points)))
    points[player] = draw(st.sampled_from((1, 119)))
    return document, f"ramsch_points.{player}"


def _jungfrau_with_points(draw: st.DrawFn) -> tuple[dict[str, Any], str]:
    document = _ramsch(draw)
    points = document["hand"]["ramsch_points"]
    # A player with points took a trick (the Skat goes to a trick's taker, too)
    assume(any(points.values()))
    document["hand"]["jungfrau"] = [draw(st.sampled_from([p for p, n in points.items() if n]))]
    return document, "jungfrau"


def _schwarz_with_points(draw: st.DrawFn) -> tuple[dict[str, Any], str]:
    # Neither all 120 nor what the Skat's two cards can hold (9, 16–19, or more than 22)
    points = draw(st.sampled_from(sorted(HOLDABLE - SKAT_HOLDS - {120})))
    return _trump(draw, declarer_points=points, schwarz=True), "schwarz"


def _announced_without_hand(draw: st.DrawFn) -> tuple[dict[str, Any], str]:
    name = draw(st.sampled_from(("schneider_announced", "schwarz_announced")))
    plain = {"hand": False, "ouvert": False, "schneider_announced": False, "schwarz_announced": False}
    return _trump(draw, **plain | {name: True}), name


def _without(document: dict[str, Any], name: str) -> dict[str, Any]:
    del document["hand"][name]
    return document


def _null_below_the_bid(draw: st.DrawFn) -> tuple[dict[str, Any], str]:
    document = _broken(draw, ("null",))
    hand = document["hand"]
    value = NULL_VALUES[(hand["hand"], hand["ouvert"])]
    hand["bid"] = draw(st.sampled_from([b for b in BIDS if b > value]))
    return document, "contract"


def _nobody_bid(draw: st.DrawFn) -> tuple[dict[str, Any], str]:
    contract = draw(st.sampled_from(("ramsch", "passed")))
    document = _ramsch(draw) if contract == "ramsch" else _broken(draw, ("passed",))
    document["hand"]["bid"] = draw(st.sampled_from([b for b in BIDS if b != 18]))
    return document, "bid"


def _stray(draw: st.DrawFn) -> tuple[dict[str, Any], str]:
    """A field that belongs to another kind of game: a Null's result on a suit game, card points on a Null …"""
    contract, name, value = draw(
        st.sampled_from(
            (
                ("grand", "won", True),
                ("clubs", "jungfrau", ["Ana"]),
                ("null", "declarer_points", 60),
                ("null", "schwarz", True),
                ("passed", "declarer", "Ana"),
                ("passed", "won", True),
            )
        )
    )
    document = _broken(draw, (contract,))
    document["hand"][name] = value
    return document, name


def _switched_off(draw: st.DrawFn) -> tuple[dict[str, Any], str]:
    """Kontra or a pending Bock at a table whose rules have none."""
    name = draw(st.sampled_from(("kontra", "bock")))
    document = _broken(draw, (*TRUMP_GAMES, "null"), **{name: False})
    document["hand"][name] = 1
    return document, name


_IMPOSSIBLE: dict[str, Any] = {
    # RULES.md: ouvert suit and grand games are always hand games (a flag left out is false).
    "ouvert without hand": lambda draw: (_trump(draw, ouvert=True, hand=False), "hand"),
    # No cards add up to exactly 1, so neither side ends with 1 or 119.
    "1 or 119 card points": lambda draw: (
        _trump(draw, declarer_points=draw(st.sampled_from((1, 119))), schwarz=False),
        "declarer_points",
    ),
    "Schwarz with points no Schwarz leaves": _schwarz_with_points,
    "an announcement without hand": _announced_without_hand,
    "matadors the game does not have": lambda draw: (
        _trump(draw, contract="grand", matadors=draw(st.sampled_from((0, 5, 11)))),
        "matadors",
    ),
    "a Null without its result": lambda draw: (_without(_broken(draw, ("null",)), "won"), "won"),
    "a Null below the bid": _null_below_the_bid,
    "Ramsch points that do not add up to 120": _ramsch_points_not_120,
    "a Ramsch player with 1 or 119": _ramsch_point_of_one,
    "a Jungfrau with card points": _jungfrau_with_points,
    "a bid when everybody passed": _nobody_bid,
    "a field of another game": _stray,
    "Kontra or Bock switched off": _switched_off,
}


@st.composite
def skat_impossible_documents(draw: st.DrawFn) -> tuple[dict[str, Any], str]:
    """A document no deal can produce (or a table's rules forbid) and the field the engine must name."""
    kind = draw(st.sampled_from(sorted(_IMPOSSIBLE)))
    made: tuple[dict[str, Any], str] = _IMPOSSIBLE[kind](draw)
    return made
