"""Running balances: each hand keeps the table's balances after it (``Hand.balances``), so that the scoreboard and
the chart read one row, or a bounded sample of rows, instead of summing every posting of the table. At a game that
keeps a list of points beside the money (Skat), each hand keeps the list after it too (``Hand.list_points``), the
counted hands' scores summed per seat in the same way.

``Hand.balances`` holds one exact decimal string per seat, in seat order: the sum of the counted postings of the
hand and of every earlier hand at its table. A voided hand carries the balances before it. The postings stay the
books; the balances are derived from them, inside the transaction that changes them (``ledger.services`` calls
``rederive`` whenever a hand's postings or status change: a correction, a void, an undo, a restore, the import;
a new hand, the table's newest, gets them from ``newest`` before its insert), so the two never disagree.
``tests/ledger/test_running.py`` checks that they agree after any sequence of such changes.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from decimal import Decimal

from django.utils.translation import gettext as _

import rules
from ledger.errors import LedgerError
from ledger.models import MONEY_PLACES, Hand, Posting


def rederive(hand: Hand, posted: Mapping[str, Decimal] | None = None, *, every: bool = False) -> None:
    """Write the balances (and list points) of ``hand`` and of every later hand of its table whose balances are
    written.

    From the balances of the hand before it and the counted postings since (and from its list points and the
    counted hands' scores). Later hands that have no balances yet (the import writes all of a table's hands before
    their postings) count, but are written on their own turn. ``posted``: the amounts by player name that the caller
    has just posted for ``hand``, to save reading them back. ``hand.balances`` and ``hand.list_points`` are set too.

    Three small queries when ``hand`` is the table's newest hand and its amounts are ``posted``, whatever the length
    of the evening; a change to an older hand rewrites the balances of the hands after it (a correction or a void,
    rare at a table). ``every``: write the later hands without balances too (the import, once all of a table's
    postings are written: one pass instead of one per hand).
    """
    table_id, start = hand.table_id, hand.number
    table = hand.table
    listed = rules.game(table.game).list_scoring(table.ruleset) is not None
    hands = Hand.objects.filter(table_id=table_id)
    # The balances before ``hand``; then the hands after it (two range reads).
    previous = hands.filter(number__lt=start).order_by("-number").values_list("number", "balances", "list_points")
    before = previous.first()
    running = _balances_before(hand, None if before is None else before[:2])
    points = _points_before(hand, before) if listed else []
    later_fields = ["pk", "number", "status", "balances", "list_points"] + (["result__score"] if listed else [])
    later = hands.filter(number__gt=start).order_by("number").values_list(*later_fields)
    own = hand.result.get("score") if listed and isinstance(hand.result, dict) else None
    rows = [(hand.pk, start, hand.status, None, None, own), *later]
    # Each posting with its player's seat at this table (postings of a player not seated here count nowhere, as
    # the balances read by name).
    amounts: dict[int, list[tuple[int, Decimal]]] = defaultdict(list)
    seats = {name: position for position, name in enumerate(table.seat_names)}
    if posted is not None:
        amounts[hand.pk] = [(seats[name], amount) for name, amount in posted.items() if name in seats]
    unread = [row[0] for row in rows if row[0] not in amounts]
    if unread:
        postings = Posting.objects.filter(hand_id__in=unread, player__seats__table_id=table_id).order_by()
        for hand_id, position, amount in postings.values_list("hand_id", "player__seats__position", "amount"):
            amounts[hand_id].append((position, amount))
    changed = []
    for hand_id, _number, status, stored, stored_points, *score in rows:
        if status == Hand.Status.COUNTED:
            for position, amount in amounts[hand_id]:
                running[position] += amount.quantize(MONEY_PLACES)  # as the posting stores it
            if listed:
                _add_score(points, seats, score[0] if score else None)
        if status == Hand.Status.COUNTED:
            _require_storable(table.seat_names, running)
        balances = [str(value.quantize(MONEY_PLACES)) for value in running]
        listed_points = list(points) if listed else None
        if hand_id == hand.pk:
            hand.balances, hand.list_points = balances, listed_points
        elif stored is None and not every:
            # A later hand without balances: its money counts for the hands after it, but its own balances are
            # written on its turn (the import posts its hands one by one, after writing them all).
            continue
        if balances != stored or listed_points != stored_points:
            changed.append(Hand(pk=hand_id, balances=balances, list_points=listed_points))
    if len(changed) == 1:
        Hand.objects.filter(pk=changed[0].pk).update(balances=changed[0].balances, list_points=changed[0].list_points)
    elif changed:
        Hand.objects.bulk_update(changed, ["balances", "list_points"], batch_size=500)


def newest(hand: Hand, posted: Mapping[str, Decimal], before: Hand | None) -> None:
    """Set ``hand.balances`` and ``hand.list_points`` of a counted hand not yet saved that will be its table's newest
    (numbered after every hand the table holds, under the table's lock), so that they go in with its own insert.

    ``before``: the table's newest hand so far (None for the first), read by the caller with its ``number``,
    ``balances`` and ``list_points``; ``posted``: the hand's amounts by player name. What ``rederive`` writes for
    the newest hand, without its reads of later hands (there are none: the table's ``hand_count`` is its highest
    number) and without an update; no query, unless ``before`` has no balances yet (a hand stored before they were
    kept).
    """
    table = hand.table
    listed = rules.game(table.game).list_scoring(table.ruleset) is not None
    previous = None if before is None else (before.number, before.balances, before.list_points)
    running = _balances_before(hand, None if previous is None else previous[:2])
    points = _points_before(hand, previous) if listed else []
    seats = {name: position for position, name in enumerate(table.seat_names)}
    for name, amount in posted.items():
        if name in seats:
            running[seats[name]] += amount.quantize(MONEY_PLACES)  # as the posting stores it
    if listed:
        _add_score(points, seats, hand.result.get("score") if isinstance(hand.result, dict) else None)
    _require_storable(table.seat_names, running)
    hand.balances = [str(value.quantize(MONEY_PLACES)) for value in running]
    hand.list_points = list(points) if listed else None


def _require_storable(seats: list[str], running: list[Decimal]) -> None:
    """Refuse a change that takes a balance at the table past what the books hold (``rules.MAX_AMOUNT``).

    The engine keeps each hand within ``MAX_AMOUNT`` a player (what a ``Decimal(14, 4)`` money column holds); the
    sums of hands must stay within it too, since the table's balance is what the statistics (a player's net at the
    table), the evening's balances and its settlement's transfers store. Checked here because every change to a
    table's hands passes here (a new hand, a correction, a void, a restore, the import), after the hands it moves
    and before anything is written: the caller's transaction stores nothing.
    """
    for name, balance in zip(seats, running, strict=False):
        if abs(balance) > rules.MAX_AMOUNT:
            raise LedgerError(
                _(
                    "This would take %(player)s's balance at this table to %(balance)s; "
                    "the books hold at most %(most)s either way."
                )
                % {"player": name, "balance": balance.quantize(MONEY_PLACES), "most": rules.MAX_AMOUNT},
                field="hand",
            )


def _add_score(points: list[int], seats: Mapping[str, int], score: object) -> None:
    """Add one counted hand's list points (``result["score"]``: {name: points}) to ``points``, by seat."""
    if isinstance(score, dict):
        for name, value in score.items():
            if name in seats and isinstance(value, int):
                points[seats[name]] += value


