"""Read-side queries of the API: each costs a fixed number of SQL queries, whatever the number of hands."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet

from ledger import selectors
from ledger.models import Evening, Hand, Settlement, Table


def tables_with_balances(evening: Evening, *, with_hands: bool = False) -> list[Table]:
    """The evening's tables, each with ``.balance_of`` {seated player: exact balance}: two or three queries."""
    tables: QuerySet[Table] = evening.tables.all()
    if with_hands:
        tables = tables.prefetch_related(Prefetch("hands", queryset=Hand.objects.order_by("number")))
    found = list(tables)
    balances = selectors.tables_balances(evening, found)
    for table in found:
        table.balance_of = balances[table.pk]  # type: ignore[attr-defined]
    return found


def evening_detail(evening: Evening, *, with_hands: bool = False) -> Evening:
    """The evening with ``.table_list`` (each with its balances, and its hands if asked) and ``.balance_of``."""
    tables = tables_with_balances(evening, with_hands=with_hands)
    evening.table_list = tables  # type: ignore[attr-defined]
    evening.balance_of = selectors.evening_balances(evening)  # type: ignore[attr-defined]
    return evening


def settlement(evening: Evening) -> dict[str, Any]:
    """The evening's settlement as the API shows it: frozen at the close, or the balances so far while open."""
    stored = Settlement.objects.filter(evening=evening).select_related("banker").first()
    transfers = list(stored.transfers.select_related("payer", "payee")) if stored is not None else []
    if evening.is_open or stored is None:
        return {
            "status": evening.status,
            "mode": None,
            "banker": None,
            "coin": evening.coin,
            "balances": selectors.evening_balances(evening),
            "rounded": None,
            "transfers": [transfer for transfer in transfers if transfer.is_paid],
            "closed_at": None,
        }
    return {
        "status": evening.status,
        "mode": stored.mode,
        "banker": stored.banker.name if stored.banker else None,
        "coin": stored.coin,
        "balances": stored.exact,
        "rounded": stored.rounded,
        "transfers": transfers,
        "closed_at": stored.created_at,
    }
