"""A seated phone confirms a hand in one tap: the card comes without a reload when the scorekeeper records, one tap
on OK takes it away, and the scorekeeper's log marks the hand confirmed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from ledger.confirmations.models import Confirmation
from ledger.devices.phone import COOKIE
from ledger.models import Evening, Table
from tests import factories
from tests.e2e.axe import audit, report
from tests.e2e.browser import PHONE
from tests.e2e.conftest import close_quietly, watched_context
from tests.e2e.ui import tap
from tests.ledger.confirmations.support import asking_table, seat_phone

pytestmark = pytest.mark.e2e


@pytest.fixture
def table(alice: Any) -> Table:
    evening: Evening = factories.make_evening(alice)
    return asking_table(evening, "snapser", "opponent")


@pytest.fixture
def cyril(browser: Browser, live_server: Any, table: Table) -> Iterator[Page]:
    """Cyril's own phone, holding his seat (an opponent of the declarer Ana): no account, its device cookie."""
    context, problems = watched_context(browser, live_server.url, **PHONE)
    claim = seat_phone(table, "Cyril")
    context.add_cookies([{"name": COOKIE, "value": claim.device_id, "url": live_server.url}])  # type: ignore[attr-defined]
    yield context.new_page()
    close_quietly(context, problems, "Cyril's phone")


def test_a_seated_phone_confirms_the_hand_the_scorekeeper_recorded(page: Page, cyril: Page, table: Table) -> None:
    cyril.goto(f"/seat/{table.pk}/")
    expect(cyril.locator("#confirmation-cards")).to_be_attached()
    expect(cyril.locator(".confirm-card")).to_have_count(0)

    factories.record(table)  # the scorekeeper records; the phone hears it on its live line

    card = cyril.locator("#confirm-1")
    expect(card).to_contain_text("Hand #1 needs your OK", timeout=15_000)
    expect(card).to_contain_text("s vodou")
    expect(card).to_contain_text("−0.20")
    assert not audit(cyril), "\n".join(report(audit(cyril), "the seat page with a card"))
    tap(cyril, card.get_by_role("button", name="OK", exact=True))
    expect(cyril.locator("#confirmation-cards")).to_contain_text("Hand #1: OK from Cyril.")
    expect(cyril.locator(".confirm-card")).to_have_count(0)
    given = Confirmation.objects.get()
    assert (given.player.name, given.version, given.verdict) == ("Cyril", 1, "ok")

    factories.record(table)  # hand #2: Ben has no phone of his own, he taps on the scorekeeper's
    page.goto(table.get_absolute_url())
    expect(page.locator('#hand-1 [data-mark="confirmed"]').first).to_be_visible()
    part = page.locator("#table-confirmations")
    expect(part).to_contain_text("Hand #2 awaits an OK")
    expect(part).to_contain_text("Asked on their own phones: Cyril.")
    assert not audit(page), "\n".join(report(audit(page), "the table page with a hand awaiting"))
    tap(page, part.get_by_role("button", name="OK — Ben"))
    expect(page.locator("#table-confirmations")).to_contain_text("Hand #2: OK from Ben.")
    expect(page.locator("#table-confirmations")).not_to_contain_text("awaits an OK")
    assert Confirmation.objects.filter(player__name="Ben", claim=None).count() == 1
