"""Who may give a player's word on a hand: the phone holding that player's seat, or a scorekeeper of the evening
(the table's shared phone: the scorekeeper's own, or a tournament table's); anybody else gets 404."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import Http404, HttpRequest
from django.utils.translation import gettext as _

from ledger.errors import LedgerError
from ledger.models import Player, Seat, Table
from ledger.seats.models import SeatClaim
from ledger.seats.selectors import claim_of


@dataclass(frozen=True)
class Giver:
    """Whose tap it is: ``by`` the account the books name, ``claim`` the seat of the phone (None: a shared phone)."""

    by: Any
    claim: SeatClaim | None
    scorekeeper: bool
    user: Any = None  # the account logged in on the phone


def phone_claim(request: HttpRequest, table: Table) -> SeatClaim | None:
    """The seat this phone (its device cookie) holds at ``table`` (an open evening's), if any."""
    return claim_of(request, table)


def giver_for(request: HttpRequest, table: Table) -> Giver:
    """The phone's seat if it holds one, else the scorekeeper's shared phone; 404 for anybody else."""
    claim = phone_claim(request, table)
    scorekeeper = table.evening.can_keep_score(request.user)
    if claim is None and not scorekeeper:
        raise Http404
    if claim is not None:
        return Giver(claim.acting, claim, scorekeeper, request.user)
    return Giver(request.user, None, scorekeeper, request.user)


def player_for(giver: Giver, table: Table, player_id: Any) -> tuple[Player, Giver]:
    """The seated player the tap speaks for, and whose tap it is: a seated phone speaks for its own player; a
    scorekeeper holding a seat may also tap for another player on the same phone (as the table's phone)."""
    player = _seated(table, player_id)
    if giver.claim is not None and giver.claim.player_id != player.pk and giver.scorekeeper:
        return player, Giver(giver.user, None, True, giver.user)
    return player, giver


def _seated(table: Table, player_id: Any) -> Player:
    text = str(player_id or "")
    seat = None
    if text.isdecimal() and len(text) < 19:
        seat = Seat.objects.filter(table=table, player_id=int(text)).select_related("player").first()
    if seat is None:
        raise LedgerError(_("Choose a player seated at this table."), field="player")
    return seat.player
