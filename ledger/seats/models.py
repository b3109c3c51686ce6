"""A phone holding a seat at a table, and the stand-in account that acts for a phone without an account."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from ledger.models import Player, Table


class SeatClaimQuerySet(models.QuerySet["SeatClaim"]):
    def held(self) -> SeatClaimQuerySet:
        return self.filter(status=SeatClaim.Status.HELD)

    def waiting(self) -> SeatClaimQuerySet:
        return self.filter(status=SeatClaim.Status.PENDING)

    def live(self) -> SeatClaimQuerySet:
        """Claims that still mean something: held, or waiting for the scorekeeper, of an open evening."""
        return self.filter(status__in=[SeatClaim.Status.HELD, SeatClaim.Status.PENDING], table__evening__status="open")


class SeatClaim(models.Model):
    """A phone (its ``device``) bound to one seat of a table, asked for, held, or let go.

    A seat is held by one phone at a time, and a phone holds one seat of a table. A claim of a seat another phone
    holds waits (``PENDING``) until the scorekeeper lets it take the seat or refuses it. A held seat is let go when
    the scorekeeper releases it, its phone leaves, or the evening closes.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for the scorekeeper")
        HELD = "held", _("held")
        RELEASED = "released", _("released")
        REFUSED = "refused", _("refused")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    position = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    # SHA-256 of the phone's device id (ledger.devices.phone): the cookie is the seat's token.
    device = models.CharField(max_length=64)
    # The account the phone was logged in as when it claimed, if any.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Whom the books name for what this phone records, confirms or signs: its account, or for a phone without one a
    # stand-in account carrying the player's name (never logged in, no password, listed nowhere).
    acting = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.HELD)
    claimed_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    ended_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    objects = SeatClaimQuerySet.as_manager()

    class Meta:
        ordering = ["table_id", "position", "-claimed_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "position"], condition=Q(status="held"), name="seat_held_by_one_phone"
            ),
            models.UniqueConstraint(
                fields=["table", "device"], condition=Q(status="held"), name="phone_holds_one_seat_per_table"
            ),
            # A phone waits for one seat of a table at a time: asking again finds its claim.
            models.UniqueConstraint(
                fields=["table", "device"], condition=Q(status="pending"), name="phone_waits_once_per_table"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table_id}/{self.position}: {self.player_id} ({self.status})"

    @property
    def is_held(self) -> bool:
        return self.status == self.Status.HELD

    @property
    def is_pending(self) -> bool:
        return self.status == self.Status.PENDING


class StandIn(models.Model):
    """The account that acts for a phone without one at one player's seat: named after the player (its first
    name), no usable password, inactive, listed nowhere. One per phone and player, so a phone that leaves and comes
    back is named the same in the books."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seat_stand_in")
    device = models.CharField(max_length=64)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["device", "player"], name="stand_in_once_per_phone_player")]

    def __str__(self) -> str:
        return f"{self.player} ({self.device[:8]})"
