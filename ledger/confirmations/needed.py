"""Whose OK a hand needs, read from its stored document and the table's confirmation setting.

- "none": nobody's.
- "everyone": every player seated at the table except the one whose phone recorded the hand's version.
- "opponent": one player of the side opposing the declarer's side (the declarer and, where the game has one, the
  partner, as ``rules`` reads them from the document: ``Game.played``). The defenders of Skat, the two players
  against the chooser of Mariáš (three seats) or against the chooser and the called card's holder (four), the
  defenders of Šnapser at two, three or four seats. A hand with no declarer side (Skat's Ramsch or a passed-in
  hand) needs any player other than the recorder's. If the recorder is the only opponent (two-seat Šnapser),
  the declarer's side confirms instead: somebody other than who recorded it must look.

The recorder's player is left out of both: one does not confirm one's own entry.

>>> seats = ["Ana", "Ben", "Cyril", "Dana"]
>>> marias = {"declarer": "Ana", "partner": "Cyril", "contract": "hra", "trump": "bells", "points": 60}
>>> sorted(needed_names("opponent", "marias", seats, marias, recorders=set()).players)
['Ben', 'Dana']
>>> every = needed_names("everyone", "marias", seats, marias, recorders={"Ben"})
>>> sorted(every.players), every.every
(['Ana', 'Cyril', 'Dana'], True)
>>> needed_names("opponent", "snapser", ["Ana", "Ben"], {"declarer": "Ana"}, recorders={"Ben"}).players
frozenset({'Ana'})
>>> needed_names("none", "skat", seats[:3], {"declarer": "Ana"}, recorders=set()).players
frozenset()
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import rules


@dataclass(frozen=True)
class Needed:
    """The players (by name) whose word counts for a hand; ``every``: each of them must say OK, else one will do."""

    players: frozenset[str]
    every: bool = False


NOBODY = Needed(frozenset())


def needed_names(
    mode: str, game: str, seats: Sequence[str], document: Mapping[str, Any], *, recorders: Collection[str]
) -> Needed:
    """Whose OK the hand ``document`` needs at a table seating ``seats`` with confirmation ``mode``."""
    others = frozenset(seats) - frozenset(recorders)
    if mode == "everyone":
        return Needed(others, every=True)
    if mode != "opponent":
        return NOBODY
    played = rules.game(game).played(list(seats), document)
    if played.declarer is None:
        return Needed(others)
    opponents = others - {played.declarer, played.partner}
    return Needed(opponents or others)
