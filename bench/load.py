"""Load: many tables entering hands at once against gunicorn and PostgreSQL on loopback.

    .venv/bin/python bench/load.py                      # 8 tables x 25 hands, 4 gunicorn workers, 3 rounds
    .venv/bin/python bench/load.py --stats job          # the statistics left to the stats_catch_up job
    .venv/bin/python bench/load.py --tables 16 --hands 20 --workers 5

Creates a throwaway database on the PostgreSQL server of ``--server`` (default: postgres://postgres@127.0.0.1:5432),
migrates it, seats one scorekeeper per table (a session made directly, no password hashing), starts gunicorn on a
free loopback port, and lets one thread per table post its hands through the hand form (``/tables/<id>/hands/``)
as fast as the answers come. Then, with the same concurrency, two floors: the trivial view (the home page, logged
out: no query) and the floor of bench/requests.py (the home page of a logged-in scorekeeper: session, user, their
evenings), each ``--floor-requests`` per thread (as many as the hands), so the figures come from the same machine
in the same minute. Hand entry is given as a ratio to each floor's rate (the target: at least 1/5). ``--rounds``
repeats the three runs and reports each round and the medians of the rates and of the ratios.

``--stats``: ``request`` (the default: each hand's request takes it into the statistics summaries once its answer
has gone out, in the worker) or ``job`` (``STATS_CATCH_UP=job``: the request only writes the change down, and
``manage.py stats_catch_up --loop`` runs beside gunicorn as its own process). The processor time of each run
(the gunicorn workers, the PostgreSQL backends of the benchmark's database and, for the hands, the job with its
draining after the last round) is read from /proc and given per request, with the hand's ratio to each floor by
it: the job's work is counted, not hidden, and on a shared machine these ratios move far less than the rates'. At
the end every table's summaries must be equal to a computation from scratch.

Checks that every hand was stored once and numbered 1..n per table. Bounded: a cap on the whole run's time and a
timeout on every request; gunicorn and the job are stopped and the database dropped at the end, also on error.

Then 40 wrong passwords for one user name race each other across the workers: with CACHE_URL at Redis
(``CACHE_URL=redis://127.0.0.1:6379/0 .venv/bin/python bench/load.py``) the workers count together and at most
LOGIN_RATE_LIMIT passwords are checked; without it each worker counts alone, which the run reports. The counters
the run leaves are reset at the end.
"""

from __future__ import annotations

import argparse
import datetime
import http.client
import os
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # not bench/, whose requests.py would shadow the requests package

from bench.serving import database_admin, drop_database, free_port, start_gunicorn, stop  # noqa: E402 - needs the path above

CSRF = "b" * 32  # our own CSRF secret, sent as cookie and header
HAND = {"declarer": "Ana", "trump": "leaves", "announcement": "hram", "winner": "declarer", "result": "s_vodou"}
TIMEOUT = 10
GUESSED = "guessed-by-load-bench"  # the user whose password the log-in race guesses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432", help="PostgreSQL server URL")
    parser.add_argument("--tables", type=int, default=8, help="tables entering hands at once (one thread each)")
    parser.add_argument("--hands", type=int, default=25, help="hands per table")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn worker processes")
    parser.add_argument("--cap", type=float, default=60, help="seconds each round's measurement may take")
    parser.add_argument("--rounds", type=int, default=3, help="hand entry and the two floors, this many times")
    parser.add_argument("--floor-requests", type=int, help="floor requests per thread and floor (default: --hands)")
    parser.add_argument("--stats", choices=["request", "job"], default="request", help="who takes hands into stats")
    args = parser.parse_args()
    args.floor_requests = args.floor_requests or args.hands
    if not (1 <= args.tables <= 64 and 1 <= args.hands <= 500 and 1 <= args.workers <= 16):
        parser.error("keep it bounded: tables 1..64, hands 1..500, workers 1..16")
    if not (1 <= args.rounds <= 9 and 1 <= args.floor_requests <= 2000):
        parser.error("keep it bounded: rounds 1..9, floor requests 1..2000")

    database = f"talon_load_{os.getpid()}"
    env = os.environ | {
        "DATABASE_URL": f"{args.server}/{database}",
        "DJANGO_SETTINGS_MODULE": "tests.settings",  # static files from the finders, nothing to collect
        "SECRET_KEY": "load-bench-" + "x" * 40,
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",
        "SECURE_HSTS_SECONDS": "0",
        "STATS_CATCH_UP": args.stats,
    }
    os.environ.update(env)
    database_admin(args.server, f'CREATE DATABASE "{database}"')
    gunicorn = job = None
    try:
        tables = _prepare(args.tables + args.workers)
        warmup, tables = tables[: args.workers], tables[args.workers :]
        port = free_port()
        gunicorn = start_gunicorn(ROOT, port, "--workers", str(args.workers))
        if args.stats == "job":
            command = [sys.executable, str(ROOT / "manage.py"), "stats_catch_up", "--loop"]
            job = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL)
        # Every worker loads its templates and the rules on its first requests: warm them all up first, on tables
        # of their own, so the figures below are steady-state ones.
        for _round in range(3):
            _run(port, [(table, session, 2, _round) for table, session in warmup], _enter_hands, time.monotonic() + 30)
            _run(port, [(None, None, 2, 0)] * args.workers, _get_home, time.monotonic() + 30)
            _run(port, [(None, session, 2, 0) for _table, session in warmup], _get_home, time.monotonic() + 30)
        if job is not None:
            _drain(job)  # the job started and took in the warm-up hands: its start is not counted below
        print(
            f"{args.tables} tables x {args.hands} hands, gunicorn {args.workers} workers, PostgreSQL, loopback; "
            f"statistics: {'the stats_catch_up job' if job else 'each request after its answer'}"
        )
        _measure(port, args, tables, gunicorn, job)
        _check([table for table, _session in tables], args.rounds * args.hands * len(tables))
        _race_log_ins(port, args.workers)
    finally:
        _reset_log_in_counters()
        stop(job)
        stop(gunicorn)
        drop_database(args.server, database)


