"""Two requests for the next round at once (a double tap reaching two app servers, a retry racing the first try):
one round starts, the other request is answered with it. Against a live server, page and API.

PostgreSQL only: the database where requests really run in parallel (SQLite takes one writer at a time). Each test
asserts that it raced: the request that starts the round holds it until the other is inside ``round_start`` too.
"""

from __future__ import annotations

import http.client
import json
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import urlencode, urlsplit

import pytest
from django.conf import settings
from rest_framework.authtoken.models import Token

from ledger.tournaments import services as tournaments
from ledger.tournaments.models import Round, TournamentTable
from tests.servers import need_postgresql


@pytest.fixture(autouse=True)
def _postgresql():
    need_postgresql("parallel requests need PostgreSQL (SQLite serializes writers)")


TIMEOUT = 20
CSRF = "c" * 32  # a CSRF secret of our own, sent both as the cookie and as the header
SIX = ["Ana", "Ben", "Cyril", "Dana", "Emil", "Fero"]


@pytest.fixture
def night(transactional_db, alice):
    return tournaments.tournament_create(owner=alice, game="skat", name="Race", players=SIX, rounds=3, start=True)


@pytest.fixture
def race(monkeypatch) -> dict[str, Any]:
    """Both requests inside ``round_start`` at once: the one seating the round waits (at most TIMEOUT) until the
    other has entered too; ``raced`` says whether it did."""
    entered = threading.Semaphore(0)
    seen: dict[str, Any] = {"entered": 0, "raced": False}
    lock = threading.Lock()
    start, seat = tournaments.round_start, tournaments._seating

    def round_start(**kwargs: Any) -> Any:
        with lock:
            seen["entered"] += 1
            if seen["entered"] == 2:
                entered.release()
        return start(**kwargs)

    def seating(*args: Any) -> Any:
        if not seen["raced"]:
            seen["raced"] = entered.acquire(timeout=TIMEOUT)
        return seat(*args)

    monkeypatch.setattr(tournaments, "round_start", round_start)
    monkeypatch.setattr(tournaments, "_seating", seating)
    return seen


def _request(server_url: str, path: str, body: str, headers: dict[str, str]) -> int:
    address = urlsplit(server_url)
    conn = http.client.HTTPConnection(address.hostname, address.port, timeout=TIMEOUT)
    try:
        conn.request("POST", path, body, headers=headers)
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


def _twice_at_once(send: Any) -> list[int]:
    barrier = threading.Barrier(2, timeout=TIMEOUT)

    def run(_index: int) -> int:
        barrier.wait()
        return int(send())

    with ThreadPoolExecutor(2) as pool:
        return sorted(future.result(timeout=TIMEOUT * 2) for future in [pool.submit(run, i) for i in range(2)])


def _assert_one_round_two(night: Any) -> None:
    assert list(Round.objects.filter(tournament=night).values_list("number", flat=True).order_by("number")) == [1, 2]
    assert TournamentTable.objects.filter(round__tournament=night, round__number=2).count() == 2
    # Series 2's links live: no series 3 retired them.
    for seated in TournamentTable.objects.filter(round__tournament=night, round__number=2):
        assert tournaments.table_guest(token=seated.token)


def test_a_double_tap_on_start_series_2_reaching_two_servers_starts_it_once(live_server, client, alice, night, race):
    client.force_login(alice)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    headers = {
        "Content-Type": "application/x-www-form-urlencoded",
        "Cookie": f"{settings.SESSION_COOKIE_NAME}={session}; {settings.CSRF_COOKIE_NAME}={CSRF}",
        "X-CSRFToken": CSRF,
    }
    body = urlencode({"round": "2", "confirm_unfinished": "1"})
    path = f"/tournaments/{night.pk}/rounds/"

    statuses = _twice_at_once(lambda: _request(live_server.url, path, body, headers))

    assert race["raced"], "the second request did not reach round_start while the first held the tournament"
    assert statuses == [302, 302]
    _assert_one_round_two(night)


def test_a_next_round_request_retried_while_the_first_runs_starts_it_once(live_server, alice, night, race):
    token, _ = Token.objects.get_or_create(user=alice)
    headers = {"Content-Type": "application/json", "Authorization": f"Token {token.key}"}
    body = json.dumps({"round": 2, "confirm_unfinished": True})
    path = f"/api/tournaments/{night.pk}/next-round/"

    statuses = _twice_at_once(lambda: _request(live_server.url, path, body, headers))

    assert race["raced"], "the second request did not reach round_start while the first held the tournament"
    assert statuses == [200, 201]  # one started it, the other was answered with it
    _assert_one_round_two(night)
