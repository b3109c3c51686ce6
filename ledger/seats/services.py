"""Seats taken and let go: a phone claims a seat, the scorekeeper allows or refuses a second claim, a seat is
released by the scorekeeper, by its phone, or when the evening closes.

Each action names what it means (the seat a phone asks for; the claim the scorekeeper answers), so a repeat finds
what the first one did: claiming the seat the phone holds or waits for returns that claim; allowing a claim already
allowed, refused or let go returns it as it is. Who holds a seat is kept by the database's partial unique indexes
(one held claim per seat, one per phone and table, one waiting claim per phone and table): two phones claiming one
free seat at once leave one holding it and the other waiting, whatever the interleaving.
"""

from __future__ import annotations

import functools
import secrets
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ledger.errors import LedgerError, require_open
from ledger.live import fanout
from ledger.models import Seat, Table
from ledger.seats.models import SeatClaim, StandIn

Status = SeatClaim.Status


@dataclass(frozen=True)
class Phone:
    """Who asks for a seat: the phone (``device``: the hash of its id) and the account it is logged in as."""

    device: str
    user: Any = None

    @property
    def account(self) -> Any:
        return self.user if self.user is not None and self.user.is_authenticated else None


def seat_claim(*, table: Table, position: int, phone: Phone) -> SeatClaim:
    """The phone asks for the seat at ``position``: it holds it when free, else waits for the scorekeeper.

    Asking for the seat it holds or waits for returns that claim; asking for another seat lets go of the one it
    held or waited for at this table (a phone sits in one seat)."""
    require_open(table.evening)
    seat = _seat(table, position)
    mine = SeatClaim.objects.filter(table=table, device=phone.device, status__in=[Status.HELD, Status.PENDING])
    for claim in mine:
        if claim.position == position:
            return claim
    acting = phone.account or _stand_in(phone.device, seat)
    with transaction.atomic():
        now = timezone.now()
        for claim in mine.select_for_update():
            if claim.position != position:
                _end(claim, Status.RELEASED if claim.is_held else Status.REFUSED, phone.account or claim.acting, now)
        fields = {
            "table": table,
            "position": position,
            "player_id": seat.player_id,
            "device": phone.device,
            "user": phone.account,
            "acting": acting,
        }
        try:
            with transaction.atomic():
                claim = SeatClaim.objects.create(status=Status.HELD, **fields)
        except IntegrityError:
            # Held by another phone (or it took the seat an instant ago): the scorekeeper decides.
            try:
                with transaction.atomic():
                    claim = SeatClaim.objects.create(status=Status.PENDING, **fields)
            except IntegrityError:
                claim = SeatClaim.objects.get(
                    table=table, device=phone.device, status__in=[Status.HELD, Status.PENDING]
                )
        _told(table)
    return claim


def seat_allow(*, claim: SeatClaim, by: Any) -> SeatClaim:
    """The scorekeeper lets a waiting phone take its seat: the phone that held it is let go."""
    with transaction.atomic():
        claim = _locked(claim)
        if not claim.is_pending:
            return claim  # allowed, refused or let go already: the first answer stands
        require_open(claim.table.evening)
        now = timezone.now()
        others = SeatClaim.objects.select_for_update().filter(table_id=claim.table_id, status=Status.HELD)
        for held in others.filter(position=claim.position) | others.filter(device=claim.device):
            _end(held, Status.RELEASED, by, now)
        claim.status = Status.HELD
        claim.save(update_fields=["status"])
        _told(claim.table)
    return claim


def seat_refuse(*, claim: SeatClaim, by: Any) -> SeatClaim:
    """The scorekeeper refuses a waiting claim; the seat stays with the phone that holds it."""
    return _finish(claim, by, Status.PENDING, Status.REFUSED)


def seat_release(*, claim: SeatClaim, by: Any) -> SeatClaim:
    """A held seat is let go (the scorekeeper's Release, or the phone's "Leave the seat"); a waiting claim is
    withdrawn. Again: the claim as it was let go."""
    with transaction.atomic():
        claim = _locked(claim)
        if claim.is_held:
            _end(claim, Status.RELEASED, by, timezone.now())
        elif claim.is_pending:
            _end(claim, Status.REFUSED, by, timezone.now())
        else:
            return claim
        _told(claim.table)
    return claim


def seats_end(*, evening_id: int, by_id: int | None) -> int:
    """The evening closed: every seat of its tables is let go and every waiting claim ends. How many ended."""
    now = timezone.now()
    claims = SeatClaim.objects.filter(table__evening_id=evening_id)
    ended = claims.filter(status=Status.HELD).update(status=Status.RELEASED, ended_at=now, ended_by_id=by_id)
    ended += claims.filter(status=Status.PENDING).update(status=Status.REFUSED, ended_at=now, ended_by_id=by_id)
    if ended:
        transaction.on_commit(
            functools.partial(fanout.publish, fanout.evening_topic(evening_id), {"seats": True}), robust=True
        )
    return ended


def _finish(claim: SeatClaim, by: Any, was: str, becomes: str) -> SeatClaim:
    with transaction.atomic():
        claim = _locked(claim)
        if claim.status != was:
            return claim
        _end(claim, becomes, by, timezone.now())
        _told(claim.table)
    return claim


def _locked(claim: SeatClaim) -> SeatClaim:
    return SeatClaim.objects.select_for_update().select_related("table__evening").get(pk=claim.pk)


def _end(claim: SeatClaim, status: str, by: Any, now: Any) -> None:
    claim.status = status
    claim.ended_at = now
    claim.ended_by = by if by is not None and getattr(by, "pk", None) else None
    claim.save(update_fields=["status", "ended_at", "ended_by"])


def _seat(table: Table, position: Any) -> Seat:
    found = Seat.objects.filter(table=table, position=position).select_related("player")
    seat = found.first() if isinstance(position, int) else None
    if seat is None:
        raise LedgerError(_("Choose one of the table's seats."), field="position")
    return seat


def _stand_in(device: str, seat: Seat) -> Any:
    """The account acting for a phone without one at ``seat``'s player: made once per phone and player, named
    after the player, with no usable password and inactive, so nobody ever logs in as it."""
    found = StandIn.objects.filter(device=device, player_id=seat.player_id).select_related("user").first()
    if found is not None:
        return found.user
    name = seat.player.name
    try:
        with transaction.atomic():
            user = get_user_model().objects.create_user(
                username=f"seat-{secrets.token_hex(6)}", password=None, first_name=name[:150], is_active=False
            )
            StandIn.objects.create(user=user, device=device, player_id=seat.player_id)
    except IntegrityError:  # the same phone's other tap made it meanwhile
        return StandIn.objects.select_related("user").get(device=device, player_id=seat.player_id).user
    return user


def _told(table: Table) -> None:
    """After the commit, the evening's live lines hear that this table's seats changed: the scorekeeper's page and
    the seated phones fetch their live part."""
    message = {"table": table.pk, "seats": True}
    transaction.on_commit(
        functools.partial(fanout.publish, fanout.evening_topic(table.evening_id), message), robust=True
    )
