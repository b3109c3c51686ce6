"""Taps to start an evening: from the home page to the first hand form of a four-player table, on a phone.

    .venv/bin/python bench/start_taps.py

Starts its own server (Django's LiveServerThread on 127.0.0.1, a free port, a throw-away SQLite file) and drives the
real pages in a phone-sized chromium, as bench/taps.py does for the hands. Two ways in:

- **new players**: "Start an evening", "Next: the table" (today, CZK, Mariáš at its preset: all pre-selected),
  a tap into each of the four seats and the name typed, "Start the table";
- **same players as last time**: the home page's button (the scorekeeper has played before), "Start the table".

Every click counts as a tap, every key press as a keystroke; the players' names are the only keystrokes allowed.
The goal: at most 8 taps either way, and the last evening's players one tap away. Exits with status 1
when a way takes more, when it types more than the names, or when it does not end on the hand form of a table seated
as intended; the last lines print the counts.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parents[1]
sys.path[0] = str(ROOT)  # run from anywhere, without installing; not bench/, whose requests.py shadows requests

from bench.browsing import chromium_at_live_server, session_of, setup_django  # noqa: E402 - needs the path above
from tests.e2e.browser import HTMX_COUNTER, PHONE  # noqa: E402

TAP_LIMIT = 8
PLAYERS = ["Ana", "Ben", "Cyril", "Dana"]


class Thumb:
    """Every click and key press, each click waiting for the htmx requests it started."""

    def __init__(self, page: Any) -> None:
        self.page, self.taps, self.keys = page, 0, 0

    def tap(self, target: Any) -> None:
        target.click()
        self.taps += 1
        expect(self.page.locator("html[data-htmx-busy]")).to_have_count(0)

    def type(self, text: str) -> None:
        for char in text:
            self.page.keyboard.type(char)
            self.keys += 1


def new_players(page: Any) -> Thumb:
    thumb = Thumb(page)
    page.goto("/")
    thumb.tap(page.get_by_role("link", name="Start an evening", exact=True))
    thumb.tap(page.get_by_role("button", name="Next: the table"))
    for seat, name in enumerate(PLAYERS):
        thumb.tap(page.locator(f"#id_player_{seat}"))
        thumb.type(name)
    thumb.tap(page.get_by_role("button", name="Start the table"))
    return thumb


def same_players(page: Any) -> Thumb:
    thumb = Thumb(page)
    page.goto("/")
    thumb.tap(page.get_by_role("button", name="Same players as last time"))
    thumb.tap(page.get_by_role("button", name="Start the table"))
    return thumb


def main() -> int:
    setup_django("start-taps")
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from ledger.models import Table

    keeper = get_user_model().objects.create_user(username="keeper", password="start-taps-" + "x" * 16)
    session = session_of(keeper)
    results: list[tuple[str, Thumb, list[str]]] = []
    with chromium_at_live_server() as (browser, base_url):
        context = browser.new_context(base_url=base_url, **PHONE)
        context.add_init_script(HTMX_COUNTER)
        context.add_cookies([{"name": "sessionid", "value": session, "url": base_url}])
        page = context.new_page()
        # The first evening with new players; the next one (the same people, another day) from the home page.
        for way, drive in (("new players", new_players), ("same players as last time", same_players)):
            thumb = drive(page)
            problems = []
            if not page.locator("#hand-form").is_visible():
                problems.append("did not end on the hand form")
            table = Table.objects.order_by("-id").first()
            if table is None or table.seat_names != PLAYERS or table.evening.date != timezone.localdate():
                problems.append(f"seated {table.seat_names if table else None}")
            results.append((way, thumb, problems))
    return report(results)


def report(results: list[tuple[str, Thumb, list[str]]]) -> int:
    names = sum(len(name) for name in PLAYERS)
    failed = False
    print(f"{'from the home page to the first hand form':<42} {'taps':>4}  {'keys':>4}  (names: {names} keys)")
    for way, thumb, problems in results:
        if thumb.taps > TAP_LIMIT:
            problems.append(f"more than {TAP_LIMIT} taps")
        if thumb.keys != (names if way == "new players" else 0):
            problems.append("typed more than the names")
        failed |= bool(problems)
        print(f"{way:<42} {thumb.taps:>4}  {thumb.keys:>4}  {'; '.join(problems) or 'ok'}")
    print(f"\ngoal: ≤ {TAP_LIMIT} taps, only the names typed: {'NOT MET' if failed else 'met'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
