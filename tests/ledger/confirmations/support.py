"""Tables that ask for confirmation, and phones holding their seats, built as the app would have them."""

from __future__ import annotations

import secrets
from typing import Any

from ledger.devices.phone import COOKIE, device_hash
from ledger.models import Evening, Player, Seat, Table
from ledger.seats.models import SeatClaim
from tests import factories

SKAT_RAMSCH = {"declarer": None, "contract": "ramsch", "ramsch_points": {"Ana": 50, "Ben": 40, "Cyril": 30}}
SNAPSER_PAIR = factories.SNAPSER_N1 | {"partner": "Cyril"}


def asking_table(
    evening: Evening, game: str, mode: str = "opponent", players: list[str] | None = None, **rules: Any
) -> Table:
    """A table whose hands need an OK (``mode``: "opponent" or "everyone"); chosen as the table is made."""
    table = factories.make_table(evening, game, players, **rules)
    Table.objects.filter(pk=table.pk).update(confirmation=mode)
    table.refresh_from_db()
    return table


def player(table: Table, name: str) -> Player:
    return Seat.objects.select_related("player").get(table=table, player__name=name).player


def seat_phone(table: Table, name: str, client: Any = None) -> SeatClaim:
    """A phone holding ``name``'s seat, acting through a stand-in account; its cookie set on ``client``."""
    device = secrets.token_urlsafe(32)
    seat = Seat.objects.select_related("player").get(table=table, player__name=name)
    acting = factories.make_user(f"{name.lower()}-{secrets.token_hex(3)}")
    acting.first_name = name
    acting.save()
    claim = SeatClaim.objects.create(
        table=table, position=seat.position, player=seat.player, device=device_hash(device), acting=acting
    )
    if client is not None:
        client.cookies[COOKIE] = device
    claim.device_id = device  # type: ignore[attr-defined] - the raw id, for a browser's cookie
    return claim


def record_on_phone(table: Table, claim: SeatClaim, hand: dict[str, Any] | None = None) -> Any:
    """A hand recorded by the seated phone ``claim`` (the books name its acting account)."""
    from ledger import services

    default = {"snapser": factories.SNAPSER_N1, "skat": factories.SKAT_S1, "marias": factories.MARIAS_M2}[table.game]
    return services.hand_record(table=table, hand=dict(hand or default), by=claim.acting)
