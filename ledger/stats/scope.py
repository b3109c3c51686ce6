"""What the statistics are asked (a game and a date range, from a query string: the pages and the API read them
alike), what counts (counted hands of counted evenings), and the answers kept per state of the books."""

from __future__ import annotations

import contextlib
import datetime
import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from django.core.cache import cache
from django.db.models import Count, Max, Min, Q, QuerySet, Sum
from django.utils.translation import gettext as _
from redis.exceptions import RedisError

from ledger import games
from ledger.models import Hand, Player, Posting, PostingQuerySet, Table
from ledger.stats.models import StatsDeclared, StatsLine, StatsPair

# How long a computed answer is kept: it is looked up by the state of the books, so it is never stale, only unused.
CACHE_SECONDS = 7 * 24 * 3600


# --------------------------------------------------------------------------------------------------------------
# What is asked: a game and a date range, from a query string (the pages and the API read them alike)


class FilterError(ValueError):
    """A query parameter the statistics cannot read: ``field`` names it (``game``, ``from``, ``to``)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


@dataclass(frozen=True)
class Filters:
    """The game (None: all) and the dates (None: open) the statistics cover, as the keywords they take."""

    game: str | None = None
    since: datetime.date | None = None
    until: datetime.date | None = None

    def as_kwargs(self) -> dict[str, Any]:
        return {"game": self.game, "since": self.since, "until": self.until}

    def as_query(self) -> dict[str, str]:
        """The query string that asks for these filters again (for links: the export, the other page)."""
        query = {"game": self.game or "", "from": _iso(self.since), "to": _iso(self.until)}
        return {key: value for key, value in query.items() if value}


def _iso(day: datetime.date | None) -> str:
    return "" if day is None else day.isoformat()


def filters_from(query: Mapping[str, str]) -> Filters:
    """``game``, ``from`` and ``to`` (ISO dates, both included) of a query string; empty = not given.

    Raises ``FilterError`` naming the parameter that cannot be read."""
    game = (query.get("game") or "").strip() or None
    if game is not None and game not in games.GAMES:
        raise FilterError("game", _("Unknown game; one of: %(games)s") % {"games": ", ".join(games.GAMES)})
    return Filters(game, _date(query, "from"), _date(query, "to"))


def _date(query: Mapping[str, str], name: str) -> datetime.date | None:
    text = (query.get(name) or "").strip()
    if not text:
        return None
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise FilterError(name, _("Enter a date as YYYY-MM-DD.")) from None


# --------------------------------------------------------------------------------------------------------------
# Cached per state of the books


def cached(
    key: tuple[Any, ...], tables: QuerySet[Table], owner_id: int, compute: Callable[[], dict[str, Any]]
) -> dict[str, Any]:
    """``compute()``'s answer, kept in the cache under ``key`` and a fingerprint of everything it reads: two small
    aggregate queries, so a page asked for again costs about what the table page does.

    The fingerprint: of the tables the answer reads, their revisions summed (each table's revision is bumped on
    every change to its hands, a rename included), their number, and their counted evenings' ids summed and dates
    spanned (an evening marked not counted, or moved to another circle); of the owner's players, those who hide
    and the circle members (ids summed and counted). Anything else changes no statistic.
    """
    books = tables.aggregate(
        revisions=Sum("revision"),
        tables=Count("pk", distinct=True),
        made=Max("created_at"),  # a table made anew where a deleted one had the same id (SQLite reuses them)
        counted=Sum("evening_id", filter=Q(evening__counted=True)),
        first=Min("evening__date"),
        last=Max("evening__date"),
    )
    people = Player.objects.filter(owner_id=owner_id).aggregate(
        hidden=Sum("pk", filter=Q(hide_stats=True)),
        hiding=Count("pk", filter=Q(hide_stats=True)),
        members=Count("memberships"),
        member_ids=Sum("memberships__pk"),
    )
    fingerprint = repr((key, sorted(books.items()), sorted(people.items())))
    name = "talon-stats:" + hashlib.sha256(fingerprint.encode()).hexdigest()
    try:
        found = cache.get(name)
    except (RedisError, OSError):  # Redis away: the statistics are computed all the same, only not kept
        found = None
    if found is None:
        found = compute()
        with contextlib.suppress(RedisError, OSError):
            cache.set(name, found, CACHE_SECONDS)
    return dict(found)


# --------------------------------------------------------------------------------------------------------------
# What counts


def counted_postings(
    *,
    game: str | None = None,
    since: datetime.date | None = None,
    until: datetime.date | None = None,
    circle: Any = None,
) -> PostingQuerySet:
    """The postings statistics read: counted hands of counted evenings, optionally of one game, of evenings dated
    ``since``..``until`` (both included) and of one circle. Players who hide are filtered by the callers (a hidden
    player's own statistics still read their postings)."""
    postings = Posting.objects.filter(hand__status=Hand.Status.COUNTED, hand__table__evening__counted=True)
    if game is not None:
        postings = postings.filter(hand__table__game=game)
    if since is not None:
        postings = postings.filter(hand__table__evening__date__gte=since)
    if until is not None:
        postings = postings.filter(hand__table__evening__date__lte=until)
    if circle is not None:
        postings = postings.filter(hand__table__evening__circle=circle)
    return postings


_Summary = TypeVar("_Summary", StatsLine, StatsDeclared, StatsPair)


def in_scope(summaries: QuerySet[_Summary], filters: Filters, circle: Any) -> QuerySet[_Summary]:
    """The summaries (``ledger.stats.summaries``) of the tables statistics read: of counted evenings, optionally
    of one game, of evenings dated ``since``..``until`` (both included) and of one circle."""
    summaries = summaries.filter(table__evening__counted=True)
    if filters.game is not None:
        summaries = summaries.filter(table__game=filters.game)
    if filters.since is not None:
        summaries = summaries.filter(table__evening__date__gte=filters.since)
    if filters.until is not None:
        summaries = summaries.filter(table__evening__date__lte=filters.until)
    if circle is not None:
        summaries = summaries.filter(table__evening__circle=circle)
    return summaries
