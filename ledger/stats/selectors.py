"""Statistics: per player and per circle, per game and date range, computed by the database.

Every figure is an aggregate over the counted postings (one player's money for one hand) and the stored hand
documents (``Hand.document``, read through JSON key lookups that SQLite and PostgreSQL both answer), made in two
steps: per table and player (``ledger.stats.models``: kept hand by hand, recomputed when stale), then
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

import datetime
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from django.db.models import Count, Max, Min, QuerySet, Sum
from django.db.models.functions import Round

from ledger.models import Player, Table, exact_total
from ledger.result_texts import result_label
from ledger.stats import increments
from ledger.stats.models import StatsDeclared, StatsLine, StatsPair
from ledger.stats.scope import Filters, cached, in_scope

__all__ = ["circle_stats", "player_stats"]


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
    to find the player's tables whose summaries are behind (``increments.bring_up_to_date``: a fixed number more
    when any).

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
    return cached(key, tables, player.owner_id, lambda: _player_stats(player, filters, circle, tables))


def _player_stats(player: Player, filters: Filters, circle: Any, tables: QuerySet[Table]) -> dict[str, Any]:
    increments.bring_up_to_date(tables)
    lines = in_scope(StatsLine.objects.filter(player=player), filters, circle)
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
    declared_by_game = _declared(in_scope(StatsDeclared.objects.filter(player=player), filters, circle))
    declared: dict[str, dict[str, int]] = {}
    for contracts in declared_by_game.values():
        for contract, row in contracts.items():
            merged = declared.setdefault(contract, {"played": 0, "won": 0})
            merged["played"] += row["played"]
            merged["won"] += row["won"]
    pairs = in_scope(StatsPair.objects.filter(player=player, other__hide_stats=False), filters, circle)
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
    are behind (``increments.bring_up_to_date``: a fixed number more when any).

    - ``table``: one row per member who does not hide, ``{"player", "player_id", "evenings", "hands", "net",
      "rank"}``, best net first; members without hands in the range are listed at zero; equal nets share a rank.
    - ``evenings``, ``hands``: the circle's counted evenings and hands in the range.
    - ``records``: ``highest_hand`` and ``biggest_loss`` (one player's amount in one hand, with the player),
      ``best_evening`` and ``worst_evening`` (one player's net over one evening).
    """
    tables = Table.objects.filter(evening__circle=circle)
    key = ("circle", circle.pk, game, since, until)
    filters = Filters(game, since, until)
    return cached(key, tables, circle.owner_id, lambda: _circle_stats(circle, filters, tables))


def _circle_stats(circle: Any, filters: Filters, tables: QuerySet[Table]) -> dict[str, Any]:
    increments.bring_up_to_date(tables)
    lines = in_scope(StatsLine.objects.all(), filters, circle)
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
