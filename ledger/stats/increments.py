"""The statistics summaries kept up to date hand by hand: a recorded hand adds its own rows to its table's
summaries, a corrected, voided, restored or undone hand takes out what its old version added and adds what the
new one does; never the whole table recomputed from its documents (``ledger.stats.summaries`` does that for a
table whose changes were not heard: a player renamed, an import, a table never summarized).

The changes are heard after their commit and worked off once the request's answer has gone out (Django's
``request_finished``: the scorekeeper's phone does not wait), all of a request's together, table by table, each
under the table's row lock:

- a hand recorded (``Hand`` created) or changed (its old version archived as a ``HandVersion``) is noted with
  the version it had before the request (none for a new hand);
- ``hooks.hands_changed`` tells the table's new revision.

A table's summaries are at ``Table.stats_revision``. When the revisions heard are exactly the next ones after it,
one per change noted, the table's summaries take in those changes and are marked at the last of them (a later
request's changes, heard by that request, follow when it ends); otherwise (another request's earlier changes not
yet taken in, a rename, an import), the table is recomputed from scratch (``summaries.refresh``). Tables of
evenings left out of statistics (a tournament's) wait until somebody asks. Outside a request nothing is noted: the
next statistic recomputes what moved on.

Per hand and player the additive figures (hands, won, net, raises, declared, the contracts, the pairs) move by the
difference between the old and the new version. The largest and smallest amounts and the runs of won hands
follow a hand added last at the table directly; after a change to an earlier hand they are read again from the
table's postings (one narrow query, no documents).
"""

from __future__ import annotations

import logging
import threading
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db import DatabaseError, transaction

from ledger import hooks
from ledger.models import MONEY_PLACES, Hand, HandVersion, Posting, Seat, Table
from ledger.stats import summaries
from ledger.stats.documents import HandSides
from ledger.stats.models import StatsDeclared, StatsLine, StatsPair

log = logging.getLogger(__name__)
_local = threading.local()


# --------------------------------------------------------------------------------------------------------------
# Hearing the changes


@dataclass
class _Heard:
    """What a request changed, per table in the order committed: the hands (id, version before, None when new)
    and the revisions the table reached."""

    changes: dict[int, list[tuple[int, int | None]]] = field(default_factory=lambda: defaultdict(list))
    revisions: dict[int, list[int]] = field(default_factory=lambda: defaultdict(list))


def _heard() -> _Heard | None:
    heard: _Heard | None = getattr(_local, "heard", None)
    return heard


def begin(**_kwargs: Any) -> None:
    """A request starts: its changes are noted from now on (``request_started``)."""
    _local.heard = _Heard()


def hand_saved(sender: Any, instance: Hand, created: bool = False, raw: bool = False, **_kwargs: Any) -> None:
    """A hand was stored (``post_save`` of ``Hand``): a new one is noted once committed."""
    if created and not raw and _heard() is not None:
        transaction.on_commit(lambda: _note(instance.table_id, instance.pk, None))


def version_saved(sender: Any, instance: HandVersion, created: bool = False, raw: bool = False, **_kwargs: Any) -> None:
    """A hand's version was archived before it changes (``post_save`` of ``HandVersion``): noted once committed."""
    if created and not raw and _heard() is not None:
        table_id = instance.hand.table_id  # the hand being changed: no query
        transaction.on_commit(lambda: _note(table_id, instance.hand_id, instance.version))


def _note(table_id: int, hand_id: int, version: int | None) -> None:
    heard = _heard()
    if heard is not None:
        heard.changes[table_id].append((hand_id, version))


def hands_changed(event: hooks.HandsChanged) -> None:
    """The books told that a table's hands changed (after the commit): its revision is noted."""
    heard = _heard()
    if heard is not None:
        heard.revisions[event.table_id].append(event.revision)


def flush(**_kwargs: Any) -> None:
    """The request is over (``request_finished``): bring the summaries of the tables it changed up to date."""
    heard = _heard()
    _local.heard = None
    if heard is None:
        return
    for table_id in sorted(set(heard.changes) | set(heard.revisions)):
        try:
            catch_up(table_id, heard.changes.get(table_id, []), heard.revisions.get(table_id, []))
        except DatabaseError:  # the next statistic recomputes them; the answer has gone out already
            log.warning("Statistics summaries of table %s not brought up to date", table_id, exc_info=True)


