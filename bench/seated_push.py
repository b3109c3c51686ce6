"""Seated phones: how long a recorded hand takes to reach the other phones of its table, and their screens.

    .venv/bin/python bench/seated_push.py                   # 50 tables of four seated phones, SQLite file
    .venv/bin/python bench/seated_push.py --server postgres://postgres@127.0.0.1:5432
    .venv/bin/python bench/seated_push.py --tables 20 --bursts 3 --workers 2

Served as docs/deploy.md says: gunicorn (``--workers`` sync workers) answers the pages and the hand POSTs, one
uvicorn process holds the live lines (every path ending in /stream/), and Redis (``--push-url``) carries each
message from the gunicorn worker that stored the hand to uvicorn. The database is a throwaway: a SQLite file (WAL,
as the app configures it), or with ``--server`` a PostgreSQL database created there and dropped at the end.

It makes ``--tables`` evenings, one Mariáš čtyřka each (any seated phone records, one opponent confirms), and
seats four phones at every table through the seats' own service (``seat_claim``: the scorekeeper's phone takes
Ana's seat with her account, the three others have a device id and no account), so each phone's live line
(``GET /seat/<table>/stream/`` with its device cookie) passes the seats' access check. It opens all the lines on
uvicorn and waits for each one's first event (the table's state).

Then the scorekeepers record, over HTTP, the real htmx POST of the table page's form (``POST /tables/<id>/hands/``
with ``HX-Request``, the form's key, the table revision and ``after``): first ``spread``, one table after another
``--gap`` seconds apart (each POST on its own, the others' answers still under way), then ``--bursts`` times every
table at once. For each hand it times, from the POST's start, at each of the three other phones of its table:

- the message: the first event on the phone's line naming its table;
- on the screen: what static/js/seats.js does with it, done the same way: 200 ms later (the page's BURST_MS, which
  gathers a hand's two messages, the table's and the confirmations', into one fetch) it fetches its live part
  (``GET /seat/<table>/`` with ``HX-Request``, from gunicorn) and the time is taken when the answer that lists the
  new hand has been read (a message that comes while a fetch is under way fetches again, as the page does).

p50/p95/max of each, per phase and overall. The floor is the floor of bench/requests.py (``GET /`` for a logged-in
scorekeeper), timed one request at a time before, between and after the phases in the same run; the p95s are
given as multiples of its median. The target (the issue): on the screen at p95 ≤ 1 s.

Bounded: ``--cap`` seconds for the measurement; the servers are stopped and the database removed at the end, also
on error.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import json
import os
import re
import secrets
import signal
import statistics
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # not bench/, whose requests.py would shadow the requests package


from bench.serving import database_admin, drop_database, free_port, start_gunicorn, start_uvicorn, stop  # noqa: E402

PLAYERS = ["Ana", "Ben", "Cyril", "Dana"]
CSRF = "s" * 32  # our own CSRF secret, sent as cookie and header
BURST_MS = 200  # static/js/seats.js: several changes within this time are fetched once
TIMEOUT = 30.0
REACH_SECONDS = 60.0  # a phone whose screen has not shown the hand by then is counted missing
# The table page's form as the browser posts it after the scorekeeper's taps (Ben declares a hra in bells with
# Dana, and tap "won"), less the key and the page's stamps added per hand.
POSTED = {
    "declarer": "Ben",
    "contract": "hra",
    "trump": "bells",
    "partner": "Dana",
    "flek_hra": "0",
    "flek_sedma": "0",
    "flek_stovka": "0",
    "flek_betl": "0",
    "flek_durch": "0",
    "marriages_declarer_20": "0",
    "marriages_defenders_20": "0",
    "seven_side": "",
    "ending": "played",
    "flekked_by": "",
    "renonc_kind": "other",
    "renonc_player": "",
    "won": "won",
}
_REVISION = re.compile(rb'name="table_revision" value="(\d+)"')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50, help="tables of four seated phones")
    parser.add_argument("--bursts", type=int, default=2, help="rounds in which every table records at once")
    parser.add_argument("--gap", type=float, default=0.2, help="seconds between two tables' hands, spread")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn sync workers (pages and POSTs)")
    parser.add_argument("--floor", type=int, default=20, help="floor requests at each of the floor's turns")
    parser.add_argument("--push-url", default="redis://127.0.0.1:6379/1", help="PUSH_URL for every process")
    parser.add_argument("--server", help="PostgreSQL server URL (no database name); default: a SQLite file")
    parser.add_argument("--cap", type=float, default=300, help="seconds the measurement may take")
    args = parser.parse_args()
    if not (1 <= args.tables <= 500 and 0 <= args.bursts <= 20 and 1 <= args.workers <= 16 and args.floor >= 3):
        parser.error("keep it bounded: tables 1..500, bursts 0..20, workers 1..16, floor 3 or more")

    workdir = Path(tempfile.mkdtemp(prefix="talon-seated-bench-"))
    database = f"talon_seated_bench_{os.getpid()}"
    if args.server:
        database_admin(args.server, f'CREATE DATABASE "{database}"')
        url = f"{args.server}/{database}"
    else:
        url = f"sqlite:///{workdir / 'db.sqlite3'}"
    os.environ.update(
        {
            "DATABASE_URL": url,
            "DJANGO_SETTINGS_MODULE": "tests.settings",
            "SECRET_KEY": "seated-bench-" + "x" * 40,
            "DEBUG": "0",
            "ALLOWED_HOSTS": "127.0.0.1",
            "SECURE_SSL_REDIRECT": "0",
            "SECURE_HSTS_SECONDS": "0",
            "PUSH_URL": args.push_url,
            "LOG_LEVEL": "ERROR",
        }
    )
    # Stopped from outside (timeout, Ctrl-C): the servers are stopped and the database removed all the same.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("stopped"))
    gunicorn = uvicorn = None
    try:
        tables = _prepare(args.tables)
        _refresh(tables)
        _say(f"{len(tables)} tables seated")
        pages, streams = free_port(), free_port()
        gunicorn = start_gunicorn(ROOT, pages, "--workers", str(args.workers), "--timeout", "120")
        uvicorn = start_uvicorn(ROOT, streams)
        report = asyncio.run(asyncio.wait_for(_measure(args, pages, streams, tables), args.cap))
        print(report)
    finally:
        stop(gunicorn)
        stop(uvicorn)
        if args.server:
            drop_database(args.server, database)
        for path in workdir.iterdir():
            path.unlink()
        workdir.rmdir()


# -- the servers and the data ------------------------------------------------------------------------------------


@dataclass
class Phone:
    position: int
    device: str
    revision: int = 0  # the table revision of the form its page shows (static/js/seats.js formRevision)
    line_open: asyncio.Event = field(default_factory=asyncio.Event)
    messages: list[tuple[float, dict[str, Any]]] = field(default_factory=list)
    screens: list[tuple[float, bytes]] = field(default_factory=list)
    fetches: list[float] = field(default_factory=list)  # each refetch of the live part, from its start
    failed: int = 0  # refetches that got no answer within TIMEOUT
    pending: asyncio.Task[None] | None = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class Seating:
    table: int
    session: str  # the scorekeeper's session cookie
    phones: list[Phone]
    revision: int = 0
    hands: int = 0


def _prepare(count: int) -> list[Seating]:
    """Migrate; then per table a scorekeeper (session), an evening, a Mariáš table, four seats claimed."""
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client

    from ledger import services
    from ledger.devices.phone import device_hash
    from ledger.models import Table
    from ledger.seats import services as seats

    call_command("migrate", verbosity=0)
    seatings = []
    for number in range(count):
        owner = get_user_model().objects.create_user(username=f"keeper{number}", password=None)
        evening = services.evening_create(owner=owner, date=datetime.date(2026, 11, 27), currency="EUR")
        table = services.table_create(
            evening=evening,
            game="marias",
            players=PLAYERS,
            recording=Table.Recording.SEATED,
            confirmation=Table.Confirmation.OPPONENT,
        )
        phones = []
        for position in range(len(PLAYERS)):
            device = secrets.token_urlsafe(32)
            user = owner if position == 0 else None
            seats.seat_claim(table=table, position=position, phone=seats.Phone(device_hash(device), user))
            phones.append(Phone(position, device))
        client = Client()
        client.force_login(owner)
        seatings.append(Seating(table.pk, client.cookies[settings.SESSION_COOKIE_NAME].value, phones))
    return seatings


def _refresh(seatings: list[Seating]) -> None:
    """Each table's revision and hand count as stored (between phases), as its pages show them."""
    from ledger.models import Table

    rows = dict(
        (pk, (revision, hands))
        for pk, revision, hands in Table.objects.filter(pk__in=[s.table for s in seatings]).values_list(
            "pk", "revision", "hand_count"
        )
    )
    for seating in seatings:
        seating.revision, seating.hands = rows[seating.table]
        for phone in seating.phones:
            phone.revision = seating.revision


