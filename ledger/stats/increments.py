"""The statistics summaries kept up to date hand by hand: a recorded hand adds its own rows to its table's
summaries, a corrected, voided, restored or undone hand takes out what its old version added and adds what the
new one does; never the whole table recomputed from its documents (``ledger.stats.summaries`` does that for a
table whose changes were not all written down: a player renamed, an import, a table never summarized).

Each change is written down in the hand's own transaction (``StatsChange``: a ``Hand`` created, or a hand's old
version archived as a ``HandVersion`` before it changes), one small insert and no commit of its own. Taking the
changes in is done later and by whoever comes first, table by table under the table's row lock, all of a
table's waiting changes at once (``catch_up``):

- by default once the request's answer has gone out (Django's ``request_finished``: the scorekeeper's phone does
  not wait), for the tables ``hooks.hands_changed`` named during the request;
- with ``STATS_CATCH_UP = "job"`` (a setting, or the environment variable) never in a request: the
  ``stats_catch_up`` command (``--loop``) takes in the tables with waiting changes, a moment after their first
  one, so the hands of a busy table are taken in several at a time; the worker's time per hand is the books' alone;
- and always before a statistic is read (``summaries.refresh``): nothing is lost when the job does not run.

A table's summaries are at ``Table.stats_revision``; each change raises the table's revision by one. When the
changes waiting are exactly as many as the revisions since, they are taken in and the table is marked at its
revision; otherwise (a rename, an import, a table never summarized) it is recomputed from scratch. Tables of
evenings left out of statistics (a tournament's) wait until somebody asks.

Per hand and player the additive figures (hands, won, net, raises, declared, the contracts, the pairs) move by the
difference between the old and the new version. The largest and smallest amounts and the runs of won hands
follow hands added last at the table directly; after a change to an earlier hand they are read again from the
table's postings (one narrow query, no documents).
"""

from __future__ import annotations

import logging
import os
import threading
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import DatabaseError, transaction
from django.db.models import F, Q, QuerySet

from ledger import hooks
from ledger.models import MONEY_PLACES, Hand, HandVersion, Posting, Seat, Table
from ledger.stats import summaries
from ledger.stats.documents import HandSides
from ledger.stats.models import StatsChange, StatsDeclared, StatsLine, StatsPair

log = logging.getLogger(__name__)
_local = threading.local()

AFTER_THE_ANSWER, JOB = "request", "job"


def catch_up_mode() -> str:
    """Who takes the changes in besides the statistics' readers: the request's end (default) or the job."""
    mode = getattr(settings, "STATS_CATCH_UP", None) or os.environ.get("STATS_CATCH_UP") or AFTER_THE_ANSWER
    return JOB if mode == JOB else AFTER_THE_ANSWER


# --------------------------------------------------------------------------------------------------------------
# Writing the changes down


def hand_saved(sender: Any, instance: Hand, created: bool = False, raw: bool = False, **_kwargs: Any) -> None:
    """A hand was recorded (``post_save`` of ``Hand``, inside its transaction): written down as new."""
    if created and not raw:
        StatsChange.objects.create(table_id=instance.table_id, hand_id=instance.pk, version=None)


def version_saved(sender: Any, instance: HandVersion, created: bool = False, raw: bool = False, **_kwargs: Any) -> None:
    """A hand's version was archived before it changes (``post_save`` of ``HandVersion``): written down with it."""
    if created and not raw:
        table_id = instance.hand.table_id  # the hand being changed: no query
        StatsChange.objects.create(table_id=table_id, hand_id=instance.hand_id, version=instance.version)


# --------------------------------------------------------------------------------------------------------------
# The request's end


def begin(**_kwargs: Any) -> None:
    """A request starts: the tables it changes are noted from now on (``request_started``)."""
    _local.tables = set() if catch_up_mode() == AFTER_THE_ANSWER else None


def hands_changed(event: hooks.HandsChanged) -> None:
    """The books told that a table's hands changed (after the commit): the table is noted for the request's end.
    With the job the change written down is all the mark needed."""
    tables: set[int] | None = getattr(_local, "tables", None)
    if tables is not None:
        tables.add(event.table_id)


def flush(**_kwargs: Any) -> None:
    """The request is over (``request_finished``): bring the summaries of the tables it changed up to date."""
    tables: set[int] | None = getattr(_local, "tables", None)
    _local.tables = None
    for table_id in sorted(tables or ()):
        try:
            catch_up(table_id)
        except DatabaseError:  # the next statistic takes them in; the answer has gone out already
            log.warning("Statistics summaries of table %s not brought up to date", table_id, exc_info=True)


# --------------------------------------------------------------------------------------------------------------
# Taking the changes in