# --------------------------------------------------------------------------------------------------------------
# Taking the changes in


class _Unheard(Exception):
    """The summaries cannot follow the changes heard (a name the seats do not know, counts that disagree)."""


def catch_up(table_id: int, changes: list[tuple[int, int | None]], revisions: list[int]) -> str:
    """Bring the table's summaries up to date after ``changes`` (hand id, version before or None when recorded)
    that took it to ``revisions``: "added" (the changes taken in), "recomputed" (from scratch), "current", or
    "waiting" (an evening left out of statistics: its tables are summarized when somebody asks)."""
    with transaction.atomic():
        locked = (
            Table.objects.select_for_update(of=("self",))
            .filter(pk=table_id)
            .values("stats_revision", "revision", "evening__counted", "game", "seat_names")
            .first()
        )
        if locked is None:
            return "current"
        if not locked["evening__counted"]:
            return "waiting"  # a table left out of statistics (a tournament's) waits until somebody asks
        done, now = locked["stats_revision"], locked["revision"]
        if done is not None and done >= now:
            return "current"
        heard = sorted(revisions)
        # The next changes after the summaries' revision, all of them heard here (later ones, another request's
        # not yet worked off, may follow: that request takes them in after these).
        follows = done is not None and bool(heard) and heard == list(range(done + 1, heard[-1] + 1))
        if follows and len(changes) == len(revisions):
            try:
                _take_in(table_id, locked["game"], len(locked["seat_names"]), changes, latest=heard[-1] == now)
            except _Unheard:
                pass
            else:
                Table.objects.filter(pk=table_id).update(stats_revision=heard[-1])
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


def _take_in(table_id: int, game: str, seat_count: int, changes: list[tuple[int, int | None]], *, latest: bool) -> None:
    """Take ``changes`` into the table's summaries: each changed hand's version before them out, the version they
    made in (the hand's current one, or an archived one when a later request changed it again). ``latest``: no
    change came after them, so the table's postings may be read as they are now."""
    ids = dict(Seat.objects.filter(table_id=table_id).values_list("player__name", "player_id"))
    names = {player: name for name, player in ids.items()}
    before: dict[int, int | None] = {}
    made: dict[int, int] = defaultdict(int)  # per hand: the version these changes made
    for hand_id, version in changes:
        before.setdefault(hand_id, version)  # the version the summaries hold: before the request's first change
        made[hand_id] += 1
    for hand_id, version in before.items():
        made[hand_id] += version or 0  # a new hand's first version is 1, each change adds one
    hands = {row["pk"]: row for row in Hand.objects.filter(pk__in=before).values(*_HAND_FIELDS)}
    if set(hands) != set(before):
        raise _Unheard  # a hand deleted meanwhile
    archived = [
        hand_id
        for hand_id, version in before.items()
        if version is not None or made[hand_id] != hands[hand_id]["version"]
    ]
    versions = {}
    if archived:
        kept = HandVersion.objects.filter(hand_id__in=archived).values(
            "hand_id", "version", "document", "result", "status"
        )
        versions = {(row["hand_id"], row["version"]): row for row in kept}

    def version_of(hand_id: int, version: int) -> Mapping[str, Any]:
        if hands[hand_id]["version"] == version:
            current: Mapping[str, Any] = hands[hand_id]
            return current
        if (hand_id, version) not in versions:
            raise _Unheard
        return versions[(hand_id, version)]

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
            olds.append(state(version_of(hand_id, version), number))
        news.append((hand_id, state(version_of(hand_id, made[hand_id]), number)))
    sums = _read(table_id)
    loaded = _Loaded.of(sums)
    if not olds:  # hands added after every other: the runs and the extremes follow them one by one
        for hand_id, new in sorted(news, key=lambda item: item[1].number):
            _add(sums, new, names, +1)
            _follow(sums, hand_id, new)
    else:
        if not latest:
            raise _Unheard  # the postings read again would be those of later changes too
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
