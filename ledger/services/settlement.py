"""The close-out: the evening's settlement and transfers (RULES.md §4), reopening, and marking transfers paid."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any, Protocol

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import rules
from ledger import hooks, payments, selectors
from ledger.errors import LedgerError, require_open
from ledger.models import (
    Evening,
    EveningEvent,
    Player,
    Settlement,
    Transfer,
)
from rules.settlement import Transfer as PlannedTransfer
from rules.settlement import settle

# --------------------------------------------------------------------------------------------------------------
# The close-out: settlement, transfers, payment details (RULES.md §4)


@transaction.atomic
def evening_close(
    *, evening: Evening, by: Any, mode: str = "fewest", banker: str | None = None, override: bool = False
) -> Settlement:
    """Freeze the balances, round them to the evening's coin and plan who pays whom; hands are locked from now on.

    A close check still open (``hooks.close_checks``: hands not confirmed, players who have not signed) refuses
    the close unless ``override`` says to close past it, which the evening's history then records.
    """
    locked = Evening.objects.select_for_update().get(pk=evening.pk)
    require_open(locked)
    # Read under the evening's lock: what was open when the scorekeeper looked may have been settled since, or not.
    still_open = [check for check in hooks.close_checks(locked) if check.open]
    if still_open and not override:
        raise LedgerError(
            _("Still open: %(checks)s. Closing past it needs an explicit override (“Close anyway”).")
            % {"checks": _checks_text(still_open)},
            field="override",
        )
    exact = selectors.evening_balances(locked)
    _require_storable_balances(exact)
    settlement = Settlement.objects.filter(evening=locked).first()  # kept by a reopen only if something was paid
    paid = (
        list(settlement.transfers.filter(paid_at__isnull=False).select_related("payer", "payee")) if settlement else []
    )
    rounded, planned = settlement_plan(
        exact=exact, coin=locked.coin, mode=mode, banker=banker, paid=[transfer_planned(t) for t in paid]
    )
    # The plan speaks of names, which settle() checked are the evening's players: all of them the owner's.
    players = {player.name: player for player in Player.objects.filter(owner_id=locked.owner_id, name__in=exact)}
    fields = {
        "mode": mode,
        "banker": players[banker] if banker else None,
        "coin": locked.coin,
        "exact": {player: str(amount) for player, amount in exact.items()},
        "rounded": {player: str(rounded[player]) for player in exact},
        "created_by": by,
        "created_at": timezone.now(),
    }
    settlement, _created = Settlement.objects.update_or_create(evening=locked, defaults=fields)
    # A feature may book the planned transfers elsewhere instead (a circle's tab): then none are stored here.
    closing = hooks.EveningClosing(evening=locked, settlement=settlement, planned=list(planned), by=by)
    if not any(hooks.evening_closing.send(closing)):
        Transfer.objects.bulk_create(
            Transfer(settlement=settlement, payer=players[t.payer], payee=players[t.payee], amount=t.amount)
            for t in planned
        )
    locked.status = Evening.Status.CLOSED
    locked.save(update_fields=["status"])
    if still_open:
        # The checks' own words, as the scorekeeper saw them when closing past them.
        EveningEvent.objects.create(
            evening=locked, kind=EveningEvent.Kind.CLOSE_OVERRIDDEN, by=by, note=_checks_text(still_open, most=200)
        )
    note = f"{settlement.mode}:{banker}" if banker else settlement.mode  # codes: EveningEvent.description reads them
    EveningEvent.objects.create(evening=locked, kind=EveningEvent.Kind.CLOSED, by=by, note=note)
    hooks.evening_closed.send_after_commit(hooks.ClosedEvening(evening_id=locked.pk, by_id=by.pk))
    evening.status = locked.status
    return settlement


def _checks_text(checks: Sequence[hooks.CloseCheck], most: int | None = None) -> str:
    """The checks' texts in one line, cut to ``most`` characters (an ellipsis ending what was cut)."""
    text = "; ".join(check.text for check in checks)
    if most is not None and len(text) > most:
        text = text[: most - 1].rstrip() + "…"
    return text


def _require_storable_balances(exact: dict[str, Decimal]) -> None:
    """Each table keeps its balances within what the books hold (``ledger.running_balances``); a player who sat at
    several tables can still pass it over the evening, and then neither the settlement nor its transfers can be
    stored."""
    for name, balance in exact.items():
        if abs(balance) > rules.MAX_AMOUNT:
            raise LedgerError(
                _("%(player)s's balance this evening is %(balance)s; the books hold at most %(most)s either way.")
                % {"player": name, "balance": balance, "most": rules.MAX_AMOUNT},
                field="evening",
            )


