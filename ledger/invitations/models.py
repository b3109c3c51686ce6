"""Invitations by link: an unguessable link that grants one role in one evening, circle or tournament.

The target is a foreign key per kind, not a generic pair (content type and id): the database then keeps every
link pointing at a row that exists (a link goes with its evening, circle or tournament), a check constraint says
that exactly the kind's own target is set, and the pages read a link with its target in one join.
"""

from __future__ import annotations

import datetime
import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledger.circles.models import Circle
from ledger.models import Evening, Player
from ledger.tournaments.models import Tournament

# How long a new link works unless its maker chooses otherwise: a week covers "see you next Friday".
DEFAULT_DAYS = 7
LIFETIMES = (1, 7, 30)


def new_invite_token() -> str:
    return secrets.token_urlsafe(24)  # 32 characters, 192 bits


class InviteLinkQuerySet(models.QuerySet["InviteLink"]):
    def live(self, now: datetime.datetime | None = None) -> InviteLinkQuerySet:
        """Links that still work: not revoked, not expired."""
        return self.filter(revoked_at__isnull=True, expires_at__gt=now or timezone.now())

    def of(self, subject: Any) -> InviteLinkQuerySet:
        """The links into ``subject`` (an evening, a circle or a tournament)."""
        return self.filter(**{InviteLink.field_for(subject): subject})


class InviteLink(models.Model):
    """A link that makes whoever accepts it a co-scorekeeper of an evening, a member of a circle or an entrant of
    a tournament; with ``player`` set, it is meant for that one person, who also claims the player by accepting."""

    class Kind(models.TextChoices):
        EVENING = "evening", _("co-scorekeeper of the evening")
        CIRCLE = "circle", _("member of the circle")
        TOURNAMENT = "tournament", _("entrant of the tournament")

    kind = models.CharField(_("grants"), max_length=10, choices=Kind.choices)
    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    circle = models.ForeignKey(Circle, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, null=True, blank=True, related_name="+", verbose_name=_("player")
    )
    token = models.CharField(max_length=43, unique=True, default=new_invite_token)
    # What the maker's page named this link before it existed: a double tap on "Make a link" finds the link the
    # first tap made instead of making a second one.
    key = models.CharField(max_length=43, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField(_("expires"))
    revoked_at = models.DateTimeField(null=True, blank=True)

    objects = InviteLinkQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    Q(kind="evening", evening__isnull=False, circle__isnull=True, tournament__isnull=True)
                    | Q(kind="circle", evening__isnull=True, circle__isnull=False, tournament__isnull=True)
                    | Q(kind="tournament", evening__isnull=True, circle__isnull=True, tournament__isnull=False)
                ),
                name="invite_link_one_target_of_its_kind",
            ),
            models.UniqueConstraint(
                fields=["created_by", "key"], condition=~Q(key=""), name="invite_link_key_once_per_maker"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.subject}"

    # Not get_absolute_url: Django's admin would then lead any staff member through /admin/r/ to the token.
    def page_url(self) -> str:
        """The link's own page, which grants its role to whoever holds it."""
        return reverse("invitations:invite_link", args=[self.token])

    @staticmethod
    def field_for(subject: Any) -> str:
        """The foreign key that points at ``subject``."""
        for kind, model in KIND_MODELS.items():
            if isinstance(subject, model):
                return kind
        raise TypeError(f"No invitation leads into a {type(subject).__name__}")

    @property
    def subject(self) -> Evening | Circle | Tournament:
        """The evening, circle or tournament the link leads into."""
        subject: Evening | Circle | Tournament | None = getattr(self, self.kind)
        assert subject is not None  # the check constraint
        return subject

    def is_live(self, now: datetime.datetime | None = None) -> bool:
        return self.revoked_at is None and self.expires_at > (now or timezone.now())


KIND_MODELS: dict[str, type[models.Model]] = {
    InviteLink.Kind.EVENING: Evening,
    InviteLink.Kind.CIRCLE: Circle,
    InviteLink.Kind.TOURNAMENT: Tournament,
}


class InviteLinkUse(models.Model):
    """Who accepted a link, when, and as which player (the circle member or the entrant it made, or the player it
    claimed; None for a co-scorekeeper who claimed nobody)."""

    link = models.ForeignKey(InviteLink, on_delete=models.CASCADE, related_name="uses")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    accepted_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["accepted_at", "id"]
        constraints = [models.UniqueConstraint(fields=["link", "user"], name="invite_link_used_once_per_user")]

    def __str__(self) -> str:
        return f"{self.link}: {self.user}"
