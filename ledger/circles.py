"""Write side of circles of regulars (issue 19): members, scorekeepers, their evenings, the tab and the pot.

As ``ledger/services.py`` (whose helpers these call: players, evenings, the settlement plan), each function is one
domain step with keyword-only arguments, run in one transaction; the pages and the API call the same functions.

The money of a circle (``CircleEntry``):

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

A circle's settings (name, how it settles, currency, coin, pot share, pot holder) change with
``circle_settings_change``; a change applies to the evenings closed from then on, nothing booked is priced again.
So what an evening's close booked is read from its entries (``carries_into_tab``), not from today's settings.
"""

from __future__ import annotations

import datetime
import secrets
from collections.abc import Iterable, Sequence
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ledger import services
from ledger.models import (
    MONEY_PLACES,
    Circle,
    CircleEntry,
    CircleMember,
    CircleSettlement,
    CircleTransfer,
    Currency,
    Evening,
    Player,
    Settlement,
)
from ledger.texts import text_tidy
from rules.settlement import Transfer as PlannedTransfer

# services imports this module (evening_close and evening_reopen call it), so this one reaches services' names
# through the module, at call time, never with "from ledger.services import".
MAX_NAME = 80


def new_member_token() -> str:
    return secrets.token_urlsafe(18)


# --------------------------------------------------------------------------------------------------------------
# The circle, its members and scorekeepers


def circle_name_check(name: str) -> str:
    refused = _("A circle's name can have at most 80 letters, none of them hidden.")
    return text_tidy(name, field="name", most=MAX_NAME, empty=_("Name the circle."), too_long=refused, hidden=refused)


def _coin_check(currency: str, coin: Decimal | None) -> Decimal:
    if currency not in Currency.values:
        raise services.LedgerError(_("Choose a currency."), field="currency")
    if coin is None:
        return Decimal("1") if currency == Currency.CZK else Decimal("0.01")
    if coin < Decimal("0.01") or coin != coin.quantize(Decimal("0.01")) or coin > 1000:
        raise services.LedgerError(
            _("The coin to round to must be a real coin: from 0.01 to 1000, in cents."), field="coin"
        )
    return coin


def _settle_check(settle: str) -> str:
    if settle not in Circle.Settle.values:
        raise services.LedgerError(_("Choose how the circle settles."), field="settle")
    return settle


def _share_check(pot_share: Decimal | None) -> Decimal:
    share = Decimal("0.1") if pot_share is None else pot_share
    if not Decimal(0) <= share <= 1 or share != share.quantize(MONEY_PLACES):
        raise services.LedgerError(_("The share paid into the pot is a part from 0 to 1, e.g. 0.1."), field="pot_share")
    return share


@transaction.atomic
def circle_create(
    *,
    owner: Any,
    name: str,
    members: Iterable[str] = (),
    settle: str = Circle.Settle.EVENING,
    currency: str = Currency.CZK,
    coin: Decimal | None = None,
    pot_share: Decimal | None = None,
) -> Circle:
    """A new circle of the owner's players (known names reused, new ones added), in the order named."""
    circle = Circle.objects.create(
        owner=owner,
        name=circle_name_check(name),
        settle=_settle_check(settle),
        currency=currency,
        coin=_coin_check(currency, coin),
        pot_share=_share_check(pot_share),
    )
    for member in members:
        if member and member.strip():
            circle_member_add(circle=circle, name=member)
    return circle