def _measure(port: int, args: argparse.Namespace, tables: list[tuple[int, str]], gunicorn: Any, job: Any) -> None:
    """``args.rounds`` rounds of hand entry then the two floors; each round's rates and ratios, then the medians.
    Beside the rates, the processor time per request of each run, read from /proc: the gunicorn workers, the
    PostgreSQL backends of the benchmark's database and (hands) the job, whose draining after the last round is
    added to the hands. On a shared machine the rates move with whatever else runs; the processor time per request
    hardly does, and its ratio is what the rates' ratio tends to when the processors are the bound."""
    rates: dict[str, list[float]] = {"hands": [], "trivial": [], "floor": []}
    cpu: dict[str, dict[str, float]] = {kind: {"workers": 0.0, "postgres": 0.0, "job": 0.0} for kind in rates}
    counts = dict.fromkeys(rates, 0)
    floor_sessions = [session for _table, session in tables]
    titles = {
        "hands": "hand entry (POST /tables/<id>/hands/)",
        "trivial": "trivial view (GET /, logged out)",
        "floor": "floor (GET /, logged in, as bench/requests.py)",
    }
    for number in range(args.rounds):
        deadline = time.monotonic() + args.cap
        jobs = {
            "hands": ([(table, session, args.hands, number) for table, session in tables], _enter_hands),
            "trivial": ([(None, None, args.floor_requests, 0)] * args.tables, _get_home),
            "floor": ([(None, session, args.floor_requests, 0) for session in floor_sessions], _get_home),
        }
        print(f"round {number + 1}:")
        for kind, (work, function) in jobs.items():
            before = _cpu_seconds(gunicorn, job)
            run = _run(port, work, function, deadline)
            after = _cpu_seconds(gunicorn, job)
            for part in cpu[kind]:
                # Per process: one that ended meanwhile (a connection past CONN_MAX_AGE) is left out, not subtracted.
                cpu[kind][part] += sum(seconds - before[part].get(pid, 0.0) for pid, seconds in after[part].items())
            counts[kind] += len(run["results"])  # type: ignore[arg-type]
            rates[kind].append(_report(f"  {titles[kind]}", run))
        print(
            f"  hand entry : trivial view = 1 : {rates['trivial'][-1] / rates['hands'][-1]:.1f}; "
            f": floor = 1 : {rates['floor'][-1] / rates['hands'][-1]:.1f}"
        )
    if job is not None:
        cpu["hands"]["job"] += _drain(job)
    median = statistics.median
    ratios = {
        kind: median([rate / hands for rate, hands in zip(rates[kind], rates["hands"], strict=True)])
        for kind in ("trivial", "floor")
    }
    print(
        f"medians of {args.rounds} rounds: hand entry {median(rates['hands']):,.0f}/s, trivial view "
        f"{median(rates['trivial']):,.0f}/s, floor {median(rates['floor']):,.0f}/s; hand entry : trivial view = "
        f"1 : {ratios['trivial']:.1f}, : floor = 1 : {ratios['floor']:.1f} (target: 1 : 5 at most)"
    )
    per_request = {
        kind: {part: seconds / counts[kind] * 1000 for part, seconds in parts.items()} for kind, parts in cpu.items()
    }
    for kind, parts in per_request.items():
        job_part = f" + job {parts['job']:.1f}" if job is not None and kind == "hands" else ""
        print(
            f"processor time per request, {titles[kind]}: workers {parts['workers']:.1f} + PostgreSQL "
            f"{parts['postgres']:.1f}{job_part} = {sum(parts.values()):.1f} ms"
        )
    total = {kind: sum(parts.values()) for kind, parts in per_request.items()}
    print(
        f"hand : trivial view by processor time = 1 : {total['hands'] / total['trivial']:.1f}; "
        f": floor = 1 : {total['hands'] / total['floor']:.1f}"
    )


