"""Statistics: per player and per circle, per game and date range, computed by the database.

Every figure is an aggregate over the counted postings (one player's money for one hand) and the stored hand
documents (``Hand.document``, read through JSON key lookups that SQLite and PostgreSQL both answer): no answer
loads the hands into Python, and each costs a fixed number of queries whatever the number of evenings or hands.
Python only walks rows that are already per evening (the net series, the evening streak) or per player.

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
import hashlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.core.cache import cache
from django.db import connections
from django.db.models import (
    Case,
    Count,
    Expression,
    F,
    Func,
    IntegerField,
    Max,
    Min,
    Q,
    QuerySet,
    Sum,
    TextField,
    Value,
    When,
    Window,
)
from django.db.models.functions import Cast, Coalesce, Greatest, RowNumber
from django.utils.translation import gettext as _

from ledger import games
from ledger.models import Hand, Player, Posting, PostingQuerySet, Table, amount_sum, exact_total, result_label

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
    raise ImportError(f"ledger.stats covers {sorted(RAISE_FIELDS)}, the ledger has {sorted(games.GAMES)}")
# How long a computed answer is kept: it is looked up by the state of the books, so it is never stale, only unused.
CACHE_SECONDS = 7 * 24 * 3600
# The seat count at which the dealer a hand document names sits out of the hand (Skat's fourth seat).
SITTING_OUT_SEATS = 4


class JSONArrayLength(Func):
    """The length of a JSON array column (``Table.seat_names``): SQLite's json_array_length, PostgreSQL's
    jsonb_array_length."""

    function = "JSON_ARRAY_LENGTH"
    output_field = IntegerField()

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return self.as_sql(compiler, connection, function="JSONB_ARRAY_LENGTH", **extra)


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
    found = cache.get(name)
    if found is None:
        found = compute()
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


def side_of(name: Any) -> Case:
    """The side of the player called ``name`` (an expression) in the hand of each posting (``with_sides``)."""
    return Case(
        When(Q(declarer_name__isnull=True) | Q(declarer_name=""), then=Value(NO_SIDE)),
        When(declarer_name=name, then=Value(DECLARER)),
        When(partner_name=name, then=Value(DECLARER)),
        When(out_name=name, then=Value(NO_SIDE)),
        default=Value(DEFENDER),
    )


def _raised_by_own_side() -> Q:
    """The hand was raised by the posting's player's side: the defenders give the odd levels (flek or Kontra,
    tutti, kalhoty), the declarer side answers with the even ones (re, boty), so a defender's side raised from
    level 1 on and the declarer's side from level 2 on."""
    return Q(side=DEFENDER, raise_level__gte=1) | Q(side=DECLARER, raise_level__gte=2)


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
    """One player's statistics (see the module docstring for what counts and the sides). Six queries.

    - ``evenings``, ``hands``: counted evenings and hands the player has postings in; ``net``: their exact sum.
    - ``net_series``: per evening, oldest first, ``{"date", "evening", "net", "cumulative"}``.
    - ``declared``: ``{contract: {"played", "won"}}`` over the hands the player declared (the contract is the
      document's ``contract``, Šnapser's ``announcement``); won = the player's amount in the hand is above zero.
      Without a game, contracts of the same name in two games are added up; ``declared_by_game`` keeps them
      apart: ``{game: {contract: {"played", "won"}}}``.
    - ``flek``: ``{"given", "won"}``: hands raised by the player's side (``_raised_by_own_side``: Mariáš flek,
      Šnapser kontra, Skat Kontra by the defenders; re by the declarer's side), and of those the ones the player
      won (amount above zero).
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
    return _cached(key, tables, player.owner_id, lambda: _player_stats(player, game, since, until, circle))


def _player_stats(
    player: Player, game: str | None, since: datetime.date | None, until: datetime.date | None, circle: Any
) -> dict[str, Any]:
    postings = counted_postings(game=game, since=since, until=until, circle=circle)
    mine = with_sides(postings.filter(player=player)).annotate(side=side_of(Value(player.name)))
    totals = mine.aggregate(
        hands=Count("pk"),
        evenings=Count("hand__table__evening", distinct=True),
        net=amount_sum(),
        biggest_win=Max("amount"),
        biggest_loss=Min("amount"),
        flek_given=Count("pk", filter=_raised_by_own_side()),
        flek_won=Count("pk", filter=_raised_by_own_side() & Q(amount__gt=0)),
    )
    hands = int(totals["hands"])
    series = _net_series(postings.filter(player=player))
    declared_by_game = _declared(mine)
    declared: dict[str, dict[str, int]] = {}
    for contracts in declared_by_game.values():
        for contract, row in contracts.items():
            merged = declared.setdefault(contract, {"played": 0, "won": 0})
            merged["played"] += row["played"]
            merged["won"] += row["won"]
    partners, opponents = _partners(postings, player)
    evening_nets = [row["net"] for row in series]
    return {
        "player": player.name,
        "hidden": bool(player.hide_stats),
        "evenings": int(totals["evenings"]),
        "hands": hands,
        "net": exact_total(totals["net"]),
        "net_series": series,
        "declared": declared,
        "declared_by_game": declared_by_game,
        "flek": {"given": int(totals["flek_given"]), "won": int(totals["flek_won"])},
        "partners": partners,
        "opponents": opponents,
        "biggest_win": None if not hands else exact_total(totals["biggest_win"]),
        "biggest_loss": None if not hands else exact_total(totals["biggest_loss"]),
        "records": {
            "highest_hand": _highest_hand(postings.filter(player=player), totals["biggest_win"]),
            "best_evening": max(series, key=lambda row: row["net"], default=None),
            "worst_evening": min(series, key=lambda row: row["net"], default=None),
        },
        "streaks": {"hands": _hand_streak(postings.filter(player=player)), "evenings": _longest_run(evening_nets)},
    }


def _net_series(postings: QuerySet[Posting]) -> list[dict[str, Any]]:
    """Per evening (oldest first): its date, id, the net and the running net: one grouped query."""
    rows = (
        postings.order_by()
        .values("hand__table__evening_id", "hand__table__evening__date")
        .annotate(net=amount_sum())
        .order_by("hand__table__evening__date", "hand__table__evening_id")
    )
    series: list[dict[str, Any]] = []
    cumulative = Decimal(0)
    for row in rows:
        net = exact_total(row["net"])
        cumulative += net
        series.append(
            {
                "date": row["hand__table__evening__date"],
                "evening": row["hand__table__evening_id"],
                "net": net,
                "cumulative": cumulative,
            }
        )
    return series


# The grouping of declared contracts (a tuple: the type checker cannot see the annotation ``contract``).
GAME_AND_CONTRACT = ("hand__table__game", "contract")


def _declared(mine: QuerySet[Posting]) -> dict[str, dict[str, dict[str, int]]]:
    """{game: {contract: {"played", "won"}}} over the hands the player declared: one grouped query."""
    rows = (
        mine.filter(Q(side=DECLARER) & Q(declarer_name=F("player__name")))
        .order_by()
        .values(*GAME_AND_CONTRACT)
        .annotate(played=Count("pk"), won=Count("pk", filter=Q(amount__gt=0)))
        .order_by("hand__table__game", "-played", "contract")
    )
    declared: dict[str, dict[str, dict[str, int]]] = {}
    for row in rows:
        contract = row["contract"] or ""
        declared.setdefault(row["hand__table__game"], {})[contract] = {"played": row["played"], "won": row["won"]}
    return declared


def _partners(postings: PostingQuerySet, player: Player) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """({name: {"hands", "net", "won"}} of partners, the same of opponents): one grouped query over the other
    players' postings in the player's hands, each joined to the player's own posting in the same hand.

    The innermost subquery reads each row's names from the hand document once, the one around it works out both
    sides from them (``side_of``, in SQL), and the grouping only compares: neither SQLite nor PostgreSQL shares an
    expression that several aggregates repeat."""
    others = (
        postings.filter(hand__postings__player=player)
        .exclude(player=player)
        .filter(player__hide_stats=False)
        .alias(seat_count=JSONArrayLength("hand__table__seat_names"))
        .annotate(
            mine=F("hand__postings__amount"),
            declarer_name=document_text("declarer"),
            partner_name=document_text("partner"),
            out_name=Case(When(Q(seat_count=SITTING_OUT_SEATS), then=document_text("dealer")), default=Value(None)),
        )
        .order_by()
        .values(*PAIR_COLUMNS)
    )
    together = "sides.side = sides.my_side AND sides.side <> ''"
    against = "sides.side <> sides.my_side AND sides.side <> '' AND sides.my_side <> ''"
    rows = _around(
        others,
        "SELECT sides.player__name,"  # noqa: S608 - constants of this module around Django's SQL
        f" SUM(CASE WHEN {together} THEN 1 ELSE 0 END), SUM(CASE WHEN {together} THEN sides.mine ELSE 0 END),"
        f" SUM(CASE WHEN {together} AND sides.mine > 0 THEN 1 ELSE 0 END),"
        f" SUM(CASE WHEN {against} THEN 1 ELSE 0 END), SUM(CASE WHEN {against} THEN sides.mine ELSE 0 END),"
        f" SUM(CASE WHEN {against} AND sides.mine > 0 THEN 1 ELSE 0 END)"
        f" FROM (SELECT names.player__name, names.mine, {_side_sql('names.player__name')} AS side,"
        f" {_side_sql('%s')} AS my_side FROM ({{inner}}) names) sides GROUP BY sides.player__name",
        before=[player.name] * 3,
    )
    partners: dict[str, dict[str, Any]] = {}
    opponents: dict[str, dict[str, Any]] = {}
    for name, *figures in rows:
        hands, net, won, against_hands, against_net, against_won = figures
        if hands:
            partners[name] = {"hands": int(hands), "net": exact_total(net), "won": int(won)}
        if against_hands:
            opponents[name] = {"hands": int(against_hands), "net": exact_total(against_net), "won": int(against_won)}
    # With whom the player wins most first.
    return _by_net(partners), _by_net(opponents)


def _side_sql(name: str) -> str:
    """``side_of`` in SQL over the columns of the partner table's subquery, for the name ``name`` (a column or a
    placeholder): the same cases in the same order."""
    return (
        "CASE WHEN names.declarer_name IS NULL OR names.declarer_name = '' THEN ''"
        f" WHEN names.declarer_name = {name} THEN '{DECLARER}' WHEN names.partner_name = {name} THEN '{DECLARER}'"
        f" WHEN names.out_name = {name} THEN '' ELSE '{DEFENDER}' END"
    )


# The columns of the partner table's subquery (a tuple: the type checker cannot see the annotations).
PAIR_COLUMNS = ("player__name", "mine", "declarer_name", "partner_name", "out_name")


def _around(inner: QuerySet[Any], outer: str, before: list[Any] | None = None) -> list[tuple[Any, ...]]:
    """Run ``outer`` (SQL with ``{inner}`` where the queryset's SQL goes) and return its rows: for a grouping over
    values a subquery computes once per row. The inner SQL and its parameters are Django's; ``outer`` is a
    constant of this module, ``before`` the parameters of its placeholders ahead of the inner SQL."""
    sql, params = inner.query.get_compiler(using=inner.db).as_sql()
    with connections[inner.db].cursor() as cursor:
        cursor.execute(outer.replace("{inner}", sql), [*(before or []), *params])
        return list(cursor.fetchall())


def _by_net(table: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return dict(sorted(table.items(), key=lambda item: (-item[1]["net"], item[0])))


def _highest_hand(postings: QuerySet[Posting], top: object) -> dict[str, Any] | None:
    """The hand that brought the player the most, found by its amount ``top`` (the largest): one query."""
    if top is None:
        return None
    found = (
        postings.filter(amount=exact_total(top))
        .select_related("hand__table__evening")
        .order_by("hand__table__evening__date", "hand_id")
        .first()
    )
    return None if found is None else hand_record(found)


def hand_record(posting: Posting, *, with_player: bool = False) -> dict[str, Any]:
    """A posting shown as a record: amount, the evening's date and id, the hand's label (and the player)."""
    hand = posting.hand
    record = {
        "amount": exact_total(posting.amount),
        "date": hand.table.evening.date,
        "evening": hand.table.evening_id,
        "game": hand.table.game,
        "label": result_label(hand.result),
    }
    if with_player:
        record["player"] = posting.player.name
    return record


def _hand_streak(postings: QuerySet[Posting]) -> int:
    """The most hands won in a row: one query (gaps and islands: the row number of each hand among all of the
    player's hands minus its row number among the won ones is the same along a run of won hands)."""
    order = [F("hand__table__evening__date").asc(), F("hand__table__evening_id").asc(), F("hand__table_id").asc()]
    order.append(F("hand__number").asc())
    won = Case(When(amount__gt=0, then=Value(1)), default=Value(0), output_field=IntegerField())
    numbered = (
        postings.order_by()
        .annotate(
            won=won,
            all_rank=Window(RowNumber(), order_by=order),
            won_rank=Window(RowNumber(), partition_by=[won], order_by=order),
        )
        .values("won", "all_rank", "won_rank")
    )
    found = _around(
        numbered,
        "SELECT MAX(run) FROM (SELECT COUNT(*) AS run FROM ({inner}) numbered"
        " WHERE numbered.won = 1 GROUP BY numbered.all_rank - numbered.won_rank) runs",
    )
    return int(found[0][0]) if found and found[0][0] is not None else 0


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
    """The circle's season table and records over its counted evenings (players who hide left out). Five queries
    (six when a former member still has hands in the range).

    - ``table``: one row per member who does not hide, ``{"player", "player_id", "evenings", "hands", "net",
      "rank"}``, best net first; members without hands in the range are listed at zero; equal nets share a rank.
    - ``evenings``, ``hands``: the circle's counted evenings and hands in the range.
    - ``records``: ``highest_hand`` and ``biggest_loss`` (one player's amount in one hand, with the player),
      ``best_evening`` and ``worst_evening`` (one player's net over one evening).
    """
    tables = Table.objects.filter(evening__circle=circle)
    key = ("circle", circle.pk, game, since, until)
    return _cached(key, tables, circle.owner_id, lambda: _circle_stats(circle, game, since, until))


def _circle_stats(
    circle: Any, game: str | None, since: datetime.date | None, until: datetime.date | None
) -> dict[str, Any]:
    postings = counted_postings(game=game, since=since, until=until, circle=circle)
    shown = postings.filter(player__hide_stats=False)
    totals = postings.aggregate(
        evenings=Count("hand__table__evening", distinct=True), hands=Count("hand", distinct=True)
    )
    rows = {
        row["player_id"]: row
        for row in shown.order_by()
        .values("player_id")
        .annotate(
            evenings=Count("hand__table__evening", distinct=True),
            hands=Count("pk"),
            net=amount_sum(),
            most=Max("amount"),
            least=Min("amount"),
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
            "evenings": rows[pk]["evenings"] if pk in rows else 0,
            "hands": rows[pk]["hands"] if pk in rows else 0,
            "net": exact_total(rows[pk]["net"]) if pk in rows else Decimal(0),
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
        "evenings": int(totals["evenings"]),
        "hands": int(totals["hands"]),
        "table": table,
        "records": _circle_records(
            shown, [row["most"] for row in rows.values()], [row["least"] for row in rows.values()]
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


def _circle_records(shown: QuerySet[Posting], most: list[Any], least: list[Any]) -> dict[str, Any]:
    """The circle's records among players who do not hide: two queries. ``most`` and ``least``: each player's
    largest and smallest amount in one hand (from the season table's query), so the hands holding the records are
    found by their amount; the evenings come grouped per player and evening (a row per evening each player
    played), the best and the worst picked here."""
    if not most:
        return {"highest_hand": None, "biggest_loss": None, "best_evening": None, "worst_evening": None}
    top, bottom = max(exact_total(amount) for amount in most), min(exact_total(amount) for amount in least)
    extremes = list(
        shown.filter(Q(amount=top) | Q(amount=bottom))
        .select_related("hand__table__evening", "player")
        .order_by("hand__table__evening__date", "hand_id", "player__name")
    )
    highest = next(posting for posting in extremes if exact_total(posting.amount) == top)
    lowest = next(posting for posting in extremes if exact_total(posting.amount) == bottom)
    evenings: list[dict[str, Any]] = [
        {
            "player": row["player__name"],
            "evening": row["hand__table__evening_id"],
            "date": row["hand__table__evening__date"],
            "net": exact_total(row["net"]),
        }
        for row in shown.order_by()
        .values("player__name", "hand__table__evening_id", "hand__table__evening__date")
        .annotate(net=amount_sum())
    ]
    # On a tie, the earlier evening, then the name: as ordered in the database before.
    return {
        "highest_hand": hand_record(highest, with_player=True),
        "biggest_loss": hand_record(lowest, with_player=True),
        "best_evening": min(evenings, key=lambda row: (-row["net"], row["date"], row["player"])),
        "worst_evening": min(evenings, key=lambda row: (row["net"], row["date"], row["player"])),
    }
