"""Starting an evening and sharing it on a phone.

- "Same players as last time": from the home page to the first hand form in two taps, the form filled in as the last
  table was; new players: only their names typed, the first dealer tapped by name.
- The share link: its QR code on the evening page, Copy, and the phone's share sheet where the browser has one.
- Every page on the way passes axe-core and does not scroll sideways at 320 px.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from ledger.models import Evening, Table
from tests import factories
from tests.e2e.axe import audit, report
from tests.e2e.test_accessibility import SIDEWAYS
from tests.e2e.ui import settle, tap

pytestmark = pytest.mark.e2e

NARROW = {"width": 320, "height": 740}


def check(page: Page, where: str) -> None:
    """No serious accessibility violation, and nothing wider than the screen."""
    problems = report(audit(page), where)
    if sideways := page.evaluate(SIDEWAYS, page.viewport_size["width"]):
        problems.append(f"{where}: scrolls sideways by {sideways}")
    assert not problems, "\n".join(problems)


class Thumb:
    """Counts the taps on the way, each waiting for what it started."""

    def __init__(self, page: Page) -> None:
        self.page, self.taps = page, 0

    def tap(self, target: Any) -> None:
        tap(self.page, target)
        self.taps += 1


def test_same_players_as_last_time_reaches_the_first_hand_form_in_two_taps(page: Page, alice: Any) -> None:
    last = factories.make_evening(alice, currency="CZK", place="U Fleků")
    factories.make_table(last, "marias", players=["Ana", "Ben", "Cyril", "Dana"], stake="0.30")
    page.set_viewport_size(NARROW)
    page.goto("/")
    check(page, "home with a last table (320 px)")
    thumb = Thumb(page)
    again = page.get_by_role("button", name="Same players as last time")
    expect(again).to_contain_text("Mariáš čtyřka · Ana, Ben, Cyril, Dana")
    thumb.tap(again)
    expect(page.get_by_role("heading", name="New table")).to_be_visible()
    expect(page.locator("#id_player_3")).to_have_value("Dana")
    expect(page.locator("#field-first_dealer label").first).to_have_text("Ana")
    check(page, "table form filled in (320 px)")
    thumb.tap(page.get_by_role("button", name="Start the table"))
    expect(page.locator("#hand-form")).to_be_visible()
    expect(page.locator("#next-dealer")).to_have_text("Ana deals next.")
    assert thumb.taps == 2
    table = Table.objects.exclude(evening=last).get()
    assert (table.seat_names, table.ruleset["stake"], table.evening.place) == (
        ["Ana", "Ben", "Cyril", "Dana"],
        "0.30",
        "U Fleků",
    )
    check(page, "first hand form (320 px)")


def test_new_players_take_only_their_names_and_the_first_dealer_is_tapped_by_name(page: Page, alice: Any) -> None:
    page.goto("/")
    thumb = Thumb(page)
    thumb.tap(page.get_by_role("link", name="Start an evening"))
    thumb.tap(page.get_by_role("button", name="Next: the table"))
    for seat, name in enumerate(["Šárka", "Jürgen", "Ľubo", "Dana"]):
        thumb.tap(page.locator(f"#id_player_{seat}"))
        page.keyboard.type(name)
    dealer = page.locator("#field-first_dealer label")
    expect(dealer).to_have_text(["Šárka", "Jürgen", "Ľubo", "Dana"])
    thumb.tap(dealer.filter(has_text="Ľubo"))
    thumb.tap(page.get_by_role("button", name="Start the table"))
    expect(page.locator("#hand-form")).to_be_visible()
    expect(page.locator("#next-dealer")).to_have_text("Ľubo deals next.")
    assert thumb.taps == 8  # two to reach the table form, four seats, the first dealer, Start
    assert Evening.objects.get().currency == "CZK"
    # An emptied seat is "Seat n" again.
    page.goto(reverse("ledger:table_create", args=[Evening.objects.get().pk]))
    page.locator("#id_player_1").fill("Ben")
    expect(dealer.nth(1)).to_have_text("Ben")
    page.locator("#id_player_1").fill("")
    expect(dealer.nth(1)).to_have_text("Seat 2")


@pytest.fixture
def shared_evening(alice: Any) -> Any:
    evening = factories.make_evening(alice)
    factories.record(factories.make_table(evening, "snapser"))
    return evening


def test_the_share_link_is_one_scan_or_one_copy_away(page: Page, shared_evening: Any, live_server: Any) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.set_viewport_size(NARROW)
    page.goto(shared_evening.get_absolute_url())
    link = f"{live_server.url}{reverse('ledger:shared_evening', args=[shared_evening.share_token])}"
    expect(page.locator("#share-url")).to_have_value(link)
    code = page.locator(".share-qr svg")
    expect(code).to_be_visible()
    box = code.bounding_box()
    assert box["width"] >= 150 and box["x"] + box["width"] <= 320  # big enough to scan, inside the screen
    expect(page.get_by_role("button", name="Share…")).to_be_hidden()  # no share sheet in a desktop chromium
    tap(page, page.get_by_role("button", name="Copy the link"))
    expect(page.locator("#share-status")).to_have_text("Link copied.")
    assert page.evaluate("navigator.clipboard.readText()") == link
    check(page, "evening page with the share link (320 px)")


def test_a_phone_with_a_share_sheet_offers_it(page: Page, shared_evening: Any, live_server: Any) -> None:
    # A phone's browser has navigator.share; this one records what it was asked to share.
    page.add_init_script("navigator.share = (data) => { window.sharedData = data; return Promise.resolve(); };")
    page.goto(shared_evening.get_absolute_url())
    share = page.get_by_role("button", name="Share…")
    expect(share).to_be_visible()
    tap(page, share)
    settle(page)
    shared = page.evaluate("window.sharedData")
    link = f"{live_server.url}{reverse('ledger:shared_evening', args=[shared_evening.share_token])}"
    assert shared == {"title": f"The score of {shared_evening}", "url": link}


def test_the_player_with_the_link_sees_who_deals_next(phone: Any, shared_evening: Any) -> None:
    page = phone.new_page()
    page.set_viewport_size(NARROW)
    page.goto(reverse("ledger:shared_evening", args=[shared_evening.share_token]))
    expect(page.locator(".next-dealer")).to_have_text("Ben deals next.")
    expect(page.locator(".seat.next .name")).to_have_text("Ben")
    check(page, "shared page (320 px)")