def _cpu_seconds(gunicorn: Any, job: Any) -> dict[str, dict[int, float]]:
    """User and system time so far of gunicorn's workers (the master's children), of the PostgreSQL backends of
    this database (the workers' and the job's kept connections) and of the job, per process id, from /proc."""
    from django.db import connection

    workers = Path(f"/proc/{gunicorn.pid}/task/{gunicorn.pid}/children").read_text().split()
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        backends = [row[0] for row in cursor.fetchall()]
    return {
        "workers": {int(pid): _process_seconds(int(pid)) for pid in workers},
        "postgres": {pid: _process_seconds(pid) for pid in backends},
        "job": {job.pid: _process_seconds(job.pid)} if job is not None else {},
    }


def _process_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def _drain(job: Any) -> float:
    """Wait (30 s at most) until the job has taken in every change waiting; its processor time meanwhile."""
    from ledger.stats.models import StatsChange

    before = _process_seconds(job.pid)
    for _ in range(300):
        if not StatsChange.objects.exists():
            break
        time.sleep(0.1)
    else:
        raise SystemExit("the stats_catch_up job did not take every change in within 30 s")
    return _process_seconds(job.pid) - before


def _prepare(count: int) -> list[tuple[int, str]]:
    """Migrate, then one scorekeeper, evening and Šnapser table per thread; sessions made directly."""
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client

    from ledger import services
    from ledger.models import Table
    from ledger.stats import summaries

    call_command("migrate", verbosity=0)
    get_user_model().objects.create_user(username=GUESSED, password="the-right-one-" + "x" * 20)
    tables = []
    for index in range(count):
        user = get_user_model().objects.create_user(username=f"keeper{index}", password=None)
        evening = services.evening_create(owner=user, date=datetime.date(2026, 11, 27), currency="EUR")
        table = services.table_create(evening=evening, game="snapser", players=["Ana", "Ben", "Cyril"])
        client = Client()
        client.force_login(user)
        tables.append((table.pk, client.cookies[settings.SESSION_COOKIE_NAME].value))
    summaries.refresh(Table.objects.all())  # summarized (empty), as a table in use is: its hands are added to them
    return tables


def _request(port: int, method: str, path: str, body: str = "", cookies: str = "") -> tuple[int, float]:
    headers = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookies, "X-CSRFToken": CSRF}
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
    started = time.perf_counter()
    try:
        conn.request(method, path, body or None, headers=headers if cookies else {})
        response = conn.getresponse()
        response.read()
        return response.status, time.perf_counter() - started
    finally:
        conn.close()


def _enter_hands(
    port: int, table: int, session: str, count: int, round_number: int, deadline: float
) -> list[tuple[int, float]]:
    cookies = f"sessionid={session}; csrftoken={CSRF}"
    results = []
    for number in range(count):
        if time.monotonic() > deadline:
            break
        body = urlencode(HAND | {"key": f"load-{table}-{round_number}-{number}"})
        results.append(_request(port, "POST", f"/tables/{table}/hands/", body, cookies))
    return results


def _get_home(
    port: int, _table: None, session: str | None, count: int, _round: int, deadline: float
) -> list[tuple[int, float]]:
    """The home page, logged out (no session) or as the scorekeeper of ``session``."""
    cookies = f"sessionid={session}; csrftoken={CSRF}" if session else ""
    return [_request(port, "GET", "/", cookies=cookies) for _ in range(count) if time.monotonic() <= deadline]


