"""A player's word on one version of a hand: OK, or "that's not what happened"."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from ledger.models import Hand, Player
from ledger.seats.models import SeatClaim

REASON_LENGTH = 200


class Confirmation(models.Model):
    """``player`` says the hand's ``version`` is right (OK) or disputes it, once: a second tap finds this row.

    ``by`` is the account the books name for the tap: a seated phone's acting account (``claim`` is that phone's
    seat), or the scorekeeper's or the tournament table's account when the player tapped on the table's shared
    phone (``claim`` is then empty). A correction makes a new version, which asks again; the rows of older versions
    stay, as the hand's history.
    """

    class Verdict(models.TextChoices):
        OK = "ok", _("OK")
        DISPUTED = "disputed", _("disputed")

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="+")
    version = models.PositiveIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    verdict = models.CharField(max_length=8, choices=Verdict.choices)
    reason = models.CharField(_("reason"), max_length=REASON_LENGTH, blank=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    # SET_NULL: a seat's row going (its table deleted) leaves nothing to show anyway; the hand goes with the table.
    claim = models.ForeignKey(SeatClaim, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["hand_id", "version", "at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "version", "player"], name="one_verdict_per_player_and_version")
        ]

    def __str__(self) -> str:
        return f"#{self.hand_id} v{self.version} {self.player_id}: {self.verdict}"

    @property
    def is_ok(self) -> bool:
        return self.verdict == self.Verdict.OK

    @property
    def on_own_phone(self) -> bool:
        return self.claim_id is not None
