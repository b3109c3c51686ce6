"""Invitations in the browser: Alice makes an evening's link on her phone (with htmx, its QR code and Copy); Dora,
logged in on a phone of her own, opens the link, accepts and lands on the evening as a co-scorekeeper. axe finds no
serious violation at 320 px on the sections of the evening, circle and tournament pages, the link's page and the
page of a link that no longer works."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from ledger.circles import services as circles
from ledger.invitations import services as invitations
from ledger.invitations.models import InviteLink
from ledger.tournaments import services as tournaments
from tests import factories
from tests.e2e.axe import audit, report
from tests.e2e.browser import PHONE
from tests.e2e.conftest import close_quietly, log_in, watched_context

pytestmark = pytest.mark.e2e

NARROW = {**PHONE, "viewport": {"width": 320, "height": 700}}


def _clean(page: Page, where: str) -> None:
    violations = audit(page)
    assert not violations, "\n".join(report(violations, where))
    sideways = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert sideways <= 0, f"{where} scrolls sideways by {sideways} px"


def test_a_link_made_on_one_phone_is_accepted_on_another(browser: Browser, live_server: Any, alice: Any) -> None:
    dora = factories.make_user("dora")
    evening = factories.make_evening(alice)
    factories.make_table(evening, "snapser")

    alices, alice_problems = watched_context(browser, live_server.url, **NARROW)
    log_in(alices, alice, live_server.url)
    page = alices.new_page()
    page.goto(evening.get_absolute_url())
    section = page.locator("#invite-links")
    expect(section.get_by_text("No invitation link works now.")).to_be_visible()
    section.get_by_role("button", name="Make an invitation link").click()
    expect(section.locator("article.invite-link")).to_have_count(1)
    expect(section.get_by_role("status")).to_contain_text("Invitation link made: it works until")
    link = InviteLink.objects.get()
    url = f"{live_server.url}/i/{link.token}/"
    expect(section.get_by_label("Invitation link")).to_have_value(url)
    expect(section.locator("svg.qr title")).to_have_text("Invitation link")
    _clean(page, "the evening page with a link")

    doras, dora_problems = watched_context(browser, live_server.url, **NARROW)
    log_in(doras, dora, live_server.url)
    guest = doras.new_page()
    guest.goto(url)
    expect(guest.get_by_role("heading", level=1)).to_have_text("Invitation")
    expect(guest.get_by_text("alice invites you to keep score of an evening with them:")).to_be_visible()
    _clean(guest, "the link's page")
    guest.get_by_role("button", name="Accept").click()
    expect(guest).to_have_url(f"{live_server.url}{evening.get_absolute_url()}")
    expect(guest.get_by_text("You keep score of 2026-11-27 U Fleků now.")).to_be_visible()
    expect(guest.get_by_role("link", name="New table")).to_be_visible()  # she keeps score now
    assert list(evening.scorekeepers.all()) == [dora]

    # Alice revokes the link: the next person who opens it is told, in a page of its own.
    section.get_by_role("button", name="Revoke").click()
    expect(section.get_by_text("No invitation link works now.")).to_be_visible()
    stranger, stranger_problems = watched_context(browser, live_server.url, **NARROW)
    late = stranger.new_page()
    answer = late.goto(url)
    assert answer is not None and answer.status == 410
    expect(late.get_by_text("This invitation link was revoked.")).to_be_visible()
    _clean(late, "a revoked link's page")

    # The browser logs the page's 410 itself as a failed load: that answer is the point here, not a fault.
    stranger_problems[:] = [problem for problem in stranger_problems if "status of 410 (Gone)" not in problem]
    close_quietly(stranger, stranger_problems, "the stranger's phone")
    close_quietly(doras, dora_problems, "Dora's phone")
    close_quietly(alices, alice_problems, "Alice's phone")


def test_the_circle_and_tournament_sections_at_320_px(browser: Browser, live_server: Any, alice: Any) -> None:
    circle = circles.circle_create(owner=alice, name="Friday Šnapser", members=["Ana", "Ben", "Cyril"])
    cup = tournaments.tournament_create(
        owner=alice, game="skat", name="Skat night", players=["Ana", "Ben", "Cyril"], rounds=1
    )
    context, problems = watched_context(browser, live_server.url, **NARROW)
    log_in(context, alice, live_server.url)
    page = context.new_page()
    for subject in (circle, cup):
        invitations.invite_link_create(subject=subject, by=alice)
        page.goto(subject.get_absolute_url())
        section = page.locator("#invite-links")
        expect(section.locator("article.invite-link")).to_have_count(1)
        section.get_by_label("For whom").select_option(label="Ben only (they become this player)")
        section.get_by_role("button", name="Make an invitation link").click()
        expect(section.locator("article.invite-link")).to_have_count(2)
        expect(section.get_by_role("heading", name="For Ben")).to_be_visible()
        _clean(page, f"the {type(subject).__name__.lower()} page with two links")
    close_quietly(context, problems, "Alice's phone")
