"""Who may see and change what of a tournament: each helper returns the object or raises 404 for anybody who may
not, never a hint that it exists.

The organiser (the tournament's owner) alone keeps a tournament; players check in through the door's link; a
table's phone keeps score of its table's evening as that evening's scorekeeper (see ``table_guest``).
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404

from ledger.tournaments.models import Entrant, Tournament, TournamentTable


def tournament_for_owner(user: Any, tournament_id: int) -> Tournament:
    owned = Tournament.objects.filter(owner=user) if user.is_authenticated else Tournament.objects.none()
    return get_object_or_404(owned, pk=tournament_id)


def entrant_for_owner(tournament: Tournament, entrant_id: int) -> Entrant:
    """A player registered for a tournament the caller organises (``tournament`` from ``tournament_for_owner``)."""
    return get_object_or_404(Entrant.objects.select_related("player"), tournament=tournament, pk=entrant_id)


def tournament_table_for_owner(tournament: Tournament, table_id: int) -> TournamentTable:
    """A table of any round of a tournament the caller organises."""
    return get_object_or_404(
        TournamentTable.objects.select_related("evening", "table", "guest", "round"),
        round__tournament=tournament,
        pk=table_id,
    )


def tournament_for_door(token: str) -> Tournament:
    """The tournament whose door link this is, while players register; 404 once the first round is drawn (the
    standings link, shown to every player, is the same token: from then on the organiser checks players in) or
    the link is switched off (``share_token`` NULL)."""
    return get_object_or_404(Tournament, share_token=token, status=Tournament.Status.REGISTERING)