class _Unheard(Exception):
    """The summaries cannot follow the changes written down (a name the seats do not know, counts that disagree)."""


def waiting_tables(*, written_before: int | None = None) -> list[int]:
    """The tables of counted evenings with changes waiting (those written before ``written_before``, a
    ``StatsChange`` id, when given: the job leaves a busy table a moment to gather more)."""
    waiting = StatsChange.objects.filter(table__evening__counted=True)
    if written_before is not None:
        waiting = waiting.filter(pk__lt=written_before)
    return sorted(set(waiting.values_list("table_id", flat=True)))


# A statistic read takes in the waiting changes of up to this many tables one by one (a fixed number of queries
# each); more tables than that, or any never summarized, are recomputed together in a fixed number of statements.
FEW_TABLES = 4


def bring_up_to_date(tables: QuerySet[Table]) -> int:
    """Before a statistic reads the summaries of ``tables``: those behind their table's revision brought up to date
    (a few by their changes written down, more at once from scratch); how many were behind. One query when none."""
    stale_of = Q(stats_revision__isnull=True) | ~Q(stats_revision=F("revision"))
    candidates = Table.objects.filter(pk__in=tables.values("pk")).filter(stale_of)
    stale = list(candidates.values_list("pk", "stats_revision")[: FEW_TABLES + 1])
    if not stale:
        return 0
    if len(stale) > FEW_TABLES or any(done is None for _pk, done in stale):
        return summaries.refresh(tables)
    for table_id, _done in stale:
        catch_up(table_id, asked=True)
    return len(stale)


def catch_up(table_id: int, *, asked: bool = False) -> str:
    """Bring the table's summaries up to date with the changes written down: "added" (taken in), "recomputed"
    (from scratch), "current", or "waiting" (an evening left out of statistics: its tables are summarized when
    somebody asks, ``asked``)."""
    with transaction.atomic():
        locked = (
            Table.objects.select_for_update(of=("self",))
            .filter(pk=table_id)
            .values("stats_revision", "revision", "evening__counted", "game", "seat_names")
            .first()
        )
        if locked is None:
            return "current"
        if not (locked["evening__counted"] or asked):
            return "waiting"  # a table left out of statistics (a tournament's) waits until somebody asks
        done, now = locked["stats_revision"], locked["revision"]
        if done is not None and done >= now:
            # Left only by a hand stored without the books raising the revision (a script): nothing to take in.
            StatsChange.objects.filter(table_id=table_id).delete()
            return "current"
        waiting = list(
            StatsChange.objects.filter(table_id=table_id).order_by("pk").values_list("pk", "hand_id", "version")
        )
        if done is not None and len(waiting) == now - done:
            try:
                _take_in(table_id, locked["game"], len(locked["seat_names"]), [row[1:] for row in waiting])
            except _Unheard:
                pass
            else:
                StatsChange.objects.filter(table_id=table_id, pk__lte=waiting[-1][0]).delete()
                Table.objects.filter(pk=table_id).update(stats_revision=now)
                return "added"
        summaries.refresh(Table.objects.filter(pk=table_id))
        return "recomputed"


@dataclass
class _State:
    """One version of a hand as the summaries see it."""

    number: int
    counted: bool
    sides: HandSides
    amounts: dict[int, Decimal]  # per player id


@dataclass
class _Sums:
    """The table's summaries in memory: the rows by key, the table's counted hands."""

    lines: dict[int, StatsLine]
    declared: dict[tuple[int, str], StatsDeclared]
    pairs: dict[tuple[int, int], StatsPair]
    table_hands: int


