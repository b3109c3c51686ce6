"""Read-side queries of the API: each costs a fixed number of SQL queries, whatever the number of hands."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet

from ledger import selectors
from ledger.models import Evening, Hand, Table


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
