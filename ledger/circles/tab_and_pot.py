"""The money of a circle of regulars (``CircleEntry``): what closing one of its evenings books, the tab and the pot.

- **Tab** (``settle="tab"``): closing one of its evenings plans the settlement as for any evening (the Settlement
  row is kept, so the evening reads as settled, with its rounded balances), but instead of storing tonight's
  transfers it books what each player would have paid or received into the tab (``carried``). That is each
  player's net of the planned transfers: the rounded balance less what was paid already before a reopen, so it sums
  to zero. Settling the tab plans who pays whom from the tab balances (same modes and rounding as an evening, to the
  circle's coin), books each balance back out (``settled``, the tab is zero afterwards) and marks the carried
  entries it settled; an evening whose carried balances were settled can no longer be reopened.
- **Pot** (``settle="pot"``): the evening settles tonight as usual, and each winner pays ``pot_share`` of their
  rounded gain, rounded to the evening's coin, into the pot (``paid_in``); deposits and withdrawals are booked by
  hand. The pot's balance is the sum of its entries. The circle's ``pot_holder`` keeps the pot's money: each
  pay-in is paid to them and marked paid (``paid_at``).

A change of the circle's settings applies to the evenings closed from then on: what an evening's close booked is
read from its entries (``carries_into_tab``), not from today's settings. The books reach these functions only
through ``ledger.hooks`` (connected in ``ledger.circles.apps``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from ledger import payments, services
from ledger.circles.models import Circle, CircleEntry, CircleMember, CircleSettlement, CircleTransfer
from ledger.errors import LedgerError
from ledger.models import MONEY_PLACES, Evening, Player, Settlement
from ledger.texts import text_tidy
from rules.settlement import Transfer as PlannedTransfer

# --------------------------------------------------------------------------------------------------------------
# Closing and reopening a circle's evening (the books ask through ledger.hooks: evening_closing, evening_reopening)


def carries_into_tab(evening: Evening) -> bool:
    """Whether the evening's plan goes (open) or went (closed) into its circle's tab. A closed evening says so by
    its carried entries, not by the circle's settings, which may have changed since it closed."""
    if evening.circle_id is None:
        return False
    if evening.is_open:
        return _circle_of(evening).settle == Circle.Settle.TAB
    return CircleEntry.objects.filter(evening=evening, kind=CircleEntry.Kind.CARRIED).exists()


def _circle_of(evening: Evening) -> Circle:
    circle = evening.circle
    assert circle is not None
    return circle


def _net(planned: Sequence[PlannedTransfer]) -> dict[str, Decimal]:
    """Each player's net of planned transfers: what they were to receive, negative: to pay."""
    net: dict[str, Decimal] = {}
    for transfer in planned:
        net[transfer.payer] = net.get(transfer.payer, Decimal(0)) - transfer.amount
        net[transfer.payee] = net.get(transfer.payee, Decimal(0)) + transfer.amount
    return net


def tab_carry(
    *, evening: Evening, planned: Sequence[PlannedTransfer], players: dict[str, Player], by: Any
) -> list[CircleEntry]:
    """Book the evening's planned transfers into its circle's tab instead of storing them: each player's net of the
    planned transfers (``_net``), summing to zero. Inside evening_close's transaction, the evening's row locked."""
    net = _net(planned)
    if sum(net.values(), Decimal(0)) != 0:  # the plan balances; a bug must not leave money nobody owes
        raise LedgerError(_("The evening's balances would no longer sum to zero; nothing was stored."))
    carried = [(name, amount) for name, amount in sorted(net.items()) if amount != 0]
    return _evening_entries(evening, CircleEntry.Kind.CARRIED, carried, players, by)


