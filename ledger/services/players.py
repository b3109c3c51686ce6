"""Players and users: names tidied, payment details, a player renamed everywhere the books say the name, and
each user's own settings."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

import rules
from ledger import qr, selectors
from ledger.errors import LedgerError
from ledger.models import (
    Evening,
    EveningEvent,
    Hand,
    HandVersion,
    Player,
    Seat,
    Settlement,
    Table,
    UserPreference,
)
from ledger.services import hands
from ledger.texts import text_tidy


def player_name_tidy(name: str) -> str:
    """The name with its spaces tidied (a pasted tab or line end becomes one space); refused when it hides any."""
    return text_tidy(
        name,
        field="players",
        most=40,
        empty=_("A player needs a name."),
        too_long=_("A player's name can have at most 40 letters."),
        hidden=_("A player's name cannot contain control or text-direction characters."),
    )


def player_get_or_create(*, owner: Any, name: str) -> Player:
    player, _created = Player.objects.get_or_create(owner=owner, name=player_name_tidy(name))
    return player


def player_iban_set(*, player: Player, iban: str) -> Player:
    """Store a player's IBAN for payment QR codes (normalized, checksum checked); empty removes it."""
    if iban.strip():
        try:
            iban = qr.check_iban(iban)
        except qr.InvalidIban as error:
            raise LedgerError(str(error), field="iban") from None
    else:
        iban = ""
    player.iban = iban
    player.save(update_fields=["iban"])
    return player


# --------------------------------------------------------------------------------------------------------------
# Renaming a player


@transaction.atomic
def player_rename(*, player: Player, name: str) -> Player:
    """Call the player ``name`` everywhere the books speak of them, in one transaction, or nowhere.

    Names are what the books speak: each table's seats, every hand document and its priced result (old versions
    included), the settlement's balances and transfers, the evening's history. Renaming only the player's row
    would leave their tables seating somebody who no longer exists (the next hand fails, the balances stop
    summing to zero). A rename fixes a typo or tells two namesakes apart, so the scorekeeper expects the new name
    on every page of every evening, the old ones included, and the money unchanged: every hand is priced again
    under the new name and must come to the same amounts, and every evening must still sum to zero.
    """
    try:
        new = player_name_tidy(name)  # the same rules as a new player's name, hidden characters included
    except LedgerError as error:
        raise LedgerError(error.message, field="name") from None
    # The evenings first, as closing and reopening lock them; then the tables, as recording a hand does.
    seated = Seat.objects.filter(player=player)
    evenings = list(
        Evening.objects.select_for_update().filter(pk__in=seated.values("table__evening_id")).order_by("pk")
    )
    tables = list(Table.objects.select_for_update().filter(pk__in=seated.values("table_id")).order_by("pk"))
    locked = Player.objects.select_for_update().get(pk=player.pk)
    old = locked.name
    if new == old:
        return locked
    if Player.objects.filter(owner_id=locked.owner_id, name=new).exists():
        raise LedgerError(_("There is already a player called %(name)s.") % {"name": new}, field="name")
    locked.name = new
    locked.save(update_fields=["name"])
    for table in tables:
        _table_rename(table, old, new)
    for settlement in Settlement.objects.select_for_update().filter(evening__in=evenings):
        _settlement_rename(settlement, old, new)
    for event in EveningEvent.objects.filter(evening__in=evenings).exclude(kind=EveningEvent.Kind.REOPENED):
        note = _note_renamed(event, old, new)
        if note != event.note:
            EveningEvent.objects.filter(pk=event.pk).update(note=note)
    # The money did not move, but the balances are read by name: every table's and evening's must still sum to 0.
    balanced = [selectors.table_posted_balances(table) for table in tables]
    balanced += [selectors.evening_balances(evening) for evening in evenings]
    if any(sum(balances.values(), Decimal(0)) != 0 for balances in balanced):
        raise LedgerError(_("The evening's balances would no longer sum to zero; nothing was stored."))
    player.name = new
    return locked


def _table_rename(table: Table, old: str, new: str) -> None:
    table.seat_names = [new if seated == old else seated for seated in table.seat_names]
    table.revision += 1  # the share link's ETag: its pages show the new name
    table.save(update_fields=["seat_names", "revision"])
    schema = rules.schema(table.game)["properties"]["hand"]
    hands = list(table.hands.all())
    for hand in hands:
        hand.document, hand.result = _repriced(table, hand.number, hand.document, hand.result, schema, old, new)
    Hand.objects.bulk_update(hands, ["document", "result"])  # a rename is no correction: no new version
    versions = list(HandVersion.objects.filter(hand__table=table).select_related("hand"))
    for version in versions:
        number = version.hand.number
        version.document, version.result = _repriced(table, number, version.document, version.result, schema, old, new)
    HandVersion.objects.bulk_update(versions, ["document", "result"])


