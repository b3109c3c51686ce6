"""The statistics pages as the scorekeeper sees them, and as a stranger (404)."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.ledger.stats.stats_data import small_circle


@pytest.fixture
def friday(alice):
    return small_circle(alice)


def test_the_scorekeeper_reads_a_players_statistics(alice_client, friday):
    page = alice_client.get(f"/players/{friday.players['Ben'].pk}/stats/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Statistics of Ben" in html
    assert "+8.84" in html  # net over every evening
    assert "<svg" in html and "<polyline" in html  # the net over the evenings
    assert "sedma" in html and "Grand" in html  # declared, by the form's names
    assert "hrám" in html
    assert "+6.40" in html and "−2.00" in html  # biggest win, biggest loss


def test_the_page_filters_by_game_and_dates(alice_client, friday):
    ben = friday.players["Ben"].pk
    html = alice_client.get(f"/players/{ben}/stats/?game=skat").content.decode()
    assert "+2.64" in html and "hrám" not in html
    empty = alice_client.get(f"/players/{ben}/stats/?from=2030-01-01").content.decode()
    assert "No counted hands in this range." in empty


def test_a_bad_date_is_shown_beside_its_field(alice_client, friday):
    page = alice_client.get(f"/players/{friday.players['Ben'].pk}/stats/?from=tomorrow")
    assert page.status_code == 400
    html = page.content.decode()
    assert "Enter a date as YYYY-MM-DD." in html
    assert 'name="from" value="tomorrow" aria-invalid="true"' in html


def test_the_circles_season_page_with_its_downloads(alice_client, friday):
    page = alice_client.get(f"/circles/{friday.circle.pk}/stats/?from=2026-01-01")
    assert page.status_code == 200
    html = page.content.decode()
    rows = html.split("<tbody>")[1].split("</tbody>")[0]
    assert rows.index("Ben") < rows.index("Cyril") < rows.index("Ana") < rows.index("Dana")
    assert "7,88" in html or "7.88" in html
    assert f"/circles/{friday.circle.pk}/export.xlsx?from=2026-01-01" in html
    assert alice_client.get(f"/circles/{friday.circle.pk}/export.xlsx?from=2026-01-01").status_code == 200


def test_strangers_get_404(charlie, friday):
    stranger = Client()
    stranger.force_login(charlie)
    assert stranger.get(f"/players/{friday.players['Ben'].pk}/stats/").status_code == 404
    assert stranger.get(f"/circles/{friday.circle.pk}/stats/").status_code == 404
    anonymous = Client()
    assert anonymous.get(f"/players/{friday.players['Ben'].pk}/stats/").status_code == 302


def test_the_evening_and_the_player_pages_link_to_the_downloads_and_the_statistics(alice_client, friday):
    evening = friday.evenings[0]
    html = alice_client.get(f"/evenings/{evening.pk}/").content.decode()
    assert f'href="/evenings/{evening.pk}/export.xlsx" download' in html
    assert f'href="/evenings/{evening.pk}/export/hands.csv" download' in html
    ben = friday.players["Ben"].pk
    assert f'href="/players/{ben}/stats/"' in alice_client.get(f"/players/{ben}/").content.decode()
