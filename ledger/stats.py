"""Statistics: per player and per circle, per game and date range, computed by the database.

Every figure is an aggregate over the counted postings (one player's money for one hand) and the stored hand
documents (``Hand.document``, read through JSON key lookups that SQLite and PostgreSQL both answer), made in two
steps: per table and player (``ledger.stats_summaries``: recomputed by the database when the table changes), then
over the tables asked for. No answer loads the hands into Python, and each costs a fixed number of queries
whatever the number of evenings or hands. Python only walks rows that are already per table (the net series, the
streaks) or per player.

What counts: counted hands (a voided hand never), of evenings that count (``Evening.counted``), of players who do
not hide from statistics (``Player.hide_stats``). A hidden player appears in nobody's partner or opponent table
and in no circle table or record; the statistics of the player themselves are still computed (for their
scorekeeper and their own personal page), marked ``hidden``.

Sides, as the hand document says them (the definitions behind ``partners``, ``opponents`` and ``flek``):

- the **declarer side** is the ``declarer`` and their ``partner`` (Mariáš, Šnapser; absent or equal to the
  declarer = alone);
- a player who sits out is on no side: the ``dealer`` a hand document names at a four-seat table (Skat);
- everybody else at the table is a **defender**;
- a hand without a declarer (Skat Ramsch or passed in) has no sides: it counts for evenings, hands, net and
  streaks, never for partners, opponents, declared contracts or raises.
"""

from __future__ import annotations

import contextlib
import datetime
import hashlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, TypeVar

from django.core.cache import cache
from django.db.models import Count, F, Max, Min, Q, QuerySet, Sum
from django.db.models.functions import Round
from django.utils.translation import gettext as _
from redis.exceptions import RedisError

from ledger import games, stats_summaries
from ledger.models import (
    Hand,
    Player,
    Posting,
    PostingQuerySet,
    StatsDeclared,
    StatsLine,
    StatsPair,
    Table,
    amount_sum,
    exact_total,
    result_label,
)
from ledger.stats_summaries import CONTRACT_FIELDS, with_sides

__all__ = ["CONTRACT_FIELDS", "FilterError", "Filters", "circle_stats", "filters_from", "player_stats", "season_rows"]

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


