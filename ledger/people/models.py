"""A person's account linked to the players scorekeepers typed for them.

A ``Player`` is a name a scorekeeper keeps; a ``PlayerClaim`` says a user is that person. The same user may be
several players (one under each scorekeeper), a player is one person: at most one approved claim per player. A
player nobody claims keeps working exactly as before.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledger.models import Player


class PlayerClaimQuerySet(models.QuerySet["PlayerClaim"]):
    def approved(self) -> PlayerClaimQuerySet:
        return self.filter(status=PlayerClaim.Status.APPROVED)

    def pending(self) -> PlayerClaimQuerySet:
        return self.filter(status=PlayerClaim.Status.REQUESTED)

    def decidable_by(self, user: Any) -> PlayerClaimQuerySet:
        """Claims ``user`` answers, whatever their state: on players ``user`` owns, never ``user``'s own. Not a
        co-scorekeeper's: an evening's "anybody" invitation link makes anybody one."""
        if not getattr(user, "is_authenticated", False):
            return self.none()
        return self.filter(player__owner=user).exclude(user=user)

    def to_decide_by(self, user: Any) -> PlayerClaimQuerySet:
        """Claims waiting for ``user``'s answer."""
        return self.decidable_by(user).pending()


class PlayerClaim(models.Model):
    """``user`` says they are ``player``; the player's owner (or an invitation naming the player) consents."""

    class Status(models.TextChoices):
        REQUESTED = "requested", _("waiting for the scorekeeper")
        APPROVED = "approved", _("approved")
        DECLINED = "declined", _("declined")

    class How(models.TextChoices):
        INVITATION = "invitation", _("an invitation")
        SEAT = "seat", _("a table's seat")
        CIRCLE_LINK = "circle_link", _("a circle member link")
        SHARE_LINK = "share_link", _("an evening's share link")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_claims")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claims")
    status = models.CharField(_("status"), max_length=9, choices=Status.choices, default=Status.REQUESTED)
    how = models.CharField(_("claimed through"), max_length=11, choices=How.choices)
    requested_at = models.DateTimeField(default=timezone.now)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    objects = PlayerClaimQuerySet.as_manager()

    class Meta:
        ordering = ["requested_at", "pk"]
        constraints = [
            # A repeated request finds the claim it made before.
            models.UniqueConstraint(fields=["user", "player"], name="player_claim_once_per_user"),
            # A player is one person.
            models.UniqueConstraint(
                fields=["player"], condition=Q(status="approved"), name="player_claim_one_approved"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} = {self.player} ({self.status})"

    @property
    def is_approved(self) -> bool:
        return self.status == self.Status.APPROVED

    @property
    def is_pending(self) -> bool:
        return self.status == self.Status.REQUESTED
