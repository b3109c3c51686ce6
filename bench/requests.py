"""Request cost against the length of the evening: the table page and a hand submission at 10 and at 500 hands,
each as a ratio to a floor view measured in the same run.

    .venv/bin/python bench/requests.py                        # both back ends, 30 rounds each
    .venv/bin/python bench/requests.py --backend client --rounds 60
    .venv/bin/python bench/requests.py --backend server --server postgres://postgres@127.0.0.1:5432

Two back ends, each in its own process (Django is set up once per process, for one database):

- ``client``: Django's test client in this process, on a throwaway SQLite file (no HTTP, no other process);
- ``server``: gunicorn (one sync worker, ``tests.settings``, DEBUG off) on a free loopback port, on a throwaway
  PostgreSQL database created on ``--server`` and dropped at the end, also on error.

Each seats one scorekeeper at one Šnapser table per size (10 and 500 hands, entered through ``hand_record``) and
then, round after round in a shuffled order, times: the floor (``GET /`` for the logged-in scorekeeper), the table
page (``GET /tables/<id>/``), a hand through the form as htmx sends it (``POST /tables/<id>/hands/`` with
``HX-Request``) and a hand through the API (``POST /api/tables/<id>/hands/``, token). Every hand posted is
deleted again (not timed), so a table keeps its size throughout, and the fresh form of the htmx answer is always
one drawn before (drawn once per dealer: docs/benchmarks.md says what a first one costs). Medians, since the
machine is shared; each request's median is reported as a multiple of the floor's median, and the growth from 10
to 500 hands.

Targets: a hand submission at most 3x the floor, the table page at most 5x, and none of them
more than 1.2x dearer at 500 hands than at 10.

The whole request: what runs in the worker after the answer has gone out (Django's ``request_finished``: the hand
added to the statistics summaries) is part of what a hand costs. The ``client`` back end counts it always (the
test client sends ``request_finished`` before ``post`` returns). The ``server`` back end times up to the answer;
``--whole`` counts the rest too: each hand POST is followed at once by a floor request on the same single worker,
which answers only once the POST's request is over, and the floor's own median is taken off again.

A posted hand is deleted again between rounds and the table's statistics summaries recomputed (neither timed), so
each hand POST finds them current, as a scorekeeper's next hand does.
"""

from __future__ import annotations

import argparse
import datetime
import http.client
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
# The project first, and not this folder: a library that tries ``import requests`` must not find this file.
sys.path[0] = str(ROOT)

from bench.serving import database_admin, drop_database, free_port, start_gunicorn, stop  # noqa: E402 - needs the path above

CSRF = "c" * 32  # our own CSRF secret, sent as cookie and header
SIZES = (10, 500)
TIMEOUT = 10
# A rotation of plain Šnapser hands (declarer, result), so the balances and the chart move both ways.
FILL = [("Ana", "s_vodou"), ("Ben", "bez_vody"), ("Cyril", "za_6"), ("Ben", "s_vodou"), ("Ana", "bez_vody")]
POSTED = {"declarer": "Ben", "trump": "leaves", "announcement": "hram", "winner": "declarer", "result": "s_vodou"}
KINDS = {
    "floor": "floor: GET / (logged in)",
    "page": "table page: GET /tables/<id>/",
    "htmx": "hand POST, htmx: /tables/<id>/hands/",
    "api": "hand POST, API: /api/tables/<id>/hands/",
}
TARGETS = {"page": 5.0, "htmx": 3.0, "api": 3.0}
GROWTH = 1.2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=["both", "client", "server"], default="both")
    parser.add_argument("--rounds", type=int, default=30, help="timed requests of each kind at each size")
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432", help="PostgreSQL server URL")
    parser.add_argument("--whole", action="store_true", help="server: count what runs after the answer too")
    args = parser.parse_args()
    if not 3 <= args.rounds <= 500:
        parser.error("keep it bounded: rounds 3..500")
    if args.backend == "both":
        for backend in ("client", "server"):
            command = [sys.executable, __file__, "--backend", backend, "--rounds", str(args.rounds)]
            subprocess.run([*command, "--server", args.server, *(["--whole"] if args.whole else [])], check=True)
        return
    if args.backend == "client":
        _client_run(args.rounds)
    else:
        _server_run(args.rounds, args.server, whole=args.whole)