def _points_before(hand: Hand, previous: tuple[int, list[str] | None, list[int] | None] | None) -> list[int]:
    """The table's list points before ``hand``: the previous hand's, or, when it has none (stored before list points
    were kept, or by the import not yet at its turn), the earlier counted hands' scores summed."""
    seats = {name: position for position, name in enumerate(hand.table.seat_names)}
    points = [0] * len(seats)
    if previous is None:
        return points
    if previous[2] is not None:
        return [int(value) for value in previous[2]]
    earlier = Hand.objects.filter(table_id=hand.table_id, number__lt=hand.number, status=Hand.Status.COUNTED)
    for score in earlier.order_by().values_list("result__score", flat=True):
        _add_score(points, seats, score)
    return points


def _balances_before(hand: Hand, previous: tuple[int, list[str] | None] | None) -> list[Decimal]:
    """The table's balances before ``hand``: the previous hand's, or, when it has none (a hand stored by a release
    before running balances, or by the import not yet at its turn), its counted postings summed by seat."""
    seats = hand.table.seat_names
    if previous is None:
        return [Decimal(0)] * len(seats)
    if previous[1] is not None:
        return [Decimal(value) for value in previous[1]]
    earlier = Posting.objects.filter(hand__table_id=hand.table_id, hand__number__lt=hand.number).counted()
    totals = earlier.totals("player__name")
    return [totals.get(name, Decimal(0)) for name in seats]
