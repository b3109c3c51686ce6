"""Mariáš čtyřka on a phone: betl hides what it does not need, hands are priced as RULES.md says, undone, corrected."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests import factories
from tests.e2e.ui import (
    choose,
    expect_balances,
    expect_hand_count,
    field,
    hand_row,
    open_edit,
    record_buttons,
    record_with,
    save_correction,
    screenshot,
    selected,
    undo,
)

pytestmark = pytest.mark.e2e


@pytest.fixture
def table(evening):
    return factories.make_table(evening, "marias")  # Ana, Ben, Cyril, Dana; dvacetník; Ana deals first


def test_betl_hides_the_points_trump_and_partner(page, table):
    page.goto(table.get_absolute_url())
    expect(selected(page, "declarer")).to_have_text("Ben")
    expect(selected(page, "contract")).to_have_text("hra")
    for name in ("trump", "partner", "flek_hra"):
        expect(field(page, name)).to_be_visible()
    # No hláška: a hra is won or lost whatever its card points, so its result records the hand.
    expect(field(page, "points")).to_have_attribute("hidden", "")
    expect(record_buttons(page, "won")).to_have_text(["won", "lost"])

    choose(page, "contract", "betl")
    expect(record_buttons(page, "won")).to_have_text(["won", "lost"])
    expect(field(page, "flek_betl")).to_be_visible()
    for name in ("trump", "partner", "points", "flek_hra"):
        expect(field(page, name)).to_have_attribute("hidden", "")

    choose(page, "contract", "hra")
    choose(page, "marriages_declarer_20", "1")  # a hláška: now the card points decide, and each of them records
    expect(record_buttons(page, "points")).to_have_text([str(points) for points in range(0, 91, 10)])
    expect(field(page, "won")).to_have_attribute("hidden", "")
    expect(page.locator("#record-hand")).to_have_attribute("hidden", "")


def test_hands_are_priced_undone_and_corrected(page, table):
    page.goto(table.get_absolute_url())
    choose(page, "declarer", "Ana")
    choose(page, "trump", "bells")
    choose(page, "partner", "Cyril")
    record_with(page, "won", "won")
    expect_balances(page, {"Ana": "+0.20", "Ben": "−0.20", "Cyril": "+0.20", "Dana": "−0.20"})  # M2 won

    expect(selected(page, "declarer")).to_have_text("Cyril")  # Ben deals now
    choose(page, "contract", "betl")
    record_with(page, "won", "won")
    # betl won alone: V = 10 × 0.20; the lone player gets 3V
    expect_balances(page, {"Ana": "−1.80", "Ben": "−2.20", "Cyril": "+6.20", "Dana": "−2.20"})

    undo(page)
    expect_balances(page, {"Ana": "+0.20", "Ben": "−0.20", "Cyril": "+0.20", "Dana": "−0.20"})
    expect_hand_count(page, 1, voided=1)

    open_edit(page, 1)
    expect(selected(page, "partner")).to_have_text("Cyril")
    expect(selected(page, "won")).to_have_text("won")  # a correction shows the result as a field to change
    choose(page, "won", "lost")
    save_correction(page)
    expect_balances(page, {"Ana": "−0.20", "Ben": "+0.20", "Cyril": "−0.20", "Dana": "+0.20"})  # M2 lost
    expect(hand_row(page, 1)).to_contain_text("corrected (v2)")
    screenshot(page, "marias-table")
