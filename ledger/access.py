"""Who may keep the score of what: each helper returns the object or raises 404 for anybody who may not.

Shared by the pages and the API, so both answer exactly alike: the evening's creator and its co-scorekeepers see
and change everything of the evening; anybody else gets 404, never a hint that the thing exists.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404

from ledger.models import (
    Circle,
    CircleMember,
    CircleTransfer,
    Entrant,
    Evening,
    Hand,
    Invitation,
    Player,
    Table,
    Tournament,
    TournamentTable,
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


# Circles (issue 19): their owner and scorekeepers keep score of them, as of an evening; a member reads their own
# page through their personal link; anybody else gets 404.


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


# Tournaments (issue 20): the organiser alone keeps them; players check in through the door's link; a table's phone
# keeps score of its table's evening as that evening's scorekeeper (see ledger.table_guest).


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
