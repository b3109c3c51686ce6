"""Hypothesis strategies for random valid Skat hand documents (other games keep their strategies elsewhere)."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

import rules
from rules.skat import LEGAL_BIDS, NULL_VALUES, SKAT_MOST_POINTS, TRUMP_GAMES

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
    draw: st.DrawFn, contracts: tuple[str, ...] | None = None, seats: tuple[int, ...] = (3, 4)
) -> dict[str, Any]:
    """A random hand document that the engine must accept: 3 or 4 seats, any preset, any contract it allows.

    ``contracts`` narrows the contract (e.g. ``TRUMP_GAMES``), ``seats`` the table size; a contract the drawn
    ruleset forbids is never drawn.
    """
    players = list(PLAYERS[: draw(st.sampled_from(seats))])
    table_rules = draw(skat_rules())
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
    points = draw(st.integers(0, 120))
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
        "schwarz": (points == 120 or points <= SKAT_MOST_POINTS) and draw(st.booleans()),
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
    cut = sorted(draw(st.lists(st.integers(0, 120), min_size=2, max_size=2)))
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