def _take_in(table_id: int, game: str, seat_count: int, changes: list[tuple[int, int | None]]) -> None:
    """Take ``changes`` (hand id, the version before or None when recorded; every change since the summaries'
    revision, in order) into the table's summaries: each changed hand's version before them out, its current
    version in."""
    ids = dict(Seat.objects.filter(table_id=table_id).values_list("player__name", "player_id"))
    names = {player: name for name, player in ids.items()}
    before: dict[int, int | None] = {}
    for hand_id, version in changes:
        before.setdefault(hand_id, version)  # the version the summaries hold: before the first change
    hands = {row["pk"]: row for row in Hand.objects.filter(pk__in=before).values(*_HAND_FIELDS)}
    if set(hands) != set(before):
        raise _Unheard  # a hand deleted meanwhile
    archived = [hand_id for hand_id, version in before.items() if version is not None]
    versions = {}
    if archived:
        kept = HandVersion.objects.filter(hand_id__in=archived).values(
            "hand_id", "version", "document", "result", "status"
        )
        versions = {(row["hand_id"], row["version"]): row for row in kept}

    def state(row: Mapping[str, Any], number: int) -> _State:
        amounts: dict[int, Decimal] = {}
        for name, amount in (row["result"] or {}).get("amounts", {}).items():
            if name not in ids:
                raise _Unheard
            amounts[ids[name]] = Decimal(amount).quantize(MONEY_PLACES)
        sides = HandSides.of(row["document"], game, seat_count)
        return _State(number, row["status"] == Hand.Status.COUNTED, sides, amounts)

    olds: list[_State] = []
    news: list[tuple[int, _State]] = []
    for hand_id, version in before.items():
        number = hands[hand_id]["number"]
        if version is not None:
            if (hand_id, version) not in versions:
                raise _Unheard
            olds.append(state(versions[(hand_id, version)], number))
        news.append((hand_id, state(hands[hand_id], number)))
    sums = _read(table_id)
    loaded = _Loaded.of(sums)
    if not olds:  # hands added after every other: the runs and the extremes follow them one by one
        for hand_id, new in sorted(news, key=lambda item: item[1].number):
            _add(sums, new, names, +1)
            _follow(sums, hand_id, new)
    else:
        for old in olds:
            _add(sums, old, names, -1)
        for _hand_id, new in news:
            _add(sums, new, names, +1)
        _read_again(sums, table_id)
    _write(sums, loaded, table_id)


_HAND_FIELDS = ("pk", "number", "version", "document", "result", "status")


def _read(table_id: int) -> _Sums:
    lines = {line.player_id: line for line in StatsLine.objects.filter(table_id=table_id)}
    declared = {(row.player_id, row.contract): row for row in StatsDeclared.objects.filter(table_id=table_id)}
    pairs = {(row.player_id, row.other_id): row for row in StatsPair.objects.filter(table_id=table_id)}
    table_hands = next(iter(lines.values())).table_hands if lines else 0
    return _Sums(lines, declared, pairs, table_hands)


def _add(sums: _Sums, hand: _State, names: dict[int, str], sign: int) -> None:
    """Add (``sign`` +1) or take out (-1) what one version of a hand gives each of its players."""
    if not hand.counted:
        return
    sums.table_hands += sign
    sides = hand.sides
    for player, amount in hand.amounts.items():
        name = names[player]
        won = amount > 0
        raised = sides.raised_by_side_of(name)
        declares = sides.declares(name)
        line = sums.lines.get(player)
        if line is None:
            line = sums.lines[player] = _new_line(player, amount)
        line.hands += sign
        line.won += sign * won
        line.net += sign * amount
        line.flek_given += sign * raised
        line.flek_won += sign * (raised and won)
        line.declared += sign * declares
        line.declared_won += sign * (declares and won)
        if declares:
            contract = sides.contract or ""
            row = sums.declared.get((player, contract))
            if row is None:
                row = sums.declared[(player, contract)] = StatsDeclared(
                    player_id=player, contract=contract, played=0, won=0
                )
            row.played += sign
            row.won += sign * won
        side = sides.side(name)
        for other in hand.amounts:
            if other == player:
                continue
            pair = sums.pairs.get((player, other))
            if pair is None:
                pair = sums.pairs[(player, other)] = _new_pair(player, other)
            other_side = sides.side(names[other])
            if side and side == other_side:
                pair.with_hands += sign
                pair.with_net += sign * amount
                pair.with_won += sign * won
            elif side and other_side and side != other_side:
                pair.against_hands += sign
                pair.against_net += sign * amount
                pair.against_won += sign * won


def _new_line(player: int, amount: Decimal) -> StatsLine:
    zero = Decimal(0)
    return StatsLine(
        player_id=player,
        table_hands=0,
        hands=0,
        won=0,
        net=zero,
        most=amount,
        least=amount,
        flek_given=0,
        flek_won=0,
        declared=0,
        declared_won=0,
        best_run=0,
        lead_run=0,
        tail_run=0,
    )


def _new_pair(player: int, other: int) -> StatsPair:
    zero = Decimal(0)
    return StatsPair(
        player_id=player,
        other_id=other,
        with_hands=0,
        with_net=zero,
        with_won=0,
        against_hands=0,
        against_net=zero,
        against_won=0,
    )


def _follow(sums: _Sums, hand_id: int, hand: _State) -> None:
    """A counted hand played after every other one at the table (just added): the largest and smallest amounts
    (an equal amount keeps the earlier hand) and the runs of won hands go on with it."""
    if not hand.counted:
        return
    for player, amount in hand.amounts.items():
        line = sums.lines[player]
        if line.hands == 1 or amount > line.most:
            line.most, line.most_hand_id = amount, hand_id
        if line.hands == 1 or amount < line.least:
            line.least, line.least_hand_id = amount, hand_id
        if amount > 0:
            if line.lead_run == line.hands - 1:  # every hand before this one won
                line.lead_run += 1
            line.tail_run += 1
            line.best_run = max(line.best_run, line.tail_run)
        else:
            line.tail_run = 0


