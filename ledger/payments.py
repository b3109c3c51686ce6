"""Marking a payment paid, or taking the mark back: one way for every row that records one.

An evening's transfer, a circle tab's transfer (both ``TransferBase``) and a winner's pay-in into a circle's pot
carry the same two fields, ``paid_at`` and ``paid_by``. A tap names the state it wants (paid, or owed again), so
marking is idempotent: the row is locked, and one that already reads as the tap names is left as it is, a double
tap or a retried request answering with what already happened. Only a change is audited, inside the same
transaction (the evening's history; a caller without a history passes no ``audit``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import models, transaction
from django.utils import timezone

Row = TypeVar("Row", bound=models.Model)


@dataclass(frozen=True)
class Marked(Generic[Row]):
    """The row as locked and stored after the tap (None: it is gone), and whether the tap changed it."""

    row: Row | None
    changed: bool


@transaction.atomic(savepoint=False)  # inside the caller's transaction: no savepoint of its own
def paid_mark_set(
    rows: models.QuerySet[Row],
    *,
    pk: int,
    paid: bool,
    by: Any,
    lock_also: tuple[str, ...] = (),
    audit: Callable[[Row], object] | None = None,
) -> Marked[Row]:
    """Mark row ``pk`` of ``rows`` paid by ``by`` now (``paid``), or owed again, under the row's lock.

    ``lock_also``: related rows locked with it (``select_for_update(of=...)``), e.g. a transfer's settlement.
    ``audit(row)`` runs once the row changed, before it is stored; a row already as the tap names changes nothing.
    A caller holding another lock (an evening's row) takes it first, as closing and reopening do.
    """
    row = rows.select_for_update(of=("self", *lock_also)).filter(pk=pk).first()
    payment: Any = row  # a model with paid_at and paid_by
    if row is None or (payment.paid_at is not None) == paid:
        return Marked(row, changed=False)
    if audit is not None:
        audit(row)
    payment.paid_at = timezone.now() if paid else None
    payment.paid_by = by if paid else None
    row.save(update_fields=["paid_at", "paid_by"])
    return Marked(row, changed=True)


def paid_mark_copy(marked: Marked[Any], into: Any) -> None:
    """The caller's instance reads as stored after the tap (owed, when the row is gone)."""
    into.paid_at = marked.row.paid_at if marked.row is not None else None
    into.paid_by_id = marked.row.paid_by_id if marked.row is not None else None
