"""A tournament table's phone in the browser: at a Skat tournament not played for money it records a hand and reads
the declarer's list points (not the money) in the status line and on the scoreboard; it offers no evening, no
settlement, and the evening's page leads back to the table.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, expect

from ledger.models import Hand
from ledger.tournaments import services as tournaments
from ledger.tournaments.models import TournamentTable
from tests.e2e.browser import PHONE
from tests.e2e.conftest import close_quietly, watched_context
from tests.e2e.ui import choose, record_with

pytestmark = pytest.mark.e2e


@pytest.fixture
def table_phone(browser: Browser, live_server: Any) -> Iterator[BrowserContext]:
    context, problems = watched_context(browser, live_server.url, **PHONE)
    yield context
    close_quietly(context, problems, "the table's phone")


def test_the_table_phone_shows_the_game_not_the_money(table_phone: BrowserContext, live_server: Any, alice: Any):
    tournament = tournaments.tournament_create(
        owner=alice,
        game="skat",
        name="Skat night",
        players=["Šárka", "Jürgen", "Ľubo"],
        rounds=1,
        date=datetime.date(2026, 12, 4),
        start=True,
    )
    table = TournamentTable.objects.select_related("table").get(round__tournament=tournament)
    seats = list(table.table.seat_names)
    sheet = table_phone.new_page()
    sheet.goto(f"/t/{table.token}/")
    expect(sheet).to_have_url(f"{live_server.url}/tables/{table.table_id}/")

    choose(sheet, "contract", "Grand")
    record_with(sheet, "declarer", seats[0])
    # Grand with 1: 48 game points and 50 for the won game on the Seeger-Fabian list; the money is the books' alone.
    expect(sheet.locator("#hand-recorded p").first).to_have_text(f"Hand #1: {seats[0]} +98 (Grand with 1)")
    expect(sheet.locator(".scoreboard .seat").first).to_contain_text("Seeger-Fabian points: +98")
    # Shown, not only written for a screen reader (the phone's scoreboard hides who deals and leads that way).
    assert sheet.locator(".scoreboard .seat .points").first.bounding_box()["width"] > 100
    expect(sheet.locator(".scoreboard .balance")).to_have_text(["", "", ""])
    expect(sheet.locator("#hand-1 .list-points")).to_contain_text(f"{seats[0]} +98")
    expect(sheet.locator("#hand-1 .amounts")).to_have_count(0)
    expect(sheet.locator("#balance-chart svg")).to_have_count(0)
    assert Hand.objects.get(table_id=table.table_id).amounts[seats[0]] > 0  # the books keep the money

    # Nothing of the evening: no way to it, no settlement; its address leads back to the table.
    expect(sheet.get_by_role("link", name="Close the evening and settle")).to_have_count(0)
    expect(sheet.locator(".topnav").get_by_role("link", name="Evening")).to_have_count(0)
    sheet.goto(f"/evenings/{table.evening_id}/")
    expect(sheet).to_have_url(f"{live_server.url}/tables/{table.table_id}/")
