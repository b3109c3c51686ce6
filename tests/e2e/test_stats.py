"""Statistics in the browser: a player's page and a circle's season, read and filtered; axe finds no serious
violation on either."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.axe import audit, report
from tests.ledger.stats.stats_data import small_circle

pytestmark = pytest.mark.e2e


def test_a_players_statistics_and_a_circles_season(page: Page, alice: Any) -> None:
    friday = small_circle(alice)
    page.goto(f"/players/{friday.players['Ben'].pk}/stats/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Statistics of Ben")
    expect(page.locator(".chart svg polyline")).to_have_count(1)
    violations = audit(page)
    assert not violations, "\n".join(report(violations, "player statistics"))
    page.get_by_label("Game").select_option("skat")
    page.get_by_role("button", name="Show").click()
    expect(page.get_by_role("row", name="Net +2.64", exact=True)).to_be_visible()
    page.goto(f"/circles/{friday.circle.pk}/stats/")
    expect(page.locator("#season-table + p + table tbody tr").first).to_contain_text("Ben")
    violations = audit(page)
    assert not violations, "\n".join(report(violations, "circle statistics"))
