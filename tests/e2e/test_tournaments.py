"""A Skat club night in the browser: Alice, the organiser, makes a tournament of six players, checks them
in with a tap each and starts series 1 (two tables of three); table 1's phone, a second browser with no account,
opens the table's score-sheet link and records a hand; Alice sees it in the standings. axe finds no serious
violation on the organiser's pages and the door's check-in page; nothing scrolls sideways at 320 px or on a desktop.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from ledger.models import Hand
from ledger.tournaments import services as tournaments
from ledger.tournaments.models import Tournament, TournamentTable
from tests.e2e.axe import audit, report
from tests.e2e.browser import PHONE
from tests.e2e.conftest import close_quietly, watched_context
from tests.e2e.test_accessibility import SIDEWAYS
from tests.e2e.ui import choose, record_with, tap

pytestmark = pytest.mark.e2e

PLAYERS = ["Šárka", "Jürgen", "Ľubo", "Dana", "Emil", "Fritz"]
WIDTHS = (320, 1280)


@pytest.fixture
def table_phone(browser: Browser, live_server: Any) -> Iterator[BrowserContext]:
    """A table's phone: a browser of its own, nobody logged in, its errors collected as on Alice's phone."""
    context, problems = watched_context(browser, live_server.url, **PHONE)
    yield context
    close_quietly(context, problems, "the table's phone")


def _checked(page: Page, where: str) -> None:
    violations = audit(page)
    assert not violations, "\n".join(report(violations, where))
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 800})
        sideways = page.evaluate(SIDEWAYS, width)
        assert sideways is None, f"{where} scrolls sideways at {width}px by {sideways}"
    page.set_viewport_size(PHONE["viewport"])


def test_a_club_night_scored_on_the_tables_phone(
    page: Page, table_phone: BrowserContext, browser: Browser, live_server: Any, alice: Any
) -> None:
    page.goto("/tournaments/new/")
    _checked(page, "new tournament")
    page.fill("#id_name", "Skat night")
    page.fill("#id_place", "Klubovna")
    page.fill("#id_rounds", "2")
    page.fill("#id_entry_fee", "10")
    page.fill("#id_players", "\n".join(PLAYERS))
    page.get_by_role("button", name="Create the tournament").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Skat night")
    tournament = Tournament.objects.get(owner=alice)

    # Nobody checked in yet: the page says why no series can start. Then a tap on each name (htmx).
    expect(page.locator("#next-round")).to_contain_text("0 checked-in players cannot be seated")
    for name in PLAYERS:
        tap(page, page.locator("#entrants").get_by_role("button", name=name))
    expect(page.locator("#checked-count")).to_have_text("6 of 6 checked in")
    expect(page.locator('#entrants button[aria-pressed="true"]')).to_have_count(6)
    page.reload()  # the button says what it does with the players now checked in
    _checked(page, "tournament page before series 1")

    # The door's check-in page, read by a player's phone while players register: every name, all checked in.
    door = page.get_by_role("textbox", name="Check-in link").input_value()
    visitor = browser.new_context(base_url=live_server.url, **PHONE)
    try:
        player = visitor.new_page()
        player.goto(door)
        expect(player.locator(".badge")).to_have_count(6)
        _checked(player, "check-in page")
    finally:
        visitor.close()
    page.get_by_role("button", name="Start series 1: 6 players at 2 tables").click()
    expect(page.locator("#tables article.card")).to_have_count(2)
    _checked(page, "tournament page with its tables")

    # Table 1's score-sheet link, as the QR code under it says; the table's phone opens it.
    table = TournamentTable.objects.select_related("table").get(round__tournament=tournament, number=1)
    page.locator("#table-1 summary").click()
    link = page.get_by_role("textbox", name="Score-sheet link of table 1").input_value()
    assert link.endswith(f"/t/{table.token}/")
    sheet = table_phone.new_page()
    sheet.goto(link)
    expect(sheet).to_have_url(f"{live_server.url}/tables/{table.table_id}/")
    seats = list(table.table.seat_names)
    choose(sheet, "contract", "Grand")
    record_with(sheet, "declarer", seats[0])
    # Grand with 1 at the Seeger-Fabian table: 48 game points (the money beside them is the table's, 0.01 a point).
    expect(sheet.locator(".scoreboard .seat .name")).to_have_text(seats)
    assert Hand.objects.filter(table_id=table.table_id).count() == 1
    # Elsewhere, the phone finds nothing but its table.
    sheet.goto("/tournaments/")
    expect(sheet).to_have_url(f"{live_server.url}/tables/{table.table_id}/")

    # Alice refreshes the standings (htmx): the declarer leads with 48 + 50 = 98 list points, 1 game won.
    tap(page, page.get_by_role("link", name="Refresh the standings"))
    first = page.locator("#standings tbody tr").first
    expect(first.locator("td")).to_have_text([f"1. {seats[0]}", "98", "1/0", "0.00"])
    page.reload()
    expect(page.locator("#table-1 h3")).to_contain_text("1 of 36 hands played")
    # Once the first series is drawn the door is shut (its link is the standings link every player holds).
    expect(page.locator("#door")).to_have_count(0)


def test_a_player_checks_in_at_the_door(page: Page, table_phone: BrowserContext, alice: Any) -> None:
    tournament = tournaments.tournament_create(owner=alice, game="skat", name="Door", players=PLAYERS, rounds=1)
    player = table_phone.new_page()
    player.goto(f"/tournaments/checkin/{tournament.share_token}/")
    expect(player.get_by_text("Tap your own name to check in.")).to_be_visible()
    tap(player, player.get_by_role("button", name="Dana"))
    expect(player.get_by_role("status")).to_contain_text("Dana is checked in. Good luck!")
    _checked(player, "check-in page")
    assert tournament.entrants.get(player__name="Dana").checked_in
    # The organiser sees her checked in.
    page.goto(tournament.get_absolute_url())
    expect(page.locator("#checked-count")).to_have_text("1 of 6 checked in")
    expect(page.locator("#entrants").get_by_role("button", name="Dana")).to_have_attribute("aria-pressed", "true")
    _checked(page, "tournament page")