# -- HTTP, as a phone's browser speaks it ------------------------------------------------------------------------


async def _http(
    port: int, method: str, path: str, headers: dict[str, str], body: bytes = b""
) -> tuple[int, dict[str, str], bytes]:
    """One request on a new connection (gunicorn's sync workers close it): status, headers, body."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        if body:
            lines.append(f"Content-Length: {len(body)}")
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        await writer.drain()
        # Up to the answer's last byte (its Content-Length), as the browser has it: not until the worker closes the
        # connection, which it does only after the request's own after-work (request_finished).
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), TIMEOUT)
        status_line, *header_lines = head.decode("latin-1").rstrip("\r\n").split("\r\n")
        answer_headers = {}
        for line in header_lines:
            name, _, value = line.partition(":")
            answer_headers[name.strip().lower()] = value.strip()
        if "content-length" in answer_headers:
            content = await asyncio.wait_for(reader.readexactly(int(answer_headers["content-length"])), TIMEOUT)
        else:
            content = await asyncio.wait_for(reader.read(), TIMEOUT)
    finally:
        writer.close()
    return int(status_line.split()[1]), answer_headers, content


async def _line(port: int, seating: Seating, phone: Phone) -> None:
    """The phone's live line, read as EventSource reads it; every event but the first state is kept with its time,
    and handled as static/js/seats.js handles it."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        request = (
            f"GET /seat/{seating.table}/stream/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
            f"Cookie: talon_device={phone.device}\r\n\r\n"
        )
        writer.write(request.encode())
        status = await reader.readline()
        if b" 200 " not in status:
            raise SystemExit(f"the seat's live line answered {status!r}")
        while line := await reader.readline():
            if not line.startswith(b"data: "):
                continue  # headers, chunk sizes, id:, retry:, heartbeats
            data = json.loads(line[6:])
            if "state" in data:
                phone.line_open.set()
                continue
            phone.messages.append((time.perf_counter(), data))
            phone.changed.set()
            if data.get("table") not in (None, seating.table):
                continue
            revision = data.get("revision")
            if isinstance(revision, int) and revision <= phone.revision:
                continue  # the page's own Record
            if phone.pending is None:
                phone.pending = asyncio.create_task(_fetch_soon(PAGES_PORT, seating, phone))
    finally:
        writer.close()


