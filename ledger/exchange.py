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
                           "transfers": [{"payer", "payee", "amount", "paid_at", "paid_by"}],
                           "carried": true (only when the plan went elsewhere: a circle's tab)},
     "events": [{"kind", "by", "at", "note"}]}

Money is a decimal string, times are ISO 8601 with their offset, users are user names. Postings are not written
out: they are each hand's ``result.amounts``, as ``services.hand_record`` stores them. A result's ``label`` and
``lines`` are its English text; newer exports' ``result.source`` says how they were made (message ids and their
parameters, which Talon says in any language), where earlier exports carry ``result.texts``, one copy per language.
The import reads neither: it prices every hand again.

The import is one more writer of the ledger and writes through its services (DESIGN.md, "One read side"): the
evening and its tables are made by ``evening_create`` and ``table_create`` (coin, names, ruleset checked as in the
app); every hand, voided ones and old versions included, is priced again under its table's frozen ruleset and must
come to its exported amounts, and the ledger's own result is stored (a document's explanation lines are never
trusted); the postings are written by ``hands_post`` (zero sums checked); the settlement is planned again by
``settlement_plan`` from the imported hands and must come to the exported balances and transfers. Anything else
refuses the whole import, naming where (``table 2 (skat), hand #7: …``). It creates a new evening for the
importing user, all in one transaction; users named in the document become that user unless the document names them
as its owner or a scorekeeper and they exist here.
Scorekeepers and the share link are not carried over: access is granted anew on the importing server.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any, NamedTuple

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

import rules
from ledger import hooks, old_documents, qr, selectors, services
from ledger.models import (
    Currency,
    Evening,
    EveningEvent,
    Game,
    Hand,
    HandVersion,
    Player,
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
    settlement = Settlement.objects.filter(evening=evening).select_related("banker", "created_by").first()
    if settlement is None:
        return None
    # An evening whose transfers went elsewhere (a circle's tab, ``hooks.transfers_carried``) says so: its plan is
    # not stored.
    carried = {"carried": True} if any(hooks.transfers_carried.send(evening)) else {}
    return carried | _export_settled(settlement)


def _export_settled(settlement: Any) -> dict[str, Any]:
    """A settlement as the document gives it, an evening's (here) or a circle tab's (``ledger.circles.exchange``):
    its mode, banker, coin, balances, author and ``transfers`` (``TransferBase`` rows)."""
    return {
        "mode": settlement.mode,
        "banker": settlement.banker.name if settlement.banker else "",
        "coin": str(settlement.coin),
        "exact": settlement.exact,
        "rounded": settlement.rounded,
        "created_by": _name(settlement.created_by),
        "created_at": settlement.created_at.isoformat(),
        "transfers": [
            {
                "payer": transfer.payer.name,
                "payee": transfer.payee.name,
                "amount": str(transfer.amount),
                "paid_at": transfer.paid_at.isoformat() if transfer.paid_at else None,
                "paid_by": _name(transfer.paid_by) if transfer.paid_by else None,
            }
            for transfer in settlement.transfers.select_related("payer", "payee", "paid_by").order_by("id")
        ],
    }


def _name(user: Any) -> str:
    return str(user.get_username())


# --------------------------------------------------------------------------------------------------------------
# Import


@transaction.atomic
def evening_import(*, data: Any, owner: Any) -> Evening:
    """A new evening of ``owner`` from an exported document; ImportRefused (nothing stored) if anything is off.

    It writes through the services the app uses (evening_create, table_create, the hands' pricing and postings,
    settlement_plan), so it accepts only what the app could have stored itself.
    """
    _require_storable(data)
    doc = _Reader(data, "document")
    if doc.get("format", str) != FORMAT or doc.get("version", int) != VERSION:
        raise ImportRefused(f"document: not a {FORMAT} document of version {VERSION}")
    source = doc.reader("evening")
    users = _Users(owner, kept_by(source))
    status = source.choice("status", Evening.Status.values)
    try:
        evening = services.evening_create(
            owner=owner,
            date=source.date("date"),
            place=source.text("place", 80),
            currency=source.choice("currency", Currency.values),
            coin=source.money("coin", positive=True),
        )
    except services.LedgerError as error:
        raise ImportRefused(f"{source.where}: {error.field}: {error.message}") from None
    Evening.objects.filter(pk=evening.pk).update(created_at=source.moment("created_at"))
    ibans = {}
    for index, item in enumerate(doc.get("players", list)):
        player = _Reader(item, f"players[{index}]")
        ibans[player.get("name", str)] = player.iban("iban")
    for index, item in enumerate(doc.get("tables", list)):
        _import_table(evening, _Reader(item, f"table {index + 1}"), ibans, users)
    _import_settlement(evening, data.get("settlement"), users, status)
    for index, item in enumerate(doc.get("events", list)):
        event = _Reader(item, f"events[{index}]")
        EveningEvent.objects.create(
            evening=evening,
            kind=event.choice("kind", EveningEvent.Kind.values),
            by=users.get(event.get("by", str)),
            at=event.moment("at"),
            note=event.text("note", 200),
        )
    Evening.objects.filter(pk=evening.pk).update(status=status)  # open until now: tables are seated while open
    evening.refresh_from_db()
    return evening


def _import_table(evening: Evening, source: _Reader, ibans: dict[str, str], users: _Users) -> None:
    game = source.choice("game", Game.values)
    source.where = f"{source.where} ({game})"
    seat_names = source.get("seat_names", list)
    for name in seat_names:
        if not isinstance(name, str) or name != " ".join(name.split()) or not 0 < len(name) <= 40:
            raise ImportRefused(f"{source.where}: {name!r} is not a player's name (1 to 40 letters, single spaces)")
    ruleset = source.get("ruleset", dict)
    if ruleset.get("currency") != evening.currency:
        raise ImportRefused(f"{source.where}: ruleset.currency must be the evening's currency ({evening.currency})")
    try:
        table = services.table_create(
            evening=evening,
            game=game,
            players=seat_names,
            rules_override=old_documents.frozen_ruleset(game, ruleset),
            first_dealer=source.get("first_dealer", int),
        )
    except rules.RulesError as error:
        raise ImportRefused(f"{source.where}: {error}") from None
    except services.LedgerError as error:
        raise ImportRefused(f"{source.where}: {error.field}: {error.message}") from None
    table.hand_count, table.revision = source.count("hand_count"), source.count("revision")
    Table.objects.filter(pk=table.pk).update(
        hand_count=table.hand_count, revision=table.revision, created_at=source.moment("created_at")
    )
    for player in Player.objects.filter(seats__table=table, iban=""):
        if ibans.get(player.name):
            services.player_iban_set(player=player, iban=ibans[player.name])
    hands = [_hand(table, _Reader(item, f"{source.where}, hand #?"), users) for item in source.get("hands", list)]
    numbers = [prepared.hand.number for prepared in hands]
    # hand_count numbers the next hand: the highest number stored, as recording keeps it (a void keeps its number);
    # a larger one would number the next hand past what the column holds, or leave a gap nothing explains.
    if len(set(numbers)) != len(numbers) or max(numbers, default=0) != table.hand_count:
        raise ImportRefused(f"{source.where}: hand numbers must be distinct, the highest equal to hand_count")
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
    try:
        services.hands_post(table=table, priced=[(prepared.hand, prepared.score) for prepared in hands])
    except services.LedgerError as error:
        raise ImportRefused(f"{source.where}: {error.message}") from None


class _Prepared(NamedTuple):
    hand: Hand
    score: rules.Score
    times: tuple[datetime.datetime, datetime.datetime]
    versions: list[dict[str, Any]]


def _hand(table: Table, source: _Reader, users: _Users) -> _Prepared:
    """An unsaved hand priced by the ledger, its two times and its old versions (each priced too).

    Voided hands and old versions must price as exported as well: counting a voided hand again counts the
    postings it was stored with, and every stored result is shown (its explanation lines) as the ledger priced it.
    """
    number = source.get("number", int)
    source.where = source.where.replace("#?", f"#{number}")
    seats = len(table.seat_names)
    version = source.get("version", int)
    key = source.optional("key", str)
    if number < 1 or not 0 < version < 2**31 or (key is not None and not 0 < len(key) <= 64):
        raise ImportRefused(f"{source.where}: number and version start at 1 (below 2**31); a key has 1 to 64 letters")
    document, score, result = _priced(table, source.get("document", dict), source.get("result", dict), source.where)
    hand = Hand(
        table=table,
        number=number,
        version=version,
        dealer=source.seat("dealer", seats),
        status=source.choice("status", Hand.Status.values),
        document=document,
        result=result,
        key=key,
        entered_by=users.get(source.get("entered_by", str)),
        changed_by=users.get(source.get("changed_by", str)),
    )
    versions = []
    for item in source.get("versions", list):
        old = _Reader(item, f"{source.where}, an old version")
        number = old.get("version", int)
        if not 1 <= number < hand.version:
            raise ImportRefused(f"{old.where}: version {number} is not older than {hand.version}")
        old_document, _score, old_result = _priced(table, old.get("document", dict), old.get("result", dict), old.where)
        versions.append(
            {
                "version": number,
                "dealer": old.seat("dealer", seats),
                "status": old.choice("status", Hand.Status.values),
                "document": old_document,
                "result": old_result,
                "changed_by": users.get(old.get("changed_by", str)),
                "changed_at": old.moment("changed_at"),
            }
        )
    if len({old["version"] for old in versions}) != len(versions):
        raise ImportRefused(f"{source.where}: two old versions carry the same number")
    return _Prepared(hand, score, (source.moment("entered_at"), source.moment("changed_at")), versions)


def _priced(
    table: Table, document: dict[str, Any], exported: dict[str, Any], where: str
) -> tuple[dict[str, Any], rules.Score, dict[str, Any]]:
    """The hand as stored, priced by the ledger, and the result it stores; refused unless it comes to the exported
    amounts. An older export may leave a choice to the engine's old defaults: written out here."""
    amounts = _amounts(exported, table.seat_names, where)
    document = old_documents.repaired(table.game, table.seat_names, table.ruleset, document, amounts) or document
    try:
        score, result = services.hand_result(table=table, hand=document)
    except rules.RulesError as error:
        raise ImportRefused(f"{where}: the rules refuse it now ({error})") from None
    if dict(score.amounts) != amounts:
        shown = {name: str(amount) for name, amount in score.amounts.items()}
        raise ImportRefused(f"{where}: re-prices to {shown}, not to {exported['amounts']} as exported")
    return document, score, result


def _amounts(result: dict[str, Any], seat_names: list[str], where: str) -> dict[str, Decimal]:
    """The result's amounts as Decimals: players of the table only, summing to exactly zero."""
    raw = result.get("amounts")
    if not isinstance(raw, dict) or not set(raw) <= set(seat_names):
        raise ImportRefused(f"{where}: result.amounts must map players of the table to amounts")
    amounts = {name: _decimal(value, f"{where}: result.amounts.{name}") for name, value in raw.items()}
    if sum(amounts.values(), Decimal(0)) != 0:
        raise ImportRefused(f"{where}: result.amounts do not sum to zero")
    return amounts


def _import_settlement(evening: Evening, data: Any, users: _Users, status: str) -> None:
    """The settlement as closing stores it: planned again from the imported hands, and compared with the document.

    A closed evening's settlement holds the balances of its hands; an open evening keeps one only when a reopen
    kept paid transfers, and then holds the balances of the close before. Either way the transfers are the paid
    ones kept over reopens, then the plan ``services.settlement_plan`` makes for what was still owed (of which a
    reopened evening keeps only the paid ones).
    """
    if data is None:
        if status == Evening.Status.CLOSED:
            raise ImportRefused("settlement: a closed evening needs its settlement")
        return
    source = _Reader(data, "settlement")
    mode = source.choice("mode", Settlement.Mode.values)
    banker = source.text("banker", 40)
    coin = source.money("coin", positive=True)
    if coin != evening.coin:
        raise ImportRefused(f"settlement: coin must be the evening's coin ({evening.coin})")
    exact, rounded = source.balances("exact"), source.balances("rounded")
    if set(rounded) != set(exact):
        raise ImportRefused("settlement.rounded: must name the players of settlement.exact")
    # Carried into a circle's tab: the plan went into the tab; only transfers paid before are kept.
    carried = source.data.get("carried", False) is True
    transfers = [
        _transfer(_Reader(item, f"settlement.transfers[{index}]"), users)
        for index, item in enumerate(source.get("transfers", list))
    ]
    balances = selectors.evening_balances(evening)
    if status == Evening.Status.CLOSED:
        if exact != balances:
            shown = {name: str(amount) for name, amount in balances.items()}
            raise ImportRefused(f"settlement.exact: not the balances of the imported hands ({shown})")
        exact = balances  # in the ledger's order
    else:
        if not set(exact) <= set(balances) or sum(exact.values(), Decimal(0)) != 0:
            raise ImportRefused("settlement.exact: must be balances of the evening's players, summing to zero")
        if not transfers or not all(transfer.is_paid for transfer in transfers):
            raise ImportRefused("settlement: an open evening keeps a settlement only for its paid transfers")
    if carried and not all(transfer.is_paid for transfer in transfers):
        raise ImportRefused("settlement: carried into a circle's tab, it keeps only transfers paid before")
    closed = status == Evening.Status.CLOSED and not carried
    planned = _replanned(exact, rounded, transfers, coin, mode, banker, closed=closed)
    # Planned again, every name is a player of the evening's: the new evening's owner has them all.
    players = {player.name: player for player in Player.objects.filter(owner_id=evening.owner_id, name__in=exact)}
    settlement = Settlement.objects.create(
        evening=evening,
        mode=mode,
        banker=players[banker] if banker else None,
        coin=coin,
        exact={name: str(amount) for name, amount in exact.items()},
        rounded={name: str(planned[name]) for name in exact},
        created_by=users.get(source.get("created_by", str)),
        created_at=source.moment("created_at"),
    )
    Transfer.objects.bulk_create(Transfer(settlement=settlement, **transfer.stored(players)) for transfer in transfers)


def _replanned(
    exact: dict[str, Decimal],
    rounded: dict[str, Decimal],
    transfers: list[_Transfer],
    coin: Decimal,
    mode: str,
    banker: str,
    *,
    closed: bool,
) -> dict[str, Decimal]:
    """The rounded balances closing gives, once the document's are found to be them and its transfers its plan.

    The first transfers may be paid ones kept over a reopen: each split into kept and planned is tried (few).
    """
    for kept in range(len(transfers) + 1):
        if kept and not transfers[kept - 1].is_paid:
            break  # a reopen keeps only paid transfers
        try:
            planned_rounded, plan = services.settlement_plan(
                exact=exact, coin=coin, mode=mode, banker=banker, paid=transfers[:kept]
            )
        except services.LedgerError as error:
            raise ImportRefused(f"settlement: {error.field}: {error.message}") from None
        wanted = [(step.payer, step.payee, step.amount) for step in plan]
        given = [(transfer.payer, transfer.payee, transfer.amount) for transfer in transfers[kept:]]
        if planned_rounded == rounded and (given == wanted if closed else _in_order(given, wanted)):
            return planned_rounded
    raise ImportRefused(
        "settlement: its rounded balances and transfers are not what closing plans for these balances"
        f" ({mode}{f', banker {banker}' if banker else ''}, coin {coin})"
    )


def _in_order(some: list[Any], every: list[Any]) -> bool:
    """Whether ``some`` are some of ``every``, in the same order."""
    rest = iter(every)
    return all(item in rest for item in some)


class _Transfer(NamedTuple):
    """A transfer as the document gives it: by names, checked against the plan before they become players."""

    payer: str
    payee: str
    amount: Decimal
    paid_at: datetime.datetime | None
    paid_by: Any

    @property
    def is_paid(self) -> bool:
        return self.paid_at is not None

    def stored(self, players: Mapping[str, Player]) -> dict[str, Any]:
        """The fields of a stored transfer (an evening's or a tab's), its names now the players in ``players``."""
        return {
            "payer": players[self.payer],
            "payee": players[self.payee],
            "amount": self.amount,
            "paid_at": self.paid_at,
            "paid_by": self.paid_by,
        }


def _transfer(source: _Reader, users: _Users) -> _Transfer:
    paid_at, paid_by = source.optional("paid_at", str), source.optional("paid_by", str)
    if (paid_at is None) != (paid_by is None):
        raise ImportRefused(f"{source.where}: paid_at and paid_by go together")
    return _Transfer(
        payer=source.text("payer", 40),
        payee=source.text("payee", 40),
        amount=source.money("amount", positive=True),
        paid_at=source.moment("paid_at") if paid_at else None,
        paid_by=users.get(paid_by) if paid_by else None,
    )


def _require_storable(data: Any) -> None:
    """Refuses text no database stores (NUL, which PostgreSQL refuses; a lone surrogate, which is no UTF-8) and
    numbers JSON cannot hold (NaN, infinity), naming where, before any of it reaches the database."""
    pending: list[tuple[Any, str]] = [(data, "")]
    while pending:
        value, where = pending.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                pending.append((key, where or "document"))
                pending.append((item, f"{where}.{key}" if where else str(key)))
        elif isinstance(value, list):
            pending.extend((item, f"{where}[{index}]") for index, item in enumerate(value))
        elif isinstance(value, str) and ("\x00" in value or not _is_utf8(value)):
            raise ImportRefused(
                f"{where or 'document'}: holds a NUL character or a lone surrogate, which no database stores"
            )
        elif isinstance(value, float) and not math.isfinite(value):
            raise ImportRefused(f"{where or 'document'}: holds a number that is not finite")


def _is_utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class _Users:
    """User names of the document mapped to users here. Only the people the document says kept its score (``named``:
    its owner and scorekeepers) keep their names; any other name, and a name unknown here, becomes the importing
    user, so that a document cannot put somebody's name here on a hand or a payment they had no part in."""

    def __init__(self, owner: Any, named: set[str]) -> None:
        self.owner = owner
        self.named = named
        self.known: dict[str, Any] = {}
        self.model = get_user_model()

    def get(self, username: str) -> Any:
        if username not in self.known:
            field = self.model.USERNAME_FIELD
            user = self.model.objects.filter(**{field: username}).first() if username in self.named else None
            self.known[username] = user or self.owner
        return self.known[username]


def kept_by(source: _Reader) -> set[str]:
    """The user names an exported evening or circle says kept its score: its owner and its scorekeepers."""
    owner = source.optional("owner", str)
    keepers = source.optional("scorekeepers", list) or []
    return {name for name in [owner, *keepers] if isinstance(name, str)}


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

    def iban(self, name: str) -> str:
        value = self.text(name, 34)
        try:
            return qr.check_iban(value) if value.strip() else ""
        except qr.InvalidIban as error:
            raise ImportRefused(f"{self.where}: {name}: {error}") from None

    def balances(self, name: str) -> dict[str, Decimal]:
        """An object of players' balances (decimal strings), as a settlement holds them."""
        raw = self.get(name, dict)
        return {player: _decimal(amount, f"{self.where}.{name}: {player}") for player, amount in raw.items()}

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
            moment = moment if timezone.is_aware(moment) else timezone.make_aware(moment)
            moment.astimezone(datetime.UTC)  # the databases store it in UTC: 0001-01-01T00:00+14:00 is no time
        except (ValueError, OverflowError):
            raise ImportRefused(f"{self.where}: {name} must be a time like 2026-11-27T20:15:00+00:00") from None
        return moment


_KINDS = {str: "a text", int: "a whole number", list: "a list", dict: "an object"}


def _decimal(value: Any, where: str) -> Decimal:
    try:
        amount = Decimal(value) if isinstance(value, str) else Decimal("NaN")
    except InvalidOperation:
        amount = Decimal("NaN")
    if not amount.is_finite() or abs(amount) >= 10**10 or amount != amount.quantize(Decimal("0.0001")):
        raise ImportRefused(f"{where} must be a decimal number written as a string, at most 4 places")
    return amount
