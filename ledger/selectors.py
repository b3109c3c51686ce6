"""Read side of the table page: what it shows, each in one query whose Python work does not grow with the evening.

The page (and the answer to a hand submission) used to load every hand of the table and loop over them in Python;
these read only what is shown (the newest hands of the log, the last counted hand), let the database count and sum
(the contracts played, the balances), and draw the chart from running totals summed by the database.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count, F, FloatField, Max, Sum, Window
from django.db.models.fields.json import KT
from django.db.models.functions import Cast

from ledger.models import Hand, Posting, Table


def table_log(table: Table, length: int | None) -> list[Hand]:
    """The newest ``length`` hands of the table (all of them for None), newest first, voided ones included."""
    hands = table.hands.order_by("-number")
    return list(hands if length is None else hands[:length])


def last_counted(table: Table) -> Hand | None:
    return table.hands.filter(status=Hand.Status.COUNTED).order_by("-number").first()


def contracts_played(table: Table, field: str) -> list[dict[str, Any]]:
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


def running_balances(table: Table) -> list[list[float]]:
    """Each seated player's balance after each counted hand, starting at zero, in seat order (hands oldest first).

    One window query sums the postings per player up to each hand; Python only lays the sums out per seat. Floats:
    these are for drawing, never for money (the balances shown as money come from ``Table.balances``).
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