PAGES_PORT = 0  # gunicorn's, set by _measure


async def _fetch_soon(port: int, seating: Seating, phone: Phone) -> None:
    await asyncio.sleep(BURST_MS / 1000)
    phone.pending = None  # a message from now on fetches again
    headers = {"HX-Request": "true", "Cookie": f"talon_device={phone.device}"}
    started = time.perf_counter()
    try:
        status, _headers, body = await _http(port, "GET", f"/seat/{seating.table}/", headers)
    except (TimeoutError, OSError, asyncio.IncompleteReadError):
        # As the page: a fetch that fails leaves the screen as it was until the next message.
        phone.failed += 1
        phone.changed.set()
        return
    phone.fetches.append(time.perf_counter() - started)
    if status != 200:
        raise SystemExit(f"the seat's live part answered {status}")
    found = _REVISION.search(body)
    if found:
        phone.revision = max(phone.revision, int(found.group(1)))
    phone.screens.append((time.perf_counter(), body))
    phone.changed.set()


# -- the measurement ---------------------------------------------------------------------------------------------


@dataclass
class Timings:
    post: list[float] = field(default_factory=list)
    message: list[float] = field(default_factory=list)
    screen: list[float] = field(default_factory=list)
    missing: int = 0  # phones whose screen did not show the hand within REACH_SECONDS


