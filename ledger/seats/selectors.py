"""What the seats' pages and the features above them read: the claim a phone holds, a table's held seats, the
claims the scorekeeper sees. Each answer is one query, whatever the number of hands or seats.

A closed evening's claims count as ended even before ``services.seats_end`` ran (it runs after the close's
commit): every read here asks for an open evening.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q

from ledger.devices.phone import device_hash, device_of
from ledger.models import Table
from ledger.people.selectors import my_players
from ledger.seats.models import SeatClaim

Status = SeatClaim.Status


def phone_device(request: Any) -> str | None:
    """The hash of the phone's device id, None for a phone that never had one."""
    device = device_of(request)
    return None if device is None else device_hash(device)


def claim_of(request: Any, table: Table) -> SeatClaim | None:
    """The seat this phone holds at ``table`` (an open evening's), None otherwise."""
    device = phone_device(request)
    if device is None or not table.evening.is_open:
        return None
    return (
        SeatClaim.objects.held().filter(table=table, device=device).select_related("player", "acting", "user").first()
    )


def latest_claim(request: Any, table_id: int) -> SeatClaim | None:
    """This phone's newest claim at the table, whatever became of it (the seated page says what)."""
    device = phone_device(request)
    if device is None:
        return None
    claims = SeatClaim.objects.filter(table_id=table_id, device=device)
    return claims.select_related("table__evening", "player", "acting", "user").order_by("-claimed_at", "-pk").first()


def held_claims(table: Table) -> list[SeatClaim]:
    """The seats held by phones at ``table``, by position (none once its evening closed)."""
    if not table.evening.is_open:
        return []
    return list(SeatClaim.objects.held().filter(table=table).select_related("player", "acting", "user"))


def claims_for_players(table: Table) -> dict[int, SeatClaim]:
    """The held claims of ``table`` by player id."""
    return {claim.player_id: claim for claim in held_claims(table)}


@dataclass(frozen=True)
class SeatRow:
    """One seat as the scorekeeper sees it: who holds it, and who waits for it."""

    position: int
    name: str
    held: SeatClaim | None
    waiting: list[SeatClaim]


def seat_rows(table: Table) -> list[SeatRow]:
    """Every seat of ``table`` with its held claim and the claims waiting for it: one query."""
    claims = (
        list(SeatClaim.objects.live().filter(table=table).select_related("acting", "user").order_by("claimed_at", "pk"))
        if table.evening.is_open
        else []
    )
    return [
        SeatRow(
            position=position,
            name=name,
            held=next((c for c in claims if c.position == position and c.is_held), None),
            waiting=[c for c in claims if c.position == position and c.is_pending],
        )
        for position, name in enumerate(table.seat_names)
    ]


def seats_stamp(table_id: int) -> str:
    """What changes whenever a claim at the table is made, allowed or ended: a live line's first state."""
    counts = SeatClaim.objects.filter(table_id=table_id).aggregate(
        made=Count("pk"), ended=Count("ended_at"), held=Count("pk", filter=Q(status=Status.HELD))
    )
    return f"{counts['made']}.{counts['ended']}.{counts['held']}"


def own_position(user: Any, table: Table) -> int | None:
    """The seat of the player ``user`` claimed (an approved claim) at ``table``, if one sits there."""
    if not getattr(user, "is_authenticated", False):
        return None
    mine = {player.pk for player in my_players(user)}
    for seat in table.seats.all():
        if seat.player_id in mine:
            return seat.position
    return None


def phone_claims(table: Table, device: str) -> set[int]:
    """The ids of the phone's held and waiting claims at ``table`` (the API tells a repeated claim by them)."""
    claims = SeatClaim.objects.filter(table=table, device=device, status__in=[Status.HELD, Status.PENDING])
    return set(claims.values_list("pk", flat=True))
