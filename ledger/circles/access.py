"""Who may keep the score of a circle, or read a member's page: each helper returns the object or raises 404.

As ``ledger.access`` for evenings: the circle's owner and scorekeepers keep score of it, as of an evening; a member
reads their own page through their personal link; anybody else gets 404, never a hint that the circle exists.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404

from ledger.circles.models import Circle, CircleMember, CircleTransfer


def circle_for_scorekeeper(user: Any, circle_id: int) -> Circle:
    return get_object_or_404(Circle.objects.for_user(user), pk=circle_id)


def circle_for_owner(user: Any, circle_id: int) -> Circle:
    # Who keeps score of a circle is the owner's choice alone, as of an evening.
    owned = Circle.objects.filter(owner=user) if user.is_authenticated else Circle.objects.none()
    return get_object_or_404(owned, pk=circle_id)


def membership_for_scorekeeper(user: Any, circle: Circle, player_id: int) -> CircleMember:
    """A member of a circle the caller keeps score of (``circle`` from ``circle_for_scorekeeper``)."""
    # player__pk, not player_id: Django answers "no such row" for an id past what the column holds (2**63) on a
    # primary key only; on the foreign key SQLite raised OverflowError (a 500).
    return get_object_or_404(CircleMember.objects.select_related("player"), circle=circle, player__pk=player_id)


def membership_for_link(token: str) -> CircleMember:
    """The member whose personal link this is: no account, read only; a revoked link is gone (404)."""
    return get_object_or_404(CircleMember.objects.select_related("circle", "player"), token=token)


def circle_transfer_for_scorekeeper(user: Any, transfer_id: int) -> CircleTransfer:
    circles = Circle.objects.for_user(user)
    return get_object_or_404(
        CircleTransfer.objects.select_related("settlement__circle", "payer", "payee").filter(
            settlement__circle__in=circles
        ),
        pk=transfer_id,
    )