async def _record(port: int, seating: Seating, timings: Timings) -> None:
    """The scorekeeper records the table's next hand (the htmx POST); then waits for the other three phones to
    have it on their screens."""
    number = seating.hands + 1
    body = urlencode(
        POSTED | {"key": uuid.uuid4().hex, "table_revision": seating.revision, "after": seating.hands}
    ).encode()
    headers = {
        "Content-Type": "application/x-www-form-urlencoded",
        "Cookie": f"sessionid={seating.session}; csrftoken={CSRF}",
        "X-CSRFToken": CSRF,
        "HX-Request": "true",
        "HX-Current-URL": f"http://127.0.0.1/tables/{seating.table}/",
    }
    others = seating.phones[1:]
    seen = {id(phone): (len(phone.messages), len(phone.screens)) for phone in others}
    started = time.perf_counter()
    status, answer, _content = await _http(port, "POST", f"/tables/{seating.table}/hands/", headers, body)
    timings.post.append(time.perf_counter() - started)
    if status != 200 or not answer.get("x-talon-recorded"):
        raise SystemExit(f"table {seating.table}: the hand POST answered {status} without a recorded hand")
    seating.hands, seating.revision = number, seating.revision + 1
    seating.phones[0].revision = seating.revision
    marker = f'id="hand-{number}"'.encode()
    for phone in others:
        messages, screens = seen[id(phone)]
        while True:
            phone.changed.clear()
            news = [at for at, data in phone.messages[messages:] if data.get("table") == seating.table]
            shown = [at for at, html in phone.screens[screens:] if marker in html]
            if news and shown:
                timings.message.append(news[0] - started)
                timings.screen.append(shown[0] - started)
                break
            left = started + REACH_SECONDS - time.perf_counter()
            if left <= 0:
                timings.missing += 1  # counted, and left out of the percentiles
                if news:
                    timings.message.append(news[0] - started)
                break
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(phone.changed.wait(), left)


async def _floor(port: int, seating: Seating, times: int, alone: list[float]) -> list[float]:
    """The floor of bench/requests.py (``GET /`` for a logged-in scorekeeper), one request at a time; and as many
    times, also one at a time, a seated phone's refetch of its live part (into ``alone``): what it costs without a
    queue."""
    spent = []
    phone = seating.phones[1]
    for _ in range(times):
        started = time.perf_counter()
        status, _headers, _body = await _http(port, "GET", "/", {"Cookie": f"sessionid={seating.session}"})
        spent.append(time.perf_counter() - started)
        if status != 200:
            raise SystemExit(f"the floor answered {status}")
        headers = {"HX-Request": "true", "Cookie": f"talon_device={phone.device}"}
        started = time.perf_counter()
        status, _headers, _body = await _http(port, "GET", f"/seat/{seating.table}/", headers)
        alone.append(time.perf_counter() - started)
        if status != 200:
            raise SystemExit(f"the seat's live part answered {status}")
    return spent


