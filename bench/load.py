"""Load: many tables entering hands at once against gunicorn and PostgreSQL on loopback.

    .venv/bin/python bench/load.py                      # 8 tables x 25 hands, 4 gunicorn workers
    .venv/bin/python bench/load.py --tables 16 --hands 20 --workers 5

Creates a throwaway database on the PostgreSQL server of ``--server`` (default: postgres://postgres@127.0.0.1:5432),
migrates it, seats one scorekeeper per table (a session made directly, no password hashing), starts gunicorn on a
free loopback port, and lets one thread per table post its hands through the hand form (``/tables/<id>/hands/``)
as fast as the answers come. Then the same number of requests, with the same concurrency, to a trivial view (the
home page, logged out), so the two figures come from the same machine in the same minute. Checks that every hand
was stored once and numbered 1..n per table. Bounded: a cap on the whole run's time and a timeout on every request;
gunicorn is stopped and the database dropped at the end, also on error.

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
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
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
    parser.add_argument("--cap", type=float, default=60, help="seconds the whole measurement may take")
    args = parser.parse_args()
    if not (1 <= args.tables <= 64 and 1 <= args.hands <= 500 and 1 <= args.workers <= 16):
        parser.error("keep it bounded: tables 1..64, hands 1..500, workers 1..16")

    database = f"talon_load_{os.getpid()}"
    env = os.environ | {
        "DATABASE_URL": f"{args.server}/{database}",
        "DJANGO_SETTINGS_MODULE": "tests.settings",  # static files from the finders, nothing to collect
        "SECRET_KEY": "load-bench-" + "x" * 40,
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",
        "SECURE_HSTS_SECONDS": "0",
    }
    os.environ.update(env)
    database_admin(args.server, f'CREATE DATABASE "{database}"')
    gunicorn = None
    try:
        tables = _prepare(args.tables + args.workers)
        warmup, tables = tables[: args.workers], tables[args.workers :]
        port = free_port()
        gunicorn = start_gunicorn(ROOT, port, "--workers", str(args.workers))
        # Every worker loads its templates and the rules on its first requests: warm them all up first, on tables
        # of their own, so the figures below are steady-state ones.
        for _round in range(3):
            _run(port, [(table, session, 2) for table, session in warmup], _enter_hands, time.monotonic() + 30)
            _run(port, [(None, None, 2)] * args.workers, _get_home, time.monotonic() + 30)
        deadline = time.monotonic() + args.cap
        print(f"{args.tables} tables x {args.hands} hands, gunicorn {args.workers} workers, PostgreSQL, loopback")
        hands = _run(port, [(table, session, args.hands) for table, session in tables], _enter_hands, deadline)
        _report("hand entry (POST /tables/<id>/hands/)", hands)
        home = _run(port, [(None, None, args.hands)] * args.tables, _get_home, deadline)
        _report("trivial view (GET /, logged out)", home)
        _check([table for table, _session in tables], hands)
        _race_log_ins(port, args.workers)
    finally:
        _reset_log_in_counters()
        stop(gunicorn)
        drop_database(args.server, database)


def _prepare(count: int) -> list[tuple[int, str]]:
    """Migrate, then one scorekeeper, evening and Šnapser table per thread; sessions made directly."""
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client

    from ledger import services

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


def _enter_hands(port: int, table: int, session: str, count: int, deadline: float) -> list[tuple[int, float]]:
    cookies = f"sessionid={session}; csrftoken={CSRF}"
    results = []
    for number in range(count):
        if time.monotonic() > deadline:
            break
        body = urlencode(HAND | {"key": f"load-{table}-{number}"})
        results.append(_request(port, "POST", f"/tables/{table}/hands/", body, cookies))
    return results


def _get_home(port: int, _table: None, _session: None, count: int, deadline: float) -> list[tuple[int, float]]:
    return [_request(port, "GET", "/") for _ in range(count) if time.monotonic() <= deadline]


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


def _run(port: int, jobs: list[tuple[object, object, int]], work, deadline: float) -> dict[str, object]:
    started = time.perf_counter()
    with ThreadPoolExecutor(len(jobs)) as pool:
        futures = [pool.submit(work, port, a, b, count, deadline) for a, b, count in jobs]
        results = [result for future in futures for result in future.result()]
    return {"results": results, "seconds": time.perf_counter() - started}


def _report(title: str, run: dict[str, object]) -> None:
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


def _check(tables: list[int], run: dict[str, object]) -> None:
    from ledger.models import Hand

    results = run["results"]
    assert isinstance(results, list)
    stored = 0
    for table in tables:
        numbers = list(Hand.objects.filter(table_id=table).order_by("number").values_list("number", flat=True))
        assert numbers == list(range(1, len(numbers) + 1)), f"table {table}: numbers {numbers}"
        stored += len(numbers)
    accepted = sum(status == 302 for status, _latency in results)
    assert stored == accepted, f"{accepted} hands accepted, {stored} stored"
    print(f"check: {stored} hands stored, each table numbered 1..n without gaps or doubles")


if __name__ == "__main__":
    main()
