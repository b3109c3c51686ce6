"""Web Push in a real browser: the opt-in button on the table page and the devices page, and the service worker
showing what a push brings.

Debian's chromium here cannot make a push subscription: a Playwright context is an incognito profile, where Chrome
refuses the Push API ("Registration failed - permission denied", and a console message saying so); a persistent
profile tries to reach Google's push service, which this machine cannot, and never answers. So the tests check
that the button says honestly what the browser answered (never "on" without a subscription stored), and test the
worker's push handler by delivering a push message to it through the DevTools protocol
(``ServiceWorker.deliverPushMessage``), which needs no push service.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from ledger.devices import keys, services
from ledger.devices.models import PushSubscription
from ledger.devices.phone import COOKIE
from tests import factories
from tests.e2e.axe import audit, report
from tests.e2e.browser import PHONE
from tests.e2e.conftest import TIMEOUT_MS, close_quietly, log_in, watched_context
from tests.e2e.ui import tap
from tests.ledger.devices.conftest import Phone
from tests.ledger.devices.push_service import FakeBrowser

pytestmark = pytest.mark.e2e

# What Chrome itself logs when a page subscribes in an incognito profile: expected here, not an error of ours.
INCOGNITO = "Chrome currently does not support the Push API in incognito mode"
ANDROID = "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36"
OFF = "Notifications off for this phone: hands waiting for your OK are not announced."

# The notifications the worker shows, as the page's own script reads them: waits (in the page) until there are
# ``count`` of them, for ten seconds at most.
SHOWN = """
async (tag) => {
  const registration = await navigator.serviceWorker.ready;
  // Up to 30 s: a busy machine's worker may take seconds to wake for the message.
  for (let tries = 0; tries < 600; tries++) {
    const shown = await registration.getNotifications();
    if (shown.some((n) => n.tag === tag)) {
      return shown.map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url }));
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return [];
}
"""


@pytest.fixture
def push_on(settings: Any) -> str:
    public, private = keys.new_pair()
    settings.WEBPUSH_VAPID_PUBLIC_KEY = public
    settings.WEBPUSH_VAPID_PRIVATE_KEY = private
    settings.WEBPUSH_SUBJECT = "mailto:push@example.org"
    return public


@pytest.fixture
def handset(browser: Browser, live_server: Any) -> Iterator[BrowserContext]:
    """A fresh phone whose only tolerated console message is Chrome's own about incognito push."""
    context, problems = watched_context(browser, live_server.url, **PHONE)
    yield context
    problems[:] = [problem for problem in problems if INCOGNITO not in problem]
    close_quietly(context, problems)


def _until(page: Page, condition: Any) -> None:
    """Let Playwright hand over the DevTools events that arrived (it does so while a call waits) until ``condition``
    holds; the test's own timeout bounds it."""
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while not condition():
        assert time.monotonic() < deadline, "the DevTools event never came"
        page.wait_for_timeout(20)


def _table_page(context: BrowserContext, live_server: Any, alice: Any) -> Page:
    log_in(context, alice, live_server.url)
    table = factories.make_table(factories.make_evening(alice))
    page = context.new_page()
    page.goto(f"/tables/{table.pk}/")
    return page


def test_the_table_page_says_when_the_browser_cannot_subscribe(handset, live_server, alice, push_on):
    handset.grant_permissions(["notifications"], origin=live_server.url)
    page = _table_page(handset, live_server, alice)
    box = page.locator("[data-push-optin]")
    expect(box).to_have_attribute("data-push-state", "off")
    expect(box.get_by_role("status")).to_have_text(OFF)

    box.get_by_role("button", name="Switch notifications on").click()

    expect(box).to_have_attribute("data-push-state", "failed")
    # Chrome's own words follow ("Registration failed - permission denied" in an incognito profile).
    expect(box.get_by_role("status")).to_have_text(re.compile(r"^This browser could not switch notifications on: \S"))
    expect(box.get_by_role("button", name="Try again")).to_be_enabled()
    assert not PushSubscription.objects.exists()


