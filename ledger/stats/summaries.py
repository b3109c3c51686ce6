"""The statistics summaries of whole tables, computed by the database from the postings and the stored hand
documents: per table and player, what the table's counted hands say (``StatsLine``, ``StatsDeclared``,
``StatsPair``).

Statistics over years of evenings add up these few rows per table instead of reading every hand, so a circle's
season costs about what one evening's page does. A table's summaries are derived data, kept at the table's
``revision`` (``Table.stats_revision``): a recorded or changed hand adds what it changed after its commit, once
its request has answered or in the ``stats_catch_up`` job (``ledger.stats.increments``); ``refresh`` recomputes
from scratch those of the tables whose revision moved on otherwise (a player renamed, an import, a table never
summarized, changes not taken in yet), before any statistic reads them.

Each recomputation is a fixed number of statements whatever the number of tables or hands: the stale tables are
locked and listed, their old summaries deleted, and three ``INSERT … SELECT`` write the new ones from Django's
own SQL for the per-posting facts, aggregated around it (see ``ledger.stats.documents`` for the sides).
"""

# ruff: noqa: S608 - the SQL around Django's is made of this module's constants; values go as parameters

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connections, transaction
from django.db.models import Case, Count, F, IntegerField, Q, QuerySet, Value, When, Window
from django.db.models.expressions import OrderBy
from django.db.models.functions import FirstValue, RowNumber

from ledger.models import Hand, Posting, Table
from ledger.stats.documents import DECLARER, DEFENDER, NO_SIDE, side_sql, with_sides
from ledger.stats.models import StatsChange, StatsDeclared, StatsLine, StatsPair

SUMMARIES = (StatsLine, StatsDeclared, StatsPair)


def refresh(tables: QuerySet[Table]) -> int:
    """Recompute the summaries of those of ``tables`` whose revision moved on; the number recomputed. One query
    when none did.

    Under the stale tables' row locks (PostgreSQL; SQLite's transactions are IMMEDIATE here, one writer at a
    time), so two statistics asked at once do not both write them, and a hand stored meanwhile waits: the
    revision marked is the one the summaries were computed at."""
    stale_of = Q(stats_revision__isnull=True) | ~Q(stats_revision=F("revision"))
    candidates = Table.objects.using(tables.db).filter(pk__in=tables.values("pk")).filter(stale_of)
    if not candidates.exists():
        return 0
    with transaction.atomic(using=tables.db):
        stale = list(candidates.select_for_update(of=("self",)).values_list("pk", flat=True))
        if stale:
            _recompute(stale, tables.db)
    return len(stale)


def _recompute(stale: Sequence[int], using: str) -> None:
    for model in SUMMARIES:
        model.objects.using(using).filter(table_id__in=stale).delete()
    counted = Posting.objects.using(using).filter(hand__status=Hand.Status.COUNTED, hand__table_id__in=stale)
    _insert(using, _LINES, [_facts(counted), _runs(counted), _table_hands(stale, using)])
    _insert(using, _DECLARED, [_facts(counted)])
    _insert(using, _PAIRS, [_pair_facts(counted)])
    Table.objects.using(using).filter(pk__in=stale).update(stats_revision=F("revision"))
    # The changes written down up to here are in the recomputed summaries: none is taken in again.
    StatsChange.objects.using(using).filter(table_id__in=stale).delete()


def _insert(using: str, sql: str, inners: list[QuerySet[Any]]) -> None:
    """Run ``sql`` (an ``INSERT … SELECT`` of this module with ``{0}``, ``{1}``… where the querysets' SQL goes, in
    order of appearance, each at most once)."""
    parts = [inner.query.get_compiler(using=using).as_sql() for inner in inners]
    statement = sql.format(*(part_sql for part_sql, _params in parts))
    params = [param for _sql, part_params in parts for param in part_params]
    with connections[using].cursor() as cursor:
        cursor.execute(statement, params)


