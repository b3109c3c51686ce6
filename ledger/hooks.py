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
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from django.db import transaction
from django.db.models import Q

if TYPE_CHECKING:
    from ledger.models import Evening, Hand, Settlement, Table
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
# Pages that show a feature's parts


@dataclass(frozen=True)
class PageShown:
    """A page is being drawn for ``request``; ``subject`` is what it shows (the shared ``Evening`` of a share link,
    the ``CircleMember`` of a member link, None for the home page)."""

    request: Any
    subject: Any = None


# Each listener answers template context, and under the page's parts key (``home_page_parts``, ``shared_page_parts``,
# ``member_page_parts``) a list of templates the page includes; ``page_parts`` joins the lists.
home_page_context = Hook[PageShown, dict[str, Any]]("home_page_context")
shared_page_context = Hook[PageShown, dict[str, Any]]("shared_page_context")
member_page_context = Hook[PageShown, dict[str, Any]]("member_page_context")
# The pages their keepers work on (``subject``: the Evening, the Circle, the Tournament): parts under
# ``evening_page_parts``, ``circle_page_parts``, ``tournament_page_parts``, drawn at the page's foot.
evening_page_context = Hook[PageShown, dict[str, Any]]("evening_page_context")
circle_page_context = Hook[PageShown, dict[str, Any]]("circle_page_context")
tournament_page_context = Hook[PageShown, dict[str, Any]]("tournament_page_context")


def page_parts(hook: Hook[PageShown, dict[str, Any]], page: PageShown, parts: str) -> dict[str, Any]:
    """Every listener's context for ``page``, with their template lists under ``parts`` joined, not replaced."""
    merged: dict[str, Any] = {parts: []}
    for answer in hook.send(page):
        for key, value in answer.items():
            merged[key] = merged[key] + list(value) if key == parts else value
    return merged


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
    """The table page being drawn for ``request``: a feature may add to its template context. Sent where the page's
    standing is drawn (the whole page, and the parts an htmx Record swaps out of band), with what the page shows:
    the seats' ``balances`` after the newest hand, the ``recent`` counted hands the next one starts from (oldest
    first), the ``contracts`` window the usual contract is chosen from ((number, contract), newest first), and
    whether the phone shows the game alone (``game_only``: no money)."""

    request: Any
    table: Table
    balances: dict[str, Any] = field(default_factory=dict)
    recent: list[Hand] = field(default_factory=list)
    contracts: list[tuple[int, str]] = field(default_factory=list)
    game_only: bool = False


table_page_context = Hook[TablePage, dict[str, Any]]("table_page_context")


@dataclass(frozen=True)
class HandStored:
    """One hand changed, after the commit: ``change`` is "recorded", "corrected", "voided" or "restored";
    ``version`` the hand's version now; ``by_id`` the user the books name for the change; ``confirmation`` the
    table's setting (a listener with nothing to do at a table that asks nobody needs no query to know it)."""

    hand_id: int
    table_id: int
    evening_id: int
    number: int
    version: int
    change: str
    by_id: int
    confirmation: str = ""


hand_stored = Hook[HandStored, None]("hand_stored")


@dataclass(frozen=True)
class HandMark:
    """What a feature says of a hand wherever hands are listed (the log, the share page, the PDF, the API): a
    ``code`` for machines ("confirmed", "disputed", "awaiting"), a ``label`` in the reader's language, and a longer
    ``title`` (who confirmed and when, a dispute's reason)."""

    code: str
    label: str
    title: str = ""


# Marks of listed hands: each listener answers {hand id: [HandMark, ...]} for the hands given, reading them in a
# fixed number of queries (never one per hand).
hands_marked = Hook["Sequence[Hand]", dict[int, list[HandMark]]]("hands_marked")


def hand_marks(hands: Sequence[Hand]) -> dict[int, list[HandMark]]:
    """Every listener's marks of ``hands``, joined per hand (hands no listener marks are left out)."""
    marks: dict[int, list[HandMark]] = {}
    if not hands:
        return marks
    for answer in hands_marked.send(hands):
        for hand_id, listed in answer.items():
            marks.setdefault(hand_id, []).extend(listed)
    return marks


# The history of one hand (its correction page; subject: the Hand): what features kept of its versions (the answers
# given to older versions), under ``hand_history_parts``.
hand_history_context = Hook[PageShown, dict[str, Any]]("hand_history_context")

# A hand recorded meanwhile won over the one a phone tapped (``errors.HandConflict``): the page showing both versions
# side by side asks features for more ways out (subject: the stored Hand), under ``conflict_parts``.
hand_conflict_context = Hook[PageShown, dict[str, Any]]("hand_conflict_context")


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


@dataclass(frozen=True)
class CloseCheck:
    """A line the close page shows before the evening closes (who signed, hands not confirmed). ``open``: closing
    past it needs the scorekeeper's explicit override, which the evening's history records with ``text``."""

    text: str
    open: bool = False


