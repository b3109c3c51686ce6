"""One evening as a JSON document, and back: a backup of one evening, or a move to another server.

The document (``format: talon-evening``, ``version: 1``) holds what the ledger stores, in its own words::

    {"format": "talon-evening", "version": 1, "exported_at": "…",
     "evening": {"date", "place", "currency", "coin", "status", "created_at", "owner", "scorekeepers"},
     "players": [{"name", "iban"}],
     "tables": [{"game", "ruleset", "seat_names", "first_dealer", "hand_count", "revision", "created_at",
                 "hands": [{"number", "version", "dealer", "status", "document", "result", "key",
                            "entered_by", "entered_at", "changed_by", "changed_at",
                            "versions": [{"version", "dealer", "status", "document", "result",
                                          "changed_by", "changed_at"}]}]}],
     "settlement": null | {"mode", "banker", "coin", "exact", "rounded", "created_by", "created_at",
                           "transfers": [{"payer", "payee", "amount", "paid_at", "paid_by"}]},
     "events": [{"kind", "by", "at", "note"}]}

Money is a decimal string, times are ISO 8601 with their offset, users are user names. Postings are not written
out: they are each hand's ``result.amounts``, as ``services.hand_record`` stores them.

The import stores every hand's result as exported (frozen, like the ledger itself), and first checks that every
counted hand still re-prices to the same amounts under its table's frozen ruleset, refusing the whole import with
the hand's name otherwise. It creates a new evening for the importing user, all in one transaction; users named in
the document that do not exist here become that user. Scorekeepers and the share link are not carried over: access
is granted anew on the importing server.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any, NamedTuple

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

import rules
from ledger.models import (
    Currency,
    Evening,
    EveningEvent,
    Game,
    Hand,
    HandVersion,
    Player,
    Posting,
    Seat,
    Settlement,
    Table,
    Transfer,
)

FORMAT = "talon-evening"
VERSION = 1


class ImportRefused(ValueError):
    """The document cannot be imported; the message names where (``table 2 (skat), hand #7: …``)."""


# --------------------------------------------------------------------------------------------------------------
# Export


def evening_export(*, evening: Evening) -> dict[str, Any]:
    """The whole evening as JSON-ready values (see the module's docstring for the format)."""
    tables = evening.tables.prefetch_related("hands__entered_by", "hands__changed_by", "hands__versions__changed_by")
    seated = Player.objects.filter(seats__table__evening=evening).distinct().order_by("name")
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "evening": {
            "date": evening.date.isoformat(),
            "place": evening.place,
            "currency": evening.currency,
            "coin": str(evening.coin),
            "status": evening.status,
            "created_at": evening.created_at.isoformat(),
            "owner": evening.owner.get_username(),
            "scorekeepers": sorted(user.get_username() for user in evening.scorekeepers.all()),
        },
        "players": [{"name": player.name, "iban": player.iban} for player in seated],
        "tables": [_export_table(table) for table in tables.order_by("id")],
        "settlement": _export_settlement(evening),
        "events": [
            {"kind": event.kind, "by": _name(event.by), "at": event.at.isoformat(), "note": event.note}
            for event in evening.events.select_related("by").order_by("at", "id")
        ],
    }


def _export_table(table: Table) -> dict[str, Any]:
    return {
        "game": table.game,
        "ruleset": table.ruleset,
        "seat_names": table.seat_names,
        "first_dealer": table.first_dealer,
        "hand_count": table.hand_count,
        "revision": table.revision,
        "created_at": table.created_at.isoformat(),
        "hands": [_export_hand(hand) for hand in sorted(table.hands.all(), key=lambda hand: hand.number)],
    }


def _export_hand(hand: Hand) -> dict[str, Any]:
    return {
        "number": hand.number,
        "version": hand.version,
        "dealer": hand.dealer,
        "status": hand.status,
        "document": hand.document,
        "result": hand.result,
        "key": hand.key,
        "entered_by": _name(hand.entered_by),
        "entered_at": hand.entered_at.isoformat(),
        "changed_by": _name(hand.changed_by),
        "changed_at": hand.changed_at.isoformat(),
        "versions": [
            {
                "version": old.version,
                "dealer": old.dealer,
                "status": old.status,
                "document": old.document,
                "result": old.result,
                "changed_by": _name(old.changed_by),
                "changed_at": old.changed_at.isoformat(),
            }
            for old in sorted(hand.versions.all(), key=lambda old: old.version)
        ],
    }


