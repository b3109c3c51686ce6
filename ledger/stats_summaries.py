"""The statistics summaries: per table and player, what the table's counted hands say (``StatsLine``,
``StatsDeclared``, ``StatsPair``), computed by the database from the postings and the stored hand documents.

Statistics over years of evenings add up these few rows per table instead of reading every hand, so a circle's
season costs about what one evening's page does. A table's summaries are derived data: ``refresh`` recomputes
those of the tables whose ``revision`` moved on since (every change to a table's hands, a player renamed, bumps
it), before any statistic reads them, and a changed table's once a Record's answer has gone out
(``refresh_after_response``). While an evening is played only its own tables are recomputed; the first statistic
after an upgrade or an import of years of hands computes all of its tables once, in that request.

Each recomputation is a fixed number of statements whatever the number of tables or hands: the stale tables are
locked and listed, their old summaries deleted, and three ``INSERT … SELECT`` write the new ones from Django's
own SQL for the per-posting facts, aggregated around it (see ``ledger.stats`` for the sides).
"""

# ruff: noqa: S608 - the SQL around Django's is made of this module's constants; values go as parameters

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from typing import Any

from django.core.signals import request_finished, request_started
from django.db import DatabaseError, connections, transaction
from django.db.models import Case, Count, Expression, F, Func, IntegerField, Q, QuerySet, TextField, Value, When, Window
from django.db.models.expressions import OrderBy
from django.db.models.functions import Cast, Coalesce, FirstValue, Greatest, RowNumber

from ledger import games
from ledger.models import Hand, Posting, StatsDeclared, StatsLine, StatsPair, Table

DECLARER = "declarer"
DEFENDER = "defender"
NO_SIDE = ""

# Where each game's hand document keeps the contract the declarer plays (the hand form's own field) and the raises
# on it (the keys holding a level, 0 = none): Mariáš flekks each component on its own, so the hand's level is the
# highest of them; Šnapser's raises and Skat's Kontra (1) / Re (2) are one number.
CONTRACT_FIELDS: dict[str, str] = {name: adapter.form.contract_field for name, adapter in games.GAMES.items()}
RAISE_FIELDS: dict[str, tuple[str, ...]] = {
    "marias": ("flek__hra", "flek__sedma", "flek__stovka", "flek__betl", "flek__durch"),
    "snapser": ("raises",),
    "skat": ("kontra",),
}
if set(RAISE_FIELDS) != set(games.GAMES):  # pragma: no cover - a game added without its statistics
    raise ImportError(f"ledger.stats_summaries covers {sorted(RAISE_FIELDS)}, the ledger has {sorted(games.GAMES)}")
# The seat count at which the dealer a hand document names sits out of the hand (Skat's fourth seat).
SITTING_OUT_SEATS = 4


class JSONArrayLength(Func):
    """The length of a JSON array column (``Table.seat_names``): SQLite's json_array_length, PostgreSQL's
    jsonb_array_length."""

    function = "JSON_ARRAY_LENGTH"
    output_field = IntegerField()

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return self.as_sql(compiler, connection, function="JSONB_ARRAY_LENGTH", **extra)


def with_sides(postings: QuerySet[Posting]) -> QuerySet[Posting]:
    """The postings with what the hand document says about them: ``declarer_name``, ``partner_name``,
    ``out_name`` (the dealer sitting out, if any), ``contract`` and ``raise_level`` (see the module docstring)."""
    seats = JSONArrayLength("hand__table__seat_names")
    return postings.alias(seat_count=seats).annotate(
        declarer_name=document_text("declarer"),
        partner_name=document_text("partner"),
        out_name=Case(When(Q(seat_count=SITTING_OUT_SEATS), then=document_text("dealer")), default=Value(None)),
        contract=Case(
            *(When(hand__table__game=name, then=document_text(field)) for name, field in CONTRACT_FIELDS.items()),
            default=Value(None),
        ),
        raise_level=Case(
            *(When(hand__table__game=name, then=_level(fields)) for name, fields in RAISE_FIELDS.items()),
            default=Value(0),
            output_field=IntegerField(),
        ),
    )