def _keyed(counted: QuerySet[Posting]) -> QuerySet[Posting]:
    """The postings with their table, player, the player's name and amount as plain columns, and what the hand
    document says about the sides, the contract and the raises (``with_sides``): the one place the documents
    are read."""
    return with_sides(counted).annotate(
        table_key=F("hand__table_id"), player_key=F("player_id"), name=F("player__name"), money=F("amount")
    )


def _facts(counted: QuerySet[Posting]) -> QuerySet[Any]:
    """Per posting: ``_keyed``, and the first hands of the player's largest and smallest amount at the table."""
    facts: QuerySet[Any] = (
        _keyed(counted)
        .annotate(top_hand=_first_hand(F("amount").desc()), bottom_hand=_first_hand(F("amount").asc()))
        .order_by()
        .values(*FACT_COLUMNS)
    )
    return facts


# The columns of ``_facts`` (a tuple: the type checker cannot see the annotations).
FACT_COLUMNS: tuple[str, ...] = ("table_key", "player_key", "name", "money", "declarer_name", "partner_name")
FACT_COLUMNS += ("out_name", "contract", "raise_level", "top_hand", "bottom_hand")


def _first_hand(by_amount: OrderBy) -> Window:
    """The first hand played (lowest number) among the player's hands at the table with the largest (smallest)
    amount, on each of them."""
    return Window(
        FirstValue("hand_id"),
        partition_by=[F("hand__table_id"), F("player_id")],
        order_by=[by_amount, F("hand__number").asc()],
    )


def _runs(counted: QuerySet[Posting]) -> QuerySet[Any]:
    """Per posting in the order of the hands: whether the player won it (amount above zero), its row number among
    the player's hands at the table, among the won (or lost) ones, and the player's hands at the table; a run of
    won hands shares ``all_rank - won_rank`` (gaps and islands)."""
    table_and_player = [F("hand__table_id"), F("player_id")]
    order = F("hand__number").asc()
    won = Case(When(amount__gt=0, then=Value(1)), default=Value(0), output_field=IntegerField())
    return (
        counted.annotate(
            table_key=F("hand__table_id"),
            player_key=F("player_id"),
            won=won,
            all_rank=Window(RowNumber(), partition_by=table_and_player, order_by=order),
            won_rank=Window(RowNumber(), partition_by=[*table_and_player, won], order_by=order),
            total=Window(Count("pk"), partition_by=table_and_player),
        )
        .order_by()
        .values("table_key", "player_key", "won", "all_rank", "won_rank", "total")
    )


def _table_hands(stale: Sequence[int], using: str) -> QuerySet[Any]:
    """Per stale table: its counted hands."""
    return (
        Hand.objects.using(using)
        .filter(table_id__in=stale, status=Hand.Status.COUNTED)
        .order_by()
        .values("table_id")
        .annotate(hand_total=Count("pk"))
        .values("table_id", "hand_total")
    )


def _pair_facts(counted: QuerySet[Posting]) -> QuerySet[Any]:
    """Per posting and each other player's posting in the same hand: the posting (``_keyed``) with the other
    player's id and name."""
    pairs: QuerySet[Any] = (
        _keyed(counted)
        .annotate(other_key=F("hand__postings__player_id"), other_name=F("hand__postings__player__name"))
        .exclude(other_key=F("player_id"))
        .order_by()
        .values(*PAIR_COLUMNS)
    )
    return pairs


PAIR_COLUMNS: tuple[str, ...] = ("table_key", "player_key", "name", "money", "other_key", "other_name")
PAIR_COLUMNS += ("declarer_name", "partner_name", "out_name")


def _count(condition: str) -> str:
    return f"SUM(CASE WHEN {condition} THEN 1 ELSE 0 END)"


def _money(condition: str, column: str) -> str:
    # Rounded to the four places amounts have: SQLite adds decimals as floats.
    return f"ROUND(SUM(CASE WHEN {condition} THEN {column} ELSE 0 END), 4)"


# A side raised the hand: the defenders give the odd levels (flek or Kontra, tutti, kalhoty), the declarer's side
# answers with the even ones (re, boty), as ``documents.HandSides.raised_by_side_of`` says.
_RAISED = f"((s.side = '{DEFENDER}' AND s.raise_level >= 1) OR (s.side = '{DECLARER}' AND s.raise_level >= 2))"
_DECLARES = "s.declarer_name = s.name"

