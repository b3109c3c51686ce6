"""Who may keep the score of what: each helper returns the object or raises 404 for anybody who may not.

Shared by the pages and the API, so both answer exactly alike: the evening's creator and its co-scorekeepers see
and change everything of the evening; anybody else gets 404, never a hint that the thing exists.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404

from ledger.models import (
    Evening,
    Hand,
    Invitation,
    Player,
    Table,
    Transfer,
)


def evening_for_scorekeeper(user: Any, evening_id: int) -> Evening:
    return get_object_or_404(Evening.objects.for_user(user), pk=evening_id)


def evening_for_owner(user: Any, evening_id: int) -> Evening:
    # Who keeps score is the owner's choice alone: co-scorekeepers invite nobody (they may leave, see
    # services.evening_scorekeeper_remove).
    owned = Evening.objects.filter(owner=user) if user.is_authenticated else Evening.objects.none()
    return get_object_or_404(owned, pk=evening_id)


def invitation_for_invitee(user: Any, invitation_id: int) -> Invitation:
    return get_object_or_404(Invitation.objects.for_user(user).select_related("evening"), pk=invitation_id)


def table_for_scorekeeper(user: Any, table_id: int) -> Table:
    evenings = Evening.objects.for_user(user)
    return get_object_or_404(Table.objects.select_related("evening").filter(evening__in=evenings), pk=table_id)


def hand_for_scorekeeper(user: Any, hand_id: int) -> Hand:
    evenings = Evening.objects.for_user(user)
    return get_object_or_404(
        Hand.objects.select_related("table__evening").filter(table__evening__in=evenings), pk=hand_id
    )


def transfer_for_scorekeeper(user: Any, transfer_id: int) -> Transfer:
    evenings = Evening.objects.for_user(user)
    return get_object_or_404(
        Transfer.objects.select_related("settlement__evening", "payer", "payee").filter(
            settlement__evening__in=evenings
        ),
        pk=transfer_id,
    )


def player_for_owner(user: Any, player_id: int) -> Player:
    # A player's payment details serve every evening of the player's owner: only the owner changes them, not a
    # co-scorekeeper of one evening (whose change would redirect the money of evenings they never kept).
    return get_object_or_404(Player.objects.filter(owner=user), pk=player_id)
