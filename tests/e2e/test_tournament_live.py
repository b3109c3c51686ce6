"""A tournament's live standings in a real browser: the projector (Alice, the organiser, on a laptop) and a
player's phone (Bob, the standings link, no account).

pytest-django's live server is a WSGI server, where the live line (ledger/live/streams.py ``event_stream``) answers with
the standings alone and ends; EventSource comes back after its ``retry`` (3 s) and gets the standings as they are
then. So here a hand reaches the pages through the line's first event on each reconnection, drawn by
static/js/standings.js without a reload; the push of each hand to an open line under ASGI is tested with Django's
AsyncClient in tests/ledger/tournaments/test_tournament_live.py. The fallback (htmx asking every 5 s while the line
is down) is tested here with the line blocked.

On PostgreSQL with Redis at hand, one more test serves the pages from uvicorn (the ASGI server that serves the live
lines in production, docs/deploy.md) on the live server's database: a hand stored in the test's process goes
through Redis to uvicorn and on to the phone's open line, as on a real club night.
"""

from __future__ import annotations

import datetime
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any, NamedTuple

import pytest
import redis
from django.db import connection
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, Page, expect

from ledger import services
from ledger.tournaments import services as tournaments
from ledger.tournaments.models import Round, Tournament, TournamentTable
from tests.e2e.axe import audit
from tests.e2e.browser import PHONE
from tests.e2e.conftest import TIMEOUT_MS, let_the_server_finish, log_in, watched_context
from tests.e2e.ui import screenshot
from tests.servers import need_postgresql, need_redis

pytestmark = pytest.mark.e2e

PLAYERS = ["Šárka", "Jürgen", "Ľubo", "Dana", "Emil", "Fritz", "Gábor"]
DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}, "locale": "en-GB"}
NARROW: dict[str, Any] = {**PHONE, "viewport": {"width": 320, "height": 640}}
# Marks the document once loaded: a reload would lose the mark.
MARK = "document.documentElement.dataset.loadedOnce = '1'"
LINE_SECONDS = 8.0  # the line's retry (3 s) plus a slow shared machine; the fallback's 5 s plus the same


@pytest.fixture
def night(alice: Any) -> Tournament:
    return tournaments.tournament_create(
        owner=alice,
        game="skat",
        name="Skat im Löwen",
        players=PLAYERS,
        rounds=2,
        options={"fees": {"entry": "10"}, "for_money": True},
        date=datetime.date(2026, 12, 1),
        place="Gasthaus Löwe",
        start=True,
    )


def _first_table(tournament: Tournament) -> TournamentTable:
    return (
        TournamentTable.objects.filter(round__tournament=tournament)
        .select_related("table", "round")
        .order_by("round__number", "number")[0]
    )


def _win_grand(table: TournamentTable) -> str:
    """The first seat wins a grand with one matador: 98 list points, +2.94 € (tests/ledger/test_tournament_live)."""
    seats = table.table.seat_names
    declarer, dealer = seats[0], seats[-1]
    hand = {"dealer": dealer, "declarer": declarer, "contract": "grand", "matadors": 1, "declarer_points": 61}
    services.hand_record(table=table.table, hand=hand, by=table.round.tournament.owner)
    return declarer


class Screens:
    """Browser contexts opened by one test, closed (and checked for script errors) at its end."""

    def __init__(self, browser: Browser, live_server: Any) -> None:
        self.browser = browser
        self.url = live_server.url
        self.contexts: list[tuple[BrowserContext, list[str], bool]] = []

    def open(self, options: dict[str, Any], *, user: Any = None, theme: str = "", quiet: bool = True) -> Page:
        context, problems = watched_context(self.browser, self.url, counter=False, **options)
        if user is not None:
            log_in(context, user, self.url)
        if theme:
            # In a try: the script also runs in the blank page before the first visit, which has no storage.
            context.add_init_script(f"try {{ localStorage.setItem('talon-theme', '{theme}'); }} catch (e) {{}}")
        self.contexts.append((context, problems, quiet))
        return context.new_page()

    def close(self) -> None:
        for context, problems, quiet in self.contexts:
            context.close()
            if quiet:
                assert not problems, f"the browser reported errors: {problems}"
        let_the_server_finish()


@pytest.fixture
def screens(browser: Browser, live_server: Any) -> Iterator[Screens]:
    opened = Screens(browser, live_server)
    yield opened
    opened.close()


def _projector(night: Tournament) -> str:
    return reverse("ledger:tournament_projector", args=[night.pk])


def _live(night: Tournament) -> str:
    return reverse("ledger:tournament_live", args=[night.share_token])


def _top_row(page: Page) -> Any:
    return page.locator("#standings-live tbody[data-rows] tr").first