def _export_settlement(evening: Evening) -> dict[str, Any] | None:
    settlement = Settlement.objects.filter(evening=evening).select_related("created_by").first()
    if settlement is None:
        return None
    return {
        "mode": settlement.mode,
        "banker": settlement.banker,
        "coin": str(settlement.coin),
        "exact": settlement.exact,
        "rounded": settlement.rounded,
        "created_by": _name(settlement.created_by),
        "created_at": settlement.created_at.isoformat(),
        "transfers": [
            {
                "payer": transfer.payer,
                "payee": transfer.payee,
                "amount": str(transfer.amount),
                "paid_at": transfer.paid_at.isoformat() if transfer.paid_at else None,
                "paid_by": _name(transfer.paid_by) if transfer.paid_by else None,
            }
            for transfer in settlement.transfers.select_related("paid_by").order_by("id")
        ],
    }


def _name(user: Any) -> str:
    return str(user.get_username())


# --------------------------------------------------------------------------------------------------------------
# Import


@transaction.atomic
def evening_import(*, data: Any, owner: Any) -> Evening:
    """A new evening of ``owner`` from an exported document; ImportRefused (nothing stored) if anything is off."""
    doc = _Reader(data, "document")
    if doc.get("format", str) != FORMAT or doc.get("version", int) != VERSION:
        raise ImportRefused(f"document: not a {FORMAT} document of version {VERSION}")
    users = _Users(owner)
    source = doc.reader("evening")
    evening = Evening.objects.create(
        owner=owner,
        date=source.date("date"),
        place=source.text("place", 80),
        currency=source.choice("currency", Currency.values),
        coin=source.money("coin", positive=True),
        status=source.choice("status", Evening.Status.values),
    )
    Evening.objects.filter(pk=evening.pk).update(created_at=source.moment("created_at"))
    ibans = {}
    for index, item in enumerate(doc.get("players", list)):
        player = _Reader(item, f"players[{index}]")
        ibans[player.get("name", str)] = player.text("iban", 34)
    for index, item in enumerate(doc.get("tables", list)):
        _import_table(evening, _Reader(item, f"table {index + 1}"), ibans, users)
    _import_settlement(evening, data.get("settlement"), users)
    for index, item in enumerate(doc.get("events", list)):
        event = _Reader(item, f"events[{index}]")
        EveningEvent.objects.create(
            evening=evening,
            kind=event.choice("kind", EveningEvent.Kind.values),
            by=users.get(event.get("by", str)),
            at=event.moment("at"),
            note=event.text("note", 200),
        )
    evening.refresh_from_db()
    return evening


def _import_table(evening: Evening, source: _Reader, ibans: dict[str, str], users: _Users) -> None:
    game = source.choice("game", Game.values)
    source.where = f"{source.where} ({game})"
    seat_names = source.get("seat_names", list)
    ruleset = source.get("ruleset", dict)
    try:
        rules.table({"game": game, "players": seat_names, "rules": ruleset, "hand": {}})
    except rules.RulesError as error:
        raise ImportRefused(f"{source.where}: {error}") from None
    first_dealer = source.get("first_dealer", int)
    if not 0 <= first_dealer < len(seat_names):
        raise ImportRefused(f"{source.where}: first_dealer must be a seat")
    table = Table.objects.create(
        evening=evening,
        game=game,
        ruleset=ruleset,
        seat_names=seat_names,
        first_dealer=first_dealer,
        hand_count=source.count("hand_count"),
        revision=source.count("revision"),
    )
    Table.objects.filter(pk=table.pk).update(created_at=source.moment("created_at"))
    players = {name: _player(evening.owner, name, ibans.get(name, ""), source.where) for name in seat_names}
    Seat.objects.bulk_create(
        Seat(table=table, player=players[name], position=position) for position, name in enumerate(seat_names)
    )
    hands = [_hand(table, _Reader(item, f"{source.where}, hand #?"), users) for item in source.get("hands", list)]
    numbers = [prepared.hand.number for prepared in hands]
    if len(set(numbers)) != len(numbers) or max(numbers, default=0) > table.hand_count:
        raise ImportRefused(f"{source.where}: hand numbers must be distinct and at most hand_count")
    keys = [prepared.hand.key for prepared in hands if prepared.hand.key]
    if len(set(keys)) != len(keys):
        raise ImportRefused(f"{source.where}: two hands carry the same key")
    stored = Hand.objects.bulk_create([prepared.hand for prepared in hands])
    for prepared in hands:
        prepared.hand.entered_at, prepared.hand.changed_at = prepared.times  # bulk_create stamped "now"
    Hand.objects.bulk_update(stored, ["entered_at", "changed_at"])
    HandVersion.objects.bulk_create(
        HandVersion(hand=prepared.hand, **old) for prepared in hands for old in prepared.versions
    )
    Posting.objects.bulk_create(
        Posting(hand=hand, player=players[name], amount=amount)
        for hand in stored
        for name, amount in hand.amounts.items()
    )


