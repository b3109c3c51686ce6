"""The installable web app in a real browser: the service worker keeps the tables a scorekeeper opened, the top bar
says when the phone is offline, a log-out forgets the kept pages, and the screen stays on at the table.

The browser goes offline with Playwright's ``context.set_offline``: the page's requests fail as without a signal,
and ``navigator.onLine`` and the online/offline events follow.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from playwright.sync_api import Browser, BrowserContext, Page, expect

from ledger.offline import pwa
from tests import factories
from tests.e2e.axe import audit, report
from tests.e2e.browser import HTMX_COUNTER, PHONE
from tests.e2e.conftest import TIMEOUT_MS
from tests.e2e.test_accessibility import SIDEWAYS, THEMES

pytestmark = pytest.mark.e2e

OFFLINE = "Offline: hands are kept on this phone"
# The URLs in the worker's kept-pages caches (talon-pages-<version>), as the page's own script can read them.
KEPT_PAGES = """
async () => {
  const urls = [];
  for (const name of await caches.keys()) {
    if (!name.startsWith("talon-pages-")) continue;
    const cache = await caches.open(name);
    for (const request of await cache.keys()) urls.push(new URL(request.url).pathname);
  }
  return urls;
}
"""


# The worker's kept copy of the page at a path, as text (null while there is none).
KEPT_COPY = """
async (path) => {
  for (const name of await caches.keys()) {
    if (!name.startsWith("talon-pages-")) continue;
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      if (new URL(request.url).pathname === path) return await (await cache.match(request)).text();
    }
  }
  return null;
}
"""


def _log_in(context: BrowserContext, user: Any, url: str) -> None:
    client = Client()
    client.force_login(user)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": url}])


def _poll(page: Page, script: str, until: Any, arg: Any = None) -> Any:
    """What ``script`` answers once ``until(answer)`` holds (the worker writes its caches after answering); an
    assertion error if it never does."""
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while True:
        answer = page.evaluate(script, arg)
        if until(answer):
            return answer
        assert time.monotonic() < deadline, f"after {TIMEOUT_MS} ms still {answer!r:.300}"
        page.wait_for_timeout(100)


def wait_for_kept_copy(page: Page, path: str, text: str) -> None:
    """Until the worker's kept copy of the page at ``path`` shows ``text``."""
    _poll(page, KEPT_COPY, lambda html: html is not None and text in html, path)


def _kept_pages(page: Page, until: Any) -> list[str]:
    """The pages the worker keeps, once ``until(pages)`` holds."""
    return _poll(page, KEPT_PAGES, until)


def _controlled(page: Page) -> None:
    expect(page.locator("html[data-worker=controlling]")).to_have_count(1)


def _ready_for_offline(page: Page) -> None:
    """The table page's offline pricing has loaded (static/js/offline.js marks it): the signal drops only after,
    as it would at a real table, where the phone has been open a while; dropped earlier, Pyodide's own download
    fails in the browser's console, which every browser test counts as an error."""
    expect(page.locator("html[data-offline-ready]")).to_have_count(1, timeout=3 * TIMEOUT_MS)


@pytest.fixture
def tables(alice: Any) -> dict[str, Any]:
    evening = factories.make_evening(alice, place="U Zlatého tygra")
    snapser = factories.make_table(evening, "snapser", players=["Ana", "Ben", "Cyril"])
    factories.record(snapser, times=2)
    skat = factories.make_table(evening, "skat", players=["Dora", "Emil", "Franz"])
    return {"evening": evening, "snapser": snapser, "skat": skat}


def test_a_table_opened_before_opens_offline_and_the_top_bar_says_so(page, phone, tables):
    snapser = tables["snapser"].get_absolute_url()
    page.goto(snapser)
    _controlled(page)
    assert snapser in _kept_pages(page, lambda pages: snapser in pages)  # the first visit, before the worker
    _ready_for_offline(page)
    indicator = page.locator("#connection")
    expect(indicator).to_be_hidden()
    form_top = page.locator("#hand-form").bounding_box()["y"]

    phone.set_offline(True)
    expect(indicator).to_have_text(OFFLINE)
    assert page.locator("#hand-form").bounding_box()["y"] == form_top  # the indicator moved nothing
    page.reload()
    expect(page.locator(".scoreboard .seat .name")).to_have_text(["Ana", "Ben", "Cyril"])
    expect(page.locator(".scoreboard .balance")).to_have_text(["+0.80", "−0.40", "−0.40"])
    expect(indicator).to_have_text(OFFLINE)
    expect(indicator).to_be_visible()
    assert page.locator("#hand-form").bounding_box()["y"] == form_top  # the indicator moved nothing

    # A table never opened on this phone, an evening and the list of evenings: the offline page instead.
    for url in (tables["skat"].get_absolute_url(), tables["evening"].get_absolute_url(), "/evenings/"):
        page.goto(url)
        expect(page.get_by_role("heading", name="This phone is offline")).to_be_visible()
        expect(page.get_by_text("Dora")).to_have_count(0)
        expect(indicator).to_have_text(OFFLINE)

    phone.set_offline(False)
    page.goto(snapser)
    expect(page.locator(".scoreboard .seat .name")).to_have_text(["Ana", "Ben", "Cyril"])
    phone.set_offline(True)
    expect(indicator).to_have_text(OFFLINE)
    phone.set_offline(False)
    expect(indicator).to_have_text("Back online")
    expect(indicator).to_be_hidden()  # after a few seconds: nothing more to say


