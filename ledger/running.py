"""Running balances: each hand keeps the table's balances after it (``Hand.balances``), so that the scoreboard and
the chart read one row, or a bounded sample of rows, instead of summing every posting of the table.

``Hand.balances`` holds one exact decimal string per seat, in seat order: the sum of the counted postings of the
hand and of every earlier hand at its table. A voided hand carries the balances before it. The postings stay the
books; the balances are derived from them, inside the transaction that changes them (``ledger.services`` calls
``rederive`` whenever a hand's postings or status change: a new hand, a correction, a void, an undo, a restore,
the import), so the two never disagree. ``tests/ledger/test_running.py`` checks that they agree after any
sequence of such changes.
"""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal

from django.db.models import Q

from ledger.models import MONEY_PLACES, Hand, Posting


def rederive(hand: Hand) -> None:
    """Write the balances of ``hand`` and of every later hand of its table whose balances are written.

    From the balances of the latest earlier hand that has them and the counted postings since. Hands that have no
    balances yet (the import writes all of a table's hands before their postings) are left to their own turn.
    ``hand.balances`` is set too.

    Three small queries when ``hand`` is the table's newest hand, whatever the length of the evening; a change to
    an older hand rewrites the balances of the hands after it (a correction or a void, rare at a table).
    """
    table_id, start = hand.table_id, hand.number
    earlier = Hand.objects.filter(table_id=table_id, number__lt=start, balances__isnull=False).order_by("-number")
    rows = list(
        Hand.objects.filter(table_id=table_id)
        .filter(Q(pk__in=earlier.values("pk")[:1]) | Q(number=start) | Q(number__gt=start, balances__isnull=False))
        .order_by("number")
        .values_list("pk", "number", "status", "balances")
    )
    # The balances before ``hand`` (the first row, when it is older), else nothing won or lost yet.
    before = rows.pop(0)[3] if rows[0][1] < start else None
    running = [Decimal(value) for value in before] if before else [Decimal(0)] * len(hand.table.seat_names)
    amounts: dict[int, list[tuple[int, Decimal]]] = defaultdict(list)
    # Each posting with its player's seat at this table (postings of a player not seated here count nowhere, as
    # the balances read by name).
    postings = Posting.objects.filter(hand_id__in=[row[0] for row in rows], player__seats__table_id=table_id)
    for hand_id, position, amount in postings.order_by().values_list("hand_id", "player__seats__position", "amount"):
        amounts[hand_id].append((position, amount))
    changed = []
    for hand_id, _number, status, stored in rows:
        if status == Hand.Status.COUNTED:
            for position, amount in amounts[hand_id]:
                running[position] += amount
        balances = [str(value.quantize(MONEY_PLACES)) for value in running]
        if hand_id == hand.pk:
            hand.balances = balances
        if balances != stored:
            changed.append(Hand(pk=hand_id, balances=balances))
    if len(changed) == 1:
        Hand.objects.filter(pk=changed[0].pk).update(balances=changed[0].balances)
    elif changed:
        Hand.objects.bulk_update(changed, ["balances"], batch_size=500)