def _player(owner: Any, name: str, iban: str, where: str) -> Player:
    if name != " ".join(name.split()) or not 0 < len(name) <= 40:
        raise ImportRefused(f"{where}: {name!r} is not a player's name (1 to 40 letters, single spaces)")
    player, created = Player.objects.get_or_create(owner=owner, name=name, defaults={"iban": iban})
    if not created and iban and not player.iban:
        player.iban = iban
        player.save(update_fields=["iban"])
    return player


class _Prepared(NamedTuple):
    hand: Hand
    times: tuple[datetime.datetime, datetime.datetime]
    versions: list[dict[str, Any]]


def _hand(table: Table, source: _Reader, users: _Users) -> _Prepared:
    """An unsaved hand, its two times and its old versions, after checking it as the ledger would store it."""
    number = source.get("number", int)
    source.where = source.where.replace("#?", f"#{number}")
    seats = len(table.seat_names)
    hand = Hand(
        table=table,
        number=number,
        version=source.get("version", int),
        dealer=source.seat("dealer", seats),
        status=source.choice("status", Hand.Status.values),
        document=source.get("document", dict),
        result=source.get("result", dict),
        key=source.optional("key", str),
        entered_by=users.get(source.get("entered_by", str)),
        changed_by=users.get(source.get("changed_by", str)),
    )
    if number < 1 or hand.version < 1 or (hand.key is not None and not 0 < len(hand.key) <= 64):
        raise ImportRefused(f"{source.where}: number and version start at 1; a key has 1 to 64 letters")
    exported = _amounts(hand.result, table.seat_names, source.where)
    if hand.is_counted:
        try:
            repriced = rules.score(table.document(hand.document)).amounts
        except rules.RulesError as error:
            raise ImportRefused(f"{source.where}: the rules refuse it now ({error})") from None
        if dict(repriced) != exported:
            shown = {name: str(amount) for name, amount in repriced.items()}
            raise ImportRefused(f"{source.where}: re-prices to {shown}, not to {hand.result['amounts']} as exported")
    versions = []
    for item in source.get("versions", list):
        old = _Reader(item, f"{source.where}, an old version")
        version = old.get("version", int)
        if not 1 <= version < hand.version:
            raise ImportRefused(f"{old.where}: version {version} is not older than {hand.version}")
        versions.append(
            {
                "version": version,
                "dealer": old.seat("dealer", seats),
                "status": old.choice("status", Hand.Status.values),
                "document": old.get("document", dict),
                "result": old.get("result", dict),
                "changed_by": users.get(old.get("changed_by", str)),
                "changed_at": old.moment("changed_at"),
            }
        )
    if len({old["version"] for old in versions}) != len(versions):
        raise ImportRefused(f"{source.where}: two old versions carry the same number")
    return _Prepared(hand, (source.moment("entered_at"), source.moment("changed_at")), versions)


def _amounts(result: dict[str, Any], seat_names: list[str], where: str) -> dict[str, Decimal]:
    """The result's amounts as Decimals: players of the table only, summing to exactly zero (they become postings)."""
    raw = result.get("amounts")
    if not isinstance(raw, dict) or not set(raw) <= set(seat_names):
        raise ImportRefused(f"{where}: result.amounts must map players of the table to amounts")
    amounts = {name: _decimal(value, f"{where}: result.amounts.{name}") for name, value in raw.items()}
    if sum(amounts.values(), Decimal(0)) != 0:
        raise ImportRefused(f"{where}: result.amounts do not sum to zero")
    return amounts