_LINES = (
    "INSERT INTO ledger_statsline (table_id, player_id, table_hands, hands, won, net, most, least, most_hand_id,"
    " least_hand_id, flek_given, flek_won, declared, declared_won, best_run, lead_run, tail_run)"
    " SELECT a.table_key, a.player_key, c.hand_total, a.hands, a.won, a.net, a.most, a.least, a.most_hand,"
    " a.least_hand, a.flek_given,"
    " a.flek_won, a.declared, a.declared_won,"
    " COALESCE(r.best_run, 0), COALESCE(r.lead_run, 0), COALESCE(r.tail_run, 0)"
    " FROM (SELECT s.table_key, s.player_key, COUNT(*) AS hands, " + _count("s.money > 0") + " AS won,"
    " ROUND(SUM(s.money), 4) AS net, MAX(s.money) AS most, MIN(s.money) AS least,"
    " MAX(s.top_hand) AS most_hand, MAX(s.bottom_hand) AS least_hand,"
    f" {_count(_RAISED)} AS flek_given, {_count(_RAISED + ' AND s.money > 0')} AS flek_won,"
    f" {_count(_DECLARES)} AS declared, {_count(_DECLARES + ' AND s.money > 0')} AS declared_won"
    f" FROM (SELECT f.*, {side_sql('f', 'f.name')} AS side FROM ({{0}}) f) s"
    " GROUP BY s.table_key, s.player_key) a"
    " LEFT JOIN (SELECT runs.table_key, runs.player_key, MAX(runs.length) AS best_run,"
    " MAX(CASE WHEN runs.first_rank = 1 THEN runs.length ELSE 0 END) AS lead_run,"
    " MAX(CASE WHEN runs.last_rank = runs.total THEN runs.length ELSE 0 END) AS tail_run"
    " FROM (SELECT n.table_key, n.player_key, COUNT(*) AS length, MIN(n.all_rank) AS first_rank,"
    " MAX(n.all_rank) AS last_rank, MAX(n.total) AS total FROM ({1}) n WHERE n.won = 1"
    " GROUP BY n.table_key, n.player_key, n.all_rank - n.won_rank) runs"
    " GROUP BY runs.table_key, runs.player_key) r ON r.table_key = a.table_key AND r.player_key = a.player_key"
    " JOIN ({2}) c ON c.table_id = a.table_key"
)

_DECLARED = (
    "INSERT INTO ledger_statsdeclared (table_id, player_id, contract, played, won)"
    " SELECT s.table_key, s.player_key, COALESCE(s.contract, ''), COUNT(*), " + _count("s.money > 0") + ""
    " FROM ({0}) s WHERE s.declarer_name = s.name AND s.declarer_name <> ''"
    " GROUP BY s.table_key, s.player_key, COALESCE(s.contract, '')"
)

_TOGETHER = f"x.side = x.other_side AND x.side <> '{NO_SIDE}'"
_AGAINST = f"x.side <> x.other_side AND x.side <> '{NO_SIDE}' AND x.other_side <> '{NO_SIDE}'"
_PAIRS = (
    "INSERT INTO ledger_statspair (table_id, player_id, other_id, with_hands, with_net, with_won, against_hands,"
    " against_net, against_won)"
    f" SELECT x.table_key, x.player_key, x.other_key, {_count(_TOGETHER)}, {_money(_TOGETHER, 'x.money')},"
    f" {_count(_TOGETHER + ' AND x.money > 0')}, {_count(_AGAINST)}, {_money(_AGAINST, 'x.money')},"
    f" {_count(_AGAINST + ' AND x.money > 0')}"
    f" FROM (SELECT p.table_key, p.player_key, p.other_key, p.money, {side_sql('p', 'p.name')} AS side,"
    f" {side_sql('p', 'p.other_name')} AS other_side FROM ({{0}}) p) x"
    " GROUP BY x.table_key, x.player_key, x.other_key"
)
