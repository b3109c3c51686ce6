"""An evening read back from the document (``evening_import``), through the services, all or nothing."""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from decimal import Decimal
from typing import Any, NamedTuple

from django.db import transaction

import rules
from ledger import old_documents, selectors, services
from ledger.exchange.document import FORMAT, VERSION, ImportRefused
from ledger.exchange.reading import Reader, Users, decimal_read, kept_by, require_storable
from ledger.models import (
    Currency,
    Evening,
    EveningEvent,
    Game,
    Hand,
    Player,
    Settlement,
    Table,
)
from ledger.services import restoring
from ledger.services.restoring import RestoredHand


@transaction.atomic
def evening_import(*, data: Any, owner: Any) -> Evening:
    """A new evening of ``owner`` from an exported document; ImportRefused (nothing stored) if anything is off.

    It writes through the services the app uses (evening_create, table_create, the hands' pricing and postings,
    settlement_plan), so it accepts only what the app could have stored itself.
    """
    require_storable(data)
    doc = Reader(data, "document")
    if doc.get("format", str) != FORMAT or doc.get("version", int) != VERSION:
        raise ImportRefused(f"document: not a {FORMAT} document of version {VERSION}")
    source = doc.reader("evening")
    users = Users(owner, kept_by(source))
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
    restoring.evening_restore(evening=evening, created_at=source.moment("created_at"))
    ibans = {}
    for index, item in enumerate(doc.get("players", list)):
        player = Reader(item, f"players[{index}]")
        ibans[player.get("name", str)] = player.iban("iban")
    for index, item in enumerate(doc.get("tables", list)):
        _import_table(evening, Reader(item, f"table {index + 1}"), ibans, users)
    _import_settlement(evening, data.get("settlement"), users, status)
    events = [_event(Reader(item, f"events[{index}]"), users) for index, item in enumerate(doc.get("events", list))]
    # Open until now: tables are seated while open.
    restoring.evening_restore(evening=evening, status=status, events=events)
    evening.refresh_from_db()
    return evening


def _import_table(evening: Evening, source: Reader, ibans: dict[str, str], users: Users) -> None:
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
            # Exports made before tables had these settings: what every table was then.
            recording=source.optional("recording", str) or Table.Recording.SCOREKEEPER,
            confirmation=source.optional("confirmation", str) or Table.Confirmation.NONE,
        )
    except rules.RulesError as error:
        raise ImportRefused(f"{source.where}: {error}") from None
    except services.LedgerError as error:
        raise ImportRefused(f"{source.where}: {error.field}: {error.message}") from None
    hand_count, revision, created_at = source.count("hand_count"), source.count("revision"), source.moment("created_at")
    for player in Player.objects.filter(seats__table=table, iban=""):
        if ibans.get(player.name):
            services.player_iban_set(player=player, iban=ibans[player.name])
    hands = [_hand(table, Reader(item, f"{source.where}, hand #?"), users) for item in source.get("hands", list)]
    numbers = [prepared.hand.number for prepared in hands]
    # hand_count numbers the next hand: the highest number stored, as recording keeps it (a void keeps its number);
    # a larger one would number the next hand past what the column holds, or leave a gap nothing explains.
    if len(set(numbers)) != len(numbers) or max(numbers, default=0) != hand_count:
        raise ImportRefused(f"{source.where}: hand numbers must be distinct, the highest equal to hand_count")
    keys = [prepared.hand.key for prepared in hands if prepared.hand.key]
    if len(set(keys)) != len(keys):
        raise ImportRefused(f"{source.where}: two hands carry the same key")
    try:
        restoring.table_restore(
            table=table, hand_count=hand_count, revision=revision, created_at=created_at, hands=hands
        )
    except services.LedgerError as error:
        raise ImportRefused(f"{source.where}: {error.message}") from None


def _event(source: Reader, users: Users) -> dict[str, Any]:
    return {
        "kind": source.choice("kind", EveningEvent.Kind.values),
        "by": users.get(source.get("by", str)),
        "at": source.moment("at"),
        "note": source.text("note", 200),
    }


def _hand(table: Table, source: Reader, users: Users) -> RestoredHand:
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
        old = Reader(item, f"{source.where}, an old version")
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
    return RestoredHand(hand, score, (source.moment("entered_at"), source.moment("changed_at")), versions)


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
    amounts = {name: decimal_read(value, f"{where}: result.amounts.{name}") for name, value in raw.items()}
    if sum(amounts.values(), Decimal(0)) != 0:
        raise ImportRefused(f"{where}: result.amounts do not sum to zero")
    return amounts


def _import_settlement(evening: Evening, data: Any, users: Users, status: str) -> None:
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
    source = Reader(data, "settlement")
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
        transfer_read(Reader(item, f"settlement.transfers[{index}]"), users)
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
    fields = {
        "mode": mode,
        "banker": players[banker] if banker else None,
        "coin": coin,
        "exact": {name: str(amount) for name, amount in exact.items()},
        "rounded": {name: str(planned[name]) for name in exact},
        "created_by": users.get(source.get("created_by", str)),
        "created_at": source.moment("created_at"),
    }
    restoring.settlement_restore(
        evening=evening, fields=fields, transfers=[transfer.stored(players) for transfer in transfers]
    )


def _replanned(
    exact: dict[str, Decimal],
    rounded: dict[str, Decimal],
    transfers: list[ReadTransfer],
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


class ReadTransfer(NamedTuple):
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


def transfer_read(source: Reader, users: Users) -> ReadTransfer:
    paid_at, paid_by = source.optional("paid_at", str), source.optional("paid_by", str)
    if (paid_at is None) != (paid_by is None):
        raise ImportRefused(f"{source.where}: paid_at and paid_by go together")
    return ReadTransfer(
        payer=source.text("payer", 40),
        payee=source.text("payee", 40),
        amount=source.money("amount", positive=True),
        paid_at=source.moment("paid_at") if paid_at else None,
        paid_by=users.get(paid_by) if paid_by else None,
    )