def test_the_page_script_can_add_a_detail_and_refresh_the_kept_copy(page, phone, tables, alice):
    snapser = tables["snapser"]
    page.goto(snapser.get_absolute_url())
    _controlled(page)
    _ready_for_offline(page)
    indicator = page.locator("#connection")
    page.evaluate("Talon.connection.detail('2 hands waiting to send')")
    expect(indicator).to_have_text("2 hands waiting to send")
    phone.set_offline(True)
    expect(indicator).to_have_text(f"{OFFLINE} · 2 hands waiting to send")
    page.evaluate("Talon.connection.detail('')")
    expect(indicator).to_have_text(OFFLINE)
    phone.set_offline(False)

    # A hand recorded elsewhere (another scorekeeper's phone): the kept copy learns it when the page asks.
    factories.record(snapser)
    page.evaluate("Talon.refreshCachedPage(location.href)")
    wait_for_kept_copy(page, snapser.get_absolute_url(), "+1.20")
    phone.set_offline(True)
    page.reload()
    expect(page.locator(".scoreboard .balance")).to_have_text(["+1.20", "−0.60", "−0.60"])


def test_a_new_release_replaces_the_caches_and_keeps_the_open_table(page, phone, tables, monkeypatch):
    snapser = tables["snapser"].get_absolute_url()
    page.goto(snapser)
    _controlled(page)
    _kept_pages(page, lambda pages: snapser in pages)
    page.reload()  # opened again, under the worker: the release comes while the page is open
    _controlled(page)
    version = pwa.worker_version()
    names = page.evaluate("caches.keys()")
    assert {f"talon-shell-{version}", f"talon-pages-{version}"} <= set(names)
    pyodide = f"talon-pyodide-{pwa.pyodide_version()}"  # named by Pyodide's version: a release of Talon keeps it
    assert all(name.endswith(version) for name in names if name != pyodide), names

    monkeypatch.setattr(pwa, "worker_version", lambda: "0123456789abcdef")  # a release: another /sw.js
    pwa._cached_worker.cache_clear()
    try:
        page.evaluate("async () => (await navigator.serviceWorker.getRegistration()).update()")
        released = lambda names: all(name.endswith("-0123456789abcdef") for name in names if name != pyodide)  # noqa: E731
        names = _poll(page, "caches.keys()", released)
        assert "talon-shell-0123456789abcdef" in names
        assert released(names), names  # the old release's are gone
        assert snapser in _kept_pages(page, lambda pages: snapser in pages)  # kept again by the new worker
    finally:
        monkeypatch.undo()
        pwa._cached_worker.cache_clear()


def test_a_log_out_forgets_the_kept_tables(page, phone, tables):
    snapser = tables["snapser"].get_absolute_url()
    page.goto(snapser)
    _controlled(page)
    assert snapser in _kept_pages(page, lambda pages: snapser in pages)
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("link", name="Log in", exact=True)).to_be_visible()
    assert _kept_pages(page, lambda pages: not pages) == []

    phone.set_offline(True)
    page.goto(snapser)
    expect(page.get_by_role("heading", name="This phone is offline")).to_be_visible()
    expect(page.get_by_text("Ana")).to_have_count(0)


