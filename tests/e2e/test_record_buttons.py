"""Record buttons on a phone: the last choice of a common hand records it, and the page says at once what it cost.

For each game a scorekeeper taps only what differs from the form and then one record button (won/lost, the category,
the declarer); the status line under the scoreboard and the new row of the log show the engine's price of exactly
that hand. axe-core checks the form with its record buttons; without JavaScript the buttons are plain submit buttons
and record the same hand; a double tap records one hand.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from playwright.sync_api import Browser, expect

from ledger.models import Hand
from tests import factories
from tests.e2e.axe import audit, report
from tests.e2e.browser import PHONE
from tests.e2e.ui import choose, expect_balances, field, hand_row, record_buttons, record_with, settle, tap

pytestmark = pytest.mark.e2e


def _no_axe_violations(page: Any, where: str) -> None:
    violations = audit(page)
    assert not violations, "\n".join(report(violations, where))


def _fits_320_px(page: Any) -> None:
    """On the narrowest phone nothing scrolls sideways, the longest record buttons included."""
    size = page.viewport_size
    page.set_viewport_size({"width": 320, "height": size["height"]})
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    page.set_viewport_size(size)


def test_a_marias_hra_is_trump_partner_won(page, evening):
    table = factories.make_table(evening, "marias")  # Ana deals: Ben chooses
    page.goto(table.get_absolute_url())
    expect(page.locator("#record-hand")).to_have_attribute("hidden", "")
    expect(field(page, "points")).to_have_attribute("hidden", "")  # no hláška: the card points cannot change the price
    _no_axe_violations(page, "Mariáš form")
    choose(page, "trump", "♥ hearts")
    choose(page, "partner", "Dana")
    record_with(page, "won", "won")
    status = page.locator("#table-status")
    expect(status).to_contain_text("Hand #1: Ben +0.40")  # hra in hearts: 0.20 × 2
    expect(status).to_contain_text("Hra in hearts (lepší)")
    expect(hand_row(page, 1)).to_contain_text("hra in hearts (lepší), won")
    expect_balances(page, {"Ana": "−0.40", "Ben": "+0.40", "Cyril": "−0.40", "Dana": "+0.40"})
    # The next hand: a sedma whose seven was killed, in one tap after its trump and partner.
    choose(page, "contract", "sedma")
    choose(page, "trump", "bells")
    choose(page, "partner", "Ana")
    _no_axe_violations(page, "Mariáš sedma")
    _fits_320_px(page)
    record_with(page, "sedma_outcome", "hra won, sedma lost")
    expect(status).to_contain_text("Hand #2: Cyril −0.20")  # hra +0.20, sedma −0.40
    expect(hand_row(page, 2)).to_contain_text("sedma in bells, lost (seven killed)")


def test_a_marias_hra_with_a_20_is_trump_partner_20_points(page, evening):
    """Four taps: the hláška brings the card points in as a row of record buttons, the 20 stays tapped above them."""
    table = factories.make_table(evening, "marias")  # Ana deals: Ben chooses
    page.goto(table.get_absolute_url())
    choose(page, "trump", "bells")
    choose(page, "partner", "Dana")
    choose(page, "marriages_declarer_20", "1")
    points = record_buttons(page, "points")
    expect(points).to_have_text([str(value) for value in range(0, 91, 10)])
    expect(page.get_by_role("button", name="60 points")).to_have_text("60")  # what a screen reader says
    expect(page.locator("#record-hand")).to_have_attribute("hidden", "")
    expect(field(page, "won")).to_have_attribute("hidden", "")
    _no_axe_violations(page, "Mariáš hra with a 20, card points as buttons")
    _fits_320_px(page)
    page.set_viewport_size({"width": 320, "height": 800})
    boxes = [points.nth(index).bounding_box() for index in range(10)]
    assert all(box and box["width"] >= 44 and box["height"] >= 44 for box in boxes)  # thumb-sized at 320 px
    assert len({round(box["y"]) for box in boxes if box}) > 1  # wrapped in rows, not squeezed into one
    record_with(page, "points", "80")
    status = page.locator("#table-status")
    expect(status).to_contain_text("Hand #1: Ben +0.40")  # 80 + 20 = 100: a tichá stovka doubles the hra's 0.20
    expect_balances(page, {"Ana": "−0.40", "Ben": "+0.40", "Cyril": "−0.40", "Dana": "+0.40"})
    hand = Hand.objects.get(table=table)
    assert hand.document["points"] == 80 and hand.document["marriages"] == {"declarer": [20]}


def test_a_skat_game_ends_with_the_declarer(page, evening):
    table = factories.make_table(evening, "skat")
    page.goto(table.get_absolute_url())
    expect(field(page, "declarer_points").locator("input")).to_have_value("61")  # what "won" means, on the screen
    _no_axe_violations(page, "Skat form")
    _fits_320_px(page)
    choose(page, "contract", "♠ Spades")
    choose(page, "matadors", "2")
    record_with(page, "declarer", "Cyril")
    expect(page.locator("#table-status")).to_contain_text("Hand #1: Cyril +0.66")  # 11 × 3 = 33, from each
    expect(hand_row(page, 1)).to_contain_text("Spades with 2")
    # A loss: the 59 under the card points, then the declarer (spades, the game most played, comes first now).
    choose(page, "matadors", "2")
    tap(page, field(page, "declarer_points").locator('.quick button[data-value="59"]'))
    record_with(page, "declarer", "Ana")
    expect(page.locator("#table-status")).to_contain_text("Hand #2: Ana −1.32")  # spades with 2 lost: −2 × 33
    expect_balances(page, {"Ana": "−1.65", "Ben": "+0.33", "Cyril": "+1.32"})


def test_a_snapser_hram_ends_with_its_category_and_undo_takes_it_back(page, evening):
    table = factories.make_table(evening, "snapser")
    page.goto(table.get_absolute_url())
    expect(record_buttons(page, "result")).to_have_text(["s vodou", "bez vody", "za 6", "tichý durch"])
    _no_axe_violations(page, "Šnapser form")
    choose(page, "trump", "leaves")
    record_with(page, "result", "bez vody")
    status = page.locator("#table-status")
    expect(status).to_contain_text("Hand #1: Ben +0.80")  # N2
    expect(hand_row(page, 1)).to_contain_text("bez vody")
    tap(page, status.get_by_role("button", name="Undo"))
    expect(hand_row(page, 1)).to_have_class("hand-row card voided")
    expect_balances(page, {"Ana": "0.00", "Ben": "0.00", "Cyril": "0.00"})


def test_a_double_tap_records_one_hand(page, evening):
    table = factories.make_table(evening, "snapser")
    page.goto(table.get_absolute_url())
    choose(page, "trump", "leaves")
    record_buttons(page, "result").filter(has_text="s vodou").dblclick()
    settle(page)
    expect(page.locator("#table-status")).to_contain_text("Hand #1: Ben +0.40")
    assert Hand.objects.filter(table=table).count() == 1


def test_without_javascript_a_record_button_is_a_plain_submit(browser: Browser, live_server: Any, alice, evening):
    table = factories.make_table(evening, "marias")
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False, **PHONE)
    client = Client()
    client.force_login(alice)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    page = context.new_page()
    try:
        page.goto(table.get_absolute_url())
        field(page, "trump").locator("label").filter(has_text="bells").click()
        field(page, "partner").locator("label").filter(has_text="Cyril").click()
        record_buttons(page, "won").filter(has_text="lost").click()
        page.wait_for_url(re.compile(r"\?recorded=1#table-live$"))
        expect(page.locator("#table-status")).to_contain_text("Hand #1: Ben −0.20")  # M2 lost
        expect(hand_row(page, 1)).to_contain_text("hra in bells, lost")
    finally:
        context.close()
