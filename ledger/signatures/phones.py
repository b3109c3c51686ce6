"""Which seat a phone holds, by its device cookie (``ledger.devices.phone``): the seated phone signs for its player.

The same question as the seats' own selectors (``claim_of``, ``claim_for_phone``), asked here of ``SeatClaim``
directly, so signing depends on the seat model alone.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest

from ledger.devices.phone import device_hash, device_of
from ledger.seats.models import SeatClaim


def held_claim(request: HttpRequest, table_id: int) -> SeatClaim | None:
    """The seat this phone holds at the table, with its table, evening, player and acting account; None if none."""
    device = device_of(request)
    if device is None:
        return None
    claims = SeatClaim.objects.select_related("table__evening", "player", "acting")
    return claims.filter(table_id=table_id, device=device_hash(device), status=SeatClaim.Status.HELD).first()


def claim_for_phone(request: HttpRequest, table_id: int) -> SeatClaim:
    claim = held_claim(request, table_id)
    if claim is None:
        raise Http404
    return claim
