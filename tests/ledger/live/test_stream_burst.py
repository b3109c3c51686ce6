"""Live lines cost no database connection per viewer, and are limited per client and per process.

The viewers here are raw ASGI requests to Django's ASGI handler, as uvicorn sends them: each runs its sync parts on
a thread of its own (ThreadSensitiveContext), so nothing comes back to the test's thread and the database is the
real one (committed data: ``transaction=True``). Connections are counted as Django opens them (every backend) and,
on PostgreSQL, in ``pg_stat_activity`` while the burst runs.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.asgi import get_asgi_application
from django.db import connection
from django.db.backends.signals import connection_created
from django.test import override_settings
from django.urls import reverse

from ledger import services
from ledger.live import limits, links, reads
from ledger.tournaments import services as tournaments
from ledger.tournaments.models import Tournament
from tests import factories

pytestmark = pytest.mark.django_db(transaction=True)

# Enough that a connection per viewer would show many times over (the bound is reads.DATABASE_READS, 4);
# bench/stream_burst.py serves 500 through uvicorn.
VIEWERS = 150
WAIT = 60.0  # seconds for the whole burst on a busy shared 2-core machine
PLAYERS = [f"Player {number:03d}" for number in range(1, 13)]


class Viewer:
    """One phone on a live line: the request, the answer's status and headers, its first event; then it leaves."""

    def __init__(self, path: str, address: str = "203.0.113.7", headers: list[tuple[bytes, bytes]] = ()) -> None:
        self.scope = {
            "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
            "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
            "headers": [(b"host", b"testserver"), (b"accept", b"text/event-stream"), *headers],
            "client": (address, 40000), "server": ("testserver", 80),
        }  # fmt: skip
        self.status = 0
        self.headers: dict[bytes, bytes] = {}
        self.first = b""
        self.answered = asyncio.Event()
        self.gone = asyncio.Event()
        self.asked = False
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.create_task(get_asgi_application()(self.scope, self._receive, self._send))

    async def _receive(self) -> dict[str, Any]:
        if not self.asked:
            self.asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await self.gone.wait()
        return {"type": "http.disconnect"}

    async def _send(self, message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            self.status = message["status"]
            self.headers = {name.lower(): value for name, value in message["headers"]}
        elif message["type"] == "http.response.body":
            self.first = self.first or message.get("body", b"")
            if self.first or not message.get("more_body"):
                self.answered.set()

    async def leave(self) -> None:
        self.gone.set()
        if self.task is not None:
            await self.task


@pytest.fixture
def connections_opened() -> Iterator[list[str]]:
    """The threads that opened a database connection, as they open them."""
    opened: list[str] = []

    def note(sender: Any, **kwargs: Any) -> None:
        opened.append(threading.current_thread().name)

    connection_created.connect(note, weak=False)
    yield opened
    connection_created.disconnect(note)


class PeakConnections:
    """On PostgreSQL, the most backends on the test database at once, sampled every 10 ms from a thread."""

    def __init__(self) -> None:
        self.peak = 0
        self.baseline = 0
        self.done = threading.Event()
        self.thread: threading.Thread | None = None

    def start(self) -> None:
        if connection.vendor != "postgresql":
            return
        import psycopg

        settings = connection.settings_dict
        self.conn = psycopg.connect(
            dbname=settings["NAME"], user=settings["USER"], password=settings["PASSWORD"] or None,
            host=settings["HOST"] or None, port=settings["PORT"] or None, autocommit=True,
        )  # fmt: skip
        self.baseline = self._count()
        self.thread = threading.Thread(target=self._sample, daemon=True)
        self.thread.start()

    def _count(self) -> int:
        row = self.conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()").fetchone()
        return int(row[0]) if row else 0

    def _sample(self) -> None:
        while not self.done.wait(0.01):
            self.peak = max(self.peak, self._count())

    def stop(self) -> int:
        """The most connections the burst added at once (0 where not sampled)."""
        if self.thread is None:
            return 0
        self.done.set()
        self.thread.join()
        self.conn.close()
        return max(0, self.peak - self.baseline)


def _tournament(alice: Any) -> Tournament:
    return tournaments.tournament_create(
        owner=alice, game="skat", name="Club night", players=PLAYERS, rounds=2, options={}, start=True
    )


async def _burst(paths: list[str], seconds: float = 2.0) -> list[Viewer]:
    """``len(paths)`` viewers opening within ``seconds``, all kept open until every one has its answer."""
    viewers = [Viewer(path) for path in paths]
    step = seconds / len(viewers)
    for viewer in viewers:
        viewer.start()
        await asyncio.sleep(step)
    try:
        async with asyncio.timeout(WAIT):
            await asyncio.gather(*(viewer.answered.wait() for viewer in viewers))
        assert limits.open_lines() == len(viewers)
    finally:
        await asyncio.gather(*(viewer.leave() for viewer in viewers))
    return viewers


@override_settings(PUSH_URL="")
@pytest.mark.parametrize("line", ["standings", "share"])
def test_a_burst_of_viewers_is_served_on_a_few_database_connections(request, alice, connections_opened, line):
    if line == "standings":
        path = reverse("ledger:tournament_stream", args=[_tournament(alice).share_token])
        expected = b'data: {"version":'
    else:
        table = request.getfixturevalue("snapser_table")
        factories.record(table)
        path = reverse("ledger:shared_stream", args=[table.evening.share_token])
        expected = b'data: {"state":"open-'
    connections_opened.clear()
    peak = PeakConnections()
    peak.start()
    began = time.monotonic()
    try:
        viewers = asyncio.run(_burst([path] * VIEWERS))
    finally:
        added = peak.stop()

    statuses = [viewer.status for viewer in viewers]
    assert statuses == [200] * VIEWERS, {status: statuses.count(status) for status in set(statuses)}
    assert all(expected in viewer.first for viewer in viewers)
    # The link read once per links.LOOKUP_SECONDS for the room, the first state once (and again only after a
    # change), each on a connection closed after it: a few for the whole burst, never one per viewer.
    took = time.monotonic() - began
    assert len(connections_opened) <= 2 + took / links.LOOKUP_SECONDS, (len(connections_opened), took)
    assert added <= reads.DATABASE_READS, f"{added} connections at once on PostgreSQL"
    assert limits.open_lines() == 0


def test_past_the_limits_a_viewer_is_told_to_come_back_later(alice):
    path = reverse("ledger:tournament_stream", args=[_tournament(alice).share_token])
    wrong = reverse("ledger:tournament_stream", args=["x" * 22])

    async def scenario() -> dict[str, Any]:
        seen: dict[str, Any] = {}
        ana = [Viewer(path, "198.51.100.1") for _ in range(3)]
        ben = [Viewer(path, "198.51.100.2") for _ in range(3)]
        opened = ana[:2] + ben[:1]
        for viewer in opened:
            viewer.start()
            await viewer.answered.wait()
        # Ana is at her 2 lines; Ben's second would be the 4th in the process (limit 3).
        for viewer in (ana[2], ben[1]):
            viewer.start()
            await viewer.answered.wait()
            await viewer.leave()
        seen["refused"] = [(v.status, v.headers.get(b"retry-after")) for v in (ana[2], ben[1])]
        await opened[0].leave()  # one of Ana's lines ends: a place is free
        guess = Viewer(wrong, "198.51.100.3")  # a 404 gives its place back at once
        guess.start()
        await guess.answered.wait()
        await guess.leave()
        seen["guess"] = guess.status
        ben[2].start()
        await ben[2].answered.wait()
        seen["after"] = ben[2].status
        for viewer in [*opened[1:], ben[2]]:
            await viewer.leave()
        seen["open"] = limits.open_lines()
        return seen

    with override_settings(PUSH_URL="", STREAM_LIMIT_PER_CLIENT=2, STREAM_LIMIT_TOTAL=3):
        seen = asyncio.run(scenario())
    assert seen == {"refused": [(429, b"30"), (429, b"30")], "guess": 404, "after": 200, "open": 0}


def test_behind_a_trusted_proxy_each_client_counts_on_its_own(alice):
    path = reverse("ledger:tournament_stream", args=[_tournament(alice).share_token])

    async def scenario() -> list[int]:
        viewers = [
            Viewer(path, "127.0.0.1", headers=[(b"x-forwarded-for", f"192.0.2.{number}".encode())])
            for number in (1, 2, 1)
        ]
        for viewer in viewers:
            viewer.start()
            await viewer.answered.wait()
        for viewer in viewers:
            await viewer.leave()
        return [viewer.status for viewer in viewers]

    with override_settings(PUSH_URL="", STREAM_LIMIT_PER_CLIENT=1, LOGIN_RATE_PROXIES=1):
        assert asyncio.run(scenario()) == [200, 200, 429]


@override_settings(PUSH_URL="")
def test_a_viewer_arriving_after_a_hand_starts_with_the_standings_that_include_it(alice):
    night = _tournament(alice)
    path = reverse("ledger:tournament_stream", args=[night.share_token])
    table = night.round_set.get().tables.select_related("table").first().table

    def win_grand() -> None:
        seats = table.seat_names
        hand = {"dealer": seats[-1], "declarer": seats[0], "contract": "grand", "matadors": 1, "declarer_points": 61}
        try:
            services.hand_record(table=table, hand=hand, by=alice)
        finally:
            connection.close()  # this thread's: the test database is dropped at the end

    async def scenario() -> tuple[bytes, bytes]:
        before = Viewer(path)
        before.start()
        await before.answered.wait()
        # The hand commits on another thread, its standings are published here after the commit.
        await asyncio.to_thread(win_grand)
        after = Viewer(path)
        after.start()
        await after.answered.wait()
        await before.leave()
        await after.leave()
        return before.first, after.first

    first, later = asyncio.run(scenario())
    assert b'"points":"98"' not in first and b'"points":"98"' in later