def _import_settlement(evening: Evening, data: Any, users: _Users) -> None:
    if data is None:
        return
    source = _Reader(data, "settlement")
    settlement = Settlement.objects.create(
        evening=evening,
        mode=source.choice("mode", Settlement.Mode.values),
        banker=source.text("banker", 40),
        coin=source.money("coin", positive=True),
        exact=source.get("exact", dict),
        rounded=source.get("rounded", dict),
        created_by=users.get(source.get("created_by", str)),
        created_at=source.moment("created_at"),
    )
    transfers = []
    for index, item in enumerate(source.get("transfers", list)):
        transfer = _Reader(item, f"settlement.transfers[{index}]")
        paid_by = transfer.optional("paid_by", str)
        transfers.append(
            Transfer(
                settlement=settlement,
                payer=transfer.text("payer", 40),
                payee=transfer.text("payee", 40),
                amount=transfer.money("amount", positive=True),
                paid_at=transfer.moment("paid_at") if transfer.optional("paid_at", str) else None,
                paid_by=users.get(paid_by) if paid_by else None,
            )
        )
    Transfer.objects.bulk_create(transfers)


class _Users:
    """User names of the document mapped to users here; a name unknown here becomes the importing user."""

    def __init__(self, owner: Any) -> None:
        self.owner = owner
        self.known: dict[str, Any] = {}
        self.model = get_user_model()

    def get(self, username: str) -> Any:
        if username not in self.known:
            field = self.model.USERNAME_FIELD
            self.known[username] = self.model.objects.filter(**{field: username}).first() or self.owner
        return self.known[username]


class _Reader:
    """Reads the fields of one object of the document; every error names where it is and what is expected."""

    def __init__(self, data: Any, where: str) -> None:
        if not isinstance(data, Mapping):
            raise ImportRefused(f"{where}: must be an object")
        self.data = data
        self.where = where

    def get(self, name: str, kind: type) -> Any:
        value = self.data.get(name)
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise ImportRefused(f"{self.where}: {name} must be {_KINDS.get(kind, kind.__name__)}")
        return value

    def optional(self, name: str, kind: type) -> Any:
        return None if self.data.get(name) is None else self.get(name, kind)

    def text(self, name: str, max_length: int) -> str:
        value = self.get(name, str)
        if len(value) > max_length:
            raise ImportRefused(f"{self.where}: {name} can have at most {max_length} letters")
        return str(value)

    def count(self, name: str) -> int:
        value = self.get(name, int)
        if not 0 <= value < 2**31:
            raise ImportRefused(f"{self.where}: {name} must be a whole number of at least 0")
        return int(value)

    def reader(self, name: str) -> _Reader:
        return _Reader(self.get(name, dict), f"{self.where}.{name}")

    def choice(self, name: str, choices: list[str]) -> str:
        value = self.data.get(name)
        if value not in choices:
            raise ImportRefused(f"{self.where}: {name} must be one of {', '.join(choices)}")
        return str(value)

    def seat(self, name: str, seats: int) -> int:
        value = self.get(name, int)
        if not 0 <= value < seats:
            raise ImportRefused(f"{self.where}: {name} must be a seat from 0 to {seats - 1}")
        return int(value)

    def money(self, name: str, positive: bool = False) -> Decimal:
        amount = _decimal(self.data.get(name), f"{self.where}: {name}")
        if positive and amount <= 0:
            raise ImportRefused(f"{self.where}: {name} must be more than zero")
        return amount

    def date(self, name: str) -> datetime.date:
        try:
            return datetime.date.fromisoformat(self.get(name, str))
        except ValueError:
            raise ImportRefused(f"{self.where}: {name} must be a date like 2026-11-27") from None

    def moment(self, name: str) -> datetime.datetime:
        try:
            moment = datetime.datetime.fromisoformat(self.get(name, str))
        except ValueError:
            raise ImportRefused(f"{self.where}: {name} must be a time like 2026-11-27T20:15:00+00:00") from None
        return moment if timezone.is_aware(moment) else timezone.make_aware(moment)


_KINDS = {str: "a text", int: "a whole number", list: "a list", dict: "an object"}


def _decimal(value: Any, where: str) -> Decimal:
    try:
        amount = Decimal(value) if isinstance(value, str) else Decimal("NaN")
    except InvalidOperation:
        amount = Decimal("NaN")
    if not amount.is_finite() or abs(amount) >= 10**10 or amount != amount.quantize(Decimal("0.0001")):
        raise ImportRefused(f"{where} must be a decimal number written as a string, at most 4 places")
    return amount
