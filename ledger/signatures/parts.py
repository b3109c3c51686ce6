"""What the signatures add to other pages: the seated phone's "Sign the list", the close page's list of who signed
(and signing for a player who left), the PDF summary's signatures, and a tournament table phone's row of players.

Each builder reads a fixed number of queries (``selectors``), whatever the evening's hands.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from ledger import selectors as books
from ledger.models import Evening, Hand, Player, Table
from ledger.seats.models import SeatClaim
from ledger.signatures import selectors
from ledger.signatures.selectors import SignatureRow

SEAT_PART = "ledger/signatures/_sign_seat.html"
SHARED_PART = "ledger/signatures/_sign_shared.html"
CLOSE_PART = "ledger/signatures/_close_signatures.html"
SUMMARY_PART = "ledger/signatures/_summary_signatures.html"


def seat_signing(table: Table, claim: SeatClaim) -> dict[str, Any]:
    """The seated phone's "Sign the list": the hands it signs, its player's balance, and whether it signed."""
    evening = table.evening
    listed = selectors.signatures(evening, [claim.player])
    row = listed.rows[0]
    return {
        "row": row,
        "player": claim.player,
        "hands": listed.state.tables.get(str(table.pk), [0, 0])[1],
        "balance": selectors.player_balance(books.evening_balances(evening), claim.player),
        "revision": listed.state.revision,
        "time": selectors.signed_at(row.signature) if row.signature else "",
        "open": evening.is_open,
        "action": reverse("signatures:table_sign", args=[table.pk]),
    }


def shared_signing(table: Table, *, shown: bool = True) -> dict[str, Any]:
    """A shared phone's row at the table (a tournament table's phone): each seated player signs with one tap here.
    ``shown`` False: the series is not played out yet, the row waits (its place stays on the page)."""
    if not shown:
        return {"shown": False}
    players = [seat.player for seat in table.seats.select_related("player")]
    listed = selectors.signatures(table.evening, players)
    return {
        "shown": True,
        "rows": [_row(row) for row in listed.rows],
        "revision": listed.state.revision,
        "hands": listed.state.tables.get(str(table.pk), [0, 0])[1],
        "open": table.evening.is_open,
        "action": reverse("signatures:table_sign", args=[table.pk]),
    }


def close_signatures(evening: Evening, *, can_sign: bool) -> dict[str, Any]:
    """The close page's list: who has signed (when, on whose phone), who has not; ``can_sign``: the scorekeeper may
    sign for a player who left (while the evening is open)."""
    listed = selectors.signatures(evening)
    return {
        "rows": [_row(row) for row in listed.rows],
        "complete": listed.complete,
        "revision": listed.state.revision,
        "hands": listed.state.hands,
        "can_sign": can_sign and evening.is_open and listed.state.hands > 0,
        "action": reverse("signatures:evening_sign", args=[evening.pk]),
    }


def _row(row: SignatureRow) -> dict[str, Any]:
    signature = row.signature
    text = ""
    if signature is not None:
        text = selectors.stale_text(row) if row.stale else selectors.signature_text(signature)
    return {
        "player": row.player,
        "signed": row.signed,
        "stale": row.stale,
        "text": text,
        "at": signature.at if signature else None,
        "for_absent": bool(signature and signature.for_absent),
    }


def series_played(table: Table, planned: int) -> bool:
    """Whether the table counted the hands its series plans (one query)."""
    return Hand.objects.filter(table=table, status=Hand.Status.COUNTED).count() >= planned


def seat_player(table: Table, player_id: str) -> Player | None:
    """The player named by a form, among the table's seats."""
    if not player_id.isdecimal() or len(player_id) > 18:
        return None
    return Player.objects.filter(seats__table=table, pk=int(player_id)).first()
