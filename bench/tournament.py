"""A club night on loopback: tables entering hands at once, hundreds of standings viewers, one run.

    .venv/bin/python bench/tournament.py                      # 50 tables x 10 hands, 300 viewers, 4 gunicorn workers
    .venv/bin/python bench/tournament.py --tables 10 --viewers 50 --hands 5        # a quick look
    .venv/bin/python bench/tournament.py --interval 2 6 --workers 6

The deployment of docs/deploy.md, on this machine: a throwaway PostgreSQL database (created on ``--server``,
dropped at the end, also on error), Redis (``--redis``) for the cache, the log-in counters and the push fan-out,
gunicorn with ``--workers`` sync workers for pages and API, and one uvicorn process (``config.asgi``) for the live
lines; both on free loopback ports, DEBUG off.

1. A Skat tournament of ``4 x --tables`` players is registered and its first series drawn through
   ``POST /api/tournaments/`` (the organiser's API token): ``--tables`` four-seat tables.
2. ``--viewers`` players' phones open the standings' live line ``GET /r/<share_token>/stream/`` (``--at-once``
   at a time, as phones trickle in), read as EventSource reads it, in two processes of their own so that reading
   does not slow the table clients. uvicorn's resident memory (VmRSS, /proc) is read with one warm-up line open and
   again with all of them: the difference divided by ``--viewers`` is the memory per viewer connection.
3. One thread per table then posts ``--hands`` Skat games to ``POST /api/tables/<id>/hands/``, one every
   ``--interval`` seconds (uniform, so the tables do not march in step), each with an idempotency key; every
   table sends one of its hands twice (a phone's retry) and must get the same hand back. Meanwhile a floor view,
   ``GET /`` for the logged-in organiser, is sampled in a loop: same server, same moment, same load.
4. Afterwards: hand POST p50/p95 against the floor's (the ratio is the figure, the machine being shared), the time
   from each hand's storing (``Hand.entered_at``, set in the worker just before the commit) until each viewer had
   standings that include it (each table's games won + lost in the pushed rows reach that hand's count), p50/p95
   over hands x viewers and per hand until the last viewer; errors (any answer but 2xx, any line that ended or
   never started, any hand a viewer never got); every hand stored exactly once (per table: count, numbers, keys).

Targets: hand POST p95 <= 3x the floor's p95, push p95 <= 1 s, zero errors. Exits 1 on an error or a
hand not stored exactly once (the targets are printed, met or MISSED). Bounded: ``--cap`` seconds for the whole
run, then every process it started is stopped.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import http.client
import json
import multiprocessing
import multiprocessing.connection
import os
import random
import signal
import socket
import statistics
import sys
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # not bench/, whose requests.py would shadow the requests package

from bench.push import _proc_status  # noqa: E402 - needs the path above
from bench.serving import database_admin, drop_database, free_port, start_gunicorn, start_uvicorn, stop  # noqa: E402

TIMEOUT = 30  # seconds for one HTTP request before it counts as an error
TARGET_POST = 3.0  # hand POST p95 at most this many times the floor's p95
TARGET_PUSH = 1.0  # seconds, p95 from a hand stored to a viewer having it
VIEWER_PROCESSES = 2
LINE_LIMIT = 4 * 1024 * 1024  # one SSE data line: the standings of hundreds of players
# Everyday Skat games (the declarer and, at four seats, the dealer are filled in per hand); every one is won or lost
# by its declarer, so the standings' won + lost of a table count its games.
GAMES = [
    {"contract": "grand", "matadors": 1, "declarer_points": 75},
    {"contract": "clubs", "matadors": 2, "declarer_points": 68},
    {"contract": "spades", "matadors": 1, "declarer_points": 61},
    {"contract": "hearts", "matadors": 1, "declarer_points": 44},
    {"contract": "null", "won": True},
    {"contract": "null", "won": False},
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50, help="four-seat Skat tables entering hands at once")
    parser.add_argument("--viewers", type=int, default=300, help="standings live lines open throughout")
    parser.add_argument("--hands", type=int, default=10, help="hands each table posts")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn sync workers")
    parser.add_argument(
        "--interval", type=float, nargs=2, default=(1.0, 3.0), metavar=("LOW", "HIGH"), help="seconds between hands"
    )
    parser.add_argument("--at-once", type=int, default=10, help="viewers connecting together")
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432", help="PostgreSQL server URL")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/2", help="CACHE_URL and PUSH_URL")
    parser.add_argument("--cap", type=int, default=300, help="seconds the whole run may take")
    args = parser.parse_args()
    low, high = args.interval
    if not (
        1 <= args.tables <= 100
        and 0 <= args.viewers <= 2000
        and 1 <= args.hands <= 100
        and 1 <= args.workers <= 16
        and 0.1 <= low <= high <= 60
        and args.at_once >= 1
    ):
        parser.error("keep it bounded: tables 1..100, viewers 0..2000, hands 1..100, workers 1..16, interval 0.1..60")

    def out_of_time(_signum: int, _frame: object) -> None:
        raise SystemExit(f"the run took longer than --cap {args.cap} s")

    signal.signal(signal.SIGALRM, out_of_time)
    signal.alarm(args.cap)
    database = f"talon_tournament_{os.getpid()}"
    _environment(f"{args.server}/{database}", args.redis)
    database_admin(args.server, f'CREATE DATABASE "{database}"')
    gunicorn = uvicorn = None
    try:
        organiser = _prepare()
        gunicorn = start_gunicorn(ROOT, free_port(), "--workers", str(args.workers), "--timeout", "60")
        uvicorn_port = free_port()
        uvicorn = start_uvicorn(ROOT, uvicorn_port)
        ok = _run(args, gunicorn.pid, _port_of(gunicorn), uvicorn_port, uvicorn.pid, organiser)
    finally:
        signal.alarm(0)
        stop(gunicorn)
        stop(uvicorn)
        drop_database(args.server, database)
    sys.exit(0 if ok else 1)


def _port_of(process: Any) -> int:
    return int(process.args[process.args.index("--bind") + 1].rsplit(":", 1)[1])


# -- setting up ----------------------------------------------------------------------------------------------------


def _environment(database_url: str, redis_url: str) -> None:
    os.environ.update(
        {
            "DATABASE_URL": database_url,
            "DJANGO_SETTINGS_MODULE": "tests.settings",  # static files from the finders, nothing to collect
            "SECRET_KEY": "tournament-bench-" + "x" * 40,
            "DEBUG": "0",
            "ALLOWED_HOSTS": "127.0.0.1",
            "SECURE_SSL_REDIRECT": "0",
            "SECURE_HSTS_SECONDS": "0",
            "CACHE_URL": redis_url,
            "PUSH_URL": redis_url,
            "LOG_LEVEL": "ERROR",
        }
    )


def _prepare() -> dict[str, str]:
    """Migrate; the organiser with an API token (the table clients) and a session (the floor view)."""
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from rest_framework.authtoken.models import Token

    call_command("migrate", verbosity=0)
    # Redis pub/sub channels are global to the server: start the tournament ids far from a test run's 1, 2, 3 so
    # that nobody else's viewers hear this run's standings (nor this run's viewers theirs).
    with connection.cursor() as cursor:
        cursor.execute("SELECT setval(pg_get_serial_sequence('ledger_tournament', 'id'), %s)", [700_000 + os.getpid()])
    user = get_user_model().objects.create_user(username="organiser", password=None)
    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    return {"token": Token.objects.create(user=user).key, "session": session}


def _http(port: int, method: str, path: str, body: bytes | None, headers: dict[str, str]) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
    try:
        conn.request(method, path, body, headers=headers)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def _create_tournament(port: int, token: str, tables: int) -> dict[str, Any]:
    players = [f"Player {number:03d}" for number in range(1, 4 * tables + 1)]
    request = {"game": "skat", "name": "Bench club night", "players": players, "rounds": 2, "options": {}}
    headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
    status, body = _http(port, "POST", "/api/tournaments/", json.dumps(request).encode(), headers)
    if status != 201:
        raise SystemExit(f"POST /api/tournaments/ answered {status}: {body[:500]!r}")
    created: dict[str, Any] = json.loads(body)
    return created


# -- the run -------------------------------------------------------------------------------------------------------


def _run(
    args: argparse.Namespace,
    gunicorn_pid: int,
    port: int,
    uvicorn_port: int,
    uvicorn_pid: int,
    organiser: dict[str, str],
) -> bool:
    load_before = os.getloadavg()
    started = time.monotonic()
    tournament = _create_tournament(port, organiser["token"], args.tables)
    created_seconds = time.monotonic() - started
    draw = tournament["draw"]
    if len(draw) != args.tables or any(len(table["players"]) != 4 for table in draw):
        raise SystemExit(f"expected {args.tables} four-seat tables, the draw has {[len(t['players']) for t in draw]}")
    seats = {table["table"]: list(table["players"]) for table in draw}
    path = f"/r/{tournament['share_token']}/stream/"

    warm = _WarmViewer(uvicorn_port, path)
    time.sleep(1)
    rss_before, _threads = _proc_status(uvicorn_pid)
    viewers = _ViewerProcesses(args, uvicorn_port, path, seats)
    connect_seconds = viewers.connected()
    time.sleep(1)
    rss_after, threads_after = _proc_status(uvicorn_pid)

    floor_idle = _floor_samples(port, organiser["session"], count=20)
    stop_floor = threading.Event()
    floor: list[tuple[int, float]] = []
    floor_thread = threading.Thread(
        target=_floor_loop, args=(port, organiser["session"], stop_floor, floor), daemon=True
    )
    posts: dict[int, list[_Post]] = {}
    threads = [
        threading.Thread(
            target=_table_client, args=(port, organiser["token"], table, players, args, posts), daemon=True
        )
        for table, players in seats.items()
    ]
    cpu = {"gunicorn": [gunicorn_pid, *_children(gunicorn_pid)], "uvicorn": [uvicorn_pid], "viewers": viewers.pids()}
    cpu["table clients"] = [os.getpid()]
    cpu_before = {name: _cpu_seconds(pids) for name, pids in cpu.items()}
    load_started = time.monotonic()
    floor_thread.start()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    stop_floor.set()
    floor_thread.join()
    load_seconds = time.monotonic() - load_started
    time.sleep(3)  # the stragglers' pushes
    rss_end, threads_end = _proc_status(uvicorn_pid)
    cpu_used = {name: _cpu_seconds(pids) - cpu_before[name] for name, pids in cpu.items()}
    arrivals, progress, viewer_errors = viewers.results()
    warm.close()
    load_after = os.getloadavg()

    stored = _stored_hands(list(seats))
    lines, ok = _report(
        args,
        posts=posts,
        floor=floor,
        floor_idle=floor_idle,
        stored=stored,
        arrivals=arrivals,
        progress=progress,
        viewer_errors=viewer_errors,
    )
    header = [
        f"{args.tables} four-seat Skat tables x {args.hands} hands (one every {args.interval[0]:g}-{args.interval[1]:g}"
        f" s each), {args.viewers} standings viewers; gunicorn {args.workers} sync workers, uvicorn 1 process,"
        f" PostgreSQL, Redis {args.redis}",
        f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC; load average {load_before[0]:.2f} before,"
        f" {load_after[0]:.2f} after; tournament created (POST /api/tournaments/, {4 * args.tables} players)"
        f" in {created_seconds:.2f} s; hands posted over {load_seconds:.1f} s",
        f"viewers: {args.at_once} at a time, all {args.viewers} had their first standings"
        f" after {connect_seconds:.2f} s",
        f"uvicorn RSS: {rss_before / 1024:.1f} MiB with 1 line, {rss_after / 1024:.1f} MiB with {args.viewers + 1}"
        f" = {(rss_after - rss_before) / max(args.viewers, 1):.1f} KiB per viewer connection (threads"
        f" {threads_after}); {rss_end / 1024:.1f} MiB after the hands (threads {threads_end})",
        f"CPU seconds from the first hand to 3 s after the last (2 cores = {2 * (load_seconds + 3):.0f} s):"
        + ",".join(f" {name} {seconds:.1f}" for name, seconds in cpu_used.items()),
    ]
    print("\n".join(header + lines))
    return ok


def _children(pid: int) -> list[int]:
    return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def _cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time of these processes so far (/proc/<pid>/stat), those still running."""
    ticks = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        ticks += int(fields[11]) + int(fields[12])  # utime, stime: the 14th and 15th fields of stat
    return ticks / os.sysconf("SC_CLK_TCK")


