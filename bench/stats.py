"""Statistics of a circle with years of weekly evenings: the circle's and a player's statistics (page and API) as a
ratio to the table page measured in the same run, and the SQL query count at two sizes.

    .venv/bin/python bench/stats.py                              # both back ends, 20 rounds each
    .venv/bin/python bench/stats.py --backend client --rounds 30
    .venv/bin/python bench/stats.py --backend server --server postgres://postgres@127.0.0.1:5432

Back ends as in ``bench/requests.py``: ``client`` (Django's test client in this process, a throwaway SQLite file)
and ``server`` (gunicorn, one sync worker, DEBUG off, on a throwaway PostgreSQL database dropped at the end).

The data: one scorekeeper, 8 players in a circle, and two circles of weekly evenings, a small one (26 evenings,
half a year) and the issue's (260 evenings: 5 years). Each evening has two tables of 50 hands: Mariáš for four of
the players and, for the other four, Šnapser and Skat (four seats, the dealer sitting out) in turn; 100 hands an
evening, 26,000 in the large circle. Built quickly with bulk inserts, not through the services: each hand is priced
by the engine (``rules.score``, through the ledger's own ``_stored_result``, once per distinct document and seating,
then reused), its postings are its priced amounts (so they sum to zero), and each table's running balances are
summed as the hands are written, as ``ledger.running_balances`` keeps them.

Each circle's statistics summaries (``ledger.stats.summaries``) are computed once after the bulk insert, as the
first statistic after an import would, and timed. Then, round after round in a shuffled order (medians): the floor
(``GET /``), the table page of the latest evening (``GET /tables/<id>/``, 50 hands), the circle's statistics page
and API, one player's statistics page and API (asked again: the cached answer), and the two APIs after a new hand
(the revision of the newest table of the player bumped before each request: the answer and that table's summaries
computed again).
Target: the statistics within 3x the table page's time in the same run; the query count the same at both
sizes (printed, from Django's test client with the queries captured).
"""

from __future__ import annotations

import argparse
import datetime
import http.client
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)

from bench.serving import database_admin, drop_database, free_port, start_gunicorn, stop  # noqa: E402

SIZES = {"small": 26, "large": 260}  # evenings
HANDS_PER_TABLE = 50
PLAYERS = ["Ana", "Ben", "Cyril", "Dana", "Emil", "Fany", "Gusta", "Hana"]
TIMEOUT = 60
KINDS = {
    "floor": "floor: GET / (logged in)",
    "table": "table page: GET /tables/<id>/ (50 hands)",
    "circle_page": "circle statistics page",
    "circle_api": "circle statistics API",
    "player_page": "player statistics page",
    "player_api": "player statistics API",
    "circle_recorded": "circle statistics API, after a hand recorded",
    "player_recorded": "player statistics API, after a hand recorded",
    "circle_changed": "circle statistics API, summaries stale",
    "player_changed": "player statistics API, summaries stale",
}
# Requests after a change to the books: the revision of the newest table the player sits at is bumped before each
# (as a hand recorded there does), so the cached answer no longer fits and that table's summaries are recomputed,
# in any process.
CHANGED = ("circle_changed", "player_changed")
# Requests after a hand recorded at that table as Record does it: stored and committed, then the hand added to the
# table's summaries once the answer has gone out (``ledger.stats.increments``), so only the answer is computed
# again.
RECORDED = ("circle_recorded", "player_recorded")
TARGET = 3.0


