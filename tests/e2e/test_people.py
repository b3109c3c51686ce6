"""A person's own pages in a real browser: Bob says "I am Ben" from the share link on his phone, Alice approves on
hers, and Bob's page then shows his evenings and money under both scorekeepers. Each page passes axe at 320 px and
on a laptop in every theme, and nothing scrolls sideways on a phone."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, BrowserContext, Page, expect

from ledger.people import services as people
from ledger.people.models import PlayerClaim
from tests import factories
from tests.e2e.axe import audit, report
from tests.e2e.browser import PHONE
from tests.e2e.conftest import close_quietly, log_in, watched_context
from tests.ledger.people.worlds import alice_evening, bobs_world

pytestmark = pytest.mark.e2e

THEMES = {"light": "Light", "dark": "Dark", "contrast": "High contrast"}
SIDEWAYS = "(width) => document.documentElement.scrollWidth - width"


@pytest.fixture
def screen(request: pytest.FixtureRequest, browser: Browser, live_server: Any) -> Iterator[BrowserContext]:
    width = request.param
    if width == 320:
        options = {**PHONE, "viewport": {"width": 320, "height": 740}}
    else:
        options = {"viewport": {"width": width, "height": 900}, "locale": "en-GB"}
    context, problems = watched_context(browser, live_server.url, **options)
    yield context
    close_quietly(context, problems)


def _audit_in_every_theme(page: Page, where: str, problems: list[str]) -> None:
    width = page.viewport_size["width"]
    for theme, button in THEMES.items():
        page.get_by_role("button", name=button, exact=True, include_hidden=True).dispatch_event("click")
        expect(page.locator("html")).to_have_attribute("data-theme", theme)
        problems += report(audit(page), f"{where} ({theme}, {width}px)")
        if width == 320 and (extra := page.evaluate(SIDEWAYS, width)) > 0:
            problems.append(f"{where} ({theme}): scrolls sideways by {extra}px")


@pytest.mark.parametrize("screen", [320, 1280], indirect=True, ids=lambda width: f"{width}px")
def test_the_people_pages_are_legible(screen, live_server, alice):
    bob = factories.make_user("bob")
    world = bobs_world(alice, bob)
    fresh = alice_evening(alice, "Cyril", world["evenings"][1].date.replace(day=27))
    people.player_claim_request(user=bob, player=fresh.tables.get().seats.get(position=0).player, how="seat")
    problems: list[str] = []
    page = screen.new_page()

    log_in(screen, bob, live_server.url)
    for url in (reverse("people:me"), reverse("people:claim_from_share", args=[fresh.share_token])):
        page.goto(url)
        _audit_in_every_theme(page, f"{url} (bob)", problems)
    screen.clear_cookies()
    log_in(screen, alice, live_server.url)
    for url in (reverse("people:claims"), "/"):
        page.goto(url)
        _audit_in_every_theme(page, f"{url} (alice)", problems)

    assert not problems, "\n".join(problems)


def test_bob_claims_ben_from_the_share_link_and_alice_approves(browser, live_server, alice):
    bob = factories.make_user("bob")
    evening = alice_evening(alice, "Ana", datetime.date(2026, 11, 27))
    bobs, bob_problems = watched_context(browser, live_server.url, **PHONE)
    alices, alice_problems = watched_context(browser, live_server.url, **PHONE)
    try:
        log_in(bobs, bob, live_server.url)
        log_in(alices, alice, live_server.url)
        phone = bobs.new_page()
        phone.goto(reverse("ledger:shared_evening", args=[evening.share_token]))
        phone.get_by_role("link", name="Is one of these players you? Link them to your account").click()
        phone.get_by_role("button", name="I am Ben").click()
        expect(phone.get_by_text("Asked: alice, who keeps score of Ben, will answer.")).to_be_visible()

        hers = alices.new_page()
        hers.goto("/")
        hers.get_by_role("link", name="1 player claim waits for your answer").click()
        expect(hers.get_by_text("bob says they are Ben")).to_be_visible()
        hers.get_by_role("button", name="Approve").click()
        expect(hers.get_by_text("bob is now Ben.")).to_be_visible()

        phone.goto(reverse("people:me"))
        expect(phone.locator("table.my-evenings tbody tr")).to_have_count(1)
        expect(phone.locator("table.my-evenings")).to_contain_text("−€0.20")
        assert PlayerClaim.objects.get().status == "approved"
    finally:
        close_quietly(bobs, bob_problems, "Bob's phone")
        close_quietly(alices, alice_problems, "Alice's phone")