# navigator.wakeLock as a phone has it, recording what the page asks of it (headless chromium may refuse the real
# lock); REFUSE makes every request fail as a phone on battery saver does.
WAKE_LOCK = """
(() => {
  const calls = (window.wakeLockCalls = []);
  const refuse = %s;
  const lock = {
    request(type) {
      calls.push("request " + type);
      if (refuse) return Promise.reject(new DOMException("Not allowed", "NotAllowedError"));
      const listeners = [];
      const sentinel = {
        released: false,
        addEventListener: (name, listener) => listeners.push(listener),
        release() {
          calls.push("release");
          sentinel.released = true;
          listeners.forEach((listener) => listener());
          return Promise.resolve();
        },
      };
      return Promise.resolve(sentinel);
    },
  };
  Object.defineProperty(Navigator.prototype, "wakeLock", { get: () => lock, configurable: true });
})();
"""

VISIBILITY = """
(state) => {
  Object.defineProperty(document, "visibilityState", { get: () => state, configurable: true });
  document.dispatchEvent(new Event("visibilitychange"));
}
"""


def _wake_lock_calls(page: Page) -> list[str]:
    return page.evaluate("window.wakeLockCalls")


def test_the_screen_stays_on_at_the_table_until_switched_off(page, phone, tables):
    phone.add_init_script(WAKE_LOCK % "false")
    page.goto(tables["snapser"].get_absolute_url())
    toggle = page.get_by_role("button", name="Keep the screen on")
    expect(toggle).to_have_attribute("aria-pressed", "true")  # on by default
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    assert _wake_lock_calls(page) == ["request screen"]

    page.evaluate(VISIBILITY, "hidden")  # the phone put away: the lock goes
    page.evaluate(VISIBILITY, "visible")  # and comes back with the page
    assert _wake_lock_calls(page) == ["request screen", "release", "request screen"]

    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    assert _wake_lock_calls(page)[-1] == "release"
    page.reload()  # remembered on this phone: nothing asked
    expect(toggle).to_have_attribute("aria-pressed", "false")
    assert _wake_lock_calls(page) == []

    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    assert _wake_lock_calls(page) == ["request screen"]


def test_a_refused_wake_lock_shows_the_toggle_off_with_the_reason(page, phone, tables):
    phone.add_init_script(WAKE_LOCK % "true")
    page.goto(tables["snapser"].get_absolute_url())
    toggle = page.get_by_role("button", name="Keep the screen on")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    expect(toggle).to_have_attribute("title", "The phone did not allow keeping the screen on. (NotAllowedError)")


def test_without_a_wake_lock_there_is_no_toggle(page, phone, tables):
    phone.add_init_script("delete Navigator.prototype.wakeLock;")
    page.goto(tables["snapser"].get_absolute_url())
    expect(page.locator("[data-wake-lock]")).to_be_hidden()


@pytest.fixture
def narrow(browser: Browser, live_server: Any) -> Iterator[BrowserContext]:
    """The narrowest phone the pages are drawn for."""
    context = browser.new_context(base_url=live_server.url, **{**PHONE, "viewport": {"width": 320, "height": 640}})
    context.set_default_timeout(TIMEOUT_MS)
    context.add_init_script(HTMX_COUNTER)
    yield context
    context.close()


def test_offline_pages_are_legible_in_every_theme_at_320px(narrow, live_server, alice, tables):
    _log_in(narrow, alice, live_server.url)
    page = narrow.new_page()
    snapser = tables["snapser"].get_absolute_url()
    page.goto(snapser)
    _controlled(page)
    _kept_pages(page, lambda pages: snapser in pages)
    _ready_for_offline(page)
    narrow.set_offline(True)
    problems: list[str] = []
    for url, heading in [(snapser, "Šnapser"), ("/evenings/", "This phone is offline")]:
        page.goto(url)
        expect(page.get_by_role("heading", level=1)).to_contain_text(heading)
        expect(page.locator("#connection")).to_have_text(OFFLINE)
        for theme, button in THEMES.items():
            page.get_by_role("button", name=button, exact=True, include_hidden=True).dispatch_event("click")
            expect(page.locator("html")).to_have_attribute("data-theme", theme)
            where = f"{url} offline ({theme}, 320px)"
            problems += report(audit(page), where)
            if sideways := page.evaluate(SIDEWAYS, 320):
                problems.append(f"{where}: scrolls sideways by {sideways}")
        larger = page.get_by_role("button", name="Larger text", exact=True, include_hidden=True)
        larger.dispatch_event("click")  # the indicator's text on two lines: it hangs below the bar, never wider
        expect(page.locator("html.large-text")).to_have_count(1)
        if sideways := page.evaluate(SIDEWAYS, 320):
            problems.append(f"{url} offline (larger text, 320px): scrolls sideways by {sideways}")
        larger.dispatch_event("click")
    assert not problems, "\n".join(problems)
