"""Which seat a phone holds (the seats' selectors, by its device cookie): the seated phone signs for its player."""

from __future__ import annotations

from django.http import HttpRequest

from ledger.seats.access import claim_for_phone
from ledger.seats.models import SeatClaim
from ledger.seats.selectors import latest_claim

__all__ = ["claim_for_phone", "held_claim"]


def held_claim(request: HttpRequest, table_id: int) -> SeatClaim | None:
    """The seat this phone holds at the table of an open evening (with its table and evening), None otherwise."""
    claim = latest_claim(request, table_id)
    if claim is None or not claim.is_held or not claim.table.evening.is_open:
        return None
    return claim
