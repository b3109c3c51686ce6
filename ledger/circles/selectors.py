"""Read side of circles of regulars: the circle page, a member's own page, the API.

As ``ledger/selectors.py``: balances come from one aggregate query each (``CircleEntryQuerySet.totals``), and a
page costs a fixed number of queries whatever the number of evenings, entries or transfers.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.db.models import Count, Q
from django.utils.safestring import SafeString

from ledger import qr
from ledger.circles.models import Circle, CircleEntry, CircleMember, CircleSettlement, CircleTransfer
from ledger.models import Evening, Player, Transfer
from rules.i18n import plain_money

EVENINGS_SHOWN = 20
ENTRIES_SHOWN = 30


def tab_balances(circle: Circle) -> dict[str, Decimal]:
    """{name: what the circle owes the player} of the open tab, largest first, those at zero left out: one query."""
    totals = CircleEntry.objects.filter(circle=circle).tab().totals("player__name")
    return dict(sorted(((n, a) for n, a in totals.items() if a != 0), key=lambda item: (-item[1], item[0])))


def pot_balance(circle: Circle) -> Decimal:
    """What the pot holds: one aggregate query."""
    return CircleEntry.objects.filter(circle=circle).pot().total()


def circle_list(user: Any) -> list[Circle]:
    """The circles the user keeps score of, each with ``member_count`` and ``evening_count``: one query."""
    circles = Circle.objects.for_user(user).annotate(
        member_count=Count("memberships", distinct=True), evening_count=Count("evenings", distinct=True)
    )
    return list(circles.order_by("name", "id"))


def members(circle: Circle) -> list[CircleMember]:
    return list(circle.memberships.select_related("player").order_by("player__name"))


def evenings(circle: Circle, length: int = EVENINGS_SHOWN) -> list[Evening]:
    """The circle's latest evenings, each with ``table_count``: one query."""
    return list(circle.evenings.annotate(table_count=Count("tables")).order_by("-date", "-id")[:length])


def entries(circle: Circle, length: int = ENTRIES_SHOWN) -> list[CircleEntry]:
    return list(circle.entries.select_related("player", "evening").order_by("-created_at", "-id")[:length])


def latest_tab_settlement(circle: Circle) -> tuple[CircleSettlement | None, list[CircleTransfer]]:
    """The tab's latest settling with its transfers (payer, payee, IBANs): two queries, one when never settled."""
    settlement = circle.settlements.select_related("banker").order_by("-created_at", "-id").first()
    if settlement is None:
        return None, []
    return settlement, list(settlement.transfers.select_related("payer", "payee", "paid_by"))


def tab_transfer_row(circle: Circle, transfer: CircleTransfer, *, with_qr: bool) -> dict[str, Any]:
    """One transfer of the tab as shown: the payee's IBAN and, while unpaid, the payment QR code (``ledger.qr``)."""
    return _payment_row(circle.currency, transfer, transfer.settlement.created_at.date(), with_qr=with_qr, key="tab")


def _payment_row(
    currency: str, transfer: CircleTransfer | Transfer, date: Any, *, with_qr: bool, key: str
) -> dict[str, Any]:
    """A transfer as shown, its QR code while unpaid; ``key`` ("tab-7", "evening-7") tells the two kinds apart."""
    payee = transfer.payee
    code = SafeString("")
    if with_qr and payee.iban and not transfer.is_paid:  # no code once paid: scanning it again would pay twice
        payload = qr.payment_payload(
            currency=currency,
            payee=payee.name,
            iban=payee.iban,
            amount=transfer.amount,
            text=qr.payment_text(date=date, payer=transfer.payer.name),
        )
        code = qr.qr_svg(payload, label=str(transfer))
    kind = "QR Platba" if currency == "CZK" else "EPC (SEPA)"
    row = {"transfer": transfer, "payee_player": payee, "iban": payee.iban, "qr": code, "qr_kind": kind}
    return row | {"key": f"{key}-{transfer.pk}"}