class DocumentText(Func):
    """The text at a path in the posting's hand document, SQL NULL when absent or null: SQLite's ``json_extract``,
    PostgreSQL's ``#>>``. One plain extraction (Django's key transforms test the JSON type first on SQLite, which
    triples the work on every row), compared as plain text (a key transform compares its right-hand side as JSON).
    """

    output_field = TextField()

    def __init__(self, *path: str) -> None:
        super().__init__(F("hand__document"))
        if not all(key.isidentifier() for key in path):
            raise ValueError(f"not a document path: {path}")  # they are inlined as a JSON path below
        self.path = path

    def as_sqlite(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        sql, params = compiler.compile(self.source_expressions[0])
        return f"JSON_EXTRACT({sql}, %s)", [*params, "$." + ".".join(self.path)]

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        sql, params = compiler.compile(self.source_expressions[0])
        return f"({sql} #>> %s::text[])", [*params, "{" + ",".join(self.path) + "}"]


def document_text(*path: str) -> Expression:
    """The text at ``path`` in the posting's hand document (``DocumentText``)."""
    return DocumentText(*path)


def _level(fields: tuple[str, ...]) -> Expression:
    levels = [Coalesce(Cast(document_text(*field.split("__")), IntegerField()), Value(0)) for field in fields]
    return levels[0] if len(levels) == 1 else Greatest(*levels)


# --------------------------------------------------------------------------------------------------------------
# Recomputing the summaries of stale tables

SUMMARIES = (StatsLine, StatsDeclared, StatsPair)
log = logging.getLogger(__name__)
_pending = threading.local()


def refresh_after_response(table_id: int) -> None:
    """Recompute the table's summaries once the current request's answer has been sent (Django's
    ``request_finished``: the scorekeeper's phone does not wait for it), so that the statistics asked after an
    evening's play find them ready. Called after the commit of every change to a table's hands; outside a request
    nothing happens, and the next statistic recomputes them (``refresh``)."""
    pending: set[int] = getattr(_pending, "tables", set())
    pending.add(table_id)
    _pending.tables = pending


def _forget_pending(**_kwargs: Any) -> None:
    _pending.tables = set()


def _refresh_pending(**_kwargs: Any) -> None:
    pending: set[int] = getattr(_pending, "tables", set())
    if not pending:
        return
    _pending.tables = set()
    try:
        # Tables of evenings left out of statistics (a tournament's) wait until somebody asks.
        refresh(Table.objects.filter(pk__in=pending, evening__counted=True))
    except DatabaseError:  # the next statistic recomputes them; the answer has gone out already
        log.warning(
            "Statistics summaries of tables %s not recomputed after the response", sorted(pending), exc_info=True
        )


request_started.connect(_forget_pending, dispatch_uid="talon-stats-forget")
request_finished.connect(_refresh_pending, dispatch_uid="talon-stats-refresh")


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


def side_sql(alias: str, name: str) -> str:
    """``ledger.stats.side_of`` in SQL over the columns of ``alias`` (a subquery of ``_facts``) for the player
    called ``name`` (a column): the same cases in the same order."""
    declarer, partner, out = f"{alias}.declarer_name", f"{alias}.partner_name", f"{alias}.out_name"
    return (
        f"CASE WHEN {declarer} IS NULL OR {declarer} = '' THEN '{NO_SIDE}'"
        f" WHEN {declarer} = {name} THEN '{DECLARER}' WHEN {partner} = {name} THEN '{DECLARER}'"
        f" WHEN {out} = {name} THEN '{NO_SIDE}' ELSE '{DEFENDER}' END"
    )


def _count(condition: str) -> str:
    return f"SUM(CASE WHEN {condition} THEN 1 ELSE 0 END)"


def _money(condition: str, column: str) -> str:
    # Rounded to the four places amounts have: SQLite adds decimals as floats.
    return f"ROUND(SUM(CASE WHEN {condition} THEN {column} ELSE 0 END), 4)"


# A side raised the hand: the defenders give the odd levels (flek or Kontra, tutti, kalhoty), the declarer's side
# answers with the even ones (re, boty), as ``ledger.stats._raised_by_own_side`` says.
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