def _cached(
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


def _in_scope(summaries: QuerySet[_Summary], filters: Filters, circle: Any) -> QuerySet[_Summary]:
    """The summaries (``ledger.stats_summaries``) of the tables statistics read: of counted evenings, optionally
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


# --------------------------------------------------------------------------------------------------------------
# One player


def player_stats(
    player: Player,
    *,
    game: str | None = None,
    since: datetime.date | None = None,
    until: datetime.date | None = None,
    circle: Any = None,
) -> dict[str, Any]:
    """One player's statistics (see the module docstring for what counts and the sides). Five queries, and one
    to find the player's tables whose summaries must be recomputed (``stats_summaries.refresh``: ten more when any).

    - ``evenings``, ``hands``: counted evenings and hands the player has postings in; ``net``: their exact sum.
    - ``net_series``: per evening, oldest first, ``{"date", "evening", "net", "cumulative"}``.
    - ``declared``: ``{contract: {"played", "won"}}`` over the hands the player declared (the contract is the
      document's ``contract``, Šnapser's ``announcement``); won = the player's amount in the hand is above zero.
      Without a game, contracts of the same name in two games are added up; ``declared_by_game`` keeps them
      apart: ``{game: {contract: {"played", "won"}}}``.
    - ``flek``: ``{"given", "won"}``: hands raised by the player's side (Mariáš flek, Šnapser kontra, Skat Kontra
      by the defenders; re by the declarer's side), and of those the ones the player won (amount above zero).
    - ``partners``, ``opponents``: ``{name: {"hands", "net", "won"}}``: hands with that player on the same side
      (on the other side), the player's own net over them and how many of them the player won.
    - ``biggest_win``, ``biggest_loss``: the player's largest and smallest amount in one hand (None without hands);
      ``records``: ``highest_hand`` (that hand's date, label, amount), ``best_evening``, ``worst_evening``.
    - ``streaks``: ``hands``, the most hands won in a row (amount above zero; a hand at zero ends the run), in the
      order played (evening date, table, hand number); ``evenings``, the most evenings in a row with a net above
      zero, among the evenings the player played.
    """
    tables = Table.objects.filter(seats__player=player)
    if circle is not None:
        tables = tables.filter(evening__circle=circle)
    key = ("player", player.pk, game, since, until, getattr(circle, "pk", None))
    filters = Filters(game, since, until)
    return _cached(key, tables, player.owner_id, lambda: _player_stats(player, filters, circle, tables))


def _player_stats(player: Player, filters: Filters, circle: Any, tables: QuerySet[Table]) -> dict[str, Any]:
    stats_summaries.refresh(tables)
    lines = _in_scope(StatsLine.objects.filter(player=player), filters, circle)
    totals = lines.aggregate(
        hand_count=Sum("hands"),
        evening_count=Count("table__evening", distinct=True),
        total=Sum("net"),
        top=Max("most"),
        bottom=Min("least"),
        given=Sum("flek_given"),
        given_won=Sum("flek_won"),
    )
    hands = int(totals["hand_count"] or 0)
    per_table = list(lines.order_by("table__evening__date", "table__evening_id", "table_id").values(*PER_TABLE_COLUMNS))
    series = _net_series(per_table)
    declared_by_game = _declared(_in_scope(StatsDeclared.objects.filter(player=player), filters, circle))
    declared: dict[str, dict[str, int]] = {}
    for contracts in declared_by_game.values():
        for contract, row in contracts.items():
            merged = declared.setdefault(contract, {"played": 0, "won": 0})
            merged["played"] += row["played"]
            merged["won"] += row["won"]
    pairs = _in_scope(StatsPair.objects.filter(player=player, other__hide_stats=False), filters, circle)
    partners, opponents = _partners(pairs)
    evening_nets = [row["net"] for row in series]
    return {
        "player": player.name,
        "hidden": bool(player.hide_stats),
        "evenings": int(totals["evening_count"]),
        "hands": hands,
        "net": exact_total(totals["total"]),
        "net_series": series,
        "declared": declared,
        "declared_by_game": declared_by_game,
        "flek": {"given": int(totals["given"] or 0), "won": int(totals["given_won"] or 0)},
        "partners": partners,
        "opponents": opponents,
        "biggest_win": None if not hands else exact_total(totals["top"]),
        "biggest_loss": None if not hands else exact_total(totals["bottom"]),
        "records": {
            "highest_hand": _highest_hand(lines, totals["top"]),
            "best_evening": max(series, key=lambda row: row["net"], default=None),
            "worst_evening": min(series, key=lambda row: row["net"], default=None),
        },
        "streaks": {"hands": _hand_streak(per_table), "evenings": _longest_run(evening_nets)},
    }


# A player's summary lines, table by table in the order played (a tuple: the type checker cannot see them).
PER_TABLE_COLUMNS = ("table__evening_id", "table__evening__date", "net", "hands", "best_run", "lead_run", "tail_run")


def _net_series(per_table: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per evening (oldest first): its date, id, the net and the running net, from the player's lines in the
    order played (an evening's tables are next to each other)."""
    series: list[dict[str, Any]] = []
    cumulative = Decimal(0)
    for row in per_table:
        net = exact_total(row["net"])
        cumulative += net
        if series and series[-1]["evening"] == row["table__evening_id"]:
            series[-1]["net"] += net
            series[-1]["cumulative"] = cumulative
            continue
        series.append(
            {
                "date": row["table__evening__date"],
                "evening": row["table__evening_id"],
                "net": net,
                "cumulative": cumulative,
            }
        )
    return series


def _hand_streak(per_table: list[dict[str, Any]]) -> int:
    """The most hands won in a row, from each table's longest run, the run it opens with and the one it ends with
    (``StatsLine``), table by table in the order played: a run goes on into the next table while it opens won."""
    longest = run = 0
    for row in per_table:
        longest = max(longest, row["best_run"], run + row["lead_run"])
        run = run + row["hands"] if row["lead_run"] == row["hands"] else row["tail_run"]
    return longest


def _declared(declared: QuerySet[StatsDeclared]) -> dict[str, dict[str, dict[str, int]]]:
    """{game: {contract: {"played", "won"}}} over the hands the player declared: one grouped query."""
    rows = (
        declared.order_by()
        .values("table__game", "contract")
        .annotate(times=Sum("played"), times_won=Sum("won"))
        .order_by("table__game", "-times", "contract")
    )
    by_game: dict[str, dict[str, dict[str, int]]] = {}
    for row in rows:
        by_game.setdefault(row["table__game"], {})[row["contract"]] = {
            "played": int(row["times"]),
            "won": int(row["times_won"]),
        }
    return by_game


def _partners(pairs: QuerySet[StatsPair]) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """({name: {"hands", "net", "won"}} of partners, the same of opponents): one grouped query."""
    rows = (
        pairs.order_by()
        .values("other__name")
        .annotate(
            together=Sum("with_hands"),
            together_net=Sum("with_net"),
            together_won=Sum("with_won"),
            apart=Sum("against_hands"),
            apart_net=Sum("against_net"),
            apart_won=Sum("against_won"),
        )
    )
    partners: dict[str, dict[str, Any]] = {}
    opponents: dict[str, dict[str, Any]] = {}
    for row in rows:
        name = row["other__name"]
        if row["together"]:
            partners[name] = {
                "hands": int(row["together"]),
                "net": exact_total(row["together_net"]),
                "won": int(row["together_won"]),
            }
        if row["apart"]:
            opponents[name] = {
                "hands": int(row["apart"]),
                "net": exact_total(row["apart_net"]),
                "won": int(row["apart_won"]),
            }
    # With whom the player wins most first.
    return _by_net(partners), _by_net(opponents)


def _by_net(table: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return dict(sorted(table.items(), key=lambda item: (-item[1]["net"], item[0])))


def _highest_hand(lines: QuerySet[StatsLine], top: object) -> dict[str, Any] | None:
    """The first hand played that brought the player the most (``top``, the largest amount): one query."""
    if top is None:
        return None
    return _record(lines, "most", exact_total(top))


def _record(lines: QuerySet[StatsLine], field: str, amount: Decimal, *, with_player: bool = False) -> dict[str, Any]:
    """The record of the first hand played whose amount ``field`` (``most`` or ``least``) of a line is ``amount``
    (the lines say which hand it was): its amount, the evening's date and id, the hand's label (and the player)."""
    line = (
        lines.filter(**{field: amount})
        .select_related(f"{field}_hand__table__evening", "player")
        .order_by("table__evening__date", f"{field}_hand_id", "player__name")  # on a tie: the hand stored first
        .first()
    )
    if line is None:  # pragma: no cover - the amount was read from these lines
        raise LookupError(f"no line with {field} = {amount}")
    hand = line.most_hand if field == "most" else line.least_hand
    record = {
        "amount": amount,
        "date": hand.table.evening.date,
        "evening": hand.table.evening_id,
        "game": hand.table.game,
        "label": result_label(hand.result),
    }
    if with_player:
        record["player"] = line.player.name
    return record


def _longest_run(nets: Iterable[Decimal]) -> int:
    """The most values above zero in a row."""
    longest = run = 0
    for net in nets:
        run = run + 1 if net > 0 else 0
        longest = max(longest, run)
    return longest


# --------------------------------------------------------------------------------------------------------------
# A circle


def circle_stats(
    circle: Any,
    *,
    game: str | None = None,
    since: datetime.date | None = None,
    until: datetime.date | None = None,
) -> dict[str, Any]:
    """The circle's season table and records over its counted evenings (players who hide left out). Seven queries
    (eight when a former member still has hands in the range), and one to find the circle's tables whose summaries
    must be recomputed (``stats_summaries.refresh``: ten more when any).

    - ``table``: one row per member who does not hide, ``{"player", "player_id", "evenings", "hands", "net",
      "rank"}``, best net first; members without hands in the range are listed at zero; equal nets share a rank.
    - ``evenings``, ``hands``: the circle's counted evenings and hands in the range.
    - ``records``: ``highest_hand`` and ``biggest_loss`` (one player's amount in one hand, with the player),
      ``best_evening`` and ``worst_evening`` (one player's net over one evening).
    """
    tables = Table.objects.filter(evening__circle=circle)
    key = ("circle", circle.pk, game, since, until)
    filters = Filters(game, since, until)
    return _cached(key, tables, circle.owner_id, lambda: _circle_stats(circle, filters, tables))


def _circle_stats(circle: Any, filters: Filters, tables: QuerySet[Table]) -> dict[str, Any]:
    stats_summaries.refresh(tables)
    lines = _in_scope(StatsLine.objects.all(), filters, circle)
    shown = lines.filter(player__hide_stats=False)
    # Every player's line at a table holds the table's counted hands: one per table is added up.
    totals = (
        lines.order_by()
        .values("table_id")
        .annotate(table_total=Max("table_hands"), evening_key=Max("table__evening_id"))
        .aggregate(hand_count=Sum("table_total"), evening_count=Count("evening_key", distinct=True))
    )
    rows = {
        row["player_id"]: row
        for row in shown.order_by()
        .values("player_id")
        .annotate(
            evening_count=Count("table__evening", distinct=True),
            hand_count=Sum("hands"),
            total=Sum("net"),
            top=Max("most"),
            bottom=Min("least"),
        )
    }
    members = list(circle.members.filter(hide_stats=False).order_by("name").values_list("pk", "name"))
    # A former member's hands in the circle's evenings still count in its books.
    known = {pk for pk, _name in members}
    extra = [pk for pk in rows if pk not in known]
    if extra:
        members += list(Player.objects.filter(pk__in=extra).values_list("pk", "name"))
    table = [
        {
            "player": name,
            "player_id": pk,
            "evenings": rows[pk]["evening_count"] if pk in rows else 0,
            "hands": int(rows[pk]["hand_count"]) if pk in rows else 0,
            "net": exact_total(rows[pk]["total"]) if pk in rows else Decimal(0),
        }
        for pk, name in members
    ]
    table.sort(key=lambda row: (-row["net"], row["player"]))
    rank = 0
    for place, row in enumerate(table, start=1):
        if place == 1 or row["net"] != table[place - 2]["net"]:
            rank = place
        row["rank"] = rank
    return {
        "evenings": int(totals["evening_count"] or 0),
        "hands": int(totals["hand_count"] or 0),
        "table": table,
        "records": _circle_records(
            shown, [row["top"] for row in rows.values()], [row["bottom"] for row in rows.values()]
        ),
    }


def season_rows(postings: QuerySet[Posting]) -> list[dict[str, Any]]:
    """Per player with postings among ``postings`` (counted ones, filtered by the caller), best net first: evenings,
    hands, net, hands declared and won, biggest win and loss. One grouped query (the export's statistics sheet)."""
    declared = Q(declarer_name=F("player__name"))
    rows = (
        with_sides(postings)
        .order_by()
        .values("player__name")
        .annotate(
            evening_count=Count("hand__table__evening", distinct=True),
            hand_count=Count("pk"),
            total=amount_sum(),
            declared_count=Count("pk", filter=declared),
            declared_won=Count("pk", filter=declared & Q(amount__gt=0)),
            most=Max("amount"),
            least=Min("amount"),
        )
    )
    table = [
        {
            "player": row["player__name"],
            "evenings": row["evening_count"],
            "hands": row["hand_count"],
            "net": exact_total(row["total"]),
            "declared": row["declared_count"],
            "declared_won": row["declared_won"],
            "biggest_win": exact_total(row["most"]),
            "biggest_loss": exact_total(row["least"]),
        }
        for row in rows
    ]
    return sorted(table, key=lambda row: (-row["net"], row["player"]))


def _circle_records(shown: QuerySet[StatsLine], most: list[Any], least: list[Any]) -> dict[str, Any]:
    """The circle's records among players who do not hide: four queries. ``most`` and ``least``: each player's
    largest and smallest amount in one hand (from the season table's query), so the lines holding the records are
    found by their amount (the first played: many hands may share an amount); the best and the worst evening
    (one player's net over one evening) are the first of the per-player-and-evening sums in either order."""
    if not most:
        return {"highest_hand": None, "biggest_loss": None, "best_evening": None, "worst_evening": None}
    top, bottom = max(exact_total(amount) for amount in most), min(exact_total(amount) for amount in least)
    return {
        "highest_hand": _record(shown, "most", top, with_player=True),
        "biggest_loss": _record(shown, "least", bottom, with_player=True),
        "best_evening": _extreme_evening(shown, best=True),
        "worst_evening": _extreme_evening(shown, best=False),
    }


def _extreme_evening(shown: QuerySet[StatsLine], *, best: bool) -> dict[str, Any]:
    """The player's evening with the highest (lowest) net; on a tie the earlier evening, then the name."""
    # Rounded to the amounts' four places before ordering: SQLite adds decimals as floats, and two equal nets
    # must tie.
    net = Round(Sum("net"), 4)
    row = (
        shown.order_by()
        .values("player__name", "table__evening_id", "table__evening__date")
        .annotate(total=net)
        .order_by("-total" if best else "total", "table__evening__date", "player__name")
        .first()
    )
    if row is None:  # pragma: no cover - called with lines only
        raise LookupError("no evening")
    return {
        "player": row["player__name"],
        "evening": row["table__evening_id"],
        "date": row["table__evening__date"],
        "net": exact_total(row["total"]),
    }