# -- the two back ends ------------------------------------------------------------------------------------------


def _environment(database_url: str) -> None:
    os.environ.update(
        {
            "DATABASE_URL": database_url,
            "DJANGO_SETTINGS_MODULE": "tests.settings",  # static files from the finders, nothing to collect
            "SECRET_KEY": "requests-bench-" + "x" * 40,
            "DEBUG": "0",
            "ALLOWED_HOSTS": "127.0.0.1,testserver",
            "SECURE_SSL_REDIRECT": "0",
            "SECURE_HSTS_SECONDS": "0",
        }
    )


def _client_run(rounds: int) -> None:
    with tempfile.TemporaryDirectory(prefix="talon-requests-") as folder:
        _environment(f"sqlite:///{folder}/bench.sqlite3")
        seating = _prepare()
        from django.test import Client

        client = Client()
        client.force_login(seating["user"])

        def send(method: str, path: str, body: str = "", headers: dict[str, str] | None = None) -> tuple[int, str]:
            if method == "GET":
                response = client.get(path, headers=headers)
            else:
                json_body = path.startswith("/api/")
                content_type = "application/json" if json_body else "application/x-www-form-urlencoded"
                response = client.post(path, body, content_type=content_type, headers=headers)
            return response.status_code, response.headers.get("HX-Reswap", "")

        _measure("in-process test client, SQLite (whole requests: request_finished included)", seating, send, rounds)


def _server_run(rounds: int, server: str, *, whole: bool = False) -> None:
    database = f"talon_requests_{os.getpid()}"
    _environment(f"{server}/{database}")
    database_admin(server, f'CREATE DATABASE "{database}"')
    gunicorn = None
    try:
        seating = _prepare()
        port = free_port()
        gunicorn = start_gunicorn(ROOT, port, "--workers", "1")
        cookies = f"sessionid={seating['session']}; csrftoken={CSRF}"

        def send(method: str, path: str, body: str = "", headers: dict[str, str] | None = None) -> tuple[int, str]:
            sent = {"Cookie": cookies, "X-CSRFToken": CSRF} | (headers or {})
            if method == "POST" and "Content-Type" not in sent:
                sent["Content-Type"] = "application/x-www-form-urlencoded"
            return _http(port, method, path, body, sent)

        title = "gunicorn (1 sync worker) + PostgreSQL, loopback HTTP"
        if whole:
            title += " (whole requests: each hand POST then a floor request, less the floor's median)"
        _measure(title, seating, send, rounds, probe=whole)
    finally:
        stop(gunicorn)
        drop_database(server, database)