def _no_sideways_scroll(page: Page) -> None:
    width = page.viewport_size["width"] if page.viewport_size else 0
    assert page.evaluate("document.documentElement.scrollWidth") <= width


# --------------------------------------------------------------------------------------------------------------
# A hand reaches the projector and a phone without a reload


def test_a_hand_appears_on_the_projector_and_a_players_phone_without_a_reload(
    screens: Screens, alice: Any, night: Tournament
) -> None:
    wall = screens.open(DESKTOP, user=alice, theme="dark")
    wall.goto(_projector(night))
    phone = screens.open(PHONE)
    phone.goto(_live(night))
    for page in (wall, phone):
        expect(page.locator("#standings-live tbody[data-rows] tr")).to_have_count(len(PLAYERS))
        expect(page.locator("[data-round-label]")).to_have_text("Series 1 of 2")
        page.evaluate(MARK)
    expect(wall.locator("[data-clock]")).to_have_text(re.compile(r"^1:29:\d\d$"))  # 90 minutes, counting down

    table = _first_table(night)
    stored = time.monotonic()
    winner = _win_grand(table)
    for page in (wall, phone):
        expect(_top_row(page)).to_contain_text(winner, timeout=LINE_SECONDS * 1000)
    took = time.monotonic() - stored
    for page in (wall, phone):
        row = _top_row(page)
        expect(row.locator("td")).to_have_text(["1", "98", "1", "0", "+2.94"])
        expect(page.locator("td.money.minus")).to_have_count(3)
        assert page.evaluate("document.documentElement.dataset.loadedOnce") == "1", "the page was reloaded"
    assert took < LINE_SECONDS
    screenshot(wall, "tournament-projector-after-a-hand")
    screenshot(phone, "tournament-live-after-a-hand")

    # What the script drew from the line is what the server draws: the same rows after a reload.
    drawn = phone.locator("#standings-live tbody").text_content() or ""
    phone.reload()
    expect(phone.locator("#standings-live tbody")).to_have_text(drawn)


def test_the_next_series_reaches_the_clock_and_a_round_over_says_time(
    screens: Screens, alice: Any, night: Tournament
) -> None:
    wall = screens.open(DESKTOP, user=alice)
    wall.goto(_projector(night))
    wall.evaluate(MARK)
    Round.objects.filter(tournament=night).update(ends_at=timezone.now() + datetime.timedelta(seconds=3))
    # It publishes; here the next reconnection brings it.
    tournaments.round_start(tournament=night, number=2, confirm_unfinished=True)
    expect(wall.locator("[data-round-label]")).to_have_text("Series 2 of 2", timeout=LINE_SECONDS * 1000)
    expect(wall.locator("[data-clock]")).to_have_text(re.compile(r"^1:2\d:\d\d$"))
    Round.objects.filter(tournament=night, number=2).update(ends_at=timezone.now() - datetime.timedelta(seconds=1))
    tournaments.tournament_finish(tournament=night)
    expect(wall.locator("[data-clock]")).to_have_text("Finished", timeout=LINE_SECONDS * 1000)
    assert wall.evaluate("document.documentElement.dataset.loadedOnce") == "1"


def test_a_round_over_shows_time(screens: Screens, night: Tournament) -> None:
    Round.objects.filter(tournament=night).update(ends_at=timezone.now() + datetime.timedelta(seconds=8))
    phone = screens.open(PHONE)
    phone.goto(_live(night))
    expect(phone.locator("[data-clock]")).to_have_text(re.compile(r"^0:0[1-8]$"))
    expect(phone.locator("[data-clock]")).to_have_text("Time", timeout=12_000)
    expect(phone.locator("[data-clock]")).to_have_class(re.compile(r"\bover\b"))


# --------------------------------------------------------------------------------------------------------------
# With the line down, the page asks by itself


def test_with_the_line_blocked_the_phone_asks_for_the_standings_every_few_seconds(
    screens: Screens, night: Tournament
) -> None:
    phone = screens.open(PHONE, quiet=False)  # the blocked line is reported as a failed load
    phone.route(re.compile(r"/stream/$"), lambda route: route.abort())
    phone.goto(_live(night))
    phone.evaluate(MARK)
    winner = _win_grand(_first_table(night))
    expect(_top_row(phone)).to_contain_text(winner, timeout=LINE_SECONDS * 1000)
    expect(_top_row(phone).locator("td")).to_have_text(["1", "98", "1", "0", "+2.94"])
    assert phone.evaluate("document.documentElement.dataset.loadedOnce") == "1"

    # The organiser switches the link off: the next ask says so in place of the standings.
    Tournament.objects.filter(pk=night.pk).update(share_token=None)
    expect(phone.locator("[data-missing]")).to_contain_text(
        "These standings are not shared", timeout=LINE_SECONDS * 1000
    )


