"""The books hold what the engine prices: a table's balance never passes ``rules.MAX_AMOUNT`` (what a money column,
``Decimal(14, 4)``, holds); the hand that would take it past is refused with the reason, and nothing is stored."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

import rules
from ledger import services
from ledger.models import Hand, Table
from ledger.stats import summaries as stats_summaries
from ledger.stats.models import StatsLine
from tests import factories

# A lost Grand ouvert with everything announced and Re, at 1000 a list point: with the Bock queue full (eight, as
# its three triggers keep it) Ana pays 1,081,344,000 a hand; ten of them pass what the books hold.
HUGE = {
    "declarer": "Ana",
    "contract": "grand",
    "matadors": 4,
    "hand": True,
    "ouvert": True,
    "schneider_announced": True,
    "schwarz_announced": True,
    "declarer_points": 100,
    "kontra": 2,
    "bid": 264,
}


def _dear_table(evening) -> Table:
    return factories.make_table(evening, "skat", preset="pub", stake="1000", bock_per_trigger=True)


def _fill(table: Table) -> services.LedgerError:
    """Record the huge hand until the ledger refuses one; that refusal."""
    for _ in range(20):
        try:
            services.hand_record(table=table, hand=dict(HUGE), by=table.evening.owner)
        except services.LedgerError as refused:
            return refused
    pytest.fail("twenty hands of a billion each were all stored")


def test_the_hand_that_would_pass_what_the_books_hold_is_refused(evening):
    table = _dear_table(evening)
    refused = _fill(table)
    assert refused.field == "hand"
    assert "Ana's balance at this table" in refused.message and "9999999999.9999" in refused.message
    balances = Hand.objects.filter(table=table).order_by("-number").first().balances_after
    assert all(abs(Decimal(balance)) <= rules.MAX_AMOUNT for balance in balances)


def test_a_full_table_still_closes_and_has_statistics(alice_client, evening):
    table = _dear_table(evening)
    _fill(table)
    stats_summaries.refresh(Table.objects.filter(pk=table.pk))
    assert StatsLine.objects.get(table=table, player__name="Ana").net < 0
    settlement = services.evening_close(evening=evening, by=evening.owner)
    assert min(transfer.amount for transfer in settlement.transfers.all()) > 0
    page = alice_client.get(reverse("ledger:evening_settlement", args=[evening.pk]))
    assert page.status_code == 200


def test_the_form_says_why_the_hand_is_refused(alice_client, evening):
    table = _dear_table(evening)
    _fill(table)
    stored = Hand.objects.filter(table=table).count()
    taps = {name: str(value) for name, value in HUGE.items() if not isinstance(value, bool)}
    taps |= {name: "on" for name, value in HUGE.items() if value is True}
    taps |= {"bock": "8", "dealer": str(stored % 3)}
    response = alice_client.post(reverse("ledger:hand_create", args=[table.pk]), taps)
    assert response.status_code == 400
    assert "the books hold at most" in response.content.decode()
    assert Hand.objects.filter(table=table).count() == stored


def test_an_evening_past_what_the_books_hold_is_not_closed_and_says_why(alice_client, evening):
    for _table in range(2):  # each table within the books, Ana past them over the evening
        table = _dear_table(evening)
        for _ in range(8):
            services.hand_record(table=table, hand=dict(HUGE), by=evening.owner)
    response = alice_client.post(reverse("ledger:evening_settlement", args=[evening.pk]), {"mode": "fewest"})
    assert response.status_code == 400
    assert "Ana&#x27;s balance this evening is -1" in response.content.decode()
    evening.refresh_from_db()
    assert evening.is_open