def test_the_devices_page_says_when_the_browser_refuses_notifications(handset, live_server, db, push_on):
    page = handset.new_page()  # no permission granted: a headless browser answers the question with "denied"
    page.goto("/devices/")
    expect(page.get_by_text("No device gets notifications.")).to_be_visible()
    box = page.locator("[data-push-optin]")
    expect(box.get_by_role("status")).to_have_text(OFF)

    box.get_by_role("button", name="Switch notifications on").click()

    expect(box).to_have_attribute("data-push-state", "refused")
    expect(box.get_by_role("status")).to_have_text(
        "The browser refused notifications for this site: allow them in its site settings, then tap again."
    )
    assert not PushSubscription.objects.exists()


def test_without_vapid_keys_no_button_is_shown(handset, live_server, alice):
    page = _table_page(handset, live_server, alice)
    expect(page.locator("[data-worker=controlling]")).to_have_count(1)

    expect(page.locator("[data-push-optin]")).to_have_count(0)


def test_a_push_message_shows_its_notification(handset, live_server, alice, push_on):
    handset.grant_permissions(["notifications"], origin=live_server.url)
    page = _table_page(handset, live_server, alice)
    expect(page.locator("[data-worker=controlling]")).to_have_count(1)
    cdp = handset.new_cdp_session(page)
    registrations: list[str] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: registrations.extend(r["registrationId"] for r in event["registrations"] if not r["isDeleted"]),
    )
    cdp.send("ServiceWorker.enable")
    _until(page, lambda: bool(registrations))  # the registrations there are, reported just after

    message = {"title": "Hand #9 needs your OK", "body": "Ana: Hra, +0.40", "url": "/seat/4/", "tag": "hand-9"}
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": live_server.url, "registrationId": registrations[-1], "data": json.dumps(message)},
    )

    assert page.evaluate(SHOWN, "hand-9") == [{**message, "url": f"{live_server.url}/seat/4/"}]

    # A message naming another site's page opens Talon's home page when tapped, never the other site.
    elsewhere = {"title": "Closed", "body": "You pay Ota 45 Kč", "url": "https://elsewhere.example/x", "tag": "close"}
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": live_server.url, "registrationId": registrations[-1], "data": json.dumps(elsewhere)},
    )
    shown = {notification["tag"]: notification for notification in page.evaluate(SHOWN, "close")}
    assert shown["close"] == {**elsewhere, "url": f"{live_server.url}/"}


def test_the_devices_page_switches_this_phone_off_in_place(handset, live_server, alice, push_on):
    phone = Phone()
    handset.add_cookies([{"name": COOKIE, "value": phone.device, "url": live_server.url}])
    log_in(handset, alice, live_server.url)
    subscription = FakeBrowser("https://push.example.org/pocket").subscription()
    services.push_subscribe(device=phone.hash, user=alice, subscription=subscription, user_agent=ANDROID)
    services.push_subscribe(
        device=Phone().hash,
        user=alice,
        subscription={**subscription, "endpoint": "https://push.example.org/tab"},
        user_agent="Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) Version/17.5 Mobile Safari/604.1",
    )
    page = handset.new_page()
    page.goto("/devices/")
    devices = page.locator("#devices")
    expect(devices.get_by_role("listitem")).to_have_count(2)
    expect(devices.get_by_role("listitem").filter(has_text="(this phone)")).to_contain_text("Chrome on Android")
    assert report(audit(page), "/devices/") == []

    tap(page, devices.get_by_role("button", name="Switch off Chrome on Android"))

    expect(page.locator("#devices").get_by_role("status")).to_have_text(
        "Notifications switched off for Chrome on Android."
    )
    expect(page.locator("#devices").get_by_role("listitem")).to_have_count(1)
    expect(page.locator("#devices").get_by_role("listitem")).to_contain_text("Safari on iPad")
    assert page.url == f"{live_server.url}/devices/"  # swapped in place, not a new page
    assert list(PushSubscription.objects.filter(active=True).values_list("label", flat=True)) == ["Safari on iPad"]