def planned_net(settlement: Settlement) -> dict[str, Decimal]:
    """The net of the transfers a closed evening's stored settlement plans, paid ones kept over a reopen set aside:
    what closing carries into a tab (``tab_carry``)."""
    paid = settlement.transfers.filter(paid_at__isnull=False).select_related("payer", "payee")
    exact = {name: Decimal(amount) for name, amount in settlement.exact.items()}
    banker = settlement.banker.name if settlement.banker else None
    _rounded, planned = services.settlement_plan(
        exact=exact,
        coin=settlement.coin,
        mode=settlement.mode,
        banker=banker,
        paid=[services.transfer_planned(t) for t in paid],
    )
    return _net(planned)


def pot_shares_of(evening: Evening, settlement: Settlement) -> dict[str, Decimal]:
    """{winner: what they pay into the pot}: the circle's ``pot_share`` of each rounded gain, rounded half up to
    the evening's coin; nothing unless the evening's circle keeps a pot."""
    if evening.circle_id is None or _circle_of(evening).settle != Circle.Settle.POT:
        return {}
    share = _circle_of(evening).pot_share
    shares = {}
    for name, rounded in settlement.rounded.items():
        gain = Decimal(rounded)
        paid = _to_coin(gain * share, evening.coin) if gain > 0 else Decimal(0)
        if paid > 0:
            shares[name] = paid
    return shares


def pot_shares_possible(settlement: Settlement, shares: dict[str, Decimal]) -> bool:
    """Whether ``shares`` ({player: paid into the pot}) is what closing the evening books (``pot_shares_of``) with
    one pot share from 0 to 1 for all its winners. The import's check: the share in force when the evening closed
    is not stored, and the circle's may have changed since (``circle_settings_change``).

    Paying ``p`` of a gain ``g`` (``p`` rounded half up to the coin ``c``) means a share in [(p − c/2)/g,
    (p + c/2)/g), and a winner who paid nothing a share below c/2/g; the shares are possible when these ranges
    and [0, 1] meet. Fractions keep every bound exact."""
    coin = Fraction(settlement.coin)
    gains = {name: Fraction(Decimal(amount)) for name, amount in settlement.rounded.items()}
    if any(gains.get(name, 0) <= 0 or paid <= 0 or Fraction(paid) % coin for name, paid in shares.items()):
        return False  # only winners pay, a positive multiple of the coin
    low, high = Fraction(0), Fraction(2)  # high: above any share, exclusive
    for name, gain in gains.items():
        if gain > 0:
            paid = Fraction(shares.get(name, Decimal(0)))
            low = max(low, (paid - coin / 2) / gain)
            high = min(high, (paid + coin / 2) / gain)
    return low <= 1 and low < high


def pot_pay_in(*, evening: Evening, settlement: Settlement, players: dict[str, Player], by: Any) -> list[CircleEntry]:
    """Each winner of a pot circle's evening pays their share (``pot_shares_of``) into the pot. Inside
    evening_close's transaction."""
    shares = pot_shares_of(evening, settlement).items()
    return _evening_entries(evening, CircleEntry.Kind.PAID_IN, shares, players, by)


def _evening_entries(
    evening: Evening, kind: str, amounts: Iterable[tuple[str, Decimal]], players: dict[str, Player], by: Any
) -> list[CircleEntry]:
    """One entry of ``kind`` per (name, amount) in the evening's circle, noted with the evening's date."""
    entries = [
        CircleEntry(
            circle=_circle_of(evening),
            player=players[name],
            evening=evening,
            kind=kind,
            amount=amount,
            note=f"{evening.date:%Y-%m-%d}",
            created_by=by,
        )
        for name, amount in amounts
    ]
    return CircleEntry.objects.bulk_create(entries)


def _to_coin(amount: Decimal, coin: Decimal) -> Decimal:
    return ((amount / coin).quantize(Decimal(1), rounding=ROUND_HALF_UP) * coin).quantize(MONEY_PLACES)


