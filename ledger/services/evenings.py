"""Evenings and their tables: created, seated, started again, their scorekeepers and their share link."""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import models, transaction
from django.utils.translation import gettext as _

import rules
from ledger import hooks
from ledger.errors import LedgerError, require_open
from ledger.models import (
    Evening,
    Invitation,
    Seat,
    Table,
    new_share_token,
)
from ledger.services.players import player_get_or_create, player_name_tidy
from ledger.texts import text_tidy

# --------------------------------------------------------------------------------------------------------------
# Players, evenings, tables


def evening_place_check(place: str) -> str:
    """The place as typed, refused when it hides characters (the page and the PDF would show it otherwise)."""
    hidden = _("The place cannot contain control or text-direction characters.")
    return text_tidy(place, field="place", most=len(place), hidden=hidden, tidy_spaces=False)


def evening_create(
    *, owner: Any, date: datetime.date, place: str = "", currency: str = "CZK", coin: Decimal | None = None
) -> Evening:
    if coin is None:
        coin = Decimal("1") if currency == "CZK" else Decimal("0.01")
    if coin < Decimal("0.01") or coin != coin.quantize(Decimal("0.01")) or coin > 1000:
        # A real coin: payment QR codes carry amounts in cents, so the settlement never rounds below one.
        raise LedgerError(_("The coin to round to must be a real coin: from 0.01 to 1000, in cents."), field="coin")
    place = evening_place_check(place)
    return Evening.objects.create(owner=owner, date=date, place=place.strip(), currency=currency, coin=coin)


@transaction.atomic
def evening_again(*, owner: Any, previous: Evening, date: datetime.date) -> Evening:
    """Today's evening where and in what money ``previous`` was, for "Same players as last time".

    A second tap (a double tap, or Back and tap again before a table is started) finds the evening the first one
    made, open and still without a table, instead of making another empty one. Two taps at once queue on the
    previous evening's row, which both read.
    """
    Evening.objects.select_for_update().filter(pk=previous.pk).first()
    made = (
        Evening.objects.filter(
            owner=owner,
            date=date,
            place=previous.place,
            currency=previous.currency,
            coin=previous.coin,
            status=Evening.Status.OPEN,
            tables__isnull=True,
        )
        .exclude(pk=previous.pk)
        .order_by("-pk")
        .first()
    )
    if made is not None:
        return made
    return evening_create(owner=owner, date=date, place=previous.place, currency=previous.currency, coin=previous.coin)


@transaction.atomic
def table_create(
    *,
    evening: Evening,
    game: str,
    players: list[str],
    rules_override: dict[str, Any] | None = None,
    first_dealer: int = 0,
    recording: str = Table.Recording.SCOREKEEPER,
    confirmation: str = Table.Confirmation.NONE,
) -> Table:
    """Seat the players (known ones reused, new ones added) and freeze the resolved ruleset on the table, with who
    records and whose OK a hand needs: chosen now, frozen with the ruleset (no later step changes them)."""
    require_open(evening)
    _require_choice(recording, Table.Recording, field="recording")
    _require_choice(confirmation, Table.Confirmation, field="confirmation")
    names = [player_name_tidy(name) for name in players if name and name.strip()]
    if len(set(names)) != len(names):
        raise LedgerError(_("Each player can sit at the table only once."), field="players")
    overrides = dict(rules_override or {})
    overrides["currency"] = evening.currency  # the evening's money, whatever the preset's
    ruleset = rules.resolve(game, overrides)
    # The engine checks the number of seats for the game; an empty hand is enough to ask it.
    rules.table({"game": game, "players": names, "rules": ruleset, "hand": {}})
    if not 0 <= first_dealer < len(names):
        raise LedgerError(_("The first dealer must sit at the table."), field="first_dealer")
    table = Table.objects.create(
        evening=evening,
        game=game,
        ruleset=ruleset,
        seat_names=names,
        first_dealer=first_dealer,
        recording=recording,
        confirmation=confirmation,
    )
    owner = evening.owner
    Seat.objects.bulk_create(
        Seat(table=table, player=player_get_or_create(owner=owner, name=name), position=position)
        for position, name in enumerate(names)
    )
    return table


def _require_choice(value: str, choices: type[models.TextChoices], *, field: str) -> None:
    if value not in choices.values:
        known = ", ".join(f'"{choice}"' for choice in choices.values)
        raise LedgerError(_("Choose one of %(known)s.") % {"known": known}, field=field)


def evening_add_scorekeeper(*, evening: Evening, user: Any) -> None:
    if user != evening.owner:
        evening.scorekeepers.add(user)


def evening_scorekeeper_invite(*, evening: Evening, username: str, by: Any) -> Invitation:
    """Ask the user of that name to keep score too (only the owner asks); asking again changes nothing.

    Nothing tells whether the name belongs to anybody: the invitation waits for a user of that name to accept it.
    """
    if by != evening.owner:
        raise PermissionDenied
    username = username.strip()
    if not username:
        raise LedgerError(_("Name the user to invite."), field="username")
    keepers = evening.scorekeepers.filter(**{get_user_model().USERNAME_FIELD: username})
    if username == evening.owner.get_username() or keepers.exists():
        raise LedgerError(_("%(name)s keeps score of this evening already.") % {"name": username}, field="username")
    invitation, _created = Invitation.objects.get_or_create(
        evening=evening, username=username, defaults={"invited_by": by}
    )
    return invitation


@transaction.atomic
def invitation_accept(*, invitation: Invitation, user: Any) -> Evening:
    """The invited user becomes a co-scorekeeper of the evening; an invitation withdrawn meanwhile is refused."""
    if invitation.username.casefold() != user.get_username().casefold():  # as Invitation.objects.for_user matches
        raise PermissionDenied
    withdrawn = not Invitation.objects.filter(pk=invitation.pk).delete()[0]
    if withdrawn:
        raise LedgerError(_("This invitation was withdrawn."), field="invitation")
    evening_add_scorekeeper(evening=invitation.evening, user=user)
    return invitation.evening


def invitation_decline(*, invitation: Invitation, user: Any) -> None:
    if invitation.username.casefold() != user.get_username().casefold():  # as Invitation.objects.for_user matches
        raise PermissionDenied
    Invitation.objects.filter(pk=invitation.pk).delete()


@transaction.atomic
def evening_scorekeeper_remove(*, evening: Evening, username: str, by: Any) -> None:
    """The owner removes a co-scorekeeper, or withdraws an invitation, by user name; a co-scorekeeper may remove
    only themselves (leave). Nobody removes the owner."""
    if by != evening.owner and username != by.get_username():
        raise PermissionDenied
    if username == evening.owner.get_username():
        raise LedgerError(_("The owner of an evening always keeps its score."), field="username")
    evening.scorekeepers.remove(*evening.scorekeepers.filter(**{get_user_model().USERNAME_FIELD: username}))
    Invitation.objects.filter(evening=evening, username=username).delete()


def evening_share_reset(*, evening: Evening, enabled: bool = True) -> Evening:
    """A new unguessable share link (the old one stops working), or none when ``enabled`` is false. The live lines
    opened through the old link end once this is committed (``hooks.share_link_changed``)."""
    evening.share_token = new_share_token() if enabled else None
    evening.save(update_fields=["share_token"])
    hooks.share_link_changed.send_after_commit(hooks.ShareLinkChanged(evening_id=evening.pk, token=evening.share_token))
    return evening
