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
from collections.abc import Sequence
from decimal import Decimal

from django.db.models import Q

from ledger.models import MONEY_PLACES, Hand, Posting, Seat


def rederive(hand: Hand, seats: Sequence[int] | None = None) -> None:
    """Write the balances of ``hand`` and of every later hand of its table whose balances are written.

    From the balances of the latest earlier hand that has them and the counted postings since. Hands that have no
    balances yet (the import writes all of a table's hands before their postings) are left to their own turn.
    ``seats``: the player ids in seat order, when the caller has them. ``hand.balances`` is set too.

    Four small queries when ``hand`` is the table's newest hand, whatever the length of the evening; a change to
    an older hand rewrites the balances of the hands after it (a correction or a void, rare at a table).
    """
    table_id, start = hand.table_id, hand.number
    if seats is None:
        seats = list(Seat.objects.filter(table_id=table_id).order_by("position").values_list("player_id", flat=True))
    positions = {player: position for position, player in enumerate(seats)}
    earlier = (
        Hand.objects.filter(table_id=table_id, number__lt=start, balances__isnull=False)
        .order_by("-number")
        .values_list("balances", flat=True)
        .first()
    )
    running = [Decimal(value) for value in earlier] if earlier else [Decimal(0)] * len(seats)
    hands = list(
        Hand.objects.filter(table_id=table_id, number__gte=start)
        .filter(Q(number=start) | Q(balances__isnull=False))
        .order_by("number")
        .values_list("pk", "status", "balances")
    )
    amounts: dict[int, list[tuple[int, Decimal]]] = defaultdict(list)
    for hand_id, player_id, amount in Posting.objects.filter(hand_id__in=[row[0] for row in hands]).values_list(
        "hand_id", "player_id", "amount"
    ):
        amounts[hand_id].append((player_id, amount))
    changed = []
    for hand_id, status, stored in hands:
        if status == Hand.Status.COUNTED:
            for player_id, amount in amounts[hand_id]:
                if player_id in positions:  # as the balances are read: only the seated players
                    running[positions[player_id]] += amount
        balances = [str(value.quantize(MONEY_PLACES)) for value in running]
        if hand_id == hand.pk:
            hand.balances = balances
        if balances != stored:
            changed.append(Hand(pk=hand_id, balances=balances))
    if len(changed) == 1:
        Hand.objects.filter(pk=changed[0].pk).update(balances=changed[0].balances)
    elif changed:
        Hand.objects.bulk_update(changed, ["balances"], batch_size=500)
