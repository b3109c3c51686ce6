"""Who may read a player's statistics (the pages and the API alike; anybody else gets 404)."""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.shortcuts import get_object_or_404

from ledger import hooks
from ledger.models import Player


def player_for_reader(user: Any, player_id: int) -> Player:
    """A player the user may read the statistics of: one of their own players, or one a feature shares with them
    (``hooks.players_shared``: a member of a circle they keep score of; the circle's players belong to its
    owner)."""
    if not user.is_authenticated:
        raise_not_found = Player.objects.none()
        return get_object_or_404(raise_not_found, pk=player_id)
    readable = Q(owner=user)
    for shared in hooks.players_shared.send(user):
        readable |= shared
    return get_object_or_404(Player.objects.filter(readable), pk=player_id)
