"""What the books tell the features built on them, without naming them.

The books (players, evenings, tables, hands, settlement) lie below the live lines, the offline entry, the statistics,
circles and tournaments, and import none of them. Where the books must tell a feature something (a table's hands
changed, an evening closes) or ask it (does this evening's money go into a circle's tab?), they call a hook here.
A feature connects its listener in its own ``AppConfig.ready()``, so the books never learn who listens.

A hook carries one frozen event and collects its listeners' answers:

>>> told = Hook[str, int]("told")
>>> told.connect(len)
<built-in function len>
>>> told.connect(len)  # a second ready() (tests, autoreload) connects nothing more
<built-in function len>
>>> told.send("four")
[4]
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from django.db import transaction
from django.db.models import Q

if TYPE_CHECKING:
    from ledger.models import Evening, Settlement, Table
    from rules.settlement import Transfer as PlannedTransfer

E = TypeVar("E")
R = TypeVar("R")


class Hook(Generic[E, R]):
    """One thing the books tell or ask; listeners run in the order they connected."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._listeners: list[Callable[[E], R]] = []

    def connect(self, listener: Callable[[E], R]) -> Callable[[E], R]:
        if listener not in self._listeners:
            self._listeners.append(listener)
        return listener

    def disconnect(self, listener: Callable[[E], R]) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    def send(self, event: E) -> list[R]:
        """Every listener's answer, now, inside the caller's transaction."""
        return [listener(event) for listener in self._listeners]

    def send_after_commit(self, event: E) -> None:
        """Each listener after the commit (never for work rolled back), so that no feature's work holds the table's
        lock; one listener's failure is logged by Django and does not stop the others."""
        for listener in self._listeners:
            transaction.on_commit(functools.partial(listener, event), robust=True)


# --------------------------------------------------------------------------------------------------------------
# Tables and hands


@dataclass(frozen=True)
class HandsChanged:
    """A table's hands changed: a hand recorded, corrected, voided or undone. ``revision`` is the table's new
    revision and ``hands`` how many hands count now."""

    table_id: int
    evening_id: int
    revision: int
    hands: int


hands_changed = Hook[HandsChanged, None]("hands_changed")


@dataclass(frozen=True)
class TablePage:
    """The table page being drawn for ``request``: a feature may add to its template context."""

    request: Any
    table: Table


table_page_context = Hook[TablePage, dict[str, Any]]("table_page_context")


# --------------------------------------------------------------------------------------------------------------
# Evenings


@dataclass(frozen=True)
class ShareLinkChanged:
    """An evening's share link changed; ``token`` is the one that works now (None: none)."""

    evening_id: int
    token: str | None


share_link_changed = Hook[ShareLinkChanged, None]("share_link_changed")

# Evenings a scorekeeper's own lists leave out (a tournament's tables are evenings, listed with their tournament):
# each listener answers a condition on Evening.
evenings_unlisted = Hook[None, Q]("evenings_unlisted")


@dataclass(frozen=True)
class EveningClosing:
    """An evening closes with ``settlement`` and the ``planned`` transfers, inside its locked transaction."""

    evening: Evening
    settlement: Settlement
    planned: list[PlannedTransfer]
    by: Any


# A listener answers True when it booked the planned transfers itself (a circle's tab): the books then store none.
evening_closing = Hook[EveningClosing, bool]("evening_closing")

# An evening opens again, inside its locked transaction: what a close booked elsewhere is taken back.
evening_reopening = Hook["Evening", None]("evening_reopening")

# Whether a closed evening's transfers went elsewhere (a circle's tab) instead of being paid at the table.
transfers_carried = Hook["Evening", bool]("transfers_carried")

# The seats a new table of the evening starts with when nothing else suggests them: {"player_0": name, ...}.
seating_suggested = Hook["Evening", dict[str, Any]]("seating_suggested")


def evenings_listed(evenings: Any) -> Any:
    """``evenings`` (a queryset) without those a feature lists elsewhere."""
    for condition in evenings_unlisted.send(None):
        evenings = evenings.exclude(condition)
    return evenings
