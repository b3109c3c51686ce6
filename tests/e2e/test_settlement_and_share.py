"""The settlement page and the share link in a real browser.

- A paid mark tapped by mistake is taken back, and the history says both steps, without a reload.
- A player's open "Why?" on the share page stays open while the page refreshes itself and a new hand comes in;
  a refresh that brings nothing new swaps nothing.
- A switched-off or unknown share link answers 404 with a page in the reader's language.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from playwright.sync_api import Browser, BrowserContext, Page, expect

from ledger import services
from ledger.models import Transfer
from tests import factories
from tests.e2e.browser import HTMX_COUNTER, PHONE
from tests.e2e.conftest import TIMEOUT_MS
from tests.e2e.ui import screenshot, tap
from tests.ledger.closeout_data import ANA_IBAN, evening_owing, set_iban

pytestmark = pytest.mark.e2e

# Counts on <html> what the share page's refresh did: polls answered, and swaps of the live part.
REFRESH_COUNTER = """
(() => {
  const bump = (name) => {
    const root = document.documentElement;
    root.dataset[name] = String(Number(root.dataset[name] || 0) + 1);
  };
  document.addEventListener("htmx:afterRequest", (event) => {
    if (event.detail.elt && event.detail.elt.id === "shared-live") bump("polls");
  });
  document.addEventListener("htmx:afterSwap", (event) => {
    if (event.detail.target && event.detail.target.id === "shared-live") bump("swaps");
  });
})();
"""


def _settlement_url(evening: Any) -> str:
    return reverse("ledger:evening_settlement", args=[evening.pk])


def _transfer(page: Page, payer: str, payee: str = "Ana") -> Any:
    return page.locator(f'li.transfer[data-transfer="{payer} → {payee}"]')


# --------------------------------------------------------------------------------------------------------------
# (a) A paid mark taken back


def test_a_paid_mark_tapped_by_mistake_is_taken_back_and_the_history_says_so(page: Page, alice: Any) -> None:
    evening = evening_owing(alice)
    set_iban(alice, "Ana", ANA_IBAN)
    services.evening_close(evening=evening, by=alice)
    page.goto(_settlement_url(evening))
    ben = _transfer(page, "Ben")
    expect(ben.locator(".qr-code svg")).to_have_count(1)

    tap(page, ben.get_by_role("button", name="Mark paid"))
    expect(ben).to_contain_text("Marked paid by alice")
    expect(ben.locator(".qr-code")).to_have_count(0)
    history = page.locator("#history")
    expect(history).to_contain_text("transfer paid · alice · Ben → Ana 7.00")

    # Ben has not paid after all: the scorekeeper takes the mark back.
    tap(page, ben.get_by_role("button", name="Mark unpaid"))
    expect(ben.get_by_role("button", name="Mark paid")).to_be_visible()
    expect(ben).not_to_contain_text("Marked paid by")
    expect(ben.locator(".qr-code svg")).to_have_count(1)  # the payment code is back
    expect(history).to_contain_text("transfer marked unpaid · alice · Ben → Ana 7.00")
    expect(history.locator("li").first).to_contain_text("transfer marked unpaid")  # newest first
    screenshot(page, "settlement-paid-mark-taken-back")

    page.reload()  # stored, not only drawn
    expect(_transfer(page, "Ben").get_by_role("button", name="Mark paid")).to_be_visible()
    expect(page.locator("#history")).to_contain_text("transfer marked unpaid · alice · Ben → Ana 7.00")
    assert not Transfer.objects.get(payer__name="Ben").is_paid


def test_without_javascript_a_mark_taken_back_after_a_reopen_is_planned_again(
    browser: Browser, live_server: Any, alice: Any
) -> None:
    """Reopening keeps what was paid; taking back a mark on the reopened evening drops that transfer."""
    evening = evening_owing(alice)
    services.evening_close(evening=evening, by=alice)
    services.transfer_mark_paid(transfer=Transfer.objects.get(payer__name="Ben"), by=alice)
    services.evening_reopen(evening=evening, by=alice)
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False, **PHONE)
    context.set_default_timeout(TIMEOUT_MS)
    client = Client()
    client.force_login(alice)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    try:
        page = context.new_page()
        page.goto(_settlement_url(evening))
        expect(page.get_by_role("heading", name="Already paid")).to_be_visible()
        _transfer(page, "Ben").get_by_role("button", name="Mark unpaid").click()
        expect(page.get_by_role("status")).to_contain_text(
            "Not paid: Ben → Ana 7.00. Closing the evening plans it again."
        )
        expect(page.get_by_role("heading", name="Already paid")).to_have_count(0)
        page.get_by_role("button", name="Close and settle").click()
        expect(_transfer(page, "Ben").get_by_role("button", name="Mark paid")).to_be_visible()
        expect(_transfer(page, "Cyril").get_by_role("button", name="Mark paid")).to_be_visible()
    finally:
        context.close()


# --------------------------------------------------------------------------------------------------------------
# (b) The share page's refresh keeps an open "Why?"


def test_an_open_why_stays_open_while_the_share_page_refreshes(phone: BrowserContext, alice: Any) -> None:
    evening = factories.make_evening(alice)
    table = factories.make_table(evening, "snapser")
    factories.record(table)
    phone.add_init_script(REFRESH_COUNTER)
    page = phone.new_page()
    page.goto(reverse("ledger:shared_evening", args=[evening.share_token]))
    html = page.locator("html")

    why = page.locator("#hand-1 details")
    why.locator("summary").click()
    expect(why).to_have_attribute("open", "")
    expect(why.locator(".hand-lines")).to_be_visible()

    # Nothing changes for two refreshes: the first one morphs the same page in, the next ones swap nothing.
    expect(html).to_have_attribute("data-polls", "3", timeout=25_000)
    assert int(html.get_attribute("data-swaps") or 0) <= 1
    expect(why).to_have_attribute("open", "")

    # The scorekeeper records a hand at the table meanwhile.
    services.hand_record(table=table, hand=dict(factories.SNAPSER_N1, declarer="Ben"), by=alice)
    expect(page.locator("#hand-2")).to_be_visible(timeout=25_000)
    expect(page.locator(".hand-log h2")).to_contain_text("(2)")
    expect(page.locator("#hand-1 details")).to_have_attribute("open", "")
    expect(page.locator("#hand-1 .hand-lines")).to_be_visible()
    expect(page.locator("#hand-2 details")).not_to_have_attribute("open", "")
    screenshot(page, "share-page-why-kept-open")


# --------------------------------------------------------------------------------------------------------------
# (c) A link that does not work


@pytest.mark.parametrize(("locale", "language"), [("en-GB", "en"), ("de-DE", "de")])
def test_a_switched_off_or_unknown_link_says_so_with_404(
    browser: Browser, live_server: Any, alice: Any, locale: str, language: str
) -> None:
    evening = factories.make_evening(alice)
    switched_off = evening.share_token
    services.evening_share_reset(evening=evening, enabled=False)
    with translation.override(language):
        heading = gettext("This share link does not work")
        why = gettext(
            "The link is unknown, or the scorekeeper switched it off. Ask the scorekeeper for the current link."
        )
    # A context of its own: the browser reports a 404 answer as a console error, which is what is tested here.
    context = browser.new_context(base_url=live_server.url, **(PHONE | {"locale": locale}))
    context.set_default_timeout(TIMEOUT_MS)
    try:
        page = context.new_page()
        for token in (switched_off, "no-such-link-at-all"):
            response = page.goto(reverse("ledger:shared_evening", args=[token]))
            assert response is not None and response.status == 404
            expect(page.locator("html")).to_have_attribute("lang", language)
            expect(page.get_by_role("heading", level=1)).to_have_text(heading)
            expect(page.locator("main")).to_contain_text(why)
        screenshot(page, f"share-link-switched-off-{language}")
    finally:
        context.close()


def test_a_link_switched_off_while_a_player_watches_says_so_in_place(
    browser: Browser, live_server: Any, alice: Any
) -> None:
    evening = factories.make_evening(alice)
    factories.record(factories.make_table(evening, "snapser"))
    context = browser.new_context(base_url=live_server.url, **PHONE)
    context.set_default_timeout(TIMEOUT_MS)
    context.add_init_script(HTMX_COUNTER)
    try:
        page = context.new_page()
        page.goto(reverse("ledger:shared_evening", args=[evening.share_token]))
        expect(page.locator("#hand-1")).to_be_visible()
        services.evening_share_reset(evening=evening, enabled=False)
        alert = page.locator("#shared-live [role=alert]")
        expect(alert).to_contain_text("This share link does not work", timeout=25_000)
        expect(page.locator("#hand-1")).to_have_count(0)
        expect(page.locator("#shared-live")).not_to_have_attribute("hx-trigger", "every 5s")
    finally:
        context.close()
