"""A burst of live-line viewers against one uvicorn process on PostgreSQL: all served, on a few connections.

    .venv/bin/python bench/stream_burst.py                          # 500 standings viewers within 2 s, one client
    .venv/bin/python bench/stream_burst.py --line share             # the same on an evening's share link
    .venv/bin/python bench/stream_burst.py --viewers 1000 --within 2
    .venv/bin/python bench/stream_burst.py --per-client 100         # past the limit: 429 with Retry-After

A throwaway PostgreSQL database (created on ``--server``, dropped at the end, also on error) holding a Skat
tournament of ``--players`` players and an evening with a Šnapser table, both shared; uvicorn (``config.asgi``,
one process, DEBUG off, CONN_MAX_AGE 0, ``PUSH_URL`` at ``--redis`` or none) on a free loopback port. One asyncio
client opens ``--viewers`` live lines (``/r/<token>/stream/`` or ``/s/<token>/stream/``), spread evenly over
``--within`` seconds, all from 127.0.0.1, and keeps each open until every one has its first event (or its answer).
Meanwhile a thread counts the backends on the bench's database in ``pg_stat_activity`` every 10 ms, and uvicorn's
threads in /proc. Printed: the answers by status (a 500 is an error: exits 1), when the last viewer had its first
event, the most database connections at once (and the server's ``max_connections``), the most threads.
Bounded: ``--cap`` seconds for the whole run; uvicorn stopped and the database dropped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import os
import signal
import sys
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # not bench/, whose requests.py would shadow the requests package

from bench.push import _proc_status  # noqa: E402 - needs the path above
from bench.serving import database_admin, drop_database, free_port, start_uvicorn, stop  # noqa: E402

TIMEOUT = 60.0  # seconds a viewer may wait for its first event before it counts as not served


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--viewers", type=int, default=500, help="live lines opened in the burst")
    parser.add_argument("--within", type=float, default=2.0, help="seconds over which they open")
    parser.add_argument("--line", choices=["standings", "share"], default="standings")
    parser.add_argument("--players", type=int, default=120, help="players of the tournament (its standings' size)")
    parser.add_argument("--per-client", type=int, default=0, help="STREAM_LIMIT_PER_CLIENT (0: the default)")
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432", help="PostgreSQL server URL")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/2", help="PUSH_URL ('' for none)")
    parser.add_argument("--cap", type=int, default=240, help="seconds the whole run may take")
    args = parser.parse_args()
    if not (1 <= args.viewers <= 5000 and 0 <= args.within <= 60 and 4 <= args.players <= 400):
        parser.error("keep it bounded: viewers 1..5000, within 0..60 s, players 4..400")

    def out_of_time(_signum: int, _frame: object) -> None:
        raise SystemExit(f"the run took longer than --cap {args.cap} s")

    signal.signal(signal.SIGALRM, out_of_time)
    signal.alarm(args.cap)
    database = f"talon_stream_burst_{os.getpid()}"
    os.environ.update(
        {
            "DATABASE_URL": f"{args.server}/{database}",
            "DJANGO_SETTINGS_MODULE": "tests.settings",
            "SECRET_KEY": "stream-burst-bench-" + "x" * 40,
            "DEBUG": "0",
            "ALLOWED_HOSTS": "127.0.0.1",
            "SECURE_SSL_REDIRECT": "0",
            "SECURE_HSTS_SECONDS": "0",
            "CACHE_URL": "",
            "PUSH_URL": args.redis,
            "LOG_LEVEL": "ERROR",
        }
    )
    if args.per_client:
        os.environ["STREAM_LIMIT_PER_CLIENT"] = str(args.per_client)
    database_admin(args.server, f'CREATE DATABASE "{database}"')
    uvicorn = None
    try:
        path = _prepare(args)
        port = free_port()
        uvicorn = start_uvicorn(ROOT, port)
        ok = _run(args, port, uvicorn.pid, path, database)
    finally:
        signal.alarm(0)
        stop(uvicorn)
        drop_database(args.server, database)
    sys.exit(0 if ok else 1)


def _prepare(args: argparse.Namespace) -> str:
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection

    from ledger import services
    from ledger.tournaments import services as tournaments

    call_command("migrate", verbosity=0)
    with connection.cursor() as cursor:  # topics far from anybody else's on the same Redis (bench/tournament.py)
        for table in ("ledger_tournament", "ledger_evening"):
            cursor.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), %s)", [800_000 + os.getpid()])
    owner = get_user_model().objects.create_user(username="organiser", password=None)
    if args.line == "standings":
        players = [f"Player {number:03d}" for number in range(1, args.players + 1)]
        night = tournaments.tournament_create(
            owner=owner, game="skat", name="Burst", players=players, rounds=2, options={}, start=True
        )
        return f"/r/{night.share_token}/stream/"
    evening = services.evening_create(owner=owner, date=datetime.date(2026, 12, 1), currency="EUR")
    services.table_create(evening=evening, game="snapser", players=["Ana", "Ben", "Cyril"])
    return f"/s/{evening.share_token}/stream/"


class _Peaks:
    """The most backends on the database and threads in uvicorn at once, sampled every 10 ms."""

    def __init__(self, database: str, pid: int) -> None:
        import psycopg

        self.conn = psycopg.connect(os.environ["DATABASE_URL"].rsplit("/", 1)[0] + "/postgres", autocommit=True)
        self.database, self.pid = database, pid
        self.baseline = self._backends()
        self.backends = self.threads = 0
        self.max_connections = int(self.conn.execute("SHOW max_connections").fetchone()[0])  # type: ignore[index]
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._sample, daemon=True)
        self.thread.start()

    def _backends(self) -> int:
        row = self.conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s", [self.database]).fetchone()
        return int(row[0]) if row else 0

    def _sample(self) -> None:
        while not self.done.wait(0.01):
            self.backends = max(self.backends, self._backends())
            self.threads = max(self.threads, _proc_status(self.pid)[1])

    def stop(self) -> None:
        self.done.set()
        self.thread.join()
        self.conn.close()


class _Viewer:
    def __init__(self) -> None:
        self.status = 0
        self.retry_after = ""
        self.answered = asyncio.Event()
        self.at = 0.0
        self.writer: asyncio.StreamWriter | None = None

    async def run(self, port: int, path: str) -> None:
        try:
            reader, self.writer = await asyncio.open_connection("127.0.0.1", port, limit=4 * 1024 * 1024)
            self.writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
            self.status = int((await reader.readline()).split()[1])
            while line := await reader.readline():
                if line.lower().startswith(b"retry-after:"):
                    self.retry_after = line.split(b":", 1)[1].strip().decode()
                if line.startswith(b"data: ") or (self.status != 200 and line == b"\r\n"):
                    break
        except (OSError, ValueError, IndexError):
            pass
        self.at = time.perf_counter()
        self.answered.set()

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


def _run(args: argparse.Namespace, port: int, pid: int, path: str, database: str) -> bool:
    from django.conf import settings

    threads_before = _proc_status(pid)[1]
    peaks = _Peaks(database, pid)
    viewers = [_Viewer() for _ in range(args.viewers)]
    started = time.perf_counter()
    try:
        asyncio.run(_burst(args, port, path, viewers))
    finally:
        peaks.stop()
    statuses = Counter(viewer.status for viewer in viewers)
    last = max(viewer.at for viewer in viewers) - started
    per_client = args.per_client or settings.STREAM_LIMIT_PER_CLIENT
    refused = dict(Counter(viewer.retry_after for viewer in viewers if viewer.status == 429))
    lines = [
        f"{args.viewers} viewers of {args.line} ({path.split('/')[1]}/<token>/stream/) opening within {args.within:g} s"
        f" from one client; uvicorn 1 process, PostgreSQL, PUSH_URL={args.redis or '(none)'}",
        f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC, load average {os.getloadavg()[0]:.2f};"
        f" limits: {per_client} per client, {settings.STREAM_LIMIT_TOTAL} per process",
        f"answers: {dict(sorted(statuses.items()))}" + (f" (Retry-After: {refused})" if refused else ""),
        f"every viewer answered {last:.2f} s after the first opened",
        f"database connections at once (pg_stat_activity, the bench's database): at most {peaks.backends}"
        f" ({peaks.baseline} before the burst; the server's max_connections {peaks.max_connections})",
        f"uvicorn threads: {threads_before} before, at most {peaks.threads} during the burst",
    ]
    print("\n".join(lines))
    served = statuses.get(200, 0) + statuses.get(429, 0)
    return served == args.viewers and 500 not in statuses


async def _burst(args: argparse.Namespace, port: int, path: str, viewers: list[_Viewer]) -> None:
    step = args.within / len(viewers)
    tasks = []
    for viewer in viewers:
        tasks.append(asyncio.create_task(viewer.run(port, path)))
        await asyncio.sleep(step)
    try:
        async with asyncio.timeout(TIMEOUT):
            await asyncio.gather(*(viewer.answered.wait() for viewer in viewers))
    except TimeoutError:
        pass  # those without an answer count as not served (status 0)
    for viewer in viewers:
        viewer.close()
    await asyncio.gather(*tasks, return_exceptions=True)


if __name__ == "__main__":
    main()
