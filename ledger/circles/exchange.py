"""A circle of regulars as one JSON document, and back: its members, its evenings, its tab and its pot.

The document (``format: talon-circle``, ``version: 1``)::

    {"format": "talon-circle", "version": 1, "exported_at": "…",
     "circle": {"name", "settle", "currency", "coin", "pot_share", "pot_holder", "created_at", "owner", "scorekeepers"},
     "members": [{"name", "iban"}],
     "evenings": [<a talon-evening document each (ledger.exchange), oldest first>],
     "settlements": [{"mode", "banker", "coin", "exact", "rounded", "created_by", "created_at",
                      "transfers": [{"payer", "payee", "amount", "paid_at", "paid_by"}]}],
     "entries": [{"kind", "player", "evening", "settlement", "amount", "note", "paid_at", "paid_by",
                  "created_by", "created_at"}]}

An entry's ``evening`` and ``settlement`` are indexes into ``evenings`` and ``settlements`` (or null); ``player`` a
member's name (or null for the pot itself). ``pot_holder`` is a member's name or null; ``paid_at`` and ``paid_by``
mark a pot pay-in paid to the holder (null: still owed; absent in documents made before they existed). Members'
personal links are not carried over, as share links are not.

The import writes a new circle of the importing user through ``circles.circle_create``, each evening through
``exchange.evening_import`` (every hand priced again) and ``circles.circle_evening_attach``, and checks the money
as the ledger books it: an evening's carried entries are the net of what closing plans for it
(``services.settlement_plan``) when its settlement says it was ``carried``, its pot shares what some share of the
winners' gains can give (``tab_and_pot.pot_shares_possible``: the share may have changed since), a tab settlement is
what ``settlement_plan`` plans for its balances, and its settled entries book exactly those balances back out;
deposits are positive, withdrawals negative, and the pot never goes below zero. Anything else refuses the whole
import.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone

from ledger import exchange, services
from ledger.circles import services as circles
from ledger.circles import tab_and_pot
from ledger.circles.models import Circle, CircleEntry, CircleSettlement, CircleTransfer
from ledger.exchange.document import ImportRefused
from ledger.exchange.importing import transfer_read
from ledger.exchange.reading import Reader, Users, kept_by, require_storable
from ledger.exchange.writing import export_settled
from ledger.models import MONEY_PLACES, Evening, Player, Settlement

FORMAT = "talon-circle"
VERSION = 1


# --------------------------------------------------------------------------------------------------------------
# Export


def circle_export(*, circle: Circle) -> dict[str, Any]:
    evenings = list(circle.evenings.order_by("date", "id"))
    settlements = list(circle.settlements.select_related("banker", "created_by").order_by("created_at", "id"))
    evening_index = {evening.pk: index for index, evening in enumerate(evenings)}
    settlement_index = {settlement.pk: index for index, settlement in enumerate(settlements)}
    entries = circle.entries.select_related("player", "created_by", "paid_by").order_by("created_at", "id")
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "circle": {
            "name": circle.name,
            "settle": circle.settle,
            "currency": circle.currency,
            "coin": str(circle.coin.quantize(MONEY_PLACES)),
            "pot_share": str(circle.pot_share.quantize(MONEY_PLACES)),
            "pot_holder": circle.pot_holder.name if circle.pot_holder else None,
            "created_at": circle.created_at.isoformat(),
            "owner": circle.owner.get_username(),
            "scorekeepers": sorted(user.get_username() for user in circle.scorekeepers.all()),
        },
        "members": [
            {"name": member.player.name, "iban": member.player.iban}
            for member in circle.memberships.select_related("player").order_by("player__name")
        ],
        "evenings": [exchange.evening_export(evening=evening) for evening in evenings],
        "settlements": [export_settled(settlement) for settlement in settlements],
        "entries": [
            {
                "kind": entry.kind,
                "player": entry.player.name if entry.player else None,
                "evening": evening_index.get(entry.evening_id) if entry.evening_id else None,
                "settlement": settlement_index.get(entry.settlement_id) if entry.settlement_id else None,
                "amount": str(entry.amount),
                "note": entry.note,
                "paid_at": entry.paid_at.isoformat() if entry.paid_at else None,
                "paid_by": entry.paid_by.get_username() if entry.paid_by else None,
                "created_by": entry.created_by.get_username(),
                "created_at": entry.created_at.isoformat(),
            }
            for entry in entries
        ],
    }


# --------------------------------------------------------------------------------------------------------------
# Import


@transaction.atomic
def circle_import(*, data: Any, owner: Any) -> Circle:
    """A new circle of ``owner`` from an exported document; ImportRefused (nothing stored) if anything is off."""
    require_storable(data)
    doc = Reader(data, "document")
    if doc.get("format", str) != FORMAT or doc.get("version", int) != VERSION:
        raise ImportRefused(f"document: not a {FORMAT} document of version {VERSION}")
    source = doc.reader("circle")
    named = kept_by(source)
    for index, item in enumerate(doc.get("evenings", list)):
        named |= kept_by(Reader(item, f"evenings[{index}]").reader("evening"))
    users = Users(owner, named)
    members = [Reader(item, f"members[{index}]") for index, item in enumerate(doc.get("members", list))]
    try:
        circle = circles.circle_create(
            owner=owner,
            name=source.text("name", 80),
            members=[member.text("name", 40) for member in members],
            settle=source.choice("settle", Circle.Settle.values),
            currency=source.get("currency", str),
            coin=source.money("coin", positive=True),
            pot_share=source.money("pot_share"),
        )
    except services.LedgerError as error:
        raise ImportRefused(f"circle: {error.field}: {error.message}") from None
    Circle.objects.filter(pk=circle.pk).update(created_at=source.moment("created_at"))
    for member in members:
        iban = member.iban("iban")
        player = Player.objects.get(owner=owner, name=services.player_name_tidy(member.text("name", 40)))
        if iban and not player.iban:
            services.player_iban_set(player=player, iban=iban)
    _import_pot_holder(circle, source)
    evenings, carried = [], []
    for index, item in enumerate(doc.get("evenings", list)):
        try:
            evening = exchange.evening_import(data=item, owner=owner)
        except ImportRefused as error:
            raise ImportRefused(f"evenings[{index}]: {error}") from None
        evenings.append(circles.circle_evening_attach(circle=circle, evening=evening))
        carried.append(_says_carried(item))
    settlements = [
        _import_settlement(circle, Reader(item, f"settlements[{index}]"), users)
        for index, item in enumerate(doc.get("settlements", list))
    ]
    entries = [
        _entry(circle, Reader(item, f"entries[{index}]"), users, evenings, settlements)
        for index, item in enumerate(doc.get("entries", list))
    ]
    CircleEntry.objects.bulk_create(entries)
    _check_money(circle, evenings, carried, settlements)
    circle.refresh_from_db()
    return circle


def _import_pot_holder(circle: Circle, source: Reader) -> None:
    name = source.optional("pot_holder", str)
    if name is None:
        return
    holder = circle.memberships.filter(player__name=services.player_name_tidy(name)).first()
    if holder is None:
        raise ImportRefused("circle.pot_holder: must name one of the members")
    Circle.objects.filter(pk=circle.pk).update(pot_holder=holder.player)


def _says_carried(item: Any) -> bool:
    """Whether an evening's document says its plan went into the circle's tab (``exchange``'s ``carried``)."""
    settlement = item.get("settlement") if isinstance(item, dict) else None
    return isinstance(settlement, dict) and settlement.get("carried", False) is True


def _import_settlement(circle: Circle, source: Reader, users: Users) -> CircleSettlement:
    """A tab's settling, planned again from its balances (``services.settlement_plan``) and compared."""
    mode = source.choice("mode", Settlement.Mode.values)
    banker = source.text("banker", 40)
    coin = source.money("coin", positive=True)
    exact, rounded = source.balances("exact"), source.balances("rounded")
    transfers = [
        transfer_read(Reader(item, f"{source.where}.transfers[{index}]"), users)
        for index, item in enumerate(source.get("transfers", list))
    ]
    try:
        planned_rounded, plan = services.settlement_plan(exact=exact, coin=coin, mode=mode, banker=banker, paid=[])
    except services.LedgerError as error:
        raise ImportRefused(f"{source.where}: {error.field}: {error.message}") from None
    wanted = [(step.payer, step.payee, step.amount) for step in plan]
    if planned_rounded != rounded or [(t.payer, t.payee, t.amount) for t in transfers] != wanted:
        raise ImportRefused(f"{source.where}: its rounded balances and transfers are not what settling plans")
    players = _players(circle, exact)
    settlement = CircleSettlement.objects.create(
        circle=circle,
        mode=mode,
        banker=players[banker] if banker else None,
        coin=coin,
        exact={name: str(amount) for name, amount in exact.items()},
        rounded={name: str(amount) for name, amount in rounded.items()},
        created_by=users.get(source.get("created_by", str)),
        created_at=source.moment("created_at"),
    )
    CircleTransfer.objects.bulk_create(CircleTransfer(settlement=settlement, **t.stored(players)) for t in transfers)
    return settlement


def _players(circle: Circle, names: Any) -> dict[str, Player]:
    players = {player.name: player for player in Player.objects.filter(owner_id=circle.owner_id, name__in=names)}
    missing = sorted(set(names) - set(players))
    if missing:
        raise ImportRefused(f"{', '.join(missing)}: not a player of the circle's evenings or members")
    return players


def _entry(
    circle: Circle, source: Reader, users: Users, evenings: list[Evening], settlements: list[CircleSettlement]
) -> CircleEntry:
    kind = source.choice("kind", CircleEntry.Kind.values)
    name = source.optional("player", str)
    evening_at, settlement_at = source.optional("evening", int), source.optional("settlement", int)
    if evening_at is not None and not 0 <= evening_at < len(evenings):
        raise ImportRefused(f"{source.where}: evening must be the index of one of the evenings")
    if settlement_at is not None and not 0 <= settlement_at < len(settlements):
        raise ImportRefused(f"{source.where}: settlement must be the index of one of the settlements")
    paid_at, paid_by = source.optional("paid_at", str), source.optional("paid_by", str)
    if (paid_at is None) != (paid_by is None):
        raise ImportRefused(f"{source.where}: paid_at and paid_by go together")
    if paid_at is not None and kind != CircleEntry.Kind.PAID_IN:
        raise ImportRefused(f"{source.where}: only a pot pay-in (paid_in) is marked paid")
    return CircleEntry(
        circle=circle,
        player=_players(circle, [name])[name] if name is not None else None,
        evening=evenings[evening_at] if evening_at is not None else None,
        settlement=settlements[settlement_at] if settlement_at is not None else None,
        kind=kind,
        amount=source.money("amount"),
        note=source.text("note", 200),
        paid_at=source.moment("paid_at") if paid_at else None,
        paid_by=users.get(paid_by) if paid_by else None,
        created_by=users.get(source.get("created_by", str)),
        created_at=source.moment("created_at"),
    )


def _check_money(
    circle: Circle, evenings: list[Evening], carried_flags: list[bool], settlements: list[CircleSettlement]
) -> None:
    """The imported entries are what the ledger would have booked (see the module's docstring)."""
    entries = CircleEntry.objects.filter(circle=circle)
    carried = entries.filter(kind=CircleEntry.Kind.CARRIED).totals("evening_id", "player__name")
    paid_in = entries.filter(kind=CircleEntry.Kind.PAID_IN).totals("evening_id", "player__name")
    for index, (evening, was_carried) in enumerate(zip(evenings, carried_flags, strict=True)):
        settlement = Settlement.objects.filter(evening=evening).select_related("banker").first()
        closed = settlement is not None and not evening.is_open
        booked = {name: amount for (at, name), amount in carried.items() if at == evening.pk}
        want = tab_and_pot.planned_net(settlement) if settlement and closed and was_carried else {}
        if booked != {name: amount for name, amount in want.items() if amount != 0}:
            raise ImportRefused(f"entries: evening {index}'s carried balances are not the net of its plan")
        booked = {name: amount for (at, name), amount in paid_in.items() if at == evening.pk}
        possible = tab_and_pot.pot_shares_possible(settlement, booked) if settlement and closed else not booked
        if not possible:
            raise ImportRefused(f"entries: evening {index}'s pot shares are not a share of its winners' gains")
    if entries.filter(kind__in=["carried", "paid_in"], evening__isnull=True).exists():
        raise ImportRefused("entries: a carried balance or pot share names no evening")
    for index, tab_settlement in enumerate(settlements):
        booked = entries.filter(kind=CircleEntry.Kind.SETTLED, settlement=tab_settlement).totals("player__name")
        if booked != {name: -Decimal(amount) for name, amount in tab_settlement.exact.items()}:
            raise ImportRefused(f"entries: settlements[{index}] must book its balances back out of the tab")
    if entries.filter(kind=CircleEntry.Kind.DEPOSIT, amount__lte=0).exists():
        raise ImportRefused("entries: a deposit is more than zero")
    if entries.filter(kind=CircleEntry.Kind.WITHDRAWAL, amount__gte=0).exists():
        raise ImportRefused("entries: a withdrawal is less than zero")
    if entries.pot().total() < 0:
        raise ImportRefused("entries: the pot cannot hold less than nothing")
    if entries.tab().total() != 0:
        raise ImportRefused("entries: the tab must sum to zero")