def circle_close(*, evening: Evening, settlement: Settlement, planned: Sequence[PlannedTransfer], by: Any) -> bool:
    """What closing a circle's evening books in the circle; True when the planned transfers went into the tab
    (the books then store none). Asked by the books' evening_close (``hooks.evening_closing``) inside its
    transaction."""
    if evening.circle_id is None:
        return False
    # The circle's row after the evening's (as evening_close locked it): settling the tab, which locks only the
    # circle, then never reads the tab while this close books into it.
    circle = Circle.objects.select_for_update().get(pk=evening.circle_id)
    evening.circle = circle
    if circle.settle == Circle.Settle.EVENING:
        return False
    names = set(settlement.rounded) | {t.payer for t in planned} | {t.payee for t in planned}
    players = {player.name: player for player in Player.objects.filter(owner_id=evening.owner_id, name__in=names)}
    if circle.settle == Circle.Settle.TAB:
        tab_carry(evening=evening, planned=planned, players=players, by=by)
        return True
    pot_pay_in(evening=evening, settlement=settlement, players=players, by=by)
    return False


def circle_reopen(*, evening: Evening) -> None:
    """Reopening a circle's evening takes back what its close booked: the carried balances (refused once the tab
    settled them) and the winners' pot shares. Told by the books' evening_reopen (``hooks.evening_reopening``) inside
    its transaction."""
    if evening.circle_id is None:
        return
    Circle.objects.select_for_update().filter(pk=evening.circle_id).first()  # as circle_close: no settling meanwhile
    booked = CircleEntry.objects.filter(evening=evening, kind__in=[CircleEntry.Kind.CARRIED, CircleEntry.Kind.PAID_IN])
    # Locked first: a pay-in marked paid meanwhile would otherwise be deleted after the check below passed.
    list(booked.select_for_update())
    if booked.filter(settlement__isnull=False).exists():
        raise LedgerError(
            _("This evening's balances were settled in the circle's tab already; it cannot be reopened."),
            field="evening",
        )
    # A pay-in marked paid is money the pot holder has: closing again would book it a second time.
    if booked.filter(paid_at__isnull=False).exists():
        raise LedgerError(
            _("A pot pay-in of this evening is marked paid: mark it unpaid on the circle's page to reopen."),
            field="evening",
        )
    booked.delete()


# --------------------------------------------------------------------------------------------------------------
# Settling the tab


@transaction.atomic
def tab_settle(*, circle: Circle, by: Any, mode: str = "fewest", banker: str | None = None) -> CircleSettlement:
    """Plan who pays whom from the tab's balances (``services.settlement_plan``: the evening's modes and rounding,
    to the circle's coin), book each balance back out so the tab reads zero, and mark the carried entries settled."""
    locked = Circle.objects.select_for_update().get(pk=circle.pk)
    open_entries = CircleEntry.objects.filter(circle=locked).tab()
    exact = {name: amount for name, amount in open_entries.totals("player__name").items() if amount != 0}
    if not exact:
        raise LedgerError(_("The tab is even: nobody owes anything."), field="non_field_errors")
    rounded, planned = services.settlement_plan(exact=exact, coin=locked.coin, mode=mode, banker=banker, paid=[])
    players = {player.name: player for player in Player.objects.filter(owner_id=locked.owner_id, name__in=exact)}
    order = sorted(exact, key=lambda name: (-rounded[name], name))
    settlement = CircleSettlement.objects.create(
        circle=locked,
        mode=mode,
        banker=players[banker] if banker else None,
        coin=locked.coin,
        exact={name: str(exact[name]) for name in order},
        rounded={name: str(rounded[name]) for name in order},
        created_by=by,
    )
    CircleTransfer.objects.bulk_create(
        CircleTransfer(settlement=settlement, payer=players[t.payer], payee=players[t.payee], amount=t.amount)
        for t in planned
    )
    open_entries.filter(kind=CircleEntry.Kind.CARRIED, settlement__isnull=True).update(settlement=settlement)
    CircleEntry.objects.bulk_create(
        CircleEntry(
            circle=locked,
            player=players[name],
            settlement=settlement,
            kind=CircleEntry.Kind.SETTLED,
            amount=-exact[name],
            created_by=by,
        )
        for name in order
    )
    return settlement


