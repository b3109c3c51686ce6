"""Closing a circle's evenings while its tab is settled, at once: no carried balance is marked settled
without being booked back out, and the tab still sums to zero.

PostgreSQL only, as tests/ledger/test_concurrency.py: SQLite takes one writer at a time. The race it guards against
is a close committing between the settling's read of the tab and its marking of the carried entries. The test
holds the settling just after its read until every close either waits for a lock or has committed, so the closes
always overlap it: they wait for the circle's row, which the settling locked first (circle_close's own lock of the
row waits, and so would the foreign-key check of the entries it books), or, were that lock gone, they commit in the
middle of the settling and the test fails.
"""

from __future__ import annotations

import datetime
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal

import pytest
from django.db import connections

from ledger import services
from ledger.circles import selectors as circle_selectors
from ledger.circles import services as circles
from ledger.circles import tab_and_pot
from ledger.circles.models import CircleEntry, CircleSettlement
from ledger.models import Evening, Settlement
from tests import factories
from tests.ledger.race_support import waiting_for_a_lock
from tests.servers import need_postgresql

TIMEOUT = 20


@pytest.fixture(autouse=True)
def _parallel_database():
    need_postgresql("parallel transactions need it (SQLite serializes writers); CI runs this on PostgreSQL")


def _in_thread(work):
    def run():
        try:
            return work()
        finally:
            connections.close_all()

    return run


def _until_the_closes_run_into_it(evenings: list[Evening]) -> int:
    """Wait until every close either waits for a lock or has committed; how many wait."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        waiting = waiting_for_a_lock()
        closed = Evening.objects.filter(pk__in=[e.pk for e in evenings], status=Evening.Status.CLOSED).count()
        if waiting + closed >= len(evenings):
            return waiting
        assert time.monotonic() < deadline, "the closes neither waited for the settling nor committed"
        time.sleep(0.01)


def test_closing_evenings_while_the_tab_is_settled(transactional_db, alice, monkeypatch):
    circle = circles.circle_create(owner=alice, name="Friday", members=["Ana", "Ben", "Cyril"], settle="tab")
    first = circles.circle_evening_create(circle=circle, by=alice, date=datetime.date(2026, 11, 1))
    factories.record(factories.make_table(first, "snapser", players=["Ana", "Ben", "Cyril"], stake="3.10"))
    services.evening_close(evening=first, by=alice)
    evenings = []
    for day in range(2, 8):
        evening = circles.circle_evening_create(circle=circle, by=alice, date=datetime.date(2026, 11, day))
        table = factories.make_table(evening, "snapser", players=["Ben", "Cyril", "Ana"], stake="0.55")
        factories.record(table, factories.SNAPSER_N1 | {"declarer": "Ben"})
        evenings.append(evening)

    # The settling plans right after reading the tab: there it stops until the closes have run into it.
    settling, has_read, go_on = threading.local(), threading.Event(), threading.Event()
    plan = services.settlement_plan

    def settlement_plan(**kwargs):
        if getattr(settling, "now", False):
            has_read.set()
            assert go_on.wait(TIMEOUT), "the closes never ran into the settling"
        return plan(**kwargs)

    monkeypatch.setattr(services, "settlement_plan", settlement_plan)

    def settle():
        settling.now = True
        try:
            return tab_and_pot.tab_settle(circle=circle, by=alice)
        finally:
            settling.now = False

    with ThreadPoolExecutor(max_workers=1 + len(evenings)) as pool:
        settled = pool.submit(_in_thread(settle))
        deadline = time.monotonic() + TIMEOUT
        while not has_read.wait(0.05):
            if settled.done():
                raise AssertionError(f"the settling ended before planning: {settled.result()}")
            assert time.monotonic() < deadline, "the settling never read the tab"
        closes = [pool.submit(_in_thread(lambda e=e: services.evening_close(evening=e, by=alice))) for e in evenings]
        try:
            waited = _until_the_closes_run_into_it(evenings)
        finally:
            go_on.set()
        settlement = settled.result(timeout=TIMEOUT)
        closed = [close.result(timeout=TIMEOUT) for close in closes]

    # Every close and the settling went through: none failed quietly.
    assert isinstance(settlement, CircleSettlement)
    assert all(isinstance(result, Settlement) for result in closed)
    assert set(Evening.objects.filter(circle=circle).values_list("status", flat=True)) == {"closed"}
    entries = CircleEntry.objects.filter(circle=circle)
    assert entries.tab().total() == 0
    carried = entries.filter(kind="carried", settlement=settlement).totals("player__name")
    settled_out = entries.filter(kind="settled", settlement=settlement).totals("player__name")
    # What the settling booked back out is exactly what it marked settled.
    assert {name: -amount for name, amount in settled_out.items()} == {
        name: amount for name, amount in carried.items() if amount
    }
    # The closes waited for the settling (the circle's row lock): it settled the first evening only, and the six
    # evenings closed meanwhile are on the open tab.
    assert waited == len(evenings)
    assert set(entries.filter(settlement=settlement, kind="carried").values_list("evening", flat=True)) == {first.pk}
    open_carried = entries.filter(kind="carried", settlement__isnull=True)
    assert set(open_carried.values_list("evening", flat=True)) == {e.pk for e in evenings}
    balances = open_carried.totals("player__name")
    assert circle_selectors.tab_balances(circle) == {n: a for n, a in balances.items() if a != Decimal(0)}