class _Post:
    __slots__ = ("hand", "key", "number", "seconds", "status")

    def __init__(self, key: str, status: int, seconds: float, number: int | None, hand: int | None) -> None:
        self.key, self.status, self.seconds, self.number, self.hand = key, status, seconds, number, hand


def _table_client(
    port: int, token: str, table: int, players: list[str], args: argparse.Namespace, posts: dict[int, list[_Post]]
) -> None:
    """One table's phone: ``--hands`` games, one every ``--interval`` seconds; the second hand is sent twice."""
    draw = random.Random(table)  # a benchmark's jitter, the same on every run
    headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
    mine: list[_Post] = []
    posts[table] = mine  # filled in as they go: a client that fails leaves its table short, which is reported
    time.sleep(draw.uniform(0, args.interval[1]))  # the tables did not all sit down at the same second
    for number in range(args.hands):
        dealer = players[number % 4]  # at four seats the dealer sits out
        declarer = draw.choice([name for name in players if name != dealer])
        hand = {"dealer": dealer, "declarer": declarer, **draw.choice(GAMES)}
        key = f"bench-{table}-{number}"
        body = json.dumps({"hand": hand, "key": key}).encode()
        for _attempt in range(2 if number == 1 else 1):
            begun = time.perf_counter()
            try:
                status, answer = _http(port, "POST", f"/api/tables/{table}/hands/", body, headers)
            except OSError:
                status, answer = 0, b""
            seconds = time.perf_counter() - begun
            stored = json.loads(answer) if status == 201 else {}
            mine.append(_Post(key, status, seconds, stored.get("number"), stored.get("id")))
        if number + 1 < args.hands:
            time.sleep(draw.uniform(*args.interval))


