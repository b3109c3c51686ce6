"""The projector shows the whole field: pages that take turns, as many rows each as the wall shows
(static/js/projector.js), at a 1280×720 and a 1920×1080 wall, for 12, 48 and 120 players.

The pages turn every 10 s; the browser's clock is paused and moved on by the test, page by page.
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

from ledger.tournaments import services as tournaments
from tests.e2e.conftest import close_quietly, log_in, watched_context

pytestmark = pytest.mark.e2e

WALLS = [{"width": 1280, "height": 720}, {"width": 1920, "height": 1080}]
PAGE_MS = 10_000

SHOWN = """() => Array.from(document.querySelectorAll("#standings-live tbody[data-rows] tr"))
  .filter((row) => row.getClientRects().length > 0)
  .map((row) => {
    const box = row.getBoundingClientRect();
    return {name: row.querySelector("th").textContent, top: box.top, bottom: box.bottom};
  })"""


def _pages(page: Page, height: int) -> list[list[dict[str, Any]]]:
    """The rows each page shows, from the first page to the last, the clock moved on by a page's turn each time."""
    pager = page.locator("[data-pages]")
    page.evaluate("() => document.fonts.ready.then(() => true)")
    expect(pager).to_have_attribute("data-height", str(height))  # counted for this wall
    expect(pager).to_have_attribute("data-page", "1")
    count = int(pager.get_attribute("data-count") or "0")
    shown = []
    for number in range(1, count + 1):
        expect(pager).to_have_attribute("data-page", str(number))
        if count > 1:
            expect(pager).to_have_text(f"Page {number} of {count}")
        else:
            expect(pager).to_be_hidden()
        shown.append(page.evaluate(SHOWN))
        page.clock.run_for(PAGE_MS)
    expect(pager).to_have_attribute("data-page", "1")  # and round again
    return shown


@pytest.mark.parametrize("players", [12, 48, 120])
def test_the_projector_shows_every_player_on_some_page_within_the_wall(
    browser: Browser, live_server: Any, alice: Any, players: int
) -> None:
    names = [f"Player {number:03d}" for number in range(1, players + 1)]
    night = tournaments.tournament_create(
        owner=alice, game="skat", name="Club night", players=names, rounds=2, options={},
        date=datetime.date(2026, 12, 1), start=True,
    )  # fmt: skip
    context, problems = watched_context(browser, live_server.url, counter=False, viewport=WALLS[0], locale="en-GB")
    log_in(context, alice, live_server.url)
    try:
        page = context.new_page()
        page.clock.install()
        page.goto(reverse("ledger:tournament_projector", args=[night.pk]))
        page.clock.pause_at(datetime.datetime.now() + datetime.timedelta(seconds=1))
        for wall in WALLS:
            page.set_viewport_size(wall)
            pages = _pages(page, wall["height"])
            every = [row["name"] for shown in pages for row in shown]
            assert sorted(every) == names, (wall, len(pages))  # each player once, on one page
            for shown in pages:
                assert shown, (wall, "an empty page")
                assert all(row["top"] >= 0 and row["bottom"] <= wall["height"] for row in shown), (wall, shown)
            rows_fit = max(len(shown) for shown in pages)
            assert len(pages) == -(-players // rows_fit), (wall, [len(shown) for shown in pages])
    finally:
        close_quietly(context, problems, "the projector")
