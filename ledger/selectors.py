"""The read side: balances, scoreboards, hand logs, chart series and the last counted hand, for the pages, the API,
the PDF and the statistics alike (``ledger.services`` writes).

Each answer costs a fixed number of queries and a fixed amount of Python work whatever the number of hands: the
database counts and sums (the balances through ``exact_total``, the chart from running totals), and only the hands
shown are loaded.
"""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal
from typing import Any, TypedDict

from django.db.models import Count, F, FloatField, Max, Sum, Window
from django.db.models.fields.json import KT
from django.db.models.functions import Cast
from django.utils.safestring import SafeString

from ledger import qr
from ledger.models import Evening, Hand, Player, Posting, Seat, Settlement, Table, Transfer

# The table page and the share page show the newest hands; the rest are one tap away. They read only these, so
# their size does not grow with the evening.
LOG_LENGTH = 30


# --------------------------------------------------------------------------------------------------------------
# Balances: exact, each from one aggregate query


def table_balances(table: Table) -> dict[str, Decimal]:
    """Every seated player's exact balance at this table, in seat order: one aggregate query."""
    totals = Posting.objects.filter(hand__table=table).counted().totals("player__name")
    return {name: totals.get(name, Decimal(0)) for name in table.seat_names}


def tables_balances(evening: Evening, tables: list[Table]) -> dict[int, dict[str, Decimal]]:
    """{table id: each seated player's exact balance} for the evening's ``tables``: one grouped query for all."""
    rows = Posting.objects.filter(hand__table__evening=evening).counted().totals("hand__table_id", "player__name")
    totals: dict[int, dict[str, Decimal]] = defaultdict(dict)
    for (table_id, name), total in rows.items():
        totals[table_id][name] = total
    return {table.pk: {name: totals[table.pk].get(name, Decimal(0)) for name in table.seat_names} for table in tables}


def evening_balances(evening: Evening) -> dict[str, Decimal]:
    """Every player seated at any of the evening's tables with their exact balance, largest gain first, by name.

    One query: the players come from the seats, each total from a subquery over the counted postings, so a player
    whose hands were all voided still shows (at zero) and nothing is summed in Python. Sorted here, on the exact
    totals: SQLite's float sums would put a zero with a crumb of -5E-17 below an exact zero.
    """
    seated = Player.objects.filter(pk__in=Seat.objects.filter(table__evening=evening).values("player"))
    exact = Posting.objects.filter(hand__table__evening=evening).counted().totals_of(seated).items()
    return dict(sorted(exact, key=lambda row: (-row[1], row[0])))


def scoreboard(table: Table, balances: dict[str, Decimal], next_dealer: int | None = None) -> list[dict[str, Any]]:
    """One entry per seat: name, balance and, when the next dealer is known, who deals and who leads next."""
    seats = len(table.seat_names)
    return [
        {
            "name": name,
            "balance": balances[name],
            "deals": next_dealer is not None and position == next_dealer,
            # The player on the dealer's left chooses (Mariáš, Šnapser) or leads and bids first (Skat).
            "leads": next_dealer is not None and position == (next_dealer + 1) % seats,
        }
        for position, name in enumerate(table.seat_names)
    ]


# --------------------------------------------------------------------------------------------------------------
# Hands: the log, the last counted hand, the contracts played


def hand_log(table: Table, *, whole: bool = False) -> dict[str, Any]:
    """The log as the pages show it: the newest ``LOG_LENGTH`` hands (all of them when ``whole``), newest first and
    voided ones included, the number of hands, and whether there are more than shown. Two queries."""
    hands = table.hands.order_by("-number")
    log = list(hands if whole else hands[:LOG_LENGTH])
    total = table.hands.count()
    return {"log": log, "hand_total": total, "log_more": len(log) < total}


def evening_hands(evening: Evening) -> dict[int, list[Hand]]:
    """{table id: all its hands, oldest first}: one query for the whole evening (the PDF shows every hand)."""
    by_table: dict[int, list[Hand]] = defaultdict(list)
    for hand in Hand.objects.filter(table__evening=evening).order_by("table_id", "number"):
        by_table[hand.table_id].append(hand)
    return by_table


def last_counted(table: Table, log: list[Hand] | None = None) -> Hand | None:
    """The newest counted hand: found in ``log`` (the newest hands, newest first) when it holds one, else one query.

    Only a log of voided hands (or no log) asks the database.
    """
    if log is not None:
        found = next((hand for hand in log if hand.is_counted), None)
        if found is not None or not log:
            return found
    return table.hands.filter(status=Hand.Status.COUNTED).order_by("-number").first()


class ContractPlayed(TypedDict):
    contract: str  # as the hand document names it
    count: int  # counted hands that played it
    latest: int  # the number of the latest of them


