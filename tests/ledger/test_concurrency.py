"""Scorekeepers tapping at once against a live server: every hand numbered once, nothing lost, nothing doubled.

PostgreSQL only: it is the production database and the one where requests really run in parallel (SQLite takes
one writer at a time by design, so the race cannot happen there). Every request has a timeout.
"""

from __future__ import annotations

import http.client
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal
from urllib.parse import urlencode, urlsplit

import pytest
from django.conf import settings
from django.db import connection

from ledger import selectors, services
from ledger.models import Evening, Hand, Posting, Settlement
from tests import factories
from tests.servers import need_postgresql


@pytest.fixture(autouse=True)
def _parallel_database():
    need_postgresql("parallel requests need it (SQLite serializes writers); CI runs this on PostgreSQL")


THREADS, HANDS_EACH, TIMEOUT = 8, 5, 20
CSRF = "c" * 32  # a CSRF secret of our own, sent both as the cookie and as the header


@pytest.fixture
def session(transactional_db, client, alice, live_server) -> Iterator[str]:
    client.force_login(alice)
    yield client.cookies[settings.SESSION_COOKIE_NAME].value
    # The live server answers before the work it does after the answer (the statistics taken in at request_finished)
    # is over: its request threads are waited for, so that the test database is not flushed under them (a deadlock).
    live_server.thread.httpd._threads.join()


def _post(server_url: str, path: str, data: dict[str, str], session: str) -> int:
    address = urlsplit(server_url)
    conn = http.client.HTTPConnection(address.hostname, address.port, timeout=TIMEOUT)
    try:
        conn.request(
            "POST",
            path,
            urlencode(data),
            headers={
                "Content-Type": "application/x-www-form-urlencoded",
                "Cookie": f"{settings.SESSION_COOKIE_NAME}={session}; {settings.CSRF_COOKIE_NAME}={CSRF}",
                "X-CSRFToken": CSRF,
            },
        )
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


def _in_parallel(work, count: int) -> list:
    """Run ``work(i)`` in ``count`` threads released together; results in order, or the first error."""
    start = threading.Barrier(count, timeout=TIMEOUT)

    def run(index):
        start.wait()
        return work(index)

    with ThreadPoolExecutor(count) as pool:
        return [future.result(timeout=TIMEOUT * HANDS_EACH) for future in [pool.submit(run, i) for i in range(count)]]


def test_simultaneous_hands_at_one_table_get_consecutive_numbers_and_nothing_is_lost(live_server, session, evening):
    table = factories.make_table(evening, "snapser")
    path = f"/tables/{table.pk}/hands/"

    def scorekeeper(index):
        return [
            _post(live_server.url, path, factories.SNAPSER_N1 | {"key": f"t{index}-h{hand}"}, session)
            for hand in range(HANDS_EACH)
        ]

    statuses = _in_parallel(scorekeeper, THREADS)

    assert {status for batch in statuses for status in batch} == {302}
    total = THREADS * HANDS_EACH
    hands = list(Hand.objects.filter(table=table).order_by("number"))
    assert [hand.number for hand in hands] == list(range(1, total + 1))
    assert len({hand.key for hand in hands}) == total
    # The deal rotated once per hand: the dealer was read under the same lock as the number.
    assert [hand.dealer for hand in hands] == [(number - 1) % 3 for number in range(1, total + 1)]
    assert Posting.objects.filter(hand__table=table).count() == 3 * total
    table.refresh_from_db()
    assert table.hand_count == total
    assert selectors.table_balances(table) == {
        "Ana": Decimal("0.40") * total,
        "Ben": Decimal("-0.20") * total,
        "Cyril": Decimal("-0.20") * total,
    }
    assert sum(selectors.table_balances(table).values(), Decimal(0)) == 0


def test_the_same_submission_tapped_on_many_phones_at_once_records_one_hand(live_server, session, evening):
    table = factories.make_table(evening, "snapser")
    path = f"/tables/{table.pk}/hands/"

    statuses = _in_parallel(lambda _i: _post(live_server.url, path, factories.SNAPSER_N1 | {"key": "tap"}, session), 8)

    assert statuses == [302] * 8  # each answered as if it were the first
    assert Hand.objects.filter(table=table).count() == 1
    assert Posting.objects.filter(hand__table=table).count() == 3
    table.refresh_from_db()
    assert (table.hand_count, table.revision) == (1, 1)


def test_hands_entered_while_the_evening_closes_are_either_settled_or_refused(live_server, session, evening, alice):
    tables = [factories.make_table(evening, "snapser") for _ in range(2)]
    closer = THREADS - 1

    def scorekeeper(index):
        if index == closer:
            try:
                # Closed while the others are tapping: once each of them has had a hand stored.
                _wait_for(lambda: Hand.objects.filter(table__evening=evening).count() >= closer, "hands stored")
                return services.evening_close(evening=evening, by=alice)
            finally:
                connection.close()  # this thread's own connection
        table = tables[index % 2]
        statuses = []
        # Each scorekeeper taps on until the server refuses a hand: the close came in the middle of its hands.
        while not statuses or statuses[-1] == 302:
            assert len(statuses) < 50, "hands stored on and on: the closed evening never refused one"
            data = factories.SNAPSER_N1 | {"key": f"{index}-{len(statuses)}"}
            statuses.append(_post(live_server.url, f"/tables/{table.pk}/hands/", data, session))
        return statuses

    results = _in_parallel(scorekeeper, THREADS)

    statuses = [status for batch in results[:closer] for status in batch]
    assert set(statuses) == {302, 400}  # both outcomes: stored before the close, refused after it
    assert all(batch[-1] == 400 and set(batch[:-1]) <= {302} for batch in results[:closer])
    settlement = Settlement.objects.get(evening=evening)
    recorded = Hand.objects.filter(table__evening=evening).count()
    assert statuses.count(302) == recorded >= closer
    # Every hand stored made it into the settlement: none slipped in after the balances were frozen.
    assert {name: Decimal(amount) for name, amount in settlement.exact.items()} == selectors.evening_balances(evening)
    assert selectors.evening_balances(evening)["Ana"] == Decimal("0.40") * recorded


def _wait_for(condition, what: str) -> None:
    deadline = time.monotonic() + TIMEOUT
    while not condition():
        assert time.monotonic() < deadline, f"no {what} after {TIMEOUT} s"
        time.sleep(0.01)


def test_same_players_as_last_time_tapped_many_times_at_once_makes_one_evening(live_server, session, alice):
    """A nervous thumb on "Same players as last time": the taps queue on the last evening, the first makes today's
    evening and the others find it."""
    last = factories.make_evening(alice, place="U Fleků")
    factories.make_table(last, "snapser")

    statuses = _in_parallel(lambda _i: _post(live_server.url, "/evenings/again/", {}, session), 8)

    assert statuses == [302] * 8
    assert Evening.objects.filter(owner=alice).exclude(pk=last.pk).count() == 1