@transaction.atomic
def circle_settings_change(
    *,
    circle: Circle,
    by: Any,
    name: str,
    settle: str,
    currency: str,
    coin: Decimal | None = None,
    pot_share: Decimal | None = None,
    pot_holder: Player | None = None,
) -> Circle:
    """Change the circle's settings, checked as at creation; they apply to the evenings closed from now on.

    Refused, naming the field: leaving the tab while it holds open balances (they would be owed in a tab nobody
    settles any more), and another currency once the circle has evenings in its currency or any booking (entries
    and tab settlements hold no currency of their own: they are in the circle's). A pot holder is a member.
    """
    locked = Circle.objects.select_for_update().get(pk=circle.pk)
    if not Circle.objects.for_user(by).filter(pk=locked.pk).exists():
        raise services.LedgerError(_("Only the circle's owner and scorekeepers change its settings."))
    was_tab = locked.settle == Circle.Settle.TAB  # as stored now, not as the caller read it
    locked.name = circle_name_check(name)
    locked.settle = _settle_check(settle)
    if was_tab and locked.settle != Circle.Settle.TAB and _tab_is_open(locked):
        raise services.LedgerError(
            _("The tab still holds open balances: settle the tab first, then change how the circle settles."),
            field="settle",
        )
    locked.currency = _currency_change_check(locked, currency)
    locked.coin = _coin_check(locked.currency, coin)
    locked.pot_share = _share_check(pot_share)
    locked.pot_holder = _holder_check(locked, pot_holder)
    fields = ["name", "settle", "currency", "coin", "pot_share", "pot_holder"]
    locked.save(update_fields=fields)
    for field in fields:  # the caller's instance reads as stored too
        setattr(circle, field, getattr(locked, field))
    return locked


def _tab_is_open(circle: Circle) -> bool:
    totals = CircleEntry.objects.filter(circle=circle).tab().totals("player_id")
    return any(amount != 0 for amount in totals.values())


def _currency_change_check(circle: Circle, currency: str) -> str:
    if currency == circle.currency:
        return currency
    if currency not in Currency.values:
        raise services.LedgerError(_("Choose a currency."), field="currency")
    booked = circle.entries.exists() or circle.settlements.exists()
    if booked or circle.evenings.exclude(currency=currency).exists():
        raise services.LedgerError(
            _("The circle has evenings or bookings in %(currency)s already: its currency can no longer change.")
            % {"currency": circle.currency},
            field="currency",
        )
    return currency


def _holder_check(circle: Circle, holder: Player | None) -> Player | None:
    if holder is not None and not CircleMember.objects.filter(circle=circle, player=holder).exists():
        raise services.LedgerError(_("The pot holder must be a member of the circle."), field="pot_holder")
    return holder


def circle_member_add(*, circle: Circle, name: str) -> CircleMember:
    """The owner's player of that name joins the circle (made if new); joining again changes nothing."""
    player = services.player_get_or_create(owner=circle.owner, name=name)
    membership, _created = CircleMember.objects.get_or_create(circle=circle, player=player)
    return membership


def circle_member_remove(*, circle: Circle, player: Player) -> None:
    """The player leaves the circle (their link with it); their evenings, tab and pot entries stay as booked.
    A pot holder who leaves no longer holds the pot (nobody does until the settings name another)."""
    CircleMember.objects.filter(circle=circle, player=player).delete()
    if circle.pot_holder_id == player.pk:
        Circle.objects.filter(pk=circle.pk, pot_holder=player).update(pot_holder=None)
        circle.pot_holder = None


def circle_scorekeeper_candidates(circle: Circle) -> list[Any]:
    """Whom the owner may make a scorekeeper of the circle: users who keep score of one of the owner's evenings.

    They accepted an invitation of the owner's once; a user name typed in would tell the owner which names exist.
    A tournament table's phone keeps score of one of the organiser's evenings too, through a guest account that is
    nobody (``ledger.table_guest``): neither it nor a retired (inactive) account is offered.
    """
    kept = Evening.scorekeepers.through.objects.filter(
        evening__owner_id=circle.owner_id, evening__tournament_table__isnull=True
    ).values("user_id")
    user_model = type(circle.owner)
    people = user_model.objects.filter(pk__in=kept, is_active=True, tournament_table__isnull=True)
    return list(people.exclude(pk=circle.owner_id).exclude(circles_kept=circle).order_by("pk"))


def circle_scorekeeper_add(*, circle: Circle, user: Any, by: Any) -> None:
    if by != circle.owner:
        raise services.LedgerError(_("Only the circle's owner chooses its scorekeepers."), field="user")
    if user not in circle_scorekeeper_candidates(circle):
        raise services.LedgerError(
            _("Only somebody who keeps score of one of your evenings can keep score of the circle.")
        )
    circle.scorekeepers.add(user)


