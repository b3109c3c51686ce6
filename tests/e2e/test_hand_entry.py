"""Entering a hand on a phone: the form stores the hand that was tapped, nothing that decides the money is assumed,
and the page keeps the scorekeeper's place after Record and after a refused hand."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from ledger.models import Hand
from tests import factories
from tests.e2e.ui import (
    choose,
    expect_balances,
    field,
    record_buttons,
    record_with,
    selected,
    settle,
    tap,
)

pytestmark = pytest.mark.e2e


@pytest.fixture
def marias(evening):
    return factories.make_table(evening, "marias")  # Ana, Ben, Cyril, Dana; Ana deals, Ben chooses first


@pytest.fixture
def skat(evening):
    return factories.make_table(evening, "skat")


def _errors(page, name):
    return field(page, name).locator(".errorlist")


def test_stosedm_with_the_seven_won_is_priced_with_the_seven_won(page, marias):
    """Point 1: "the seven only counts as won if the tichá-sedma question is answered too" (±1.20 for ±0.40)."""
    page.goto(marias.get_absolute_url())
    choose(page, "contract", "stosedm")
    expect(field(page, "seven_side")).to_have_attribute("hidden", "")  # an announced seven is the chooser's own
    choose(page, "trump", "bells")
    choose(page, "partner", "Dana")
    choose(page, "seven_won", "won")
    record_with(page, "points", "90")  # the card points decide the stovka: they are the buttons that record
    # Stovka lost (90 < 100) −0.80, sedma won +0.40: the chooser's side −0.40 each.
    expect_balances(page, {"Ana": "+0.40", "Ben": "−0.40", "Cyril": "+0.40", "Dana": "−0.40"})


def test_a_hand_with_no_partner_tapped_is_refused_and_alone_is_a_tap(page, marias):
    """Point 2: no partner used to be stored as played alone (3×)."""
    page.goto(marias.get_absolute_url())
    expect(field(page, "partner").locator("input:checked")).to_have_count(0)
    choose(page, "trump", "bells")
    record_with(page, "won", "won")
    expect(_errors(page, "partner")).to_have_text("Tap one: Ana, Ben, Cyril, Dana, nobody: alone.")
    assert not Hand.objects.exists()
    # Nothing tapped was lost with the refusal.
    expect(selected(page, "trump")).to_have_text("bells")

    choose(page, "partner", "nobody: alone")
    record_with(page, "won", "won")
    expect_balances(page, {"Ana": "−0.20", "Ben": "+0.60", "Cyril": "−0.20", "Dana": "−0.20"})


@pytest.mark.parametrize(("contract", "each_defender"), [("betl", "+2.00"), ("durch", "+4.00")])
def test_betl_and_durch_end_with_won_or_lost_and_nothing_else_records(page, marias, contract, each_defender):
    """Nothing pre-selected decides them: the hand is recorded by tapping won or lost."""
    page.goto(marias.get_absolute_url())
    choose(page, "contract", contract)
    expect(record_buttons(page, "won")).to_have_text(["won", "lost"])
    expect(page.locator("#record-hand")).to_have_attribute("hidden", "")
    assert not Hand.objects.exists()
    record_with(page, "won", "lost")
    # Ben (forehand) lost alone: V = −10 × 0.20 (betl) or −20 × 0.20 (durch); each defender gets V, Ben pays 3V.
    three = {"+2.00": "−6.00", "+4.00": "−12.00"}[each_defender]
    expect_balances(page, {"Ana": each_defender, "Ben": three, "Cyril": each_defender, "Dana": each_defender})


def test_a_null_asks_whether_it_was_won(page, skat):
    page.goto(skat.get_absolute_url())
    choose(page, "contract", "Null")
    expect(field(page, "won").locator("input:checked")).to_have_count(0)
    record_with(page, "declarer", "Ben")
    expect(_errors(page, "won")).to_have_text("Tap one: won, lost.")
    assert not Hand.objects.exists()
    choose(page, "won", "lost")
    record_with(page, "declarer", "Ben")
    expect_balances(page, {"Ana": "+0.46", "Ben": "−0.92", "Cyril": "+0.46"})  # Null lost by Ben (forehand): −46 × 2


def test_after_record_the_scoreboard_and_a_status_line_are_in_view(page, skat):
    """Point 5: the page used to jump to the bottom, thousands of pixels from the scoreboard."""
    factories.record(skat, times=12)  # a long log below the form
    page.goto(skat.get_absolute_url())
    record_buttons(page, "declarer").first.scroll_into_view_if_needed()
    choose(page, "contract", "♥ Hearts")
    choose(page, "matadors", "2")
    record_with(page, "declarer", "Ben")
    status = page.locator("#table-status")
    expect(status).to_contain_text("Hand #13: Ben +0.60")
    expect(status).to_be_in_viewport()
    expect(page.locator(".scoreboard")).to_be_in_viewport()

    # The status line's Undo takes back exactly that hand.
    tap(page, status.get_by_role("button", name="Undo"))
    expect(page.locator("#hand-13")).to_have_class("hand-row card voided")
    expect(page.locator(".scoreboard")).to_be_in_viewport()


def test_a_refused_hand_shows_all_its_errors_and_focuses_the_first(page, marias):
    """Points 5 and 6: all errors at once beside their fields, the first one in view with the cursor on it."""
    factories.record(marias, times=12)
    page.goto(marias.get_absolute_url())
    choose(page, "contract", "hra")
    record_buttons(page, "won").first.scroll_into_view_if_needed()
    record_with(page, "won", "won")
    expect(_errors(page, "trump")).to_have_text("Tap one: ♥ hearts, bells, leaves, acorns.")
    expect(_errors(page, "partner")).to_be_visible()
    expect(field(page, "trump")).to_be_in_viewport()
    expect(field(page, "trump").locator("input").first).to_be_focused()
    expect(page.locator("#hand-recorded")).to_have_count(0)


def test_errors_speak_czech_with_the_games_own_words(page, marias):
    page.set_extra_http_headers({"Accept-Language": "cs"})
    page.goto(marias.get_absolute_url())
    record_buttons(page, "won").first.click()
    settle(page)
    expect(_errors(page, "trump")).to_have_text("Ťukněte na jedno: ♥ červené, kule, zelené, žaludy.")
    expect(page.locator("#hand-form")).not_to_contain_text("hearts")
    expect(page.locator("#hand-form")).not_to_contain_text("allowed")


def test_sedma_shows_no_error_before_anything_was_submitted(page, marias):
    page.goto(marias.get_absolute_url())
    choose(page, "contract", "sedma")
    expect(record_buttons(page, "sedma_outcome")).to_have_count(4)  # no hláška: the hra and the seven in one tap
    expect(page.locator("#hand-form .errorlist")).to_have_count(0)


def test_a_tie_of_rare_contracts_preselects_the_everyday_one(page, skat):
    """Point 7: after one Null, one Grand and one passed hand the form was pre-set to Passed in."""
    factories.record(skat, {"declarer": "Ana", "contract": "null", "won": True})
    factories.record(skat, {"declarer": "Ben", "contract": "grand", "matadors": 1, "declarer_points": 61})
    factories.record(skat, {"contract": "passed"})
    page.goto(skat.get_absolute_url())
    expect(selected(page, "contract")).to_have_text("♣ Clubs")


def test_a_mariash_tie_preselects_hra(page, marias):
    factories.record(marias, {"declarer": "Ben", "contract": "betl", "won": True})
    factories.record(marias, {"declarer": "Cyril", "contract": "durch", "won": False})
    page.goto(marias.get_absolute_url())
    expect(selected(page, "contract")).to_have_text("hra")


def test_the_page_and_the_api_show_an_exact_zero(page, evening):
    """Point 4: on SQLite, +0.40 − 0.10 − 0.30 came back from the API as −0.000000000000000333…"""
    table = factories.make_table(evening, "snapser", stake="0.05")
    for declarer, result in [("Ana", "bez_vody"), ("Ben", "s_vodou"), ("Ben", "za_6")]:
        factories.record(table, dict(factories.SNAPSER_N1, declarer=declarer, result=result))
    page.goto(table.get_absolute_url())
    expect_balances(page, {"Ana": "0.00", "Ben": "+0.60", "Cyril": "−0.60"})
    body = page.request.get(f"/api/shared/{evening.share_token}/").json()
    assert body["balances"] == {"Ana": "0.00", "Ben": "0.60", "Cyril": "-0.60"}