def _race_log_ins(port: int, workers: int, attempts: int = 40) -> None:
    """Wrong passwords for one name from one address, all at once across the workers: 200 is a password checked
    (and found wrong), 429 an attempt refused by the limit without checking it."""
    from django.conf import settings

    _reset_log_in_counters()
    cookies = f"csrftoken={CSRF}"

    def guess(number: int) -> int:
        body = urlencode({"login": GUESSED, "password": f"wrong-{number}", "csrfmiddlewaretoken": CSRF})
        return _request(port, "POST", "/accounts/login/", body, cookies)[0]

    with ThreadPoolExecutor(attempts) as pool:
        statuses = list(pool.map(guess, range(attempts)))
    checked, refused = statuses.count(200), statuses.count(429)
    limit = settings.LOGIN_RATE_LIMIT
    shared = os.environ.get("CACHE_URL", "")
    where = f"counted in {shared}" if shared else "no CACHE_URL: each worker counts alone"
    print(
        f"log-in race: {attempts} wrong passwords at once over {workers} workers ({where}): "
        f"{checked} checked, {refused} refused (limit {limit}); statuses {sorted(set(statuses))}"
    )
    assert checked + refused == attempts, statuses
    if shared:
        assert checked <= limit, f"{checked} passwords checked, limit {limit}"


def _reset_log_in_counters() -> None:
    """The race's counters (its name from loopback, and loopback itself) go, so it leaves nobody locked out."""
    from django.apps import apps

    if not apps.ready:
        return  # stopped before Django was set up: no counters yet
    from axes.handlers.proxy import AxesProxyHandler

    AxesProxyHandler.reset_attempts(username=GUESSED, ip_address="127.0.0.1")


def _run(port: int, jobs: list[tuple[object, object, int, int]], work, deadline: float) -> dict[str, object]:
    started = time.perf_counter()
    with ThreadPoolExecutor(len(jobs)) as pool:
        futures = [pool.submit(work, port, a, b, count, number, deadline) for a, b, count, number in jobs]
        results = [result for future in futures for result in future.result()]
    return {"results": results, "seconds": time.perf_counter() - started}


def _report(title: str, run: dict[str, object]) -> float:
    results = run["results"]
    assert isinstance(results, list)
    seconds = float(run["seconds"])  # type: ignore[arg-type]
    latencies = sorted(latency for _status, latency in results)
    statuses: dict[int, int] = {}
    for status, _latency in results:
        statuses[status] = statuses.get(status, 0) + 1
    p95 = latencies[max(0, round(0.95 * len(latencies)) - 1)]
    print(
        f"{title}: {len(results)} requests in {seconds:.2f} s = {len(results) / seconds:,.0f}/s; "
        f"p50 {statistics.median(latencies) * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms, "
        f"max {latencies[-1] * 1000:.1f} ms; statuses {statuses}"
    )
    return len(results) / seconds


def _check(tables: list[int], expected: int) -> None:
    """Every hand stored once, numbered 1..n, and every table's statistics at its revision and equal to a
    computation from scratch."""
    from django.db.models import F

    from ledger.models import Hand, Table
    from ledger.stats import increments, summaries
    from ledger.stats.models import StatsLine

    stored = 0
    for table in tables:
        numbers = list(Hand.objects.filter(table_id=table).order_by("number").values_list("number", flat=True))
        assert numbers == list(range(1, len(numbers) + 1)), f"table {table}: numbers {numbers}"
        stored += len(numbers)
    assert stored == expected, f"{expected} hands posted, {stored} stored"
    for table in tables:
        increments.catch_up(table)  # a last request's after-the-answer work may still run
    kept = sorted(StatsLine.objects.filter(table_id__in=tables).values_list("table_id", "player_id", "hands", "net"))
    current = Table.objects.filter(pk__in=tables).exclude(stats_revision=F("revision")).count()
    Table.objects.filter(pk__in=tables).update(stats_revision=None)
    summaries.refresh(Table.objects.filter(pk__in=tables))
    again = sorted(StatsLine.objects.filter(table_id__in=tables).values_list("table_id", "player_id", "hands", "net"))
    assert current == 0 and kept == again, "the statistics summaries are not those of a computation from scratch"
    print(f"check: {stored} hands stored, each table numbered 1..n; statistics up to date, equal to a recomputation")


if __name__ == "__main__":
    main()
