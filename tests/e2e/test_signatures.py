"""Signing the list in the browser: Ana's phone holds her seat (its device cookie) and signs with one tap on its own
page; Alice's close page shows who signed, and she signs for Ben, who left, with one tap. axe finds no serious
violation at 320 px on the signing page."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from ledger.devices.phone import COOKIE
from ledger.signatures.models import Signature
from ledger.signatures.selectors import signed_at
from tests import factories
from tests.e2e.axe import audit, report
from tests.e2e.browser import PHONE
from tests.e2e.conftest import close_quietly, log_in, watched_context
from tests.e2e.ui import tap
from tests.ledger.signatures.conftest import ANA_PHONE, seat

pytestmark = pytest.mark.e2e

NARROW = {**PHONE, "viewport": {"width": 320, "height": 700}}


def test_a_seated_phone_signs_with_one_tap_and_the_close_page_shows_it(
    browser: Browser, live_server: Any, alice: Any
) -> None:
    table = factories.make_table(factories.make_evening(alice), "snapser")
    factories.record(table, times=2)
    seat(table, "Ana", ANA_PHONE)

    anas, ana_problems = watched_context(browser, live_server.url, **NARROW)
    anas.add_cookies([{"name": COOKIE, "value": ANA_PHONE, "url": live_server.url, "httpOnly": True}])
    phone = anas.new_page()
    phone.goto(f"/seat/{table.pk}/")
    part = phone.locator("#sign-the-list")
    expect(part).to_contain_text("You sign as Ana: hands 1–2, your balance +0.80")
    tap(phone, part.get_by_role("button", name="Sign the list"))
    signed = Signature.objects.get()
    expect(phone.locator("#sign-the-list")).to_contain_text(f"Signed at {signed_at(signed)}")
    assert signed.claim is not None and signed.player.name == "Ana"

    phone.goto(f"/tables/{table.pk}/sign/")
    expect(phone.locator("#sign-the-list")).to_contain_text("Signed at")
    violations = audit(phone)
    assert not violations, "\n".join(report(violations, "the signing page"))

    alices, alice_problems = watched_context(browser, live_server.url, **NARROW)
    log_in(alices, alice, live_server.url)
    close = alices.new_page()
    close.goto(f"/evenings/{table.evening_id}/settlement/")
    listed = close.locator("#signatures")
    expect(listed.locator('[data-player="Ana"]')).to_contain_text(f"signed at {signed_at(signed)} on their own phone")
    expect(listed.locator('[data-player="Ben"]')).to_contain_text("has not signed")
    tap(close, listed.locator('[data-player="Ben"]').get_by_role("button", name="Sign for a player who left"))
    expect(close.locator('#signatures [data-player="Ben"]')).to_contain_text("signed for by alice at")
    expect(close.locator('#signatures [data-player="Ben"]')).to_contain_text("left early")
    assert Signature.objects.get(player__name="Ben").for_absent

    close_quietly(alices, alice_problems, "Alice's phone")
    close_quietly(anas, ana_problems, "Ana's phone")