async def _measure(args: argparse.Namespace, pages: int, streams: int, seatings: list[Seating]) -> str:
    global PAGES_PORT
    PAGES_PORT = pages
    lines = [asyncio.create_task(_line(streams, s, phone)) for s in seatings for phone in s.phones]
    try:
        started = time.perf_counter()
        for seating in seatings:
            await asyncio.gather(*(asyncio.wait_for(phone.line_open.wait(), TIMEOUT) for phone in seating.phones))
        opened = time.perf_counter() - started
        _say(f"{len(lines)} lines open after {opened:.2f} s")
        alone: list[float] = []
        floor = await _floor(pages, seatings[0], args.floor, alone)

        spread = Timings()
        running = []
        for seating in seatings:
            running.append(asyncio.create_task(_record(pages, seating, spread)))
            await asyncio.sleep(args.gap)
        await asyncio.gather(*running)
        _say(f"spread: {len(spread.screen)} screens reached")
        floor += await _floor(pages, seatings[0], args.floor, alone)

        burst = Timings()
        for _ in range(args.bursts):
            await asyncio.gather(*(_record(pages, seating, burst) for seating in seatings))
            _say(f"burst: {len(burst.screen)} screens reached")
            floor += await _floor(pages, seatings[0], args.floor, alone)
    finally:
        for task in lines:
            task.cancel()
        await asyncio.gather(*lines, return_exceptions=True)

    base = statistics.median(floor)
    database = "PostgreSQL" if args.server else "SQLite (file, WAL)"
    out = [
        f"{len(seatings)} tables x 4 seated phones = {4 * len(seatings)} live lines on uvicorn (1 process),"
        f" gunicorn {args.workers} sync workers, {database}, PUSH_URL={args.push_url}",
        f"lines open with their first event after {opened:.2f} s",
        f"floor (GET / logged in, {len(floor)} requests, one at a time): median {base * 1000:.1f} ms,"
        f" p95 {_quantile(floor, 95) * 1000:.1f} ms",
        f"a seated phone's refetch alone (GET /seat/<id>/ htmx, one at a time, {len(alone)}): median"
        f" {statistics.median(alone) * 1000:.1f} ms = {statistics.median(alone) / base:.1f}x floor",
    ]
    phases = [(f"spread (one table every {args.gap:.2f} s)", spread)]
    if args.bursts:
        phases.append((f"burst (all {len(seatings)} tables at once, {args.bursts}x)", burst))
    phases.append(
        (
            "all",
            Timings(
                *(getattr(spread, name) + getattr(burst, name) for name in ("post", "message", "screen", "missing"))
            ),
        )
    )
    for title, timings in phases:
        out.append(
            f"{title}: {len(timings.post)} hands, {len(timings.screen)} phones reached, {timings.missing} not within"
            f" {REACH_SECONDS:.0f} s (left out of the percentiles)"
        )
        for label, values in (
            ("  POST answered         ", timings.post),
            ("  message at the phone  ", timings.message),
            ("  on the phone's screen ", timings.screen),
        ):
            p95 = _quantile(values, 95)
            out.append(
                f"{label} p50 {_quantile(values, 50) * 1000:7.1f} ms  p95 {p95 * 1000:7.1f} ms"
                f"  max {max(values) * 1000:7.1f} ms   p95 = {p95 / base:5.1f}x floor"
            )
    everything = phases[-1][1].screen
    fetches = [spent for seating in seatings for phone in seating.phones for spent in phone.fetches]
    failed = sum(phone.failed for seating in seatings for phone in seating.phones)
    if failed:
        out.append(f"refetches without an answer within {TIMEOUT:.0f} s: {failed}")
    if fetches:
        p95 = _quantile(fetches, 95)
        out.append(
            f"the phones' refetches during the phases ({len(fetches)}): p50 {_quantile(fetches, 50) * 1000:.1f} ms"
            f"  p95 {p95 * 1000:.1f} ms  max {max(fetches) * 1000:.1f} ms   p95 = {p95 / base:.1f}x floor"
        )
    missing = phases[-1][1].missing
    verdict = "met" if _quantile(everything, 95) <= 1.0 and not missing else "NOT met"
    out.append(f"target: on the screen at p95 <= 1 s: {verdict} ({_quantile(everything, 95) * 1000:.0f} ms)")
    return "\n".join(out)


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _quantile(values: list[float], percentile: int) -> float:
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[percentile - 1]


if __name__ == "__main__":
    main()
