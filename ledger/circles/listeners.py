"""What circles answer when the books tell or ask (``ledger.hooks``), connected once in ``CirclesConfig.ready()``."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from ledger import hooks
from ledger.circles import services, tab_and_pot
from ledger.circles.models import Circle, CircleMember
from ledger.models import Evening


def evening_closing(event: hooks.EveningClosing) -> bool:
    """A circle's evening closes: its plan goes into the tab (True: the books store no transfers) or its winners
    pay into the pot."""
    return tab_and_pot.circle_close(
        evening=event.evening, settlement=event.settlement, planned=event.planned, by=event.by
    )


def evening_reopening(evening: Evening) -> None:
    tab_and_pot.circle_reopen(evening=evening)


def seating_suggested(evening: Evening) -> dict[str, Any]:
    """A circle's first table of the evening: its members in the seats."""
    return services.circle_seating(evening.circle) if evening.circle is not None else {}


def evening_in_circle_started(event: hooks.EveningInCircle) -> Evening | None:
    """The API's "start an evening" naming a circle: the circle's evening of the day (``circle_evening_create``)."""
    circle = Circle.objects.for_user(event.by).filter(pk=event.circle_id).first()
    if circle is None:
        return None
    return services.circle_evening_create(circle=circle, by=event.by, **event.fields)


def players_shared(user: Any) -> Q:
    """The members of the circles ``user`` keeps score of: the statistics read theirs too."""
    circles = Circle.objects.for_user(user)
    return Q(pk__in=CircleMember.objects.filter(circle__in=circles).values("player_id"))


def account_deleting(event: hooks.AccountDeleting) -> None:
    """A deleted account keeps score of no circle; the circles it owns stay."""
    Circle.scorekeepers.through.objects.filter(user=event.user).delete()


def connect() -> None:
    hooks.evening_closing.connect(evening_closing)
    hooks.evening_reopening.connect(evening_reopening)
    hooks.transfers_carried.connect(tab_and_pot.carries_into_tab)
    hooks.seating_suggested.connect(seating_suggested)
    hooks.evening_in_circle_started.connect(evening_in_circle_started)
    hooks.players_shared.connect(players_shared)
    hooks.account_deleting.connect(account_deleting)