def _read_again(sums: _Sums, table_id: int) -> None:
    """After a change to an earlier hand: the extremes, the runs and which rows exist, from the table's counted
    postings in the order played (one query, no documents)."""
    rows = (
        Posting.objects.filter(hand__table_id=table_id, hand__status=Hand.Status.COUNTED)
        .order_by("hand__number", "player_id")
        .values_list("player_id", "hand_id", "amount")
    )
    seen: dict[int, dict[str, Any]] = {}
    together: set[tuple[int, int]] = set()
    hands: dict[int, list[int]] = defaultdict(list)
    for player, hand_id, amount in rows:
        hands[hand_id].append(player)
        mine = seen.get(player)
        if mine is None:
            mine = seen[player] = {"hands": 0, "most": amount, "most_hand": hand_id, "least": amount}
            mine |= {"least_hand": hand_id, "run": 0, "best": 0, "lead": None}
        mine["hands"] += 1
        if amount > mine["most"]:
            mine["most"], mine["most_hand"] = amount, hand_id
        if amount < mine["least"]:
            mine["least"], mine["least_hand"] = amount, hand_id
        if amount > 0:
            mine["run"] += 1
            mine["best"] = max(mine["best"], mine["run"])
        else:
            if mine["lead"] is None:
                mine["lead"] = mine["run"]
            mine["run"] = 0
    for players in hands.values():
        together.update((player, other) for player in players for other in players if player != other)
    for player in list(sums.lines):
        line = sums.lines[player]
        mine = seen.get(player)
        if mine is None:
            if line.hands != 0:
                raise _Unheard
            del sums.lines[player]
            continue
        if line.hands != mine["hands"]:
            raise _Unheard
        line.most, line.most_hand_id = mine["most"], mine["most_hand"]
        line.least, line.least_hand_id = mine["least"], mine["least_hand"]
        line.best_run, line.tail_run = mine["best"], mine["run"]
        line.lead_run = mine["hands"] if mine["lead"] is None else mine["lead"]
    if set(seen) != set(sums.lines):
        raise _Unheard
    sums.declared = {key: row for key, row in sums.declared.items() if row.played}
    sums.pairs = {key: row for key, row in sums.pairs.items() if key in together}
    if set(sums.pairs) != together:
        raise _Unheard


@dataclass(frozen=True)
class _Loaded:
    """The summary rows as read, per model and id: their values, to write only the rows a change moved and to
    delete those no longer in ``_Sums``."""

    values: dict[Any, dict[int, tuple[Any, ...]]]

    @classmethod
    def of(cls, sums: _Sums) -> _Loaded:
        rows: dict[Any, dict[Any, Any]] = {StatsLine: sums.lines, StatsDeclared: sums.declared, StatsPair: sums.pairs}
        return cls({model: {row.pk: _values(row) for row in kept.values()} for model, kept in rows.items()})


def _values(row: Any) -> tuple[Any, ...]:
    return tuple(getattr(row, field.attname) for field in row._meta.concrete_fields)


_MONEY_FIELDS = ("net", "most", "least", "with_net", "against_net")


def _write(sums: _Sums, loaded: _Loaded, table_id: int) -> None:
    """The table's summaries written as ``sums`` says: per model, the rows a change moved (and those gone) deleted
    in one statement and the moved and new ones inserted in one (a few rows per table, whatever its number of
    hands). Written anew rather than updated: Django's ``bulk_update`` builds a CASE per field and row, and
    building it cost more than the whole hand's own work; two plain statements cost almost nothing."""
    for line in sums.lines.values():
        line.table_hands = sums.table_hands
    rows: dict[Any, dict[Any, Any]] = {StatsLine: sums.lines, StatsDeclared: sums.declared, StatsPair: sums.pairs}
    for model, kept in rows.items():
        _save(model, kept.values(), loaded.values[model], table_id)


def _save(model: Any, rows: Iterable[Any], read: dict[int, tuple[Any, ...]], table_id: int) -> None:
    moved = []
    unmoved = set()
    for row in rows:
        row.table_id = table_id
        for name in _MONEY_FIELDS:
            if hasattr(row, name):
                setattr(row, name, Decimal(getattr(row, name)).quantize(MONEY_PLACES))
        if row.pk is not None and read.get(row.pk) == _values(row):
            unmoved.add(row.pk)
        else:
            moved.append(row)
    stale = set(read) - unmoved
    if stale:
        model.objects.filter(pk__in=stale).delete()
    if moved:
        model.objects.bulk_create(moved)
