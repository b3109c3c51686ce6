"""Which phone reaches which seat: 404 for a phone that holds none (never a hint that the table exists)."""

from __future__ import annotations

from typing import Any

from django.http import Http404

from ledger.access import table_for_scorekeeper
from ledger.seats import selectors
from ledger.seats.models import SeatClaim


def claim_for_phone(request: Any, table_id: int) -> SeatClaim:
    """The seat this phone holds at the table (an open evening's), else 404."""
    claim = selectors.latest_claim(request, table_id)
    if claim is None or not claim.is_held or not claim.table.evening.is_open:
        raise Http404
    return claim


def any_claim_for_phone(request: Any, table_id: int) -> SeatClaim:
    """This phone's newest claim at the table, held, waiting or ended (the seated page says which), else 404."""
    claim = selectors.latest_claim(request, table_id)
    if claim is None:
        raise Http404
    return claim


def claim_for_scorekeeper(user: Any, table_id: int, claim_id: Any) -> SeatClaim:
    """A claim at a table ``user`` keeps score of, else 404."""
    table = table_for_scorekeeper(user, table_id)
    if not str(claim_id).isdecimal() or len(str(claim_id)) > 18:
        raise Http404
    found = SeatClaim.objects.filter(table=table, pk=int(claim_id)).select_related("table__evening").first()
    if found is None:
        raise Http404
    return found
