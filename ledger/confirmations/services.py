"""A player's OK or dispute of a hand's version: given once, under the hand's row lock, refused naming the field."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from ledger.confirmations import pushes
from ledger.confirmations.models import REASON_LENGTH, Confirmation
from ledger.confirmations.selectors import state_of
from ledger.errors import LedgerError, StaleVersion, require_open
from ledger.models import Hand, Player, Table
from ledger.seats.models import SeatClaim
from ledger.templatetags.talon import money
from ledger.texts import text_tidy


class VersionChanged(StaleVersion):
    """The hand was corrected (or voided, or counted again) after the version the player saw: the player checks the
    new one, whose price the message gives."""

    def __init__(self, hand: Hand) -> None:
        super().__init__(hand)
        who = hand.changed_by.get_full_name() or hand.changed_by.get_username()
        self.message = _(
            "Hand #%(number)s was corrected by %(who)s meanwhile: check version %(version)s (%(label)s: %(amounts)s)."
        ) % {"number": hand.number, "who": who, "version": hand.version, "label": hand.label, "amounts": _priced(hand)}
        self.args = (self.message,)


def confirm(*, hand: Hand, version: int, player: Player, by: Any, claim: SeatClaim | None = None) -> Confirmation:
    """``player`` says version ``version`` of ``hand`` is right; a second tap answers with the word already given."""
    return _give(hand, version, player, by, claim, Confirmation.Verdict.OK, "")


def dispute(
    *, hand: Hand, version: int, player: Player, by: Any, claim: SeatClaim | None = None, reason: str = ""
) -> Confirmation:
    """``player`` says version ``version`` of ``hand`` is not what happened (``reason``, optional); the scorekeepers
    are told, and a correction asks again."""
    reason = text_tidy(
        reason or "",
        field="reason",
        most=REASON_LENGTH,
        too_long=_("Say it in at most %(most)s letters.") % {"most": REASON_LENGTH},
    )
    return _give(hand, version, player, by, claim, Confirmation.Verdict.DISPUTED, reason)


def _give(
    hand: Hand, version: int, player: Player, by: Any, claim: SeatClaim | None, verdict: str, reason: str
) -> Confirmation:
    with transaction.atomic():
        # The books' lock order: the table's row, then the hand's.
        table = Table.objects.select_for_update().select_related("evening").get(pk=hand.table_id)
        current = Hand.objects.select_for_update().select_related("changed_by").get(pk=hand.pk)
        current.table = table
        given = Confirmation.objects.filter(hand=current, version=version, player=player).first()
        if given is not None:
            return given  # a double tap, a retry, or a second phone: the word stands as first given
        require_open(table.evening)
        if not current.is_counted:
            raise LedgerError(
                _("Hand #%(number)s was voided: there is nothing to confirm.") % {"number": current.number},
                field="hand",
            )
        if version > current.version:
            raise LedgerError(
                _("Hand #%(number)s has no version %(version)s yet.") % {"number": current.number, "version": version},
                field="version",
            )
        if current.version != version:
            raise VersionChanged(current)
        _require_needed(current, player)
        _require_phone_of(claim, table, player)
        given = Confirmation.objects.create(
            hand=current, version=version, player=player, verdict=verdict, reason=reason, by=by, claim=claim
        )
        transaction.on_commit(lambda: pushes.answered(given), robust=True)
    return given


def _require_needed(hand: Hand, player: Player) -> None:
    state = state_of(hand)
    if state is None or not state.needs(player.pk):
        raise LedgerError(
            _("%(player)s need not confirm hand #%(number)s.") % {"player": player.name, "number": hand.number},
            field="player",
        )


def _require_phone_of(claim: SeatClaim | None, table: Table, player: Player) -> None:
    held = claim is None or (
        claim.table_id == table.pk and claim.player_id == player.pk and claim.status == SeatClaim.Status.HELD
    )
    if not held:
        raise LedgerError(
            _("This phone does not hold %(player)s's seat at this table.") % {"player": player.name}, field="player"
        )


def _priced(hand: Hand) -> str:
    """The hand's money in a line: "Ana +0.40, Ben −0.20, Cyril −0.20"."""
    return ", ".join(f"{name} {money(amount)}" for name, amount in hand.amounts.items())