def _repriced(
    table: Table, number: int, document: Any, result: Any, schema: dict[str, Any], old: str, new: str
) -> tuple[Any, dict[str, Any]]:
    """The document with the player renamed and its result priced again; LedgerError unless the money is the same."""
    renamed = _renamed(document, schema, old, new)
    expected = {(new if name == old else name): Decimal(amount) for name, amount in result["amounts"].items()}
    try:
        score, repriced = hands.stored_result(table, renamed)
    except rules.RulesError as error:
        raise LedgerError(
            _("Hand #%(number)s of %(table)s can no longer be priced (%(error)s); nobody was renamed.")
            % {"number": number, "table": table, "error": error.message},
            field="name",
        ) from None
    if dict(score.amounts) != expected:
        raise LedgerError(
            _("Hand #%(number)s of %(table)s would come to other amounts under the new name; nobody was renamed.")
            % {"number": number, "table": table},
            field="name",
        )
    return renamed, repriced


def _renamed(value: Any, schema: Any, old: str, new: str) -> Any:
    """A part of a hand document with the player ``old`` called ``new``, led by the game's JSON Schema.

    A player is a text the schema allows without listing the allowed values (declarer, partner, jungfrau…) or a
    key of an object whose keys the schema leaves open (ramsch_points); a listed choice such as a contract or a
    trump suit is never touched, even if a player shares its name.

    >>> schema = {"properties": {"declarer": {"type": "string"}, "contract": {"enum": ["grand"]},
    ...           "points": {"type": "object", "additionalProperties": {"type": "integer"}}}}
    >>> _renamed({"declarer": "grand", "contract": "grand", "points": {"grand": 3}}, schema, "grand", "Ana")
    {'declarer': 'Ana', 'contract': 'grand', 'points': {'Ana': 3}}
    """
    schema = schema if isinstance(schema, dict) else {}
    if isinstance(value, dict):
        known, other = schema.get("properties", {}), schema.get("additionalProperties")
        renamed = {}
        for key, item in value.items():
            if key in known:
                renamed[key] = _renamed(item, known[key], old, new)
            elif isinstance(other, dict):
                renamed[new if key == old else key] = _renamed(item, other, old, new)
            else:
                renamed[key] = item
        return renamed
    if isinstance(value, list):
        return [_renamed(item, schema.get("items"), old, new) for item in value]
    kinds = schema.get("type")
    is_text = kinds == "string" or (isinstance(kinds, list) and "string" in kinds)
    return new if value == old and is_text and "enum" not in schema else value


def _settlement_rename(settlement: Settlement, old: str, new: str) -> None:
    def renamed(name: str) -> str:
        return new if name == old else name

    # In the order closing gives them: largest gain first, then by name (the new one).
    exact = sorted(((renamed(name), amount) for name, amount in settlement.exact.items()), key=_gain_then_name)
    rounded = {renamed(name): amount for name, amount in settlement.rounded.items()}
    settlement.exact = dict(exact)
    settlement.rounded = {name: rounded[name] for name, _amount in exact}
    settlement.save(update_fields=["exact", "rounded"])  # the banker and the transfers point at the player


def _gain_then_name(row: tuple[str, str]) -> tuple[Decimal, str]:
    return -Decimal(row[1]), row[0]


def _note_renamed(event: EveningEvent, old: str, new: str) -> str:
    """The history's note with the new name: ``mode:banker`` when closed, ``payer → payee amount`` for payments."""
    if event.kind == EveningEvent.Kind.CLOSED:
        mode, sep, banker = event.note.partition(":")
        return f"{mode}{sep}{new if banker == old else banker}"
    payer, arrow, rest = event.note.partition(" → ")
    payee, space, amount = rest.rpartition(" ")
    if not arrow or not space:
        return event.note
    return f"{new if payer == old else payer}{arrow}{new if payee == old else payee}{space}{amount}"


# --------------------------------------------------------------------------------------------------------------
# Users' own settings


def user_language_set(*, user: Any, language: str) -> UserPreference:
    """Remember the language a user chose, for their next sessions and other devices."""
    if language not in dict(settings.LANGUAGES):
        raise LedgerError(_("Unknown language."), field="language")
    preference, _created = UserPreference.objects.update_or_create(user=user, defaults={"language": language})
    return preference