def _floor_samples(port: int, session: str, count: int) -> list[tuple[int, float]]:
    samples = []
    for _ in range(count):
        samples.append(_floor_once(port, session))
    return samples


def _floor_once(port: int, session: str) -> tuple[int, float]:
    begun = time.perf_counter()
    try:
        status, _body = _http(port, "GET", "/", None, {"Cookie": f"sessionid={session}"})
    except OSError:
        status = 0
    return status, time.perf_counter() - begun


def _floor_loop(port: int, session: str, done: threading.Event, samples: list[tuple[int, float]]) -> None:
    while not done.is_set():
        samples.append(_floor_once(port, session))
        done.wait(0.1)


def _stored_hands(tables: list[int]) -> dict[int, list[tuple[int, str | None, float]]]:
    """Per table: (number, key, entered_at as a Unix time) of every hand, by number."""
    from ledger.models import Hand

    stored: dict[int, list[tuple[int, str | None, float]]] = defaultdict(list)
    rows = Hand.objects.filter(table_id__in=tables).order_by("table_id", "number")
    for table, number, key, entered in rows.values_list("table_id", "number", "key", "entered_at"):
        stored[table].append((number, key, entered.timestamp()))
    return stored


# -- the viewers ---------------------------------------------------------------------------------------------------


class _WarmViewer:
    """One live line opened first, read and thrown away in a thread: uvicorn's memory with one viewer."""

    def __init__(self, port: int, path: str) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
        head = self.sock.recv(65536)
        if b" 200 " not in head.split(b"\r\n", 1)[0]:
            raise SystemExit(f"{path} answered {head[:200]!r}: is the standings stream in ledger/urls.py?")
        self.thread = threading.Thread(target=self._drain, daemon=True)
        self.thread.start()

    def _drain(self) -> None:
        try:
            while self.sock.recv(1 << 20):
                pass
        except OSError:
            pass

    def close(self) -> None:
        self.sock.close()


