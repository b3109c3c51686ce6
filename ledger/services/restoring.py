"""What an import puts back as it was exported: an evening's time, status and history, a table's counters and its
hands with their old versions and times, a settlement with its transfers.

Only the import (``ledger.exchange``) calls these, after it has checked and priced everything through the other
steps (``evening_create``, ``table_create``, ``hand_result``, ``settlement_plan``): they write what those steps do
not, because an export's times, numbers and paid marks are history, not new entries.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from django.db import transaction

import rules
from ledger.models import Evening, EveningEvent, Hand, HandVersion, Settlement, Table, Transfer
from ledger.services.hands import hands_post


class RestoredHand(NamedTuple):
    """An unsaved hand as the ledger priced it, its two times and its old versions (each priced too)."""

    hand: Hand
    score: rules.Score
    times: tuple[datetime.datetime, datetime.datetime]
    versions: list[dict[str, Any]]


@transaction.atomic
def evening_restore(
    *,
    evening: Evening,
    created_at: datetime.datetime | None = None,
    status: str | None = None,
    events: Iterable[dict[str, Any]] = (),
) -> None:
    """The evening's time of creation, its status and its history, as exported."""
    if created_at is not None:
        Evening.objects.filter(pk=evening.pk).update(created_at=created_at)
    EveningEvent.objects.bulk_create(EveningEvent(evening=evening, **event) for event in events)
    if status is not None:
        Evening.objects.filter(pk=evening.pk).update(status=status)


@transaction.atomic
def table_restore(
    *, table: Table, hand_count: int, revision: int, created_at: datetime.datetime, hands: Sequence[RestoredHand]
) -> None:
    """The table's counters and its hands, each with its times and old versions; the postings through
    ``hands_post``, which refuses amounts that do not sum to zero."""
    table.hand_count, table.revision = hand_count, revision
    Table.objects.filter(pk=table.pk).update(hand_count=hand_count, revision=revision, created_at=created_at)
    stored = Hand.objects.bulk_create([restored.hand for restored in hands])
    for restored in hands:
        restored.hand.entered_at, restored.hand.changed_at = restored.times  # bulk_create stamped "now"
    Hand.objects.bulk_update(stored, ["entered_at", "changed_at"])
    HandVersion.objects.bulk_create(
        HandVersion(hand=restored.hand, **old) for restored in hands for old in restored.versions
    )
    hands_post(table=table, priced=[(restored.hand, restored.score) for restored in hands])


@transaction.atomic
def settlement_restore(*, evening: Evening, fields: dict[str, Any], transfers: Iterable[dict[str, Any]]) -> Settlement:
    """The evening's settlement and its transfers (paid marks included), as the import planned them again."""
    settlement = Settlement.objects.create(evening=evening, **fields)
    Transfer.objects.bulk_create(Transfer(settlement=settlement, **transfer) for transfer in transfers)
    return settlement
