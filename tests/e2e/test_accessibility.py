"""Legible on every screen: every page a player or a scorekeeper reaches, in each theme and at each width.

axe-core (vendored in tests/e2e/vendor/, never served by the app) finds no serious or critical violation, colour
contrast included (at 320 and 1280 px: ``AUDITED``); on a phone nothing scrolls sideways; and the scoreboard shows
four-digit balances whole, also with Larger text. One browser context per width walks through all the pages and
taps each theme in the footer, as a person would, so the whole module stays short on a slow machine.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from ledger import services
from tests import factories
from tests.e2e.axe import audit, report
from tests.e2e.browser import PHONE
from tests.e2e.conftest import log_in, watched_context

pytestmark = pytest.mark.e2e

THEMES = {"light": "Light", "dark": "Dark", "contrast": "High contrast"}  # localStorage value → footer button
PHONES = (320, 390)
# axe runs at the narrowest phone and on the laptop. The stylesheet draws 320 and 390 px alike (its narrow rules
# start below 30rem, 480 px), so at 390 px axe would judge the same page again, only with more room; the pages are
# still measured at 390 px (sideways, whole balances).
AUDITED = (320, 1280)

# Skat at 25.72 a point: a Grand with one matador (48 points) moves 1234.56 from each defender (S1 × 2572).
BIG_STAKE = "25.72"
BIG_BALANCES = ["+2469.12", "−1234.56", "−1234.56"]


def _evening_being_played(alice: Any) -> dict[str, Any]:
    evening = factories.make_evening(alice)
    skat = factories.make_table(evening, "skat", stake=BIG_STAKE)
    factories.record(skat)
    marias = factories.make_table(evening, "marias")
    factories.record(marias, times=2)
    factories.record(marias, {**factories.MARIAS_M2, "contract": "sedma", "seven": {"side": "declarer", "won": True}})
    snapser = factories.make_table(evening, "snapser")
    factories.record(snapser, times=2)
    services.hand_undo_last(table=snapser, by=alice)  # a voided hand in the log, struck through
    return {"evening": evening, "skat": skat, "marias": marias, "snapser": snapser}


def _evening_settled(alice: Any) -> dict[str, Any]:
    """A closed evening: rounded balances, transfers (one with a payment QR code), the share link on."""
    evening = factories.make_evening(alice, place="Hospoda Na Růžku", date=datetime.date(2026, 11, 20))
    skat = factories.make_table(evening, "skat", players=["Ana", "Ben", "Cyril", "Dana"], stake="3.33")
    factories.record(skat, {**factories.SKAT_S1, "dealer": "Dana"})
    factories.record(skat, {**factories.SKAT_S1, "declarer": "Ben", "contract": "hearts", "dealer": "Ana"})
    services.player_iban_set(player=skat.seats.get(position=0).player, iban="CZ6508000000192000145399")
    settlement = services.evening_close(evening=evening, by=alice)
    services.transfer_mark_paid(transfer=settlement.transfers.order_by("pk").last(), by=alice)  # drawn as paid
    services.evening_share_reset(evening=evening)
    return {"evening": evening, "skat": skat}


@pytest.fixture
def data(alice: Any) -> dict[str, Any]:
    return {"playing": _evening_being_played(alice), "settled": _evening_settled(alice)}


def _pages_for_anybody(data: dict[str, Any]) -> list[str]:
    settled = data["settled"]["evening"]
    return ["/", "/accounts/login/", f"/s/{settled.share_token}/"]


def _pages_for_alice(data: dict[str, Any]) -> list[str]:
    playing, settled = data["playing"], data["settled"]
    evening = playing["evening"]
    skat_hand = playing["skat"].hands.get(number=1)
    return [
        "/",
        "/evenings/",
        "/evenings/new/",
        evening.get_absolute_url(),
        f"/evenings/{evening.pk}/tables/new/",
        playing["skat"].get_absolute_url(),
        playing["marias"].get_absolute_url(),
        playing["snapser"].get_absolute_url(),
        f"/hands/{skat_hand.pk}/edit/",
        f"/tables/{playing['skat'].pk}/rules/",
        "/games/skat/rules/",
        "/games/marias/rules/",
        "/games/snapser/rules/",
        f"/evenings/{evening.pk}/settlement/",
        settled["evening"].get_absolute_url(),
        settled["skat"].get_absolute_url(),
        f"/evenings/{settled['evening'].pk}/settlement/",
        f"/players/{settled['skat'].seats.get(position=0).player.pk}/",
    ]


@pytest.fixture
def screen(request: pytest.FixtureRequest, browser: Browser, live_server: Any) -> Iterator[BrowserContext]:
    """A fresh device of the width asked for: a phone (320, 390) or a laptop (1280), nobody logged in yet."""
    width = request.param
    if width in PHONES:
        options = {**PHONE, "viewport": {"width": width, "height": 740}}
    else:
        options = {"viewport": {"width": width, "height": 900}, "locale": "en-GB"}
    context, problems = watched_context(browser, live_server.url, **options)
    yield context
    context.close()
    assert not problems, f"the browser reported errors: {problems}"


def _tap_setting(page: Page, name: str) -> None:
    """A display setting in the top bar's menu, as talon.js sees a tap (the menu may be closed; a page too wide may
    have drawn over the button)."""
    page.get_by_role("button", name=name, exact=True, include_hidden=True).dispatch_event("click")


# How far the page is wider than the screen, and the innermost elements that stick out (what to fix).
SIDEWAYS = """
(width) => {
  const extra = document.documentElement.scrollWidth - width;
  if (extra <= 0) return null;
  const sticksOut = (element) => element.getBoundingClientRect().right > width + 0.5
    || element.scrollWidth > element.clientWidth + 1 && getComputedStyle(element).overflowX === "visible";
  const out = [...document.body.querySelectorAll("*")].filter((element) =>
    sticksOut(element) && ![...element.children].some(sticksOut));
  const name = (element) => element.tagName.toLowerCase() + (element.className ? "." + element.className : "");
  const text = (element) => element.textContent.trim().slice(0, 30);
  return `${extra}px: ` + out.slice(0, 3).map((element) => `${name(element)} "${text(element)}"`).join(", ");
}
"""


# A balance is whole when all of it is drawn on one line inside its seat, and the seat inside the screen: not cut
# off, not spilling over the next seat, not broken over two lines.
CUT_BALANCES = """
() => [...document.querySelectorAll(".scoreboard .balance")].flatMap((balance) => {
  const seat = balance.closest(".seat").getBoundingClientRect();
  const text = document.createRange();
  text.selectNodeContents(balance);
  const lines = text.getClientRects();
  const drawn = text.getBoundingClientRect();
  const whole = lines.length === 1 && balance.scrollWidth <= balance.clientWidth && drawn.left >= seat.left
    && drawn.right <= seat.right && seat.right <= innerWidth;
  return whole ? [] : [`${balance.textContent.trim()} (${Math.ceil(drawn.width)}px on ${lines.length} line(s) in `
    + `${balance.clientWidth}px)`];
})
"""


def _check_layout(page: Page, width: int, where: str, problems: list[str]) -> None:
    if width in PHONES and (sideways := page.evaluate(SIDEWAYS, width)):
        problems.append(f"{where}: scrolls sideways by {sideways}")
    for cut in page.evaluate(CUT_BALANCES):
        problems.append(f"{where}: a balance is not whole: {cut}")


@pytest.mark.parametrize("screen", [320, 390, 1280], indirect=True, ids=lambda width: f"{width}px")
def test_every_page_is_legible_in_every_theme(screen, live_server, alice, data):
    page = screen.new_page()
    width = page.viewport_size["width"]
    problems: list[str] = []
    visits = [(url, False) for url in _pages_for_anybody(data)]
    visits += [(url, True) for url in _pages_for_alice(data)]
    logged_in = False
    big_table = data["playing"]["skat"].get_absolute_url()
    for url, as_alice in visits:
        if as_alice and not logged_in:
            log_in(screen, alice, live_server.url)
            logged_in = True
        page.goto(url)
        if url == big_table:
            expect(page.locator(".scoreboard .balance")).to_have_text(BIG_BALANCES)  # four digits to show whole
        who = "alice" if as_alice else "anybody"
        for theme, button in THEMES.items():
            _tap_setting(page, button)
            expect(page.locator("html")).to_have_attribute("data-theme", theme)
            where = f"{url} ({who}, {theme}, {width}px)"
            if width in AUDITED:
                problems += report(audit(page), where)
            _check_layout(page, width, where, problems)
        if width in PHONES:
            _tap_setting(page, "Larger text")
            expect(page.locator("html")).to_have_class(re.compile(r"\blarge-text\b"))
            _check_layout(page, width, f"{url} ({who}, larger text, {width}px)", problems)
            _tap_setting(page, "Larger text")
    assert not problems, "\n".join(problems)
