"""Two phones of the table's scorekeepers record the next hand at once: the second sees the hand that won beside its
own, priced, and chooses: theirs is right (one hand), or its own is the next hand (both counted). The scorekeeper's
own hands one after another, with the record buttons and no reload, are never a conflict."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from ledger.models import Hand
from tests import factories
from tests.e2e.axe import audit, report
from tests.e2e.browser import PHONE
from tests.e2e.conftest import close_quietly, log_in, watched_context
from tests.e2e.ui import choose, expect_balances, hand_row, record_with, tap

pytestmark = pytest.mark.e2e


def _phone(browser: Browser, live_server: Any, user: Any, table: Any) -> tuple[Any, Any, list[str]]:
    context, problems = watched_context(browser, live_server.url, **PHONE)
    log_in(context, user, live_server.url)
    page = context.new_page()
    page.goto(table.get_absolute_url())
    return context, page, problems


def _taps(page: Any) -> None:
    """Ana chooses hrám in leaves (RULES.md N1/N2: s vodou +0.40, bez vody +0.80 for the chooser)."""
    choose(page, "declarer", "Ana")
    choose(page, "trump", "leaves")


def _hand(page: Any, result: str) -> None:
    _taps(page)
    record_with(page, "result", result)


def test_two_phones_recording_the_next_hand_at_once(browser, live_server, evening, alice):
    table = factories.make_table(evening, "snapser")
    first, mine, first_problems = _phone(browser, live_server, alice, table)
    second, theirs, second_problems = _phone(browser, live_server, alice, table)
    panel = mine.locator("#hand-conflict")
    try:
        _taps(mine)  # both phones enter hand #1 at once; the other one records first
        _hand(theirs, "s vodou")
        expect(hand_row(mine, 1)).to_be_visible()  # pushed to this phone, which keeps its taps (not recorded yet)
        record_with(mine, "result", "bez vody")
        expect(panel).to_contain_text("Hand #1 was just recorded by alice.")
        versions = panel.locator("article")
        expect(versions.nth(0)).to_contain_text("Ana +0.40")
        expect(versions.nth(1)).to_contain_text("Yours, not stored")
        expect(versions.nth(1)).to_contain_text("Ana +0.80")
        expect(panel).to_be_focused()
        violations = audit(mine)
        assert not violations, "\n".join(report(violations, "the conflict panel"))
        assert Hand.objects.filter(table=table).count() == 1
        tap(mine, panel.get_by_role("link", name="Theirs is right: drop mine"))
        expect(panel).to_have_count(0)
        expect(hand_row(mine, 1)).to_be_visible()
        expect_balances(mine, {"Ana": "+0.40", "Ben": "−0.20", "Cyril": "−0.20"})
        assert Hand.objects.filter(table=table).count() == 1
        # Again for hand #2; this time the tapped hand is another deal: recorded after theirs, as #3.
        _taps(mine)
        _hand(theirs, "s vodou")
        expect(hand_row(mine, 2)).to_be_visible()
        record_with(mine, "result", "bez vody")
        expect(panel).to_contain_text("Hand #2 was just recorded by alice.")
        tap(mine, panel.get_by_role("button", name="Mine is another hand: record it as #3"))
        expect(panel).to_have_count(0)
        expect(mine.locator("#table-status")).to_contain_text("Hand #3: Ana +0.80")
        expect_balances(mine, {"Ana": "+1.60", "Ben": "−0.80", "Cyril": "−0.80"})
        assert list(Hand.objects.filter(table=table).order_by("number").values_list("number", flat=True)) == [1, 2, 3]
    finally:
        close_quietly(first, first_problems, "the second phone")
        close_quietly(second, second_problems, "the first phone")


def test_hands_one_after_another_with_the_record_buttons_are_no_conflict(page, evening):
    table = factories.make_table(evening, "snapser")
    page.goto(table.get_absolute_url())
    _hand(page, "s vodou")
    expect(hand_row(page, 1)).to_be_visible()
    _hand(page, "bez vody")  # the form the answer drew counts hand #1
    expect(hand_row(page, 2)).to_be_visible()
    expect(page.locator("#hand-conflict")).to_have_count(0)
    expect(page.locator("#hand-form input[name=after]")).to_have_value("2")
    assert Hand.objects.filter(table=table).count() == 2