def _marias(seats: list[str], number: int) -> dict[str, Any]:
    declarer, partner = seats[number % 4], seats[(number + 1 + number // 4) % 4]
    pair = {"declarer": declarer, "partner": partner}
    choices = [
        {**pair, "contract": "hra", "trump": "bells", "points": 60},
        {**pair, "contract": "hra", "trump": "leaves", "points": 30, "flek": {"hra": 1}},
        {**pair, "contract": "sedma", "trump": "bells", "points": 60, "seven": {"side": "declarer", "won": True}},
        {**pair, "contract": "hra", "trump": "hearts", "points": 70},
        {"declarer": declarer, "contract": "betl", "won": number % 3 == 0},
    ]
    return choices[number * 7 % len(choices)]


def _snapser(seats: list[str], number: int) -> dict[str, Any]:
    declarer, partner = seats[number % 4], seats[(number + 2) % 4]
    choices = [
        {
            "declarer": declarer,
            "partner": partner,
            "trump": "leaves",
            "announcement": "hram",
            "winner": "declarer",
            "result": "s_vodou",
        },
        {
            "declarer": declarer,
            "partner": partner,
            "trump": "hearts",
            "announcement": "hram",
            "raises": 1,
            "winner": "defenders",
            "result": "bez_vody",
        },
        {"declarer": declarer, "trump": "bells", "announcement": "za12", "winner": "defenders"},
    ]
    return choices[number * 5 % len(choices)]


def _skat(seats: list[str], number: int) -> dict[str, Any]:
    dealer = number % 4
    declarer = seats[(dealer + 1 + number // 4 % 3) % 4]
    hand: dict[str, Any] = {"dealer": seats[dealer], "declarer": declarer, "matadors": 1}
    choices = [
        {"contract": "grand", "declarer_points": 61},
        {"contract": "clubs", "declarer_points": 75},
        {"contract": "hearts", "declarer_points": 50},
    ]
    return hand | choices[number * 3 % len(choices)]


GAMES: dict[str, Callable[[list[str], int], dict[str, Any]]] = {
    "marias": _marias,
    "snapser": _snapser,
    "skat": _skat,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=["both", "client", "server"], default="both")
    parser.add_argument("--rounds", type=int, default=20, help="timed requests of each kind")
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432", help="PostgreSQL server URL")
    args = parser.parse_args()
    if not 3 <= args.rounds <= 200:
        parser.error("keep it bounded: rounds 3..200")
    if args.backend == "both":
        for backend in ("client", "server"):
            command = [sys.executable, __file__, "--backend", backend, "--rounds", str(args.rounds)]
            subprocess.run([*command, "--server", args.server], check=True)
        return
    if args.backend == "client":
        with tempfile.TemporaryDirectory(prefix="talon-stats-") as folder:
            _environment(f"sqlite:///{folder}/bench.sqlite3")
            _client_run(args.rounds)
    else:
        _server_run(args.rounds, args.server)


def _environment(database_url: str) -> None:
    os.environ.update(
        {
            "DATABASE_URL": database_url,
            "DJANGO_SETTINGS_MODULE": "tests.settings",
            "SECRET_KEY": "stats-bench-" + "x" * 40,
            "DEBUG": "0",
            "ALLOWED_HOSTS": "127.0.0.1,testserver",
            "SECURE_SSL_REDIRECT": "0",
            "SECURE_HSTS_SECONDS": "0",
        }
    )


def _client_run(rounds: int) -> None:
    seating = _prepare()
    from django.test import Client

    client = Client()
    client.force_login(seating["user"])

    def send(path: str, headers: dict[str, str]) -> int:
        return client.get(path, headers=headers).status_code

    _measure("in-process test client, SQLite", seating, send, rounds)


def _server_run(rounds: int, server: str) -> None:
    database = f"talon_stats_{os.getpid()}"
    _environment(f"{server}/{database}")
    database_admin(server, f'CREATE DATABASE "{database}"')
    gunicorn = None
    try:
        seating = _prepare()
        port = free_port()
        gunicorn = start_gunicorn(ROOT, port, "--workers", "1", "--timeout", "120")

        def send(path: str, headers: dict[str, str]) -> int:
            sent = {"Cookie": f"sessionid={seating['session']}"} | headers
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
            try:
                conn.request("GET", path, headers=sent)
                response = conn.getresponse()
                response.read()
                return response.status
            finally:
                conn.close()

        _measure("gunicorn (1 sync worker) + PostgreSQL, loopback HTTP", seating, send, rounds)
    finally:
        stop(gunicorn)
        drop_database(server, database)


# -- the data ---------------------------------------------------------------------------------------------------


def _prepare() -> dict[str, Any]:
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client
    from rest_framework.authtoken.models import Token

    from ledger.models import Table
    from ledger.stats import summaries as stats_summaries

    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_user(username="keeper", password=None)
    circles = {}
    for size, evenings in SIZES.items():
        started = time.perf_counter()
        circles[size] = build_circle(user, f"Regulars {size}", evenings, suffix=f" {size}")
        print(f"built the {size} circle: {evenings} evenings in {time.perf_counter() - started:.1f} s", flush=True)
    for size, built in circles.items():
        started = time.perf_counter()
        computed = stats_summaries.refresh(Table.objects.filter(evening__circle_id=built["circle"]))
        took = time.perf_counter() - started
        print(f"the {size} circle's statistics summaries from scratch: {computed} tables in {took:.2f} s", flush=True)
    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    return {"user": user, "session": session, "token": Token.objects.create(user=user).key, "circles": circles}


def build_circle(owner: Any, name: str, evenings: int, suffix: str = "") -> dict[str, int]:
    """A circle of the 8 players (their names ending in ``suffix``: each circle its own players, so a player's
    statistics read one circle's hands) with ``evenings`` weekly evenings of two tables of 50 hands, by bulk
    inserts."""
    from django.db import transaction

    import rules
    from ledger import services
    from ledger.circles.models import Circle, CircleMember
    from ledger.models import Evening, Hand, Posting, Seat, Table
    from ledger.services import hands

    players = {name: services.player_get_or_create(owner=owner, name=name + suffix) for name in PLAYERS}
    priced: dict[tuple[str, str], tuple[dict[str, Any], dict[str, Decimal]]] = {}
    rulesets = {
        "marias": rules.resolve("marias", {"preset": "ctyrka-dvacetnik"}),
        "snapser": rules.resolve("snapser", {"preset": "seed"}),
        "skat": rules.resolve("skat", {"preset": "isko"}),
    }

    def price(table: Table, hand: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Decimal]]:
        key = (table.game, repr((table.seat_names, sorted(hand.items()))))
        if key not in priced:
            _score, result = hands.stored_result(table, hand)
            priced[key] = (result, {name: Decimal(amount) for name, amount in result["amounts"].items()})
        return priced[key]

    with transaction.atomic():
        circle = Circle.objects.create(owner=owner, name=name, currency="CZK")
        CircleMember.objects.bulk_create(CircleMember(circle=circle, player=player) for player in players.values())
        start = datetime.date(2026, 11, 27) - datetime.timedelta(weeks=evenings)
        made = Evening.objects.bulk_create(
            Evening(
                owner=owner,
                circle=circle,
                date=start + datetime.timedelta(weeks=week),
                place="U Fleků",
                currency="CZK",
                coin=Decimal(1),
                share_token=None,
            )
            for week in range(evenings)
        )
        draw = random.Random(19)
        tables: list[Table] = []
        for week, evening in enumerate(made):
            seated = draw.sample(PLAYERS, 8)
            other = ("snapser", "skat")[week % 2]
            for game, names in (("marias", seated[:4]), (other, seated[4:])):
                seats = [name + suffix for name in names]
                tables.append(
                    Table(
                        evening=evening,
                        game=game,
                        ruleset=dict(rulesets[game]),
                        seat_names=seats,
                        hand_count=HANDS_PER_TABLE,
                        revision=HANDS_PER_TABLE,
                    )
                )
        tables = Table.objects.bulk_create(tables)
        by_name = {player.name: player for player in players.values()}
        Seat.objects.bulk_create(
            Seat(table=table, player=by_name[name], position=position)
            for table in tables
            for position, name in enumerate(table.seat_names)
        )
        hands: list[Hand] = []
        amounts: list[dict[str, Decimal]] = []
        for table in tables:
            running = dict.fromkeys(table.seat_names, Decimal(0))
            for number in range(1, HANDS_PER_TABLE + 1):
                document = GAMES[table.game](table.seat_names, number)
                result, amount = price(table, document)
                for player, value in amount.items():
                    running[player] += value
                hands.append(
                    Hand(
                        table=table,
                        number=number,
                        dealer=(number - 1) % 4,
                        document=document,
                        result=result,
                        balances=[str(running[name]) for name in table.seat_names],
                        entered_by=owner,
                        changed_by=owner,
                    )
                )
                amounts.append(amount)
        hands = Hand.objects.bulk_create(hands, batch_size=2000)
        Posting.objects.bulk_create(
            (
                Posting(hand=hand, player=by_name[name], amount=value)
                for hand, amount in zip(hands, amounts, strict=True)
                for name, value in amount.items()
            ),
            batch_size=5000,
        )
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")  # what autovacuum does after so many rows: the planner's statistics
    latest = tables[-2]  # the newest evening's Mariáš table
    # Where a new hand changes both the circle's and Ana's statistics (Mariáš: no dealer sitting out to follow).
    anas = [table for table in tables if players["Ana"].name in table.seat_names and table.game == "marias"][-1]
    return {
        "circle": circle.pk,
        "table": latest.pk,
        "player": players["Ana"].pk,
        "changed": anas.pk,
        "hands": len(hands),
    }


# -- the measurement --------------------------------------------------------------------------------------------


def _paths(seating: dict[str, Any], size: str) -> dict[str, tuple[str, dict[str, str]]]:
    built = seating["circles"][size]
    api = {"Authorization": f"Token {seating['token']}"}
    return {
        "floor": ("/", {}),
        "table": (f"/tables/{built['table']}/", {}),
        "circle_page": (f"/circles/{built['circle']}/stats/", {}),
        "circle_api": (f"/api/circles/{built['circle']}/stats/", api),
        "player_page": (f"/players/{built['player']}/stats/", {}),
        "player_api": (f"/api/players/{built['player']}/stats/", api),
        "circle_recorded": (f"/api/circles/{built['circle']}/stats/", api),
        "player_recorded": (f"/api/players/{built['player']}/stats/", api),
        "circle_changed": (f"/api/circles/{built['circle']}/stats/", api),
        "player_changed": (f"/api/players/{built['player']}/stats/", api),
    }


def _query_counts(seating: dict[str, Any]) -> None:
    """Each request's SQL query count at both sizes, from the test client with the queries captured."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client()
    client.force_login(seating["user"])
    print(f"\nSQL queries per request{'':<22} {'small':>8} {'large':>8}")
    for kind, label in KINDS.items():
        if kind in CHANGED + RECORDED:
            continue
        counts = []
        for size in SIZES:
            path, headers = _paths(seating, size)[kind]
            if kind.endswith(("_page", "_api")):
                from django.core.cache import cache

                cache.clear()  # the count of a first request: the statistics computed
            with CaptureQueriesContext(connection) as captured:
                assert client.get(path, headers=headers).status_code == 200, path
            counts.append(len(captured.captured_queries))
        print(f"{label:<45} {counts[0]:>8} {counts[1]:>8}{'' if counts[0] == counts[1] else '  GROWS'}")


def _record_hand(table: Any, owner: Any) -> None:
    """A hand recorded at ``table`` as the Record request does it: committed, then added to the table's summaries
    when its answer has gone out (here at once: ``request_started`` and ``request_finished`` are what run them in
    the app)."""
    from django.db import transaction

    from ledger import services
    from ledger.stats import increments

    increments.begin()
    with transaction.atomic():
        services.hand_record(table=table, hand=GAMES[table.game](table.seat_names, table.hand_count + 1), by=owner)
    increments.flush()


def _measure(title: str, seating: dict[str, Any], send: Callable[..., int], rounds: int) -> None:
    from django.db.models import F

    from ledger.models import Table

    _query_counts(seating)
    kinds = list(KINDS)
    timings: dict[tuple[str, str], list[float]] = {(kind, size): [] for kind in kinds for size in SIZES}
    warmup = 2
    # Unchanged books first, then changed: a change before one request makes the next unchanged one compute too.
    later = CHANGED + RECORDED
    for phase in ([kind for kind in kinds if kind not in later], [kind for kind in kinds if kind in later]):
        jobs = [(kind, size) for kind in phase for size in SIZES]
        for round_number in range(warmup + rounds):
            random.shuffle(jobs)
            for kind, size in jobs:
                path, headers = _paths(seating, size)[kind]
                if kind in CHANGED:
                    Table.objects.filter(pk=seating["circles"][size]["changed"]).update(revision=F("revision") + 1)
                if kind in RECORDED:
                    _record_hand(Table.objects.get(pk=seating["circles"][size]["changed"]), seating["user"])
                started = time.perf_counter()
                status = send(path, headers)
                elapsed = time.perf_counter() - started
                if status != 200:
                    raise SystemExit(f"{path} answered {status}")
                if round_number >= warmup:
                    timings[(kind, size)].append(elapsed)
    medians = {job: statistics.median(values) for job, values in timings.items()}
    hands = {size: seating["circles"][size]["hands"] for size in SIZES}
    print(f"\n{title}: medians of {rounds} rounds")
    header = "".join(f"{f'{size}: {count:,} hands':>24}" for size, count in hands.items())
    print(f"{'request':<45}{header}  target")
    for kind in kinds:
        label = KINDS[kind]
        cells, ratios = [], []
        for size in SIZES:
            table = medians[("table", size)]
            ratio = medians[(kind, size)] / table
            ratios.append(ratio)
            cells.append(f"{medians[(kind, size)] * 1000:7.1f} ms {ratio:5.2f}x tbl")
        verdict = ""
        if kind not in ("floor", "table"):
            verdict = f"<= {TARGET:.0f}x the table page: {'met' if max(ratios) <= TARGET else 'MISSED'}"
        print(f"{label:<45}{cells[0]:>24}{cells[1]:>24}  {verdict}")


if __name__ == "__main__":
    main()
