"""Hypothesis strategies for Šnapser: hand documents the engine must accept, any document, and impossible ones."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from rules.snapser import FIELDS

NAMES = ("Ana", "Ben", "Cyril", "Dana")
TRUMPS = ("hearts", "bells", "leaves", "acorns")
ANNOUNCEMENTS = ("hram", "za12", "durch", "nehram")
RESULTS = ("s_vodou", "bez_vody", "za_6", "tichy_durch")
WINNERS = ("declarer", "defenders")
ENDS = ("dost", "last_trick", "false_dost")
FALSE_DOST = ("by_points", "s_vodou", "bez_vody", "za_6")


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
        "tichy_durch_on_za12": draw(st.booleans()),
        "false_dost": draw(st.sampled_from(FALSE_DOST)),
    }


@st.composite
def snapser_documents(draw: st.DrawFn, announcements: tuple[str, ...] = ANNOUNCEMENTS) -> dict[str, Any]:
    """A valid Šnapser hand document: 2 to 4 players, any announcement among ``announcements``, random rules.

    Only what a real deal can produce (RULES.md §3): a durch the chooser won and every tichý durch were played to
    the last trick; a za 6 ended with "dosť"; a za 12 the chooser won without "dosť" took every trick.
    """
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
    winner = draw(st.sampled_from(WINNERS))
    hand["winner"] = winner
    if announcement == "hram":
        end = draw(st.sampled_from((None, *ENDS)))
        hand.update(_hram_result(draw, end, rules["false_dost"]))
    elif announcement == "za12":
        every_trick = draw(st.booleans())
        if every_trick:
            hand["result"] = "tichy_durch"
            end = draw(st.sampled_from((None, "last_trick")))
        else:
            # A false "dosť" loses the za 12; a chooser who won it without "dosť" would have taken every trick.
            ends = (None, *ENDS) if winner == "defenders" else (None, "dost")
            end = draw(st.sampled_from(ends))
    else:
        ends = (None, *ENDS) if winner == "defenders" else (None, "last_trick")
        end = draw(st.sampled_from(ends))
    if end is not None:
        hand["end"] = end
    return {"game": "snapser", "players": players, "rules": rules, "hand": hand}


def _hram_result(draw: st.DrawFn, end: str | None, false_dost: str) -> dict[str, Any]:
    result: dict[str, Any] = {} if end is None else {"end": end}
    if end == "false_dost" and false_dost != "by_points":
        # The table fixes the category: the result may be left out or repeat it.
        return result | draw(st.sampled_from(({}, {"result": false_dost})))
    # Every trick ends with the last one, and a "dosť" said with the losers trickless is za 6.
    possible = {
        None: RESULTS,
        "dost": RESULTS[:3],
        "last_trick": ("s_vodou", "bez_vody", "tichy_durch"),
        "false_dost": RESULTS[:3],
    }[end]
    return result | {"result": draw(st.sampled_from(possible))}


# --------------------------------------------------------------------------------------------------------------
# Any document: fields drawn with no regard for what a deal can produce

# Each hand field's allowed values (the declarer and the partner: the table's players), and what no field allows.
ALLOWED: dict[str, tuple[Any, ...]] = {
    "trump": TRUMPS,
    "announcement": ANNOUNCEMENTS,
    "raises": (0, 1, 2, 3, 4),
    "winner": WINNERS,
    "result": RESULTS,
    "end": ENDS,
}
JUNK = ("", "Eva", 7, True, -1, 5, 2.0, [], "hearts ", "dosť")


@st.composite
def snapser_any_documents(draw: st.DrawFn) -> dict[str, Any]:
    """Every combination of announcement × winner × result × end × raises × partner × table size × rules.

    Mostly a valid document with one to three hand fields redrawn or left out (as for Skat and Mariáš), so that a
    good share is priced; one draw in five draws every field on its own, which reaches the combinations that are
    more than three fields away from any valid document. The engine must price each document zero-sum or refuse it
    naming a field.
    """
    if draw(st.integers(min_value=0, max_value=4)) == 4:
        return draw(_fields_drawn_alone())
    document: dict[str, Any] = draw(snapser_documents())
    hand = document["hand"]
    for name in draw(st.lists(st.sampled_from(sorted(FIELDS)), min_size=1, max_size=3, unique=True)):
        # Hypothesis draws small numbers more often than others: the low rolls are the allowed values.
        roll = draw(st.integers(min_value=0, max_value=9))
        if roll == 9:
            hand.pop(name, None)
        elif roll == 8:
            hand[name] = draw(st.sampled_from((None, *JUNK)))
        elif name != "partner" or len(document["players"]) == 4:  # a partner at fewer: the other branch's
            hand[name] = draw(st.sampled_from(_allowed(name, document["players"])))
    return document


def _allowed(name: str, players: list[str]) -> tuple[Any, ...]:
    return tuple(players) if name in ("declarer", "partner") else ALLOWED[name]


@st.composite
def _fields_drawn_alone(draw: st.DrawFn) -> dict[str, Any]:
    """Each field one of its allowed values, left out (as a missing key or a null), or now and then something no
    field allows, whatever the others are."""
    players = list(NAMES[: draw(st.integers(min_value=2, max_value=4))])
    rules = draw(snapser_rules())

    def field(values: tuple[Any, ...], absent: int) -> Any:
        # Hypothesis draws small numbers more often than others: the low rolls are the allowed values.
        roll = draw(st.integers(min_value=0, max_value=15))
        if roll == 15:
            return draw(st.sampled_from(JUNK))
        return None if roll >= 15 - absent else draw(st.sampled_from(values))

    absent = {"declarer": 1, "partner": 10, "trump": 1, "announcement": 1, "raises": 6, "winner": 4}
    hand = {name: field(_allowed(name, players), absent.get(name, 6)) for name in FIELDS}
    kept = {key: value for key, value in hand.items() if value is not None or draw(st.booleans())}
    return {"game": "snapser", "players": players, "rules": rules, "hand": kept}


# --------------------------------------------------------------------------------------------------------------
# Impossible documents: a valid one broken in one way that no deal can produce, with the field that says so


def _hram(draw: st.DrawFn, **fields: Any) -> dict[str, Any]:
    document = draw(snapser_documents(announcements=("hram",)))
    document["rules"]["false_dost"] = "by_points"
    document["hand"].update(fields)
    return document


@st.composite
def snapser_impossible_documents(draw: st.DrawFn) -> tuple[dict[str, Any], str]:
    """A document no deal can produce and the field the engine must name when it refuses it."""
    kind = draw(st.sampled_from(sorted(_IMPOSSIBLE)))
    return _IMPOSSIBLE[kind](draw)


def _played(draw: st.DrawFn, announcement: str, **fields: Any) -> dict[str, Any]:
    document = draw(snapser_documents(announcements=(announcement,)))
    for key in ("result", "end"):
        document["hand"].pop(key, None)
    document["hand"].update(fields)
    return document


_IMPOSSIBLE: dict[str, Any] = {
    # Played to the last trick with the losers trickless: the winners took every trick (tichý durch), not za 6.
    "za_6 at the last trick": lambda draw: (_hram(draw, result="za_6", end="last_trick"), "result"),
    # Every trick means the hand was played to the end: neither "dosť" nor a false one stops it before.
    "tichý durch after dosť": lambda draw: (
        _played(draw, draw(st.sampled_from(("hram", "za12"))), result="tichy_durch", end="dost"),
        "end",
    ),
    "tichý durch after a false dosť": lambda draw: (
        _hram(draw, winner="defenders", result="tichy_durch", end="false_dost"),
        "result",
    ),
    "za 12 tichý durch after a false dosť": lambda draw: (
        _played(draw, "za12", winner="defenders", result="tichy_durch", end="false_dost"),
        "result",
    ),
    # Za 12 pays as announced: its only result is tichý durch.
    "za 12 with a category": lambda draw: (
        _played(draw, "za12", result=draw(st.sampled_from(RESULTS[:3]))),
        "result",
    ),
    # Won without "dosť": only by taking every trick, which the document must say.
    "za 12 won at the last trick": lambda draw: (
        _played(draw, "za12", winner="declarer", end="last_trick"),
        "result",
    ),
    # A false "dosť" loses the announced game.
    "won after a false dosť": lambda draw: (
        _played(draw, draw(st.sampled_from(("za12", "durch"))), winner="declarer", end="false_dost"),
        "winner",
    ),
    # A durch is won only by the last trick.
    "durch won with dosť": lambda draw: (_played(draw, "durch", winner="declarer", end="dost"), "end"),
    "durch with a result": lambda draw: (
        _played(draw, "durch", result=draw(st.sampled_from(RESULTS))),
        "result",
    ),
    # Nehrám ends before the first trick: nothing was played, raised or won by the chooser.
    "nehrám with a result": lambda draw: (
        _played(draw, "nehram", result=draw(st.sampled_from(RESULTS))),
        "result",
    ),
    "nehrám with an end": lambda draw: (_played(draw, "nehram", end=draw(st.sampled_from(ENDS))), "end"),
    "nehrám raised": lambda draw: (_played(draw, "nehram", raises=draw(st.integers(1, 4))), "raises"),
    "nehrám won": lambda draw: (_played(draw, "nehram", winner="declarer"), "winner"),
    # A hrám is paid by its category, which the document must give.
    "hrám without a result": lambda draw: (_played(draw, "hram"), "result"),
    # The partner holds a called card: only four players call one.
    "a partner at two or three": lambda draw: (_small_table_partner(draw), "partner"),
}


def _small_table_partner(draw: st.DrawFn) -> dict[str, Any]:
    document = draw(snapser_documents())
    players = document["players"][: draw(st.sampled_from((2, 3)))]
    document["players"] = players
    document["hand"].pop("partner", None)
    document["hand"]["declarer"] = draw(st.sampled_from(players))
    document["hand"]["partner"] = draw(st.sampled_from(players))
    return document
