"""Šnapser on a phone: taps in hands, sees RULES.md's amounts on the scoreboard, undoes one, corrects one."""

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
    return factories.make_table(evening, "snapser")  # Ana, Ben, Cyril; Ana deals first, so Ben chooses


def test_a_plain_hand_takes_the_defaults_and_is_priced_as_rules_md_says(page, table):
    page.goto(table.get_absolute_url())
    expect_balances(page, {"Ana": "0.00", "Ben": "0.00", "Cyril": "0.00"})
    expect(selected(page, "declarer")).to_have_text("Ben")  # the dealer's left hand chooses
    expect(selected(page, "announcement")).to_have_text("hrám")
    expect(selected(page, "winner")).to_have_text("the chooser's side")
    # The category is the last tap, and it records; the winning side is pre-selected above it.
    expect(record_buttons(page, "result")).to_have_text(["s vodou", "bez vody", "za 6", "tichý durch"])

    choose(page, "declarer", "Ana")
    choose(page, "trump", "leaves")
    record_with(page, "result", "s vodou")

    expect_balances(page, {"Ana": "+0.40", "Ben": "−0.20", "Cyril": "−0.20"})  # N1
    expect(hand_row(page, 1)).to_contain_text("s vodou")
    expect(page.get_by_text("Ben deals next.")).to_be_visible()
    expect(selected(page, "declarer")).to_have_text("Cyril")  # the next hand's form: Ben deals, Cyril chooses
    expect(selected(page, "trump")).to_have_count(0)


def test_nehram_leaves_out_the_winner_and_the_result(page, table):
    page.goto(table.get_absolute_url())
    choose(page, "announcement", "nehrám")
    expect(field(page, "winner")).to_have_attribute("hidden", "")
    expect(field(page, "result")).to_have_attribute("hidden", "")
    expect(field(page, "raises")).to_have_attribute("hidden", "")
    choose(page, "announcement", "za 12")
    expect(field(page, "winner")).to_have_attribute(
        "hidden", ""
    )  # who won records the za 12: its buttons are in the record bar
    expect(record_buttons(page, "winner").first).to_be_visible()
    # A za 12 is paid as announced unless one side took every trick (RULES.md §3): no category is pre-selected,
    # "—" (paid as announced) shows what a tap on who won records.
    expect(field(page, "result").locator("label:visible")).to_have_text(["—", "tichý durch"])
    expect(selected(page, "result")).to_have_text("—")
    expect(record_buttons(page, "winner")).to_have_text(["the chooser's side", "the defenders"])
    choose(page, "announcement", "hrám")
    expect(field(page, "result")).to_have_attribute(
        "hidden", ""
    )  # a hrám ends with its category: the record bar's buttons
    expect(record_buttons(page, "result")).to_have_text(["s vodou", "bez vody", "za 6", "tichý durch"])


def test_hands_can_be_undone_and_corrected(page, table):
    page.goto(table.get_absolute_url())
    choose(page, "declarer", "Ana")
    choose(page, "trump", "leaves")
    record_with(page, "result", "s vodou")
    choose(page, "declarer", "Ana")
    choose(page, "trump", "♥ hearts")
    record_with(page, "result", "bez vody")
    expect_balances(page, {"Ana": "+2.00", "Ben": "−1.00", "Cyril": "−1.00"})  # N1 + N3
    expect_hand_count(page, 2)

    undo(page)
    expect_balances(page, {"Ana": "+0.40", "Ben": "−0.20", "Cyril": "−0.20"})
    expect_hand_count(page, 1, voided=1)
    expect(hand_row(page, 2)).to_contain_text("voided")
    expect(page.get_by_text("Ben deals next.")).to_be_visible()  # undoing gives the deal back

    open_edit(page, 1)
    expect(selected(page, "declarer")).to_have_text("Ana")
    expect(selected(page, "trump")).to_have_text("leaves")
    choose(page, "result", "bez vody")
    save_correction(page)
    expect_balances(page, {"Ana": "+0.80", "Ben": "−0.40", "Cyril": "−0.40"})  # N2
    expect(hand_row(page, 1)).to_contain_text("corrected (v2)")
    expect(hand_row(page, 1)).to_contain_text("bez vody")
    screenshot(page, "snapser-table")
