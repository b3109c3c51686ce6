"""Circles of regulars: the circle, its members and scorekeepers, their links, its evenings and its settings.

As ``ledger/services.py`` (whose helpers these call: players, evenings), each function is one domain step with
keyword-only arguments, run in one transaction; the pages and the API call the same functions. What a circle's
money does (its tab, its pot, what closing one of its evenings books) is ``ledger.circles.tab_and_pot``.

A circle's settings (name, how it settles, currency, coin, pot share, pot holder) change with
``circle_settings_change``; a change applies to the evenings closed from then on, nothing booked is priced again.
"""

from __future__ import annotations

import datetime
import secrets
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext as _

from ledger import hooks
from ledger.circles.models import Circle, CircleEntry, CircleMember
from ledger.errors import LedgerError
from ledger.models import MONEY_PLACES, Currency, Evening, Player
from ledger.services import evening_add_scorekeeper, evening_create, player_get_or_create
from ledger.texts import text_tidy

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
        raise LedgerError(_("Choose a currency."), field="currency")
    if coin is None:
        return Decimal("1") if currency == Currency.CZK else Decimal("0.01")
    if coin < Decimal("0.01") or coin != coin.quantize(Decimal("0.01")) or coin > 1000:
        raise LedgerError(_("The coin to round to must be a real coin: from 0.01 to 1000, in cents."), field="coin")
    return coin


def _settle_check(settle: str) -> str:
    if settle not in Circle.Settle.values:
        raise LedgerError(_("Choose how the circle settles."), field="settle")
    return settle


def _share_check(pot_share: Decimal | None) -> Decimal:
    share = Decimal("0.1") if pot_share is None else pot_share
    if not Decimal(0) <= share <= 1 or share != share.quantize(MONEY_PLACES):
        raise LedgerError(_("The share paid into the pot is a part from 0 to 1, e.g. 0.1."), field="pot_share")
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
        raise LedgerError(_("Only the circle's owner and scorekeepers change its settings."))
    was_tab = locked.settle == Circle.Settle.TAB  # as stored now, not as the caller read it
    locked.name = circle_name_check(name)
    locked.settle = _settle_check(settle)
    if was_tab and locked.settle != Circle.Settle.TAB and _tab_is_open(locked):
        raise LedgerError(
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
        raise LedgerError(_("Choose a currency."), field="currency")
    booked = circle.entries.exists() or circle.settlements.exists()
    if booked or circle.evenings.exclude(currency=currency).exists():
        raise LedgerError(
            _("The circle has evenings or bookings in %(currency)s already: its currency can no longer change.")
            % {"currency": circle.currency},
            field="currency",
        )
    return currency


def _holder_check(circle: Circle, holder: Player | None) -> Player | None:
    if holder is not None and not CircleMember.objects.filter(circle=circle, player=holder).exists():
        raise LedgerError(_("The pot holder must be a member of the circle."), field="pot_holder")
    return holder


def circle_member_add(*, circle: Circle, name: str) -> CircleMember:
    """The owner's player of that name joins the circle (made if new); joining again changes nothing."""
    player = player_get_or_create(owner=circle.owner, name=name)
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
    Some evenings are listed elsewhere and kept through accounts that are nobody (a table phone's guest account):
    neither such an account nor a retired (inactive) one is offered.
    """
    evenings = hooks.evenings_listed(Evening.objects.filter(owner_id=circle.owner_id))
    kept = Evening.scorekeepers.through.objects.filter(evening__in=evenings).values("user_id")
    user_model = type(circle.owner)
    people = hooks.accounts_listed(user_model.objects.filter(pk__in=kept, is_active=True))
    return list(people.exclude(pk=circle.owner_id).exclude(circles_kept=circle).order_by("pk"))


def circle_scorekeeper_add(*, circle: Circle, user: Any, by: Any) -> None:
    if by != circle.owner:
        raise LedgerError(_("Only the circle's owner chooses its scorekeepers."), field="user")
    if user not in circle_scorekeeper_candidates(circle):
        raise LedgerError(_("Only somebody who keeps score of one of your evenings can keep score of the circle."))
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
        raise LedgerError(_("Only the circle's owner chooses its scorekeepers."), field="user")
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
        evening_add_scorekeeper(evening=made, user=by)
        return made
    evening = evening_create(owner=circle.owner, date=date, place=place, currency=currency, coin=coin)
    evening.circle = circle
    evening.save(update_fields=["circle"])
    keepers = [by, *circle.scorekeepers.all()]
    for user in keepers:
        evening_add_scorekeeper(evening=evening, user=user)
    return evening


def circle_seating(circle: Circle) -> dict[str, str]:
    """The new table's seats filled with the circle's members, in name order (the table form takes what fits)."""
    names = CircleMember.objects.filter(circle=circle).values_list("player__name", flat=True)
    return {f"player_{seat}": name for seat, name in enumerate(names)}


def circle_evening_attach(*, circle: Circle, evening: Evening) -> Evening:
    """An evening of the circle's owner, not in a circle yet, becomes the circle's (the import's step: nothing is
    booked, the import brings the circle's entries as they were)."""
    if evening.owner_id != circle.owner_id or evening.circle_id not in (None, circle.pk):
        raise LedgerError(_("Only an evening of the circle's owner can join the circle."), field="evening")
    evening.circle = circle
    evening.save(update_fields=["circle"])
    return evening


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
