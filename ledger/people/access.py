"""The players a user reaches, and so may say "this is me" for: the players seated at an evening whose share link
they hold, the member whose circle link they hold, or the players at a table they keep score of. A link that does
not (or no longer) work, or a table the user does not keep, is a 404 like anywhere else."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from ledger.access import table_for_scorekeeper
from ledger.circles.access import membership_for_link
from ledger.models import Evening, Player, Seat
from ledger.people.models import PlayerClaim


@dataclass(frozen=True)
class Reached:
    """Players reached one way (``how``, a ``PlayerClaim.How``), and where (the evening or circle, for the page)."""

    players: list[Player]
    how: str
    where: str

    def player(self, player_id: object) -> Player | None:
        return next((player for player in self.players if str(player.pk) == str(player_id)), None)


def through_share_link(token: str) -> Reached:
    evening = get_object_or_404(Evening, share_token=token)
    return Reached(_seated(Seat.objects.filter(table__evening=evening)), PlayerClaim.How.SHARE_LINK, str(evening))


def through_member_link(token: str) -> Reached:
    membership = membership_for_link(token)
    return Reached([membership.player], PlayerClaim.How.CIRCLE_LINK, str(membership.circle))


def through_table(user: Any, table_id: int) -> Reached:
    table = table_for_scorekeeper(user, table_id)
    return Reached(_seated(Seat.objects.filter(table=table)), PlayerClaim.How.SEAT, str(table.evening))


def _seated(seats: QuerySet[Seat]) -> list[Player]:
    """The players of ``seats`` once each, in seat order, with their scorekeepers: one query."""
    found: dict[int, Player] = {}
    for seat in seats.select_related("player__owner").order_by("table_id", "position"):
        found.setdefault(seat.player_id, seat.player)
    return list(found.values())