def _http(port: int, method: str, path: str, body: str, headers: dict[str, str]) -> tuple[int, str]:
    """The status and the HX-Reswap header of one request on a new connection (gunicorn's sync workers close it)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
    try:
        conn.request(method, path, body.encode() or None, headers=headers)
        response = conn.getresponse()
        response.read()
        return response.status, response.getheader("HX-Reswap") or ""
    finally:
        conn.close()


# -- the data and the measurement -------------------------------------------------------------------------------


def _prepare() -> dict[str, Any]:
    """Migrate, then one scorekeeper with a session and an API token, and one Šnapser table per size."""
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client
    from rest_framework.authtoken.models import Token

    from ledger import services

    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_user(username="keeper", password=None)
    evening = services.evening_create(owner=user, date=datetime.date(2026, 11, 27), currency="EUR")
    tables = {}
    for size in SIZES:
        table = services.table_create(evening=evening, game="snapser", players=["Ana", "Ben", "Cyril"])
        for number in range(size):
            declarer, result = FILL[number % len(FILL)]
            hand = POSTED | {"declarer": declarer, "result": result, "raises": number % 3}
            services.hand_record(table=table, hand=hand, by=user)
        tables[size] = table.pk
    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    return {"user": user, "session": session, "token": Token.objects.create(user=user).key, "tables": tables}


def _measure(
    title: str, seating: dict[str, Any], send: Callable[..., tuple[int, str]], rounds: int, *, probe: bool = False
) -> None:
    from django.db.models import F

    from ledger.models import Hand, Table
    from ledger.stats import summaries

    def one(kind: str, size: int, key: str, revision: int) -> tuple[int, str]:
        table = seating["tables"][size]
        if kind == "floor":
            return send("GET", "/")
        if kind == "page":
            return send("GET", f"/tables/{table}/")
        if kind == "htmx":
            # As the browser sends it: the table's revision the form was drawn on, and the page's address.
            body = urlencode(POSTED | {"raises": "0", "dealer": "0", "key": key, "table_revision": revision})
            headers = {"HX-Request": "true", "HX-Current-URL": f"http://127.0.0.1/tables/{table}/"}
            return send("POST", f"/tables/{table}/hands/", body, headers)
        body = json.dumps({"hand": POSTED, "key": key})
        auth = {"Authorization": f"Token {seating['token']}", "Content-Type": "application/json"}
        return send("POST", f"/api/tables/{table}/hands/", body, auth)

    def forget_posted(size: int) -> None:
        table = seating["tables"][size]
        Hand.objects.filter(table_id=table, number__gt=size).delete()
        Table.objects.filter(pk=table).update(hand_count=size, revision=F("revision") + 1)
        summaries.refresh(Table.objects.filter(pk=table))  # current again, as before a scorekeeper's next hand

    expected = {"floor": 200, "page": 200, "htmx": 200, "api": 201}
    # The answer to Record carries only what changed, swapped in out of band (HX-Reswap: none); before that
    # it redrew the table's whole live part. BENCH_ANSWER="" measures a checkout from before.
    answer = os.environ.get("BENCH_ANSWER", "none")
    jobs = [(kind, size) for kind in KINDS for size in SIZES]
    timings: dict[tuple[str, int], list[float]] = {job: [] for job in jobs}
    warmup = 3
    for round_number in range(warmup + rounds):
        random.shuffle(jobs)
        for kind, size in jobs:
            # Read before the clock starts: the revision the page would show (every hand deleted again bumps it).
            revision = Table.objects.values_list("revision", flat=True).get(pk=seating["tables"][size])
            started = time.perf_counter()
            status, reswap = one(kind, size, f"bench-{round_number}-{kind}-{size}", revision)
            if probe and kind in ("htmx", "api"):
                send("GET", "/")  # answered once the POST's request is over, its after-the-answer work included
            elapsed = time.perf_counter() - started
            if status != expected[kind]:
                raise SystemExit(f"{kind} at {size} hands answered {status}, not {expected[kind]}")
            if kind == "htmx" and reswap != answer:
                raise SystemExit(f"the htmx hand POST at {size} hands answered HX-Reswap {reswap!r}, not {answer!r}")
            if kind in ("htmx", "api"):
                forget_posted(size)
            if round_number >= warmup:
                timings[(kind, size)].append(elapsed)
    medians = {job: statistics.median(values) for job, values in timings.items()}
    if probe:
        for kind, size in jobs:
            if kind in ("htmx", "api"):
                medians[(kind, size)] -= medians[("floor", size)]
    _report(title, rounds, medians)


def _report(title: str, rounds: int, medians: dict[tuple[str, int], float]) -> None:
    floor = statistics.median([medians[("floor", size)] for size in SIZES])
    small, large = SIZES
    print(f"\n{title}: medians of {rounds} rounds; floor {floor * 1000:.1f} ms")
    print(f"{'request':<42} {f'{small} hands':>16} {f'{large} hands':>16} {'growth':>7}  target")
    for kind, label in KINDS.items():
        cells, ratios = [], []
        for size in SIZES:
            ratio = medians[(kind, size)] / floor
            ratios.append(ratio)
            cells.append(f"{medians[(kind, size)] * 1000:6.1f} ms {ratio:4.1f}x")
        growth = ratios[1] / ratios[0]
        verdict = ""
        if kind in TARGETS:
            met = max(ratios) <= TARGETS[kind] and growth <= GROWTH
            verdict = f"<= {TARGETS[kind]:.0f}x, growth <= {GROWTH}: {'met' if met else 'MISSED'}"
        print(f"{label:<42} {cells[0]:>16} {cells[1]:>16} {growth:6.2f}x  {verdict}")


if __name__ == "__main__":
    main()
