"""Tables at 320 px in every language, with Larger text: statistics, a member's page, a circle's bookings and the
tournament pages stack their rows (``table.stacked``) rather than make the whole page scroll sideways, and axe finds
no serious violation. One phone per language walks through the pages; Larger text is on from the first paint, as
talon.js reads it from localStorage, so no button name depends on the language."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from playwright.sync_api import Browser

from ledger import services
from ledger.circles import services as circles
from ledger.tournaments import services as tournaments
from ledger.tournaments.models import Entrant, TournamentTable
from tests import factories
from tests.e2e.axe import audit, report
from tests.e2e.browser import PHONE
from tests.e2e.conftest import close_quietly, log_in, watched_context
from tests.e2e.test_accessibility import SIDEWAYS
from tests.ledger.stats.stats_data import small_circle

pytestmark = pytest.mark.e2e

WIDTH = 320
LANGUAGES = {"cs": "cs-CZ", "sk": "sk-SK", "de": "de-DE", "en": "en-GB"}
# In every document the context opens; about:blank and sandboxed frames have no localStorage to set.
LARGER_TEXT = "try { localStorage.setItem('talon-large-text', '1'); } catch (error) {}"
# Long names, as German and Czech clubs have them: the widest cell of a row.
ENTRANTS = ["Hans-Jürgen Oberhuber", "Šárka Wolfová", "Ľubomír Zelený", "Dana Nováková", "Emil Fischer", "Fritz"]


def _pages(alice: Any) -> list[tuple[str, bool]]:
    """(url, audited by axe): the statistics and tournament pages are audited, the others measured only."""
    friday = small_circle(alice)
    circle = friday.circle
    circles.circle_settings_change(
        circle=circle, by=alice, name=circle.name, settle="tab", currency=circle.currency, coin=circle.coin
    )
    evening = circles.circle_evening_create(circle=circle, by=alice, date=datetime.date(2026, 3, 5))
    table = factories.make_table(evening, "snapser", players=["Ana", "Ben", "Cyril"], stake="3.10")
    factories.record(table, factories.SNAPSER_N1 | {"declarer": "Ana"})
    services.evening_close(evening=evening, by=alice)  # bookings: the carried balances
    membership = circle.memberships.get(player__name="Ben")
    circles.member_link_create(membership=membership)
    tournament = tournaments.tournament_create(
        owner=alice,
        game="skat",
        name="Skatabend der Kartenfreunde",
        players=ENTRANTS,
        rounds=2,
        options={"fees": {"entry": "10.00", "lost": {"3": "0.50"}}, "prizes": "top3"},
        date=datetime.date(2026, 12, 4),
        place="Klubovna",
    )
    Entrant.objects.filter(tournament=tournament).update(checked_in=True)
    tournaments.round_start(tournament=tournament)
    sheet = TournamentTable.objects.filter(round__tournament=tournament).select_related("table").first()
    declarer = sheet.table.seat_names[0]
    factories.record(sheet.table, {"declarer": declarer, "contract": "grand", "matadors": 1, "declarer_points": 61})
    tournament.refresh_from_db()
    return [
        (f"/players/{friday.players['Ben'].pk}/stats/", True),
        (f"/circles/{circle.pk}/stats/", True),
        (f"/m/{membership.token}/", False),
        (circle.get_absolute_url(), False),
        (tournament.get_absolute_url(), True),
        (f"/r/{tournament.share_token}/", True),
    ]


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_tables_fit_a_320px_phone_with_larger_text(browser: Browser, live_server: Any, alice: Any, language: str):
    pages = _pages(alice)
    options = {**PHONE, "viewport": {"width": WIDTH, "height": 740}, "locale": LANGUAGES[language]}
    context, errors = watched_context(browser, live_server.url, **options)
    context.add_init_script(LARGER_TEXT)
    log_in(context, alice, live_server.url)
    page = context.new_page()
    problems: list[str] = []
    for url, audited in pages:
        page.goto(url)
        assert page.evaluate("document.documentElement.lang") == language, url
        assert "large-text" in (page.locator("html").get_attribute("class") or ""), url
        where = f"{url} ({language}, larger text, {WIDTH}px)"
        if sideways := page.evaluate(SIDEWAYS, WIDTH):
            problems.append(f"{where}: scrolls sideways by {sideways}")
        if audited:
            problems += report(audit(page), where)
    context_problems = "\n".join(problems)
    close_quietly(context, errors)
    assert not problems, context_problems