def contracts_played(table: Table, field: str) -> list[ContractPlayed]:
    """Per contract (the hand document's ``field``) played in a counted hand: how often, and the number of the
    latest hand that played it; the most recently played first. One grouped query."""
    played = (
        table.hands.filter(status=Hand.Status.COUNTED, document__has_key=field)
        # A JSON null reads as the text "null" on SQLite, which is also the name of a Skat game.
        .exclude(**{f"document__{field}": None})
        .annotate(contract=KT(f"document__{field}"))
        .order_by()
        .values("contract")
        .annotate(count=Count("pk"), latest=Max("number"))
    )
    return sorted((row for row in played if row["contract"]), key=lambda row: -row["latest"])


# --------------------------------------------------------------------------------------------------------------
# The chart


def chart_series(table: Table) -> list[list[float]]:
    """Each seated player's balance after each counted hand, starting at zero, in seat order (hands oldest first).

    One window query sums the postings per player up to each hand; Python only lays the sums out per seat. Floats:
    these are for drawing, never for money (the balances shown as money come from ``table_balances``).
    """
    running = Window(
        Sum(Cast("amount", FloatField())), partition_by=[F("player_id")], order_by=[F("hand__number").asc()]
    )
    rows = (
        Posting.objects.filter(hand__table=table)
        .counted()
        .annotate(running=running)
        .order_by("hand__number", "player_id")
        .values_list("hand__number", "player__name", "running")
    )
    seats = {name: index for index, name in enumerate(table.seat_names)}
    now = [0.0] * len(seats)
    series: list[list[float]] = [[0.0] for _ in seats]
    hand = None
    for number, name, total in rows:
        if number != hand and hand is not None:
            for index, line in enumerate(series):
                line.append(now[index])
        hand = number
        if name in seats:
            now[seats[name]] = total
    if hand is not None:
        for index, line in enumerate(series):
            line.append(now[index])
    return series


# --------------------------------------------------------------------------------------------------------------
# The settlement: the settlement page, the share link, the PDF and the API read it the same way, in a fixed number
# of queries whatever the number of hands or transfers


def stored_settlement(evening: Evening) -> tuple[Settlement | None, list[Transfer]]:
    """The evening's settlement (None when it was never closed) with its banker, and its transfers with both
    players (names, IBANs) and who marked them paid, in the order planned: two queries, one when never closed.

    A reopened evening keeps its settlement row and the transfers paid before the reopening.
    """
    stored = Settlement.objects.filter(evening=evening).select_related("banker").first()
    if stored is None:
        return None, []
    return stored, list(stored.transfers.select_related("payer", "payee", "paid_by"))


def settlement_context(evening: Evening, *, with_qr: bool) -> dict[str, Any]:
    """For the settlement page, the share link and the PDF: the settlement (None when it was never closed), its
    balance rows, its transfers as shown (``transfer_row``) and {name: Player} of its players. Three queries."""
    stored, transfers = stored_settlement(evening)
    if stored is None:
        return {"settlement": None, "balance_rows": [], "transfers": [], "players": {}}
    players = {
        player.name: player for player in Player.objects.filter(owner_id=evening.owner_id, name__in=stored.exact)
    }
    return {
        "settlement": stored,
        "balance_rows": stored.rows(),
        "transfers": [transfer_row(evening, transfer, with_qr=with_qr) for transfer in transfers],
        "players": players,
    }


def transfer_row(evening: Evening, transfer: Transfer, *, with_qr: bool) -> dict[str, Any]:
    """One transfer as shown: the payee's IBAN and, while unpaid, the payment QR code in the evening's currency."""
    payee = transfer.payee
    iban = payee.iban
    code = SafeString("")
    # No code once paid: scanning it again would pay twice.
    if with_qr and iban and not transfer.is_paid:
        payload = qr.payment_payload(
            currency=evening.currency,
            payee=payee.name,
            iban=iban,
            amount=transfer.amount,
            text=qr.payment_text(date=evening.date, payer=transfer.payer.name),
        )
        code = qr.qr_svg(payload, label=str(transfer))
    kind = "QR Platba" if evening.currency == "CZK" else "EPC (SEPA)"
    return {"transfer": transfer, "payee_player": payee, "iban": iban, "qr": code, "qr_kind": kind}


def settlement_summary(evening: Evening) -> dict[str, Any]:
    """For the API: the settlement frozen at the close, or, while open, the balances so far and the transfers
    paid already (kept from before a reopening). Two queries closed, three open."""
    stored, transfers = stored_settlement(evening)
    if evening.is_open or stored is None:
        return {
            "status": evening.status,
            "mode": None,
            "banker": None,
            "coin": evening.coin,
            "balances": evening_balances(evening),
            "rounded": None,
            "transfers": [transfer for transfer in transfers if transfer.is_paid],
            "closed_at": None,
        }
    return {
        "status": evening.status,
        "mode": stored.mode,
        "banker": stored.banker.name if stored.banker else None,
        "coin": stored.coin,
        "balances": stored.exact,
        "rounded": stored.rounded,
        "transfers": transfers,
        "closed_at": stored.created_at,
    }
