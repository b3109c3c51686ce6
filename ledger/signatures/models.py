"""A player's signature of the evening's list: the hands as they stood when the player signed.

A signature names what it signed (the evening's revision: the sum of its tables' revisions, each table's revision
and hand count, the player's balance), so a hand recorded, corrected or voided later makes it visibly stale: the
player signs again, and the older signature is kept, superseded, as the list's history.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from ledger.models import MONEY, Evening, Player
from ledger.seats.models import SeatClaim


class Signature(models.Model):
    """``player`` signed ``evening``'s list at ``at``: on their own phone (``claim``, the seat it held), on a shared
    phone (the table's or the scorekeeper's: no claim), or the scorekeeper signed for them after they left
    (``for_absent``). ``by`` is the user the books name for it (a seated phone's acting account)."""

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    # What was signed: the evening's revision (each change to a hand raises its table's revision, and revisions
    # never go down, so an equal sum means nothing changed), per table {"<id>": [revision, hands numbered]}, the
    # hands numbered across the evening's tables, and the player's balance then.
    revision = models.PositiveIntegerField()
    tables = models.JSONField()
    hands = models.PositiveIntegerField()
    balance = models.DecimalField(**MONEY)
    at = models.DateTimeField(default=timezone.now)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    claim = models.ForeignKey(SeatClaim, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    for_absent = models.BooleanField(default=False)
    # Set when the player signed again after the hands changed: the newer signature is the current one.
    superseded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["evening", "player", "-at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["evening", "player"],
                condition=Q(superseded_at__isnull=True),
                name="one_current_signature_per_player",
            ),
            models.CheckConstraint(
                condition=~Q(for_absent=True, claim__isnull=False), name="signature_for_absent_not_on_own_phone"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.evening_id}: {self.player_id} at {self.revision}"

    @property
    def on_own_phone(self) -> bool:
        return self.claim_id is not None
