"""Signing the evening's list: a seated player on their own phone, a player on a shared phone (the table's, the
scorekeeper's), or the scorekeeper for a player who left.

The list is signed before the evening closes: a closed evening's list is what was signed, and signing it then is
refused. A signature names what it signed (the evening's revision); the same tap again while nothing changed is
answered with the stored signature, and signing after a change supersedes the older one, which stays.
"""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ledger import selectors as books
from ledger.errors import LedgerError
from ledger.live import fanout
from ledger.models import Evening, Player, Seat
from ledger.seats.models import SeatClaim
from ledger.signatures import selectors
from ledger.signatures.models import Signature


class Signed(NamedTuple):
    """The player's current signature, and whether this request made it (False: the same tap again)."""

    signature: Signature
    made: bool


@transaction.atomic
def signature_sign(
    *,
    evening: Evening,
    player: Player,
    by: Any,
    claim: SeatClaim | None = None,
    for_absent: bool = False,
    revision: int | None = None,
) -> Signed:
    """``player`` signs the evening's hands as they stand; ``revision``: the evening's revision the signing phone
    showed (signing hands the phone did not show is refused). LedgerError naming the field otherwise."""
    # The evening's row first, as closing locks it: a close waits for the signature, or the signature sees it.
    locked = Evening.objects.select_for_update().get(pk=evening.pk)
    if not locked.is_open:
        raise LedgerError(_("This evening is closed: its list was to be signed before the close."), field="evening")
    _require_signer(locked, player, claim=claim, for_absent=for_absent)
    state = selectors.evening_state(locked)
    if state.hands == 0:
        raise LedgerError(_("There is nothing to sign yet: no hand was recorded."), field="evening")
    if revision is not None and revision != state.revision:
        raise LedgerError(_("The hands changed since this page was drawn: look at them again, then sign."), "revision")
    current = Signature.objects.filter(evening=locked, player=player, superseded_at__isnull=True).first()
    if current is not None and current.revision == state.revision:
        return Signed(current, made=False)
    now = timezone.now()
    if current is not None:
        Signature.objects.filter(pk=current.pk).update(superseded_at=now)
    signature = Signature.objects.create(
        evening=locked,
        player=player,
        revision=state.revision,
        tables=state.tables,
        hands=state.hands,
        balance=selectors.player_balance(books.evening_balances(locked), player),
        at=now,
        by=by,
        claim=claim,
        for_absent=for_absent,
    )
    news = {"signature": player.pk, "revision": state.revision}
    # The evening's live pages (the seated phones', the table's) fetch their live part again.
    transaction.on_commit(functools.partial(fanout.publish, fanout.evening_topic(locked.pk), news), robust=True)
    return Signed(signature, made=True)


def _require_signer(evening: Evening, player: Player, *, claim: SeatClaim | None, for_absent: bool) -> None:
    if not Seat.objects.filter(table__evening=evening, player=player).exists():
        raise LedgerError(
            _("%(player)s does not sit at a table of this evening.") % {"player": player.name}, field="player"
        )
    if claim is None:
        return
    if for_absent:
        raise LedgerError(_("A player signing on their own phone is not absent."), field="for_absent")
    held = claim.status == SeatClaim.Status.HELD and claim.player_id == player.pk
    if not held or claim.table.evening_id != evening.pk:
        raise LedgerError(
            _("This phone holds no seat of %(player)s this evening.") % {"player": player.name}, field="player"
        )