# The settlement (close) page and the evening's PDF summary (subject: the Evening): parts under
# ``settlement_page_parts`` and ``summary_parts`` (the signatures of the list, signing for a player who left).
settlement_page_context = Hook[PageShown, dict[str, Any]]("settlement_page_context")
summary_context = Hook[PageShown, dict[str, Any]]("summary_context")

# What the close page shows: each listener answers its lines for the evening (read before the close, outside it).
evening_close_checks = Hook["Evening", list[CloseCheck]]("evening_close_checks")


def close_checks(evening: Evening) -> list[CloseCheck]:
    return [check for answer in evening_close_checks.send(evening) for check in answer]


@dataclass(frozen=True)
class ClosedEvening:
    """An evening closed (after the commit); ``by_id`` closed it."""

    evening_id: int
    by_id: int


evening_closed = Hook[ClosedEvening, None]("evening_closed")

# An evening opens again, inside its locked transaction: what a close booked elsewhere is taken back.
evening_reopening = Hook["Evening", None]("evening_reopening")

# Whether a closed evening's transfers went elsewhere (a circle's tab) instead of being paid at the table.
transfers_carried = Hook["Evening", bool]("transfers_carried")

# The seats a new table of the evening starts with when nothing else suggests them: {"player_0": name, ...}.
seating_suggested = Hook["Evening", dict[str, Any]]("seating_suggested")


# What else changes an evening's shared page besides its hands and history (a hand confirmed, the list signed): each
# listener answers an expression on Evening (a Subquery on OuterRef("pk")) whose value moves when its feature's part
# of the page does; the share link's fingerprint (its ETag) includes them.
evening_changes = Hook[None, Any]("evening_changes")


def evenings_listed(evenings: Any) -> Any:
    """``evenings`` (a queryset) without those a feature lists elsewhere."""
    for condition in evenings_unlisted.send(None):
        evenings = evenings.exclude(condition)
    return evenings


# User accounts that are nobody (a tournament table phone's guest account): never offered as a scorekeeper. Each
# listener answers a condition on the user model.
accounts_unlisted = Hook[None, Q]("accounts_unlisted")


def accounts_listed(users: Any) -> Any:
    """``users`` (a queryset) without the accounts that are nobody."""
    for condition in accounts_unlisted.send(None):
        users = users.exclude(condition)
    return users


# --------------------------------------------------------------------------------------------------------------
# Circles


@dataclass(frozen=True)
class EveningInCircle:
    """A client of the API starts an evening in the circle ``circle_id`` (``Evening.circle``): ``by`` asked, and
    ``fields`` are the evening's date, place, coin and currency as given (no currency: the circle's own)."""

    circle_id: int
    by: Any
    fields: dict[str, Any]


# A listener answers the evening it started (or found started) in a circle ``by`` keeps score of, None when ``by``
# keeps no circle of that id.
evening_in_circle_started = Hook[EveningInCircle, "Evening | None"]("evening_in_circle_started")

# Players of another owner whose statistics a user may read (the members of a circle the user keeps score of): each
# listener answers a condition on Player for the user given (an authenticated one).
players_shared = Hook[Any, Q]("players_shared")


# --------------------------------------------------------------------------------------------------------------
# Statistics

# The sheets a feature adds to the books' spreadsheets (``ledger.export``), after the books' own: each listener
# answers {sheet name: a function of the ``ledger.export.Scope`` giving the sheet's rows, header first} (the
# statistics' per-player sheet).
spreadsheet_sheets = Hook[None, dict[str, Any]]("spreadsheet_sheets")


# --------------------------------------------------------------------------------------------------------------
# Tournaments


@dataclass(frozen=True)
class TableViewer:
    """The table page (or its log) is being drawn for ``request`` at ``table``."""

    request: Any
    table: Table


@dataclass(frozen=True)
class PhoneView:
    """The page is drawn for a phone confined to the table (``table_phone``: no evening, no settlement, only the
    table's hands, log and standings), and whether it shows the game alone (``game_only``: no money)."""

    table_phone: bool = True
    game_only: bool = False


# Whether the table page is drawn for a phone confined to its table (a tournament table's score-sheet link): a
# listener answers a PhoneView for such a phone, None otherwise. Asked before the page's other parts, which may
# leave the money out.
table_phone_view = Hook[TableViewer, PhoneView | None]("table_phone_view")


# --------------------------------------------------------------------------------------------------------------
# Accounts


@dataclass(frozen=True)
class AccountDeleting:
    """``user`` deletes their account, inside the transaction that anonymizes it: a feature drops what links the
    account to a person (a claimed player, an invitation taken). The books keep the row, its evenings and hands."""

    user: Any


account_deleting = Hook[AccountDeleting, None]("account_deleting")