def pot_payments(circle: Circle, *, player: Player | None = None, length: int = ENTRIES_SHOWN) -> list[dict[str, Any]]:
    """The pot pay-ins not yet marked paid (``player``'s only, if given), latest evenings first, each as
    ``pot_payment_row`` shows it: two queries (the pot holder, the pay-ins)."""
    unpaid = CircleEntry.objects.filter(circle=circle, kind=CircleEntry.Kind.PAID_IN, paid_at__isnull=True)
    if player is not None:
        unpaid = unpaid.filter(player=player)
    unpaid = unpaid.select_related("player", "evening").order_by("-evening__date", "-id")[:length]
    holder = circle.pot_holder
    return [pot_payment_row(circle, entry, holder=holder) for entry in unpaid]


def pot_payment_row(circle: Circle, entry: CircleEntry, *, holder: Player | None) -> dict[str, Any]:
    """One pay-in as shown: what the winner pays the pot holder and, while unpaid and the holder has an IBAN, the
    payment QR code (``ledger.qr``) in the evening's currency. No code when the winner holds the pot himself."""
    currency = entry.evening.currency if entry.evening else circle.currency
    own = holder is not None and holder.pk == entry.player_id
    code = SafeString("")
    if holder is not None and holder.iban and not own and entry.paid_at is None and entry.player is not None:
        date = entry.evening.date if entry.evening else entry.created_at.date()
        payload = qr.payment_payload(
            currency=currency,
            payee=holder.name,
            iban=holder.iban,
            amount=entry.amount,
            text=qr.payment_text(date=date, payer=entry.player.name),
        )
        code = qr.qr_svg(payload, label=f"{entry.player} → {holder} {plain_money(entry.amount)}")
    kind = "QR Platba" if currency == "CZK" else "EPC (SEPA)"
    return {
        "entry": entry,
        "holder": holder,
        "own": own,
        "currency": currency,
        "iban": holder.iban if holder else "",
        "qr": code,
        "qr_kind": kind,
        "key": f"pot-{entry.pk}",
    }


def circle_context(circle: Circle, *, with_qr: bool = True) -> dict[str, Any]:
    """Everything the circle page shows, in a fixed number of queries whatever the number of evenings."""
    settlement, transfers = latest_tab_settlement(circle)
    return {
        "circle": circle,
        "members": members(circle),
        "evenings": evenings(circle),
        "tab": tab_balances(circle) if circle.settle == Circle.Settle.TAB else {},
        "pot": pot_balance(circle) if circle.settle == Circle.Settle.POT else None,
        "entries": entries(circle),
        "tab_settlement": settlement,
        "tab_transfers": [tab_transfer_row(circle, transfer, with_qr=with_qr) for transfer in transfers],
        "keepers": list(circle.scorekeepers.all()),
        # Also once the circle no longer keeps a pot: pay-ins booked before are still owed to its holder.
        "pot_payments": pot_payments(circle),
    }


def member_context(membership: CircleMember) -> dict[str, Any]:
    """What a member sees through their personal link: their tab balance, the unpaid transfers they pay or receive
    (the tab's and the circle's evenings'), with payment QR codes for those they pay, and the pot."""
    circle, player = membership.circle, membership.player
    tab = CircleEntry.objects.filter(circle=circle, player=player).tab().total()
    mine = Q(payer=player) | Q(payee=player)
    tab_transfers = (
        CircleTransfer.objects.filter(mine, settlement__circle=circle, paid_at__isnull=True)
        .select_related("payer", "payee", "settlement")
        .order_by("id")
    )
    evening_transfers = (
        Transfer.objects.filter(mine, settlement__evening__circle=circle, paid_at__isnull=True)
        .select_related("payer", "payee", "settlement__evening")
        .order_by("id")
    )
    rows = [
        _payment_row(circle.currency, t, t.settlement.created_at.date(), with_qr=t.payer_id == player.pk, key="tab")
        for t in tab_transfers
    ]
    for transfer in evening_transfers:
        evening = transfer.settlement.evening
        paying = transfer.payer_id == player.pk
        rows.append(_payment_row(evening.currency, transfer, evening.date, with_qr=paying, key="evening"))
    owes = [row for row in rows if row["transfer"].payer_id == player.pk]
    owed = [row for row in rows if row["transfer"].payee_id == player.pk]
    return {
        "circle": circle,
        "player": player,
        "membership": membership,
        "tab": tab,
        "pot": pot_balance(circle) if circle.settle == Circle.Settle.POT else None,
        "owes": owes,
        "owed": owed,
        "pot_payments": pot_payments(circle, player=player),
        "evenings": evenings(circle),
    }
