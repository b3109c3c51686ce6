"""Seats in a real browser: Alice keeps score on her phone; Ben joins from his own phone by typing the table's code,
taps his name, and follows the score live; at a table where any seated player records, Ben records a hand himself
and Alice's page shows it without a reload. axe finds no serious violation on the join pages and the seated page at
320 px and on a laptop, in each theme.

pytest-django's live server is a WSGI server, where a live line answers with the table's state alone and ends;
EventSource comes back after its ``retry`` (3 s), and a state that moved on makes the page fetch its live part (the
push to an open line under ASGI is tested with AsyncClient in tests/ledger/live/test_table_lines.py).
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from ledger.models import Table
from ledger.seats.codes import code_of
from tests import factories
from tests.e2e.axe import audit, report
from tests.e2e.browser import PHONE
from tests.e2e.conftest import close_quietly, log_in, watched_context
from tests.e2e.ui import choose, expect_balances, hand_row, record_with, tap

pytestmark = pytest.mark.e2e

NARROW: dict[str, Any] = {**PHONE, "viewport": {"width": 320, "height": 700}}
DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}, "locale": "en-GB"}
THEMES = {"light": "Light", "dark": "Dark", "contrast": "High contrast"}
MARK = "document.documentElement.dataset.loadedOnce = '1'"  # gone after a reload
LIVE_MS = 15_000  # the line's retry (3 s) and the fetch, on a slow shared machine


def _clean_in_every_theme(page: Page, where: str) -> list[str]:
    problems: list[str] = []
    for theme, button in THEMES.items():
        page.get_by_role("button", name=button, exact=True, include_hidden=True).dispatch_event("click")
        expect(page.locator("html")).to_have_attribute("data-theme", theme)
        problems += report(audit(page), f"{where} ({theme})")
    sideways = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    if sideways > 0:
        problems.append(f"{where} scrolls sideways by {sideways} px")
    return problems


def test_a_phone_joins_by_code_follows_live_and_records_at_a_seated_table(
    browser: Browser, live_server: Any, alice: Any
) -> None:
    table = factories.make_table(factories.make_evening(alice), "snapser")
    Table.objects.filter(pk=table.pk).update(recording=Table.Recording.SEATED)
    code = code_of(table.pk)

    alices, alice_problems = watched_context(browser, live_server.url, **PHONE)
    log_in(alices, alice, live_server.url)
    keeper = alices.new_page()
    keeper.goto(table.get_absolute_url())
    door = keeper.locator("#seats-door")
    expect(door.locator("[data-seat-code]")).to_have_text(f"{code[:3]} {code[3:]}")
    expect(door.locator("#seat-list")).to_contain_text("Ben: free")

    bens, ben_problems = watched_context(browser, live_server.url, **NARROW)
    phone = bens.new_page()
    phone.goto("/j/")
    problems = _clean_in_every_theme(phone, "the code page (320 px)")
    phone.get_by_label("The table's code").fill(f"{code[:3].lower()} {code[3:]}")
    phone.get_by_role("button", name="Find the table").click()
    expect(phone.get_by_role("button", name="Ben", exact=True)).to_be_visible()
    problems += _clean_in_every_theme(phone, "the join page (320 px)")
    phone.get_by_role("button", name="Ben", exact=True).click()
    expect(phone.locator("#seat-who")).to_have_text("You sit as Ben.")
    problems += _clean_in_every_theme(phone, "the seated page (320 px)")
    phone.evaluate(MARK)

    # The scorekeeper's list shows the phone without a reload of her page.
    keeper.evaluate(MARK)
    expect(door.locator("#seat-row-1")).to_contain_text("held by a phone without an account", timeout=LIVE_MS)
    door.locator("summary").click()
    expect(door.locator("svg.qr")).to_be_visible()
    problems += _clean_in_every_theme(keeper, "the scorekeeper's table page with a seated phone (390 px)")

    # Alice records; Ben's phone shows it without a reload.
    choose(keeper, "declarer", "Ana")
    choose(keeper, "trump", "leaves")
    record_with(keeper, "result", "s vodou")
    expect_balances(keeper, {"Ana": "+0.40", "Ben": "−0.20", "Cyril": "−0.20"})
    expect(hand_row(phone, 1)).to_contain_text("s vodou", timeout=LIVE_MS)
    expect(phone.locator("#scoreboard")).to_contain_text("−0.20")
    assert phone.evaluate("document.documentElement.dataset.loadedOnce") == "1"

    # Ben records the next hand from his seat; Alice's page shows it without a reload.
    choose(phone, "declarer", "Ben")
    choose(phone, "trump", "leaves")
    record_with(phone, "result", "s vodou")
    expect(hand_row(phone, 2)).to_be_visible()
    expect(hand_row(keeper, 2)).to_be_visible(timeout=LIVE_MS)
    assert keeper.evaluate("document.documentElement.dataset.loadedOnce") == "1"
    assert table.hands.get(number=2).entered_by.first_name == "Ben"

    # Ben leaves; Alice's list says the seat is free again.
    tap(phone, phone.get_by_role("button", name="Leave the seat"))
    expect(phone.locator("#seat-ended")).to_contain_text("This phone no longer holds Ben's seat.")
    expect(door.locator("#seat-row-1")).to_contain_text("free", timeout=LIVE_MS)

    close_quietly(bens, ben_problems, "Ben's phone")
    close_quietly(alices, alice_problems, "Alice's phone")
    assert not problems, "\n".join(problems)


def test_a_second_phone_waits_until_the_scorekeeper_allows_it(browser: Browser, live_server: Any, alice: Any) -> None:
    table = factories.make_table(factories.make_evening(alice), "snapser")
    from tests.ledger.seats.support import claim, new_device

    claim(table, 1, new_device())  # Ben's old phone
    alices, alice_problems = watched_context(browser, live_server.url, **PHONE)
    log_in(alices, alice, live_server.url)
    keeper = alices.new_page()
    keeper.goto(table.get_absolute_url())

    news, new_problems = watched_context(browser, live_server.url, **DESKTOP)
    phone = news.new_page()
    phone.goto(f"/j/{code_of(table.pk)}/")
    phone.get_by_role("button", name="Ben (taken: the scorekeeper decides)").click()
    expect(phone.locator("#seat-waiting")).to_contain_text("The scorekeeper decides")
    problems = _clean_in_every_theme(phone, "the waiting page (desktop)")
    phone.evaluate(MARK)

    allow = keeper.get_by_role("button", name="Allow the other phone Ben's seat")
    expect(allow).to_be_visible(timeout=LIVE_MS)
    problems += _clean_in_every_theme(keeper, "the scorekeeper's table page with a waiting phone (390 px)")
    tap(keeper, allow)
    expect(keeper.locator("#seat-list-status")).to_have_text("Ben's seat is held by the phone you allowed.")
    expect(phone.locator("#seat-who")).to_have_text("You sit as Ben.", timeout=LIVE_MS)
    assert phone.evaluate("document.documentElement.dataset.loadedOnce") == "1"
    # Only the scorekeeper records at this table: no form on the seat.
    expect(phone.get_by_text("The scorekeeper records the hands at this table.")).to_be_visible()
    problems += _clean_in_every_theme(phone, "the seated page (desktop)")

    close_quietly(news, new_problems, "the new phone")
    close_quietly(alices, alice_problems, "Alice's phone")
    assert not problems, "\n".join(problems)


# The page's live lines, marked on <html> (attributes: the Content-Security-Policy forbids wait_for_function's eval):
# how many first events (the table's state) they heard, to wait for the line's next reconnection, and how many of
# them are open.
WATCH_LINES = """(() => {
  const Real = window.EventSource;
  let states = 0;
  let open = 0;
  const mark = () => {
    document.documentElement.dataset.lineStates = String(states);
    document.documentElement.dataset.linesOpen = String(open);
  };
  window.EventSource = function (url, options) {
    const source = new Real(url, options);
    open += 1;
    source.addEventListener("message", (event) => {
      if (event.data.includes('"state"')) states += 1;
      mark();
    });
    source.close = function () {
      if (this.readyState !== Real.CLOSED) open -= 1;
      Real.prototype.close.call(this);
      mark();
    };
    return source;
  };
  window.EventSource.prototype = Real.prototype;
})()"""


def _next_state(page: Page) -> None:
    heard = int(page.locator("html").get_attribute("data-line-states") or 0)
    expect(page.locator(f"html[data-line-states='{heard + 1}']")).to_have_count(1, timeout=LIVE_MS)


def test_the_scorekeepers_own_hand_never_redraws_her_page_and_anothers_keeps_her_taps(
    browser: Browser, live_server: Any, alice: Any
) -> None:
    table = factories.make_table(factories.make_evening(alice), "snapser")
    alices, problems = watched_context(browser, live_server.url, **PHONE)
    log_in(alices, alice, live_server.url)
    keeper = alices.new_page()
    keeper.add_init_script(WATCH_LINES)
    live_url = live_server.url + table.get_absolute_url()
    fetched: list[str] = []  # the page's fetches of its live part (the books' table page, asked by htmx's header)
    keeper.on(
        "request",
        lambda request: (
            fetched.append(request.url)
            if request.method == "GET" and request.url == live_url and request.headers.get("hx-request")
            else None
        ),
    )
    keeper.goto(table.get_absolute_url())
    choose(keeper, "trump", "leaves")
    record_with(keeper, "result", "s vodou")
    expect(keeper.locator("#table-status")).to_contain_text("Hand #1:")
    # The line comes back twice saying the table moved on to her own hand, which her page shows: nothing is fetched.
    _next_state(keeper)
    _next_state(keeper)
    assert fetched == []

    # She taps the next hand while another phone records one: the log shows it, her taps stay.
    choose(keeper, "trump", "bells")
    keeper.locator("#hand-form").evaluate("form => { form.dataset.tapped = 'yes'; }")
    factories.record(table)
    expect(hand_row(keeper, 2)).to_be_visible(timeout=LIVE_MS)
    assert len(fetched) == 1
    expect(keeper.locator("#hand-form[data-tapped=yes]")).to_have_count(1)
    expect(keeper.locator("#field-trump input[value=bells]")).to_be_checked()

    # Offline, the line is closed (no request fails in the console); back online, it opens again and the hand
    # recorded meanwhile shows.
    alices.set_offline(True)
    expect(keeper.locator("html[data-lines-open='0']")).to_have_count(1)
    factories.record(table)
    alices.set_offline(False)
    expect(hand_row(keeper, 3)).to_be_visible(timeout=LIVE_MS)
    expect(keeper.locator("#hand-form[data-tapped=yes]")).to_have_count(1)
    close_quietly(alices, problems, "Alice's phone")