class _ViewerProcesses:
    """The viewers, in processes of their own; each reports when its viewers are connected, and at the end."""

    def __init__(self, args: argparse.Namespace, port: int, path: str, seats: dict[int, list[str]]) -> None:
        context = multiprocessing.get_context("spawn")
        counts = [
            args.viewers // VIEWER_PROCESSES + (i < args.viewers % VIEWER_PROCESSES) for i in range(VIEWER_PROCESSES)
        ]
        at_once = max(1, args.at_once // VIEWER_PROCESSES)
        self.pipes: list[multiprocessing.connection.Connection] = []
        self.processes = []
        started = time.monotonic()
        for count in counts:
            ours, theirs = context.Pipe()
            # Daemons: a run stopped by --cap or an error must not wait at exit for viewers waiting to be told to stop.
            process = context.Process(
                target=_viewer_process, args=(theirs, port, path, count, at_once, seats), daemon=True
            )
            process.start()
            self.pipes.append(ours)
            self.processes.append(process)
        self.started = started

    def pids(self) -> list[int]:
        return [process.pid for process in self.processes if process.pid is not None]

    def connected(self) -> float:
        for pipe in self.pipes:
            message = pipe.recv()
            if message != "connected":
                raise SystemExit(f"the viewers could not connect: {message}")
        return time.monotonic() - self.started

    def results(self) -> tuple[list[list[tuple[float, int]]], dict[int, dict[int, int]], list[str]]:
        """Every viewer's arrivals (Unix time, message), each message's games per table, and the errors."""
        arrivals: list[list[tuple[float, int]]] = []
        progress: dict[int, dict[int, int]] = {}
        errors: list[str] = []
        for pipe in self.pipes:
            pipe.send("stop")
        offset = 0
        for pipe, process in zip(self.pipes, self.processes, strict=True):
            theirs_arrivals, theirs_progress, theirs_errors = pipe.recv()
            process.join(timeout=10)
            # Message numbers are each process's own: shift them apart.
            arrivals += [[(when, message + offset) for when, message in viewer] for viewer in theirs_arrivals]
            progress |= {message + offset: games for message, games in theirs_progress.items()}
            offset += len(theirs_progress) + 1
            errors += theirs_errors
        return arrivals, progress, errors


def _viewer_process(
    pipe: multiprocessing.connection.Connection,
    port: int,
    path: str,
    count: int,
    at_once: int,
    seats: dict[int, list[str]],
) -> None:
    table_of = {name: table for table, players in seats.items() for name in players}
    asyncio.run(_viewers(pipe, port, path, count, at_once, table_of))


async def _viewers(
    pipe: multiprocessing.connection.Connection,
    port: int,
    path: str,
    count: int,
    at_once: int,
    table_of: dict[str, int],
) -> None:
    messages: dict[bytes, int] = {}  # a data line -> its number (every viewer gets the same bytes of a message)
    viewers = [_Viewer(messages) for _ in range(count)]
    tasks = []
    try:
        for batch in range(0, count, at_once):
            arriving = viewers[batch : batch + at_once]
            tasks += [asyncio.create_task(viewer.run(port, path)) for viewer in arriving]
            async with asyncio.timeout(TIMEOUT):
                await asyncio.gather(*(viewer.first.wait() for viewer in arriving))
    except TimeoutError:
        pipe.send(f"no first event within {TIMEOUT} s: {[v.error for v in viewers if v.error][:3]}")
        return
    pipe.send("connected")
    await asyncio.to_thread(pipe.recv)  # "stop"
    errors = [viewer.error or "the line ended" for viewer in viewers if viewer.ended]
    for viewer in viewers:
        viewer.close()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    progress = {number: _games_per_table(line, table_of) for line, number in messages.items()}
    pipe.send(([viewer.arrivals for viewer in viewers], progress, errors))


class _Viewer:
    """One players' phone on the live line, read the way EventSource reads it: ``data:`` lines, one event each."""

    def __init__(self, messages: dict[bytes, int]) -> None:
        self.messages = messages
        self.first = asyncio.Event()
        self.arrivals: list[tuple[float, int]] = []  # (Unix time, message number)
        self.writer: asyncio.StreamWriter | None = None
        self.ended = False
        self.error = ""

    async def run(self, port: int, path: str) -> None:
        try:
            reader, self.writer = await asyncio.open_connection("127.0.0.1", port, limit=LINE_LIMIT)
            self.writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
            status = await reader.readline()
            if b" 200 " not in status:
                raise OSError(f"the live line answered {status!r}")
            while line := await reader.readline():
                if line.startswith(b"data: "):
                    when = time.time()
                    number = self.messages.setdefault(line, len(self.messages))
                    self.arrivals.append((when, number))
                    self.first.set()
            raise OSError("the server ended the live line")
        except (OSError, ValueError) as error:  # ValueError: a line over LINE_LIMIT
            self.ended, self.error = True, str(error)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


def _games_per_table(line: bytes, table_of: dict[str, int]) -> dict[int, int]:
    """Games won + lost per table in one pushed message's standings rows (0 for a message without rows)."""
    games: Counter[int] = Counter()
    for row in _rows(json.loads(line[len(b"data: ") :])):
        table = table_of.get(str(row.get("player")))
        if table is not None:
            games[table] += int(row.get("won", 0)) + int(row.get("lost", 0))
    return dict(games)


def _rows(data: object) -> Iterator[dict[str, Any]]:
    """The standings rows wherever the message carries them (a list of objects with a ``player``)."""
    if isinstance(data, list):
        if data and all(isinstance(item, dict) and "player" in item for item in data):
            yield from data
        else:
            for item in data:
                yield from _rows(item)
    elif isinstance(data, dict):
        for value in data.values():
            yield from _rows(value)


# -- the figures ---------------------------------------------------------------------------------------------------


def _report(
    args: argparse.Namespace,
    *,
    posts: dict[int, list[_Post]],
    floor: list[tuple[int, float]],
    floor_idle: list[tuple[int, float]],
    stored: dict[int, list[tuple[int, str | None, float]]],
    arrivals: list[list[tuple[float, int]]],
    progress: dict[int, dict[int, int]],
    viewer_errors: list[str],
) -> tuple[list[str], bool]:
    lines: list[str] = []
    errors: list[str] = []
    every_post = [post for table_posts in posts.values() for post in table_posts]
    bad = Counter(post.status for post in every_post if not 200 <= post.status < 300)
    bad_floor = Counter(status for status, _ in floor + floor_idle if status != 200)
    if bad:
        errors.append(f"hand POSTs answered {dict(bad)}")
    if bad_floor:
        errors.append(f"floor views answered {dict(bad_floor)}")

    # Each hand stored exactly once: per table, as many hands as keys posted, numbered 1..n, every key once, and
    # the retried key answered with the hand first stored.
    once = True
    if len(posts) != args.tables or set(stored) - set(posts):
        errors.append(f"{args.tables} tables seated, {len(posts)} table clients finished, {len(stored)} stored hands")
    for table, table_posts in posts.items():
        keys = [key for _number, key, _when in stored.get(table, [])]
        posted = {post.key for post in table_posts}
        numbers = [number for number, _key, _when in stored.get(table, [])]
        retried = [post for post in table_posts if post.key == f"bench-{table}-1"]
        if sorted(keys) != sorted(posted) or len(set(keys)) != len(keys) or numbers != list(range(1, len(keys) + 1)):
            once = False
            errors.append(f"table {table}: stored keys {keys} numbers {numbers}, posted {sorted(posted)}")
        if len({post.hand for post in retried}) != 1:
            once = False
            errors.append(f"table {table}: the retried key answered hands {[post.hand for post in retried]}")
    stored_count = sum(len(hands) for hands in stored.values())

    hand_seconds = [post.seconds for post in every_post if 200 <= post.status < 300]
    floor_seconds = [seconds for status, seconds in floor if status == 200]
    idle_seconds = [seconds for status, seconds in floor_idle if status == 200]
    post_p95, floor_p95 = _p(hand_seconds, 95), _p(floor_seconds, 95)
    lines.append(
        f"hand POST /api/tables/<id>/hands/ ({len(hand_seconds)}): p50 {_ms(_p(hand_seconds, 50))},"
        f" p95 {_ms(post_p95)}, max {_ms(max(hand_seconds, default=0))}"
    )
    lines.append(
        f"floor GET / logged in, same run ({len(floor_seconds)}): p50 {_ms(_p(floor_seconds, 50))},"
        f" p95 {_ms(floor_p95)}; before the load ({len(idle_seconds)}): p50 {_ms(_p(idle_seconds, 50))}"
    )
    ratio50 = _p(hand_seconds, 50) / max(_p(floor_seconds, 50), 1e-9)
    ratio95 = post_p95 / max(floor_p95, 1e-9)
    lines.append(
        f"hand POST / floor: p50 {ratio50:.1f}x, p95 {ratio95:.1f}x"
        f" (target p95 <= {TARGET_POST:.0f}x: {'met' if ratio95 <= TARGET_POST else 'MISSED'})"
    )

    # Push: for each stored hand, each viewer's first message whose standings have that table's games up to it.
    latencies: list[float] = []
    per_hand: dict[tuple[int, int], list[float]] = defaultdict(list)
    missing = 0
    for viewer in arrivals:
        reached: dict[int, int] = defaultdict(int)  # table -> games this viewer has seen so far
        seen_at: dict[tuple[int, int], float] = {}
        for when, message in viewer:
            for table, games in progress.get(message, {}).items():
                while reached[table] < games:
                    reached[table] += 1
                    seen_at[(table, reached[table])] = when
        viewer_latency = _viewer_latencies(stored, seen_at)
        missing += sum(1 for value in viewer_latency.values() if value is None)
        latencies += [value for value in viewer_latency.values() if value is not None]
        for hand, value in viewer_latency.items():
            if value is not None:
                per_hand[hand].append(value)
    last = [max(values) for values in per_hand.values() if len(values) == len(arrivals)]
    if missing:
        errors.append(f"{missing} (hand, viewer) pairs never arrived")
    if viewer_errors:
        errors.append(f"{len(viewer_errors)} live lines dropped: {viewer_errors[:3]}")
    push_p95 = _p(latencies, 95)
    lines.append(
        f"push, hand stored -> viewer has it ({stored_count} hands x {len(arrivals)} viewers = {len(latencies)}):"
        f" p50 {_ms(_p(latencies, 50))}, p95 {_ms(push_p95)}, max {_ms(max(latencies, default=0))}"
        f" (target p95 <= {TARGET_PUSH:.0f} s: {'met' if latencies and push_p95 <= TARGET_PUSH else 'MISSED'})"
    )
    lines.append(f"  until the last viewer had it, per hand: p50 {_ms(_p(last, 50))}, p95 {_ms(_p(last, 95))}")
    received = sum(len(viewer) for viewer in arrivals) / max(len(arrivals), 1)
    lines.append(f"  events per viewer: {received:.1f} on average (the first standings, then every push)")
    lines.append(
        f"stored exactly once: {'yes' if once else 'NO'} ({stored_count} hands for"
        f" {len({p.key for p in every_post})} keys, {len(every_post)} POSTs with one retry per table)"
    )
    lines.append(f"errors: {len(errors)}" + "".join(f"\n  {error}" for error in errors[:10]))
    return lines, not errors and once


def _viewer_latencies(
    stored: dict[int, list[tuple[int, str | None, float]]], seen_at: dict[tuple[int, int], float]
) -> dict[tuple[int, int], float | None]:
    """Per stored hand (table, its count at the table): seconds from its storing until this viewer had it."""
    result: dict[tuple[int, int], float | None] = {}
    for table, hands in stored.items():
        for count, (_number, _key, entered) in enumerate(hands, start=1):
            when = seen_at.get((table, count))
            result[(table, count)] = None if when is None else when - entered
    return result


def _p(values: list[float], percentile: int) -> float:
    if not values:
        return 0.0
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100)[percentile - 1]


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


if __name__ == "__main__":
    main()