@transaction.atomic
def circle_scorekeeper_remove(*, circle: Circle, user: Any, by: Any) -> None:
    """The owner removes a scorekeeper; a scorekeeper may remove only themselves (leave).

    What the role reached goes with it: the circle's evenings, which ``circle_evening_create`` made them keep (the
    ones they started and the others alike), so they can neither read, record nor close one, whose close would book
    into a tab they no longer see. Who keeps an evening is not recorded by how they came to it: one the owner had
    invited them to is left too, and the owner invites them again.
    """
    if by != circle.owner and by != user:
        raise services.LedgerError(_("Only the circle's owner chooses its scorekeepers."), field="user")
    # On the circle's row, as circle_evening_create: an evening started meanwhile is not made theirs after this.
    Circle.objects.select_for_update().filter(pk=circle.pk).first()
    circle.scorekeepers.remove(user)
    Evening.scorekeepers.through.objects.filter(user=user, evening__circle=circle).delete()


def member_link_create(*, membership: CircleMember) -> CircleMember:
    """A new personal link for the member (the old one stops working)."""
    membership.token = new_member_token()
    membership.save(update_fields=["token"])
    return membership


def member_link_revoke(*, membership: CircleMember) -> CircleMember:
    membership.token = None
    membership.save(update_fields=["token"])
    return membership


# --------------------------------------------------------------------------------------------------------------
# The circle's evenings


@transaction.atomic
def circle_evening_create(
    *,
    circle: Circle,
    by: Any,
    date: datetime.date,
    place: str = "",
    currency: str | None = None,
    coin: Decimal | None = None,
) -> Evening:
    """Today's evening of the circle, in its money, owned by the circle's owner (the members are the owner's
    players), kept by the circle's scorekeepers and by whoever tapped.

    As "Same players as last time": a second tap finds the evening the first one made (open, same day, no table
    yet) instead of making an empty twin. Two taps at once queue on the circle's row.
    """
    Circle.objects.select_for_update().filter(pk=circle.pk).first()
    # Asked again on the locked row: a scorekeeper removed since the page let them tap keeps no evening of it.
    if by.pk != circle.owner_id and not circle.scorekeepers.filter(pk=by.pk).exists():
        raise PermissionDenied
    currency = currency or circle.currency
    coin = circle.coin if coin is None and currency == circle.currency else coin
    same = {"currency": currency, "place": place.strip()} | ({} if coin is None else {"coin": coin})
    made = (
        Evening.objects.filter(circle=circle, date=date, status=Evening.Status.OPEN, tables__isnull=True, **same)
        .order_by("-pk")
        .first()
    )
    if made is not None:
        services.evening_add_scorekeeper(evening=made, user=by)
        return made
    evening = services.evening_create(owner=circle.owner, date=date, place=place, currency=currency, coin=coin)
    evening.circle = circle
    evening.save(update_fields=["circle"])
    keepers = [by, *circle.scorekeepers.all()]
    for user in keepers:
        services.evening_add_scorekeeper(evening=evening, user=user)
    return evening


def circle_seating(circle: Circle) -> dict[str, str]:
    """The new table's seats filled with the circle's members, in name order (the table form takes what fits)."""
    names = CircleMember.objects.filter(circle=circle).values_list("player__name", flat=True)
    return {f"player_{seat}": name for seat, name in enumerate(names)}


# --------------------------------------------------------------------------------------------------------------
# Closing and reopening a circle's evening (called by services.evening_close and services.evening_reopen)


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
        raise services.LedgerError(_("The evening's balances would no longer sum to zero; nothing was stored."))
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


def circle_evening_attach(*, circle: Circle, evening: Evening) -> Evening:
    """An evening of the circle's owner, not in a circle yet, becomes the circle's (the import's step: nothing is
    booked, the import brings the circle's entries as they were)."""
    if evening.owner_id != circle.owner_id or evening.circle_id not in (None, circle.pk):
        raise services.LedgerError(_("Only an evening of the circle's owner can join the circle."), field="evening")
    evening.circle = circle
    evening.save(update_fields=["circle"])
    return evening


