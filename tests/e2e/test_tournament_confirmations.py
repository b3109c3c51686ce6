"""The organiser's one-tap actions in the browser: check-in locked while the tournament runs (a late arrival and a
player leaving are explicit), the next series asks once while tables are still playing (with and without
JavaScript) and the same tap again from the page as it was starts nothing more, finishing asks once. Two taps at
once are tested against PostgreSQL in tests/ledger/test_tournament_races.py (the browser tests' in-memory SQLite
answers a second writer "table is locked")."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from ledger.tournaments import services as tournaments
from ledger.tournaments.models import Entrant, Round, Tournament
from tests.e2e.browser import PHONE
from tests.e2e.conftest import close_quietly, log_in, watched_context
from tests.e2e.ui import tap

pytestmark = pytest.mark.e2e

SIX = ["Ana", "Ben", "Cyril", "Dana", "Emil", "Fero"]


@pytest.fixture
def night(alice: Any) -> Tournament:
    """Six players at two tables of three, series 1 drawn, no hand played yet."""
    return tournaments.tournament_create(owner=alice, game="skat", name="Night", players=SIX, rounds=3, start=True)


@pytest.fixture
def no_script(browser: Browser, live_server: Any, alice: Any) -> Iterator[Page]:
    """Alice's phone with JavaScript switched off."""
    context, problems = watched_context(browser, live_server.url, java_script_enabled=False, **PHONE)
    log_in(context, alice, live_server.url)
    yield context.new_page()
    close_quietly(context, problems, "the phone without JavaScript")


def _rounds(tournament: Tournament) -> list[int]:
    return list(Round.objects.filter(tournament=tournament).order_by("number").values_list("number", flat=True))


def _checked_in(name: str) -> bool:
    return Entrant.objects.get(player__name=name).checked_in


def test_check_in_is_locked_while_the_tournament_runs(page: Page, night: Tournament) -> None:
    page.goto(night.get_absolute_url())
    entrants = page.locator("#entrants")
    expect(entrants).to_contain_text("Check-in is locked while the tournament runs")
    ana = entrants.locator(f"#entrant-{night.entrants.get(player__name='Ana').pk}")
    # A tap on her name changes nothing: it is not a button any more.
    ana.locator(".num").click()
    expect(ana).to_contain_text("checked in")
    # Leaving is an action of its own, and asks once: without the tick the browser sends nothing.
    ana.get_by_text("Leaves…").click()
    ana.get_by_role("button", name="Check out for the next round").click()
    assert ana.get_by_role("checkbox").evaluate("box => box.validity.valueMissing")
    assert _checked_in("Ana")
    ana.get_by_role("checkbox").check()
    tap(page, ana.get_by_role("button", name="Check out for the next round"))
    expect(ana).to_contain_text("not here")
    assert not _checked_in("Ana")
    # She is back: the late arrival's button checks her in for the next series.
    tap(page, ana.get_by_role("button", name="Late arrival: check in for the next round"))
    expect(ana.locator(".badge")).to_contain_text("checked in")
    assert _checked_in("Ana")


def test_the_next_series_asks_once_while_tables_play_and_a_second_tap_starts_it_once(
    page: Page, night: Tournament
) -> None:
    page.goto(night.get_absolute_url())
    box = page.locator("#unfinished-tables")
    expect(box.locator("li")).to_have_text(["table 1 (0 of 36 hands)", "table 2 (0 of 36 hands)"])
    start = page.get_by_role("button", name="Start series 2: 6 players at 2 tables")
    start.click()
    assert box.get_by_role("checkbox").evaluate("box => box.validity.valueMissing")
    assert _rounds(night) == [1]
    box.get_by_role("checkbox").check()
    start.click()
    expect(page.locator("#tables h2")).to_have_text("Round 2: tables")
    assert _rounds(night) == [1, 2]
    # The same tap again from the page as it was (a second phone, a tab left open, a retry): its form names series
    # 2, and is answered with series 2, no series 3.
    page.locator("#next-round input[name=round]").evaluate("input => { input.value = '2'; }")
    page.locator("#unfinished-tables").get_by_role("checkbox").check()
    page.locator("#next-round").get_by_role("button").click()
    expect(page.locator(".message")).to_contain_text("Round 2 had started already")
    expect(page.locator("#tables article.card")).to_have_count(2)
    assert _rounds(night) == [1, 2]
    # Finishing asks once too.
    finish = page.get_by_role("button", name="Finish the tournament")
    finish.click()
    assert page.locator("#finish").get_by_role("checkbox").evaluate("box => box.validity.valueMissing")
    night.refresh_from_db()
    assert night.status == Tournament.Status.RUNNING
    page.locator("#finish").get_by_role("checkbox").check()
    finish.click()
    expect(page.locator("#finish")).to_have_count(0)
    night.refresh_from_db()
    assert night.status == Tournament.Status.FINISHED


def test_without_javascript_the_next_series_names_the_tables_and_asks(no_script: Page, night: Tournament) -> None:
    no_script.goto(night.get_absolute_url())
    no_script.locator("#unfinished-tables").get_by_role("checkbox").check()
    no_script.get_by_role("button", name="Start series 2: 6 players at 2 tables").click()
    expect(no_script.locator(".message")).to_contain_text("Round 2 has started")
    assert _rounds(night) == [1, 2]
