"""Record's answer in the browser: it swaps in only what the hand changed, and the page reads as if redrawn whole."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from ledger.errors import recorder
from tests import factories
from tests.e2e.ui import choose, expect_balances, hand_row, record_with, tap

pytestmark = pytest.mark.e2e


@pytest.fixture
def table(evening):
    return factories.make_table(evening, "snapser")  # Ana, Ben, Cyril; Ana deals first, so Ben chooses


def test_a_long_evening_gets_the_new_row_on_top_and_keeps_ten(page, table):
    factories.record(table, times=31)
    page.goto(table.get_absolute_url())
    choose(page, "trump", "leaves")
    record_with(page, "result", "s vodou")
    expect(page.locator("#table-status")).to_contain_text("Hand #32:")
    expect(page.locator(".hand-row")).to_have_count(10)
    expect(page.locator(".hand-row").first).to_have_attribute("id", "hand-32")
    expect(hand_row(page, 22)).to_have_count(0)
    expect(page.get_by_role("link", name="Show all 32 hands")).to_be_visible()
    expect(page.locator(".hand-log h2")).to_contain_text("(32)")
    expect(page.locator(".chart polyline").first).to_be_visible()
    expect(page.get_by_role("button", name="Undo the last hand (#32)")).to_be_visible()
    # The fresh form works as the first one did: a second hand goes through the same way.
    choose(page, "trump", "leaves")
    record_with(page, "result", "s vodou")
    expect(page.locator("#table-status")).to_contain_text("Hand #33:")
    expect(page.locator(".hand-row")).to_have_count(10)


def test_earlier_hands_come_under_the_log_and_stay_through_the_next_record(page, table):
    factories.record(table, times=31)
    page.goto(table.get_absolute_url())
    tap(page, page.get_by_role("link", name="Earlier hands"))
    expect(page.locator(".hand-row")).to_have_count(30)
    expect(page.locator(".hand-row").last).to_have_attribute("id", "hand-2")
    assert page.url.endswith("?log=30")
    choose(page, "trump", "leaves")
    record_with(page, "result", "s vodou")
    expect(page.locator("#table-status")).to_contain_text("Hand #32:")
    expect(page.locator(".hand-row")).to_have_count(30)  # #32 on top, #2 off the end
    expect(hand_row(page, 2)).to_have_count(0)
    tap(page, page.get_by_role("link", name="Earlier hands"))
    expect(page.locator(".hand-row")).to_have_count(32)
    expect(page.get_by_role("link", name="Earlier hands")).to_have_count(0)
    page.reload()
    expect(page.locator(".hand-row")).to_have_count(32)


def test_a_hand_from_another_phone_shows_up_with_mine(page, table):
    factories.record(table)
    page.goto(table.get_absolute_url())
    choose(page, "trump", "leaves")
    # Entered on a second phone while this one was being tapped: the tapped form stays (a redraw takes no tap), and
    # Record shows both hands, storing nothing until this phone's player says which it is.
    (theirs,) = factories.record(table)
    record_with(page, "result", "s vodou")
    conflict = page.locator("#hand-conflict")
    expect(conflict).to_contain_text("Hand #2 was just recorded by")
    expect(conflict).to_contain_text(recorder(theirs))
    expect(page.locator(".hand-row")).to_have_count(2)
    tap(page, conflict.get_by_role("button", name="Mine is another hand: record it as #3"))
    expect(page.locator("#hand-conflict")).to_have_count(0)
    expect(page.locator(".hand-row")).to_have_count(3)
    expect(page.locator("#table-status")).to_contain_text("Hand #3:")
    # Ana chose twice (+0.40 each), then Cyril, the forehand the fresh form offered: +0.40, the others −0.20.
    expect_balances(page, {"Ana": "+0.60", "Ben": "−0.60", "Cyril": "0.00"})
