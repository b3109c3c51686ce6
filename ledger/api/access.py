"""Access helpers, as on the pages: each returns the object or raises 404 for anybody who may not keep its score.

Anonymous callers never get here: they are answered 401 before any lookup, whatever the id.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from rest_framework.request import Request

from ledger.models import Evening, Hand, Table


def evening_for_scorekeeper(request: Request, evening_id: int) -> Evening:
    return get_object_or_404(Evening.objects.for_user(request.user), pk=evening_id)


def table_for_scorekeeper(request: Request, table_id: int) -> Table:
    evenings = Evening.objects.for_user(request.user)
    return get_object_or_404(Table.objects.select_related("evening").filter(evening__in=evenings), pk=table_id)


def hand_for_scorekeeper(request: Request, hand_id: int) -> Hand:
    evenings = Evening.objects.for_user(request.user)
    return get_object_or_404(
        Hand.objects.select_related("table__evening").filter(table__evening__in=evenings), pk=hand_id
    )