def circle_close(*, evening: Evening, settlement: Settlement, planned: Sequence[PlannedTransfer], by: Any) -> bool:
    """What closing a circle's evening books in the circle; True when the planned transfers went into the tab
    (evening_close then stores none). Called by services.evening_close inside its transaction."""
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
    settled them) and the winners' pot shares. Called by services.evening_reopen inside its transaction."""
    if evening.circle_id is None:
        return
    Circle.objects.select_for_update().filter(pk=evening.circle_id).first()  # as circle_close: no settling meanwhile
    booked = CircleEntry.objects.filter(evening=evening, kind__in=[CircleEntry.Kind.CARRIED, CircleEntry.Kind.PAID_IN])
    # Locked first: a pay-in marked paid meanwhile would otherwise be deleted after the check below passed.
    list(booked.select_for_update())
    if booked.filter(settlement__isnull=False).exists():
        raise services.LedgerError(
            _("This evening's balances were settled in the circle's tab already; it cannot be reopened."),
            field="evening",
        )
    # A pay-in marked paid is money the pot holder has: closing again would book it a second time.
    if booked.filter(paid_at__isnull=False).exists():
        raise services.LedgerError(
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
        raise services.LedgerError(_("The tab is even: nobody owes anything."), field="non_field_errors")
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
    """Record that the payer has paid; again changes nothing (a double tap)."""
    updated = CircleTransfer.objects.filter(pk=transfer.pk, paid_at__isnull=True).update(
        paid_at=timezone.now(), paid_by=by
    )
    if updated:
        transfer.refresh_from_db(fields=["paid_at", "paid_by"])
    return transfer


def tab_transfer_mark_unpaid(*, transfer: CircleTransfer, by: Any) -> CircleTransfer:
    """Take back a paid mark tapped by mistake: the transfer is owed again."""
    CircleTransfer.objects.filter(pk=transfer.pk).update(paid_at=None, paid_by=None)
    transfer.paid_at = transfer.paid_by = None
    return transfer


# --------------------------------------------------------------------------------------------------------------
# The pot


def pot_pay_in_mark_paid(*, entry: CircleEntry, by: Any) -> CircleEntry:
    """Record that the winner paid their pot share to the pot holder; again changes nothing (a double tap)."""
    if entry.kind != CircleEntry.Kind.PAID_IN:
        raise services.LedgerError(_("Only a pay-in into the pot is marked paid."))
    updated = CircleEntry.objects.filter(pk=entry.pk, paid_at__isnull=True).update(paid_at=timezone.now(), paid_by=by)
    if updated:
        entry.refresh_from_db(fields=["paid_at", "paid_by"])
    return entry


def pot_pay_in_mark_unpaid(*, entry: CircleEntry, by: Any) -> CircleEntry:
    """Take back a paid mark tapped by mistake: the pot share is owed again."""
    CircleEntry.objects.filter(pk=entry.pk, kind=CircleEntry.Kind.PAID_IN).update(paid_at=None, paid_by=None)
    entry.paid_at = entry.paid_by = None
    return entry


def _pot_amount(amount: Decimal) -> Decimal:
    if amount <= 0 or amount != amount.quantize(Decimal("0.01")) or amount >= Decimal("1e9"):
        raise services.LedgerError(_("Give an amount above zero, in cents."), field="amount")
    return amount


def _note_check(note: str) -> str:
    refused = _("A note can have at most 200 letters, none of them hidden.")
    return text_tidy(note, field="note", most=200, too_long=refused, hidden=refused)


def _member(circle: Circle, player: Player | None) -> Player | None:
    if player is not None and not CircleMember.objects.filter(circle=circle, player=player).exists():
        raise services.LedgerError(
            _("Only a member of the circle can pay into the pot or take from it."), field="player"
        )
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
        raise services.LedgerError(_("The pot does not hold that much."), field="amount")
    return CircleEntry.objects.create(
        circle=locked,
        player=_member(locked, player),
        kind=CircleEntry.Kind.WITHDRAWAL,
        amount=-amount,
        note=_note_check(note),
        created_by=by,
    )


# --------------------------------------------------------------------------------------------------------------
# What statistics count (ledger.stats reads these)


def evening_counted_set(*, evening: Evening, counted: bool) -> Evening:
    """Count the evening in statistics, or leave it out (a training night); its money is settled all the same."""
    evening.counted = counted
    evening.save(update_fields=["counted"])
    return evening


def player_hide_stats_set(*, player: Player, hidden: bool) -> Player:
    """The player's own choice: hidden, they appear in no statistics (their money still counts in every balance)."""
    player.hide_stats = hidden
    player.save(update_fields=["hide_stats"])
    return player