# --------------------------------------------------------------------------------------------------------------
# Legible, accessible, no sideways scroll: 320 px and a desktop, light and dark


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_pages_are_accessible_and_fit_at_320px_and_on_a_desktop(
    screens: Screens, alice: Any, night: Tournament, theme: str
) -> None:
    _win_grand(_first_table(night))
    for options in (NARROW, DESKTOP):
        for url, user in ((_projector(night), alice), (_live(night), None)):
            page = screens.open(options, user=user, theme=theme)
            page.goto(url)
            expect(page.locator("#standings-live tbody[data-rows] tr")).to_have_count(len(PLAYERS))
            expect(page.locator("html")).to_have_attribute("data-theme", theme)
            _no_sideways_scroll(page)
            assert audit(page) == [], (url, options["viewport"])


# --------------------------------------------------------------------------------------------------------------
# Under uvicorn, as in production: the hand is pushed to the open line


REDIS_URL = "redis://127.0.0.1:6379/1"
PUSH_SECONDS = 2.0  # the "within a second or two"; a push takes milliseconds (docs/benchmarks.md)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Uvicorn(NamedTuple):
    url: str
    pid: int


@pytest.fixture
def uvicorn(live_server: Any) -> Iterator[Uvicorn]:
    """The app under uvicorn, on the live server's (PostgreSQL) database, pushing through Redis."""
    need_postgresql("uvicorn runs in a process of its own: it needs the test database on a server, not in memory")
    need_redis(REDIS_URL, "it carries the push from this process to uvicorn's")
    database = connection.settings_dict
    url = f"postgres://{database['USER']}:{database['PASSWORD'] or ''}@{database['HOST']}:{database['PORT'] or 5432}"
    port = _free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "DATABASE_URL": f"{url}/{database['NAME']}",
        "PUSH_URL": REDIS_URL,
        "CACHE_URL": "",
        "ALLOWED_HOSTS": "127.0.0.1",
    }
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1", "--port", str(port),
         "--no-access-log", "--timeout-graceful-shutdown", "1"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                assert server.poll() is None, server.stderr.read().decode() if server.stderr else "uvicorn ended"
                assert time.monotonic() < deadline, "uvicorn did not answer within 30 s"
                time.sleep(0.1)
        yield Uvicorn(f"http://127.0.0.1:{port}", server.pid)
    finally:
        server.terminate()
        server.wait(10)


def _wait_until_listening(pid: int) -> None:
    """Until the line is open and listening: uvicorn's push reader is subscribed in Redis (ledger/live/fanout.py
    names its connection after the process, and subscribes once a viewer joins)."""
    name, deadline = f"talon-push-{pid}", time.monotonic() + TIMEOUT_MS / 1000
    admin = redis.Redis.from_url(REDIS_URL)
    while not any(c.get("name") == name and int(c.get("psub", 0)) for c in admin.client_list()):
        assert time.monotonic() < deadline, "uvicorn never subscribed to the pushes"
        time.sleep(0.05)


def test_under_uvicorn_a_stored_hand_is_pushed_to_an_open_phone_within_a_second_or_two(
    browser: Browser, uvicorn: Uvicorn, night: Tournament
) -> None:
    context = browser.new_context(base_url=uvicorn.url, **PHONE)
    context.set_default_timeout(TIMEOUT_MS)
    asked: list[str] = []
    context.on("request", lambda request: asked.append(request.url) if request.headers.get("hx-request") else None)
    try:
        phone = context.new_page()
        phone.goto(_live(night))
        expect(phone.locator("#standings-live tbody[data-rows] tr")).to_have_count(len(PLAYERS))
        phone.evaluate(MARK)
        _wait_until_listening(uvicorn.pid)
        with override_settings(PUSH_URL=REDIS_URL):
            stored = time.monotonic()
            winner = _win_grand(_first_table(night))
            expect(_top_row(phone)).to_contain_text(winner, timeout=PUSH_SECONDS * 1000)
        took = time.monotonic() - stored
        expect(_top_row(phone).locator("td")).to_have_text(["1", "98", "1", "0", "+2.94"])
        assert phone.evaluate("document.documentElement.dataset.loadedOnce") == "1", "the page was reloaded"
        assert asked == [], "the page asked for the standings although the line was open"
        assert took < PUSH_SECONDS
    finally:
        context.close()
        # The page talked to uvicorn, not the live server: the uvicorn fixture ends that process (it finishes the
        # requests in hand first) before the database is flushed.
