"""Skat on a phone: the form follows the game chosen, hands are priced as RULES.md says, undone and corrected."""

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
    quick,
    record_buttons,
    record_with,
    save_correction,
    screenshot,
    selected,
    settle,
    undo,
)

pytestmark = pytest.mark.e2e


@pytest.fixture
def table(evening):
    return factories.make_table(evening, "skat")  # International Skat Order, 0.01 a point; Ana deals first


def test_the_form_shows_what_the_chosen_game_needs(page, table):
    page.goto(table.get_absolute_url())
    # The declarer is the last tap, and it records: the game, matadors and 61 card points are shown above.
    expect(record_buttons(page, "declarer")).to_have_text(["Ana", "Ben", "Cyril"])
    expect(page.locator("#record-hand")).to_have_attribute("hidden", "")
    expect(selected(page, "contract")).to_have_text("♣ Clubs")
    expect(selected(page, "matadors")).to_have_text("1")
    expect(field(page, "declarer_points").locator("input")).to_have_value("61")
    expect(field(page, "won")).to_have_attribute("hidden", "")

    choose(page, "contract", "Null")
    expect(field(page, "won")).to_be_visible()
    expect(field(page, "matadors")).to_have_attribute("hidden", "")
    expect(field(page, "declarer_points")).to_have_attribute("hidden", "")

    choose(page, "contract", "♥ Hearts")
    expect(field(page, "won")).to_have_attribute("hidden", "")
    expect(selected(page, "matadors")).to_have_text("1")
    expect(field(page, "declarer_points").locator("input")).to_have_value("61")


def test_a_grand_with_one_is_priced_as_rules_md_says(page, table):
    page.goto(table.get_absolute_url())
    choose(page, "contract", "Grand")
    record_with(page, "declarer", "Ana")
    expect_balances(page, {"Ana": "+0.96", "Ben": "−0.48", "Cyril": "−0.48"})  # S1 at 0.01 a point (S20)
    expect(hand_row(page, 1)).to_contain_text("Grand")
    expect(selected(page, "contract")).to_have_text("Grand")  # the table's most played game comes first


def test_hands_can_be_undone_and_corrected(page, table):
    page.goto(table.get_absolute_url())
    choose(page, "contract", "Grand")
    record_with(page, "declarer", "Ana")
    choose(page, "contract", "♥ Hearts")
    choose(page, "matadors", "2")
    record_with(page, "declarer", "Ben")
    expect_balances(page, {"Ana": "+0.66", "Ben": "+0.12", "Cyril": "−0.78"})  # + Hearts with 2 won: +30
    expect_hand_count(page, 2)

    undo(page)
    expect_balances(page, {"Ana": "+0.96", "Ben": "−0.48", "Cyril": "−0.48"})
    expect_hand_count(page, 1, voided=1)
    expect(hand_row(page, 2)).not_to_contain_text("corrected")

    open_edit(page, 1)
    expect(selected(page, "contract")).to_have_text("Grand")
    quick(page, "declarer_points", 60)
    save_correction(page)
    expect_balances(page, {"Ana": "−1.92", "Ben": "+0.96", "Cyril": "+0.96"})  # S2: lost with 60, −96
    expect(hand_row(page, 1)).to_contain_text("corrected (v2)")
    screenshot(page, "skat-table")


def test_a_tap_right_after_changing_the_game_is_not_lost(page, table):
    """The form is held while htmx redraws it, so a quick thumb's next tap lands on the new form."""
    page.goto(table.get_absolute_url())
    grand = field(page, "contract").locator("label").filter(has=page.get_by_text("Grand", exact=True))
    grand.click()  # no waiting for the redraw: the next tap follows at once, on a field both forms have
    field(page, "hand").locator("input").click()
    settle(page)
    expect(field(page, "hand").locator("input")).to_be_checked()
    record_with(page, "declarer", "Ben")
    # S4: Grand hand with 1, 61 points: +72 for Ben (forehand); at 0.01 a point +1.44, the others −0.72 each.
    expect_balances(page, {"Ana": "−0.72", "Ben": "+1.44", "Cyril": "−0.72"})


def test_a_pending_bock_is_shown_above_the_declarer_buttons(page, evening):
    """Pub rules: a game lost 60:60 starts a Bock round; the next hand's form shows the Bock it will double by."""
    table = factories.make_table(evening, "skat", preset="pub")
    page.goto(table.get_absolute_url())
    expect(field(page, "bock")).to_be_hidden()  # nothing pending: under a closed "More"
    quick(page, "declarer_points", 60)
    record_with(page, "declarer", "Ana")  # clubs with 1 lost 60:60: −2 × 24
    expect_balances(page, {"Ana": "−0.96", "Ben": "+0.48", "Cyril": "+0.48"})
    bock = field(page, "bock")
    expect(bock.locator("input")).to_be_visible()
    expect(bock.locator("input")).to_have_value("1")
    expect(bock).to_contain_text("Each pending Bock round doubles this hand.")
    record_with(page, "declarer", "Ben")  # clubs with 1 won, doubled: +48
    expect_balances(page, {"Ana": "−1.44", "Ben": "+1.44", "Cyril": "0.00"})