def settlement_plan(
    *, exact: dict[str, Decimal], coin: Decimal, mode: str, banker: str | None, paid: Sequence[NamedTransfer]
) -> tuple[dict[str, Decimal], tuple[PlannedTransfer, ...]]:
    """The rounded balances and the transfers still to plan, for balances ``exact`` of which ``paid`` are paid.

    Names throughout, as the balances are: ``transfer_planned`` gives a stored transfer's.

    What closing stores, and what an import checks a settlement against. LedgerError if the mode, banker or coin
    cannot settle these balances, or a paid transfer is not between two of their players.
    """
    # Money already paid before a reopen stays paid: plan only what is still owed. Subtracting the paid transfers
    # from the exact balances and rounding that keeps the rounding of the full balances whenever the paid amounts
    # are whole coins (they came from an earlier plan), and still works if the coin changed in between.
    owed = dict(exact)
    for transfer in paid:
        if not {transfer.payer, transfer.payee} <= set(exact) or transfer.payer == transfer.payee:
            raise LedgerError(_("A paid transfer must be between two players of the evening."), field="transfer")
        owed[transfer.payer] += transfer.amount
        owed[transfer.payee] -= transfer.amount
    try:
        plan = settle(owed, coin, mode, banker or None)
    except rules.RulesError as error:
        field = error.field if error.field in ("mode", "banker", "coin") else "non_field_errors"
        raise LedgerError(error.message, field=field) from None
    # Shown rounded balances are the whole evening's: what is still owed, plus what was paid already.
    rounded = dict(plan.rounded)
    for transfer in paid:
        rounded[transfer.payer] -= transfer.amount
        rounded[transfer.payee] += transfer.amount
    return rounded, plan.transfers


class NamedTransfer(Protocol):
    """A transfer by the players' names: a planned one, a stored one's ``transfer_planned``, an imported one."""

    @property
    def payer(self) -> str: ...

    @property
    def payee(self) -> str: ...

    @property
    def amount(self) -> Decimal: ...


def transfer_planned(transfer: Transfer) -> PlannedTransfer:
    """A stored transfer as the plan speaks of it: by the players' names."""
    return PlannedTransfer(transfer.payer.name, transfer.payee.name, transfer.amount)


@transaction.atomic
def evening_reopen(*, evening: Evening, by: Any) -> Evening:
    """Open a closed evening again for hands; the unpaid transfers are dropped, paid ones stay (and stay paid)."""
    locked = Evening.objects.select_for_update().get(pk=evening.pk)
    if locked.is_open:
        raise LedgerError(_("This evening is open already."), field="evening")
    dropped = 0
    hooks.evening_reopening.send(locked)  # what the close booked elsewhere (a circle's tab or pot) is taken back
    settlement = Settlement.objects.filter(evening=locked).first()
    if settlement is not None:
        dropped, _kinds = settlement.transfers.filter(paid_at__isnull=True).delete()
        if not settlement.transfers.exists():
            settlement.delete()
    locked.status = Evening.Status.OPEN
    locked.save(update_fields=["status"])
    note = str(dropped)  # a number: EveningEvent.description says it in the reader's language
    EveningEvent.objects.create(evening=locked, kind=EveningEvent.Kind.REOPENED, by=by, note=note)
    evening.status = locked.status
    return locked


@transaction.atomic
def transfer_mark_paid(*, transfer: Transfer, by: Any) -> Transfer:
    """Record that the payer has paid; marking it again changes nothing (a double tap, a retried request)."""
    # The evening's row first, as closing, reopening and taking a mark back lock it: a paid mark holding the
    # transfer while it waits for the evening (its history row points at it) deadlocked with a reopen.
    _lock_transfer_evening(transfer)
    marked = _transfer_marked(transfer, paid=True, by=by, kind=EveningEvent.Kind.TRANSFER_PAID)
    if marked.row is None:
        raise LedgerError(_("This transfer is no longer planned: the evening was reopened."), field="transfer")
    return marked.row


def _lock_transfer_evening(transfer: Transfer) -> Evening | None:
    """Lock the evening of a transfer's settlement (None when the transfer is gone)."""
    evening_id = Transfer.objects.filter(pk=transfer.pk).values_list("settlement__evening_id", flat=True).first()
    return None if evening_id is None else Evening.objects.select_for_update().filter(pk=evening_id).first()


def _transfer_marked(transfer: Transfer, *, paid: bool, by: Any, kind: str) -> payments.Marked[Transfer]:
    """The transfer marked as the tap names (``ledger.payments``), a change noted in the evening's history."""
    # Its players too, as the history's note and the answer name them; but only the transfer and its settlement
    # are locked, as before: a rename locks the player, and must not wait on a paid mark or make it wait.
    transfers = Transfer.objects.select_related("settlement", "payer", "payee")

    def audit(locked: Transfer) -> None:
        EveningEvent.objects.create(evening_id=locked.settlement.evening_id, kind=kind, by=by, note=str(locked))

    return payments.paid_mark_set(transfers, pk=transfer.pk, paid=paid, by=by, lock_also=("settlement",), audit=audit)


@transaction.atomic
def transfer_mark_unpaid(*, transfer: Transfer, by: Any) -> Transfer:
    """Take back a paid mark (a wrong tap); taking it back again changes nothing.

    On a closed evening the transfer is owed again, part of the same plan. On a reopened evening it is dropped,
    as the reopen dropped the unpaid transfers: the next close plans that money again.
    """
    # The evening's row first, as closing and reopening lock it: a reopen never runs between the read and the
    # write, and the two never wait on each other's locks.
    evening = _lock_transfer_evening(transfer)
    if evening is None:  # dropped meanwhile: nothing is marked paid any more
        transfer.paid_at = transfer.paid_by = None
        return transfer
    marked = _transfer_marked(transfer, paid=False, by=by, kind=EveningEvent.Kind.TRANSFER_UNPAID)
    locked = marked.row
    if locked is None:  # dropped meanwhile, as above
        transfer.paid_at = transfer.paid_by = None
        return transfer
    if marked.changed and evening.is_open:
        settlement = locked.settlement
        locked.delete()
        locked.pk = transfer.pk  # the answer still names the transfer it took back (delete() forgets the id)
        if not settlement.transfers.exists():
            settlement.delete()
    return locked
