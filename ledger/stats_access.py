"""Who may read a player's statistics (the pages and the API alike; anybody else gets 404)."""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.shortcuts import get_object_or_404

from ledger.models import Circle, CircleMember, Player


def player_for_reader(user: Any, player_id: int) -> Player:
    """A player the user may read the statistics of: one of their own players, or a member of a circle they keep
    score of (the circle's players belong to its owner)."""
    if not user.is_authenticated:
        raise_not_found = Player.objects.none()
        return get_object_or_404(raise_not_found, pk=player_id)
    circles = Circle.objects.for_user(user)
    members = CircleMember.objects.filter(circle__in=circles).values("player_id")
    readable = Player.objects.filter(Q(owner=user) | Q(pk__in=members))
    return get_object_or_404(readable, pk=player_id)