def tab_transfer_mark_paid(*, transfer: CircleTransfer, by: Any) -> CircleTransfer:
    """Record that the payer has paid (``ledger.payments``, under the transfer's lock); again changes nothing (a
    double tap): ``transfer`` reads as stored."""
    marked = payments.paid_mark_set(CircleTransfer.objects.all(), pk=transfer.pk, paid=True, by=by)
    payments.paid_mark_copy(marked, transfer)
    return transfer


def tab_transfer_mark_unpaid(*, transfer: CircleTransfer, by: Any) -> CircleTransfer:
    """Take back a paid mark tapped by mistake: the transfer is owed again; again changes nothing."""
    marked = payments.paid_mark_set(CircleTransfer.objects.all(), pk=transfer.pk, paid=False, by=by)
    payments.paid_mark_copy(marked, transfer)
    return transfer


# --------------------------------------------------------------------------------------------------------------
# The pot


def pot_pay_in_mark_paid(*, entry: CircleEntry, by: Any) -> CircleEntry:
    """Record that the winner paid their pot share to the pot holder; again changes nothing (a double tap)."""
    if entry.kind != CircleEntry.Kind.PAID_IN:
        raise LedgerError(_("Only a pay-in into the pot is marked paid."))
    marked = payments.paid_mark_set(_pay_ins(), pk=entry.pk, paid=True, by=by)
    payments.paid_mark_copy(marked, entry)
    return entry


def pot_pay_in_mark_unpaid(*, entry: CircleEntry, by: Any) -> CircleEntry:
    """Take back a paid mark tapped by mistake: the pot share is owed again; again changes nothing."""
    marked = payments.paid_mark_set(_pay_ins(), pk=entry.pk, paid=False, by=by)
    payments.paid_mark_copy(marked, entry)
    return entry


def _pay_ins() -> QuerySet[CircleEntry]:
    """The pot's pay-ins, the only entries marked paid (a reopen takes back the unpaid ones under their lock)."""
    return CircleEntry.objects.filter(kind=CircleEntry.Kind.PAID_IN)


def _pot_amount(amount: Decimal) -> Decimal:
    if amount <= 0 or amount != amount.quantize(Decimal("0.01")) or amount >= Decimal("1e9"):
        raise LedgerError(_("Give an amount above zero, in cents."), field="amount")
    return amount


def _note_check(note: str) -> str:
    refused = _("A note can have at most 200 letters, none of them hidden.")
    return text_tidy(note, field="note", most=200, too_long=refused, hidden=refused)


def _member(circle: Circle, player: Player | None) -> Player | None:
    if player is not None and not CircleMember.objects.filter(circle=circle, player=player).exists():
        raise LedgerError(_("Only a member of the circle can pay into the pot or take from it."), field="player")
    return player


def pot_deposit(
    *, circle: Circle, by: Any, amount: Decimal, player: Player | None = None, note: str = ""
) -> CircleEntry:
    """Money put into the pot (by a member, or None: from outside)."""
    return CircleEntry.objects.create(
        circle=circle,
        player=_member(circle, player),
        kind=CircleEntry.Kind.DEPOSIT,
        amount=_pot_amount(amount),
        note=_note_check(note),
        created_by=by,
    )


@transaction.atomic
def pot_withdraw(
    *, circle: Circle, by: Any, amount: Decimal, player: Player | None = None, note: str = ""
) -> CircleEntry:
    """Money taken out of the pot (a round of beer, the season's dinner); never more than the pot holds."""
    locked = Circle.objects.select_for_update().get(pk=circle.pk)
    amount = _pot_amount(amount)
    if CircleEntry.objects.filter(circle=locked).pot().total() < amount:
        raise LedgerError(_("The pot does not hold that much."), field="amount")
    return CircleEntry.objects.create(
        circle=locked,
        player=_member(locked, player),
        kind=CircleEntry.Kind.WITHDRAWAL,
        amount=-amount,
        note=_note_check(note),
        created_by=by,
    )
