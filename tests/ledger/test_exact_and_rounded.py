"""Which figures are exact and which rounded, and that they agree: a member's page, the season table, the share page.

Ben loses a Šnapser hand at 3.10 in a circle that keeps a tab: exact −6.20, carried into the tab rounded to the
crown (−6.00). Until the tab is settled he owes nobody a transfer, yet he owes the tab: the page must say both
without contradicting itself. Personas as everywhere: Alice keeps score, Bob holds a link (no account).
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from ledger import services
from ledger.circles import services as circles
from ledger.circles import tab_and_pot
from ledger.models import Transfer
from tests.ledger.circles.test_circles_pages import member_url, won_evening
from tests.ledger.closeout_data import ANA_IBAN, evening_owing, set_iban

NBSP = "\N{NO-BREAK SPACE}"


@pytest.fixture
def tab_circle(alice):
    circle = circles.circle_create(owner=alice, name="Friday Šnapser", members=["Ana", "Ben", "Cyril"], settle="tab")
    won_evening(circle)  # Ana +12.40 → +12, Ben and Cyril −6.20 → −6 in the tab
    return circle


def _section(html: str, marker: str) -> str:
    start = html.index(marker)
    return html[start : html.index("</section>", start)]


def test_a_member_owing_the_tab_is_not_told_he_owes_nobody_anything(tab_circle, client):
    page = client.get(member_url(tab_circle, "Ben")).content.decode()
    assert "You owe nobody anything." not in page
    tab = _section(page, 'id="tab"')
    assert f"−6.00{NBSP}Kč" in tab and 'data-figure="rounded"' in tab
    assert f"Not due yet: you pay it when the tab is settled, rounded to 1.00{NBSP}Kč." in tab
    you_pay = page[page.index("You pay") :]
    assert f"Nothing to pay now: your −6.00{NBSP}Kč in the tab is paid when the tab is settled." in you_pay


def test_a_member_the_tab_owes_is_told_when_he_receives_it(tab_circle, client):
    page = client.get(member_url(tab_circle, "Ana")).content.decode()
    assert "Nobody owes you anything." not in page
    assert f"Nothing to receive now: your 12.00{NBSP}Kč in the tab is paid to you when the tab is settled." in page


def test_once_the_tab_is_settled_the_transfer_and_the_zero_tab_agree(tab_circle, alice, client):
    set_iban(alice, "Ana", ANA_IBAN)
    tab_and_pot.tab_settle(circle=tab_circle, by=alice)
    page = client.get(member_url(tab_circle, "Ben")).content.decode()
    tab = _section(page, 'id="tab"')
    assert f"0.00{NBSP}Kč" in tab and "Not due yet" not in tab  # the tab is even: what he owes is the transfer
    assert "Ben → Ana" in page and "Nothing to pay now" not in page


def test_the_members_statistics_say_their_net_is_exact(tab_circle, client):
    page = client.get(member_url(tab_circle, "Ben")).content.decode()
    stats = page[page.index('id="stats"') :]
    assert f"−6.20{NBSP}Kč" in stats and 'data-figure="exact"' in stats
    assert "Net: exact, the sum of the hands before any rounding" in stats


def test_the_season_table_says_its_net_is_exact(alice_client, tab_circle):
    page = alice_client.get(reverse("ledger:circle_stats", args=[tab_circle.pk])).content.decode()
    season = _section(page, 'aria-labelledby="season-table"')
    assert f"−6.20{NBSP}Kč" in season  # exact, where the tab reads −6.00
    assert 'data-figure="exact"' in season and "settlements and the tab round to a coin" in season


def test_the_circle_page_says_its_tab_is_rounded(alice_client, tab_circle):
    page = alice_client.get(tab_circle.get_absolute_url()).content.decode()
    tab = _section(page, 'id="tab"')
    assert "rounded balances" in tab and f"−6.00{NBSP}Kč" in tab


def test_the_share_page_shows_payment_qr_codes_once_closed_and_none_once_paid(bob_client, alice):
    evening = evening_owing(alice)  # Ana +12.40, Ben −7.30, Cyril −5.10
    set_iban(alice, "Ana", ANA_IBAN)
    url = reverse("ledger:shared_evening", args=[evening.share_token])
    assert 'class="qr"' not in bob_client.get(url).content.decode()  # open: nothing to pay yet
    services.evening_close(evening=evening, by=alice)
    html = bob_client.get(url).content.decode()
    assert html.count('class="qr"') == 2 and "QR Platba · CZ6508000000192000145399" in html
    assert "Mark paid" not in html  # still read only
    services.transfer_mark_paid(transfer=Transfer.objects.get(payer__name="Ben"), by=alice)
    html = bob_client.get(url).content.decode()
    ben = re.search(r'<li class="transfer card paid"[^>]*data-transfer="Ben → Ana">.*?</li>', html, re.S)
    assert ben is not None and 'class="qr"' not in ben.group(0)  # scanning it again would pay twice
    assert html.count('class="qr"') == 1
