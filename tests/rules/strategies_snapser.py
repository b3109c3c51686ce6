"""Hypothesis strategies for Šnapser: random hand documents that the engine must accept."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

NAMES = ("Ana", "Ben", "Cyril", "Dana")
TRUMPS = ("hearts", "bells", "leaves", "acorns")
RESULTS = ("s_vodou", "bez_vody", "za_6", "tichy_durch")


@st.composite
def snapser_rules(draw: st.DrawFn) -> dict[str, Any]:
    """Ruleset overrides: any stake (as a string, never a float) and any choice of the house rules."""
    stake = draw(st.decimals(min_value="0.01", max_value="5", places=2))
    return {
        "stake": str(stake),
        "currency": draw(st.sampled_from(("EUR", "CZK"))),
        "payment": draw(st.sampled_from(("every_loser_every_winner", "each_loser_one_winner"))),
        "red_on_nehram": draw(st.booleans()),
        "red_on_durch": draw(st.booleans()),
        "false_dost": draw(st.sampled_from(("by_points", "s_vodou", "bez_vody", "za_6"))),
    }


@st.composite
def snapser_documents(
    draw: st.DrawFn, announcements: tuple[str, ...] = ("hram", "za12", "durch", "nehram")
) -> dict[str, Any]:
    """A valid Šnapser hand document: 2 to 4 players, any announcement among ``announcements``, random rules."""
    players = list(NAMES[: draw(st.integers(min_value=2, max_value=4))])
    rules = draw(snapser_rules())
    announcement = draw(st.sampled_from(announcements))
    hand: dict[str, Any] = {
        "declarer": draw(st.sampled_from(players)),
        "trump": draw(st.sampled_from(TRUMPS)),
        "announcement": announcement,
    }
    if len(players) == 4 and draw(st.booleans()):
        # The declarer himself (alone) or anybody else (2 against 2).
        hand["partner"] = draw(st.sampled_from(players))
    if announcement == "nehram":
        return {"game": "snapser", "players": players, "rules": rules, "hand": hand}
    hand["raises"] = draw(st.integers(min_value=0, max_value=4))
    hand["winner"] = draw(st.sampled_from(("declarer", "defenders")))
    end = draw(st.sampled_from((None, "dost", "last_trick", "false_dost")))
    if end is not None:
        hand["end"] = end
    if announcement == "za12" and end == "false_dost":
        hand["winner"] = "defenders"
    if announcement == "hram":
        hand.update(_result(draw, end, rules["false_dost"]))
    return {"game": "snapser", "players": players, "rules": rules, "hand": hand}


def _result(draw: st.DrawFn, end: str | None, false_dost: str) -> dict[str, Any]:
    if end != "false_dost":
        return {"result": draw(st.sampled_from(RESULTS))}
    if false_dost != "by_points":
        # The table fixes the category: the result may be left out or repeat it.
        return draw(st.sampled_from(({}, {"result": false_dost})))
    return {"result": draw(st.sampled_from(RESULTS[:3]))}
