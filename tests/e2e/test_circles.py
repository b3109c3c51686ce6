"""Circles in the browser: Alice makes a circle, starts its evening in one tap, settles the tab; Ben reads
his own page through his personal link. axe finds no serious violation on the circle pages."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from ledger import services
from ledger.circles import services as circles
from ledger.circles.models import Circle
from tests import factories
from tests.e2e.axe import audit, report
from tests.e2e.ui import settle, tap

pytestmark = pytest.mark.e2e


def _tab_circle(alice: Any) -> Circle:
    circle = circles.circle_create(owner=alice, name="Friday Šnapser", members=["Ana", "Ben", "Cyril"], settle="tab")
    evening = circles.circle_evening_create(circle=circle, by=alice, date=datetime.date(2026, 11, 20))
    table = factories.make_table(evening, "snapser", players=["Ana", "Ben", "Cyril"], stake="3.10")
    factories.record(table)  # Ana +12.40, Ben and Cyril −6.20: the tab holds 12, −6, −6
    services.evening_close(evening=evening, by=alice)
    services.player_iban_set(player=circle.members.get(name="Ana"), iban="CZ6508000000192000145399")
    return circle


def test_a_circle_is_made_and_its_evening_started_in_one_tap(page: Page, alice: Any) -> None:
    page.goto("/circles/new/")
    page.fill("#id_name", "Stammtisch")
    page.fill("#id_members", "Ana\nBen\nCyril")
    page.get_by_role("button", name="Create the circle").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Stammtisch")
    page.get_by_role("button", name="New evening with the circle").click()
    # The new table's form with the members in the seats.
    expect(page.locator("[name=player_0]")).to_have_value("Ana")
    expect(page.locator("[name=player_2]")).to_have_value("Cyril")


def test_the_tab_is_settled_and_a_transfer_marked_paid_with_htmx(page: Page, alice: Any) -> None:
    circle = _tab_circle(alice)
    page.goto(circle.get_absolute_url())
    violations = audit(page)
    assert not violations, "\n".join(report(violations, "circle page"))
    # One tap settles nothing: the browser asks for the "Yes" first (no JavaScript needed).
    page.get_by_role("button", name="Settle the tab").click()
    assert page.locator("#id_confirm").evaluate("box => box.validity.valueMissing")
    assert not circle.settlements.exists()
    page.get_by_label("Yes, settle the tab now").check()
    page.get_by_role("button", name="Settle the tab").click()
    expect(page.locator("li.transfer")).to_have_count(2)
    first = page.locator("li.transfer").first
    tap(page, first.get_by_role("button", name="Mark paid"))
    expect(page.locator("li.transfer.paid")).to_have_count(1)
    # A member's personal link, made with htmx, and his own page.
    page.locator("#member-" + str(circle.members.get(name="Ben").pk) + " summary").click()
    tap(page, page.locator(f"#member-link-{circle.members.get(name='Ben').pk}").get_by_role("button").first)
    link = page.get_by_role("textbox", name="Personal link of Ben").input_value()
    assert "/m/" in link
    page.goto(link)
    settle(page)
    expect(page.get_by_role("heading", level=1)).to_contain_text("Ben")
    violations = audit(page)
    assert not violations, "\n".join(report(violations, "member page"))
    # His own choice through his own link: a plain form post from a page whose address holds the token.
    tap(page, page.get_by_role("button", name="Hide me from statistics"))
    expect(page.get_by_role("button", name="Show me in statistics again")).to_be_visible()
    assert circle.members.get(name="Ben").hide_stats


def test_the_settings_change_with_htmx_and_the_pot_holder_gets_a_qr_code(page: Page, alice: Any) -> None:
    circle = circles.circle_create(owner=alice, name="Friday Šnapser", members=["Ana", "Ben", "Cyril"])
    services.player_iban_set(player=circle.members.get(name="Ben"), iban="CZ6508000000192000145399")
    page.goto(circle.get_absolute_url())
    page.get_by_text("Change the settings").click()
    page.fill("#id_settings-name", "Kasse")
    page.locator("#settings label").filter(has=page.get_by_text("winners pay into the pot", exact=True)).click()
    page.select_option("#id_settings-pot_holder", label="Ben")
    tap(page, page.get_by_role("button", name="Save the settings"))
    # The heading and the money part are swapped in with the settings card, without a page load.
    expect(page.get_by_role("heading", level=1)).to_have_text("Kasse")
    expect(page.locator("#circle-head")).to_contain_text("Ben holds the pot")
    expect(page.locator("#pot")).to_be_visible()
    assert page.url.endswith(circle.get_absolute_url())  # no redirect to …#settings: htmx swapped the parts
    stored = Circle.objects.get(pk=circle.pk)
    assert (stored.name, stored.settle, stored.pot_holder.name) == ("Kasse", "pot", "Ben")
    # An evening won by Ana: her pot share, with a QR code to Ben, marked paid with htmx.
    evening = circles.circle_evening_create(circle=stored, by=alice, date=datetime.date(2026, 11, 20))
    table = factories.make_table(evening, "snapser", players=["Ana", "Ben", "Cyril"], stake="3.10")
    factories.record(table)  # Ana +12 rounded: a tenth, 1.20 → 1 Kč into the pot
    services.evening_close(evening=evening, by=alice)
    page.reload()
    payment = page.locator("#pot-payments li.transfer")
    expect(payment).to_contain_text("Ana → Ben")
    expect(payment.locator("svg")).to_have_count(1)
    violations = audit(page)
    assert not violations, "\n".join(report(violations, "circle page with its settings"))
    tap(page, payment.get_by_role("button", name="Mark paid"))
    expect(page.locator("#pot-payments li.transfer.paid")).to_have_count(1)
