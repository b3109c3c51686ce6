"""The share link one scan away: its QR code, Copy and Share on the evening page for the scorekeeper
(Alice), who deals next on the page the players follow (Bob holds the link), nothing for a stranger (Charlie)."""

from __future__ import annotations

import re

from django.urls import reverse

from ledger import services
from ledger.qr import qr_svg
from tests import factories


def _shared(evening) -> str:
    return reverse("ledger:shared_evening", args=[evening.share_token])


def test_the_evening_page_shows_the_share_link_as_a_qr_code_with_copy_and_share(alice_client, evening):
    html = alice_client.get(evening.get_absolute_url()).content.decode()
    link = f"http://testserver{_shared(evening)}"
    assert f'value="{link}" id="share-url"' in html
    svg = re.search(r'<figure class="qr-code share-qr">(<svg.*?</svg>)', html, re.S).group(1)
    assert "<title>Share link</title>" in svg
    # The code holds exactly the link (and is drawn large, to scan across the table): 5 px per module.
    assert svg == qr_svg(link, label="Share link", scale=5)
    assert 'width="185"' in svg  # (33 modules + 2 × 2 quiet) × 5 px
    assert 'data-copy="share-url"' in html and ">Copy the link</button>" in html
    assert re.search(r'<button type="button" data-share="share-url" data-share-title="[^"]+" hidden>Share…', html)
    assert 'role="status" id="share-status"' in html


def test_no_qr_code_while_the_link_is_off(alice_client, evening):
    services.evening_share_reset(evening=evening, enabled=False)
    html = alice_client.get(evening.get_absolute_url()).content.decode()
    assert "share-qr" not in html and "data-copy" not in html
    assert "The share link is off." in html


def test_a_stranger_sees_neither_the_evening_nor_its_qr_code(charlie_client, evening):
    assert charlie_client.get(evening.get_absolute_url()).status_code == 404


def test_the_players_page_says_who_deals_next_as_the_table_page_does(alice_client, bob_client, snapser_table):
    factories.record(snapser_table)  # Ana dealt the first hand: Ben deals the second
    evening = snapser_table.evening
    table_page = alice_client.get(snapser_table.get_absolute_url()).content.decode()
    assert "Ben deals next." in table_page
    alice_client.logout()
    page = bob_client.get(_shared(evening)).content.decode()
    assert "Ben deals next." in page
    assert re.search(r'<div class="seat next" data-player="Ben">.*?deals next', page, re.S)
    partial = bob_client.get(_shared(evening), headers={"HX-Request": "true"}).content.decode()
    assert partial.startswith('<div id="shared-live"') and "Ben deals next." in partial
    assert 'id="next-dealer"' not in partial  # one id per page: the table page's out-of-band target


def test_a_closed_evening_deals_no_more(bob_client, alice, snapser_table):
    factories.record(snapser_table)
    services.evening_close(evening=snapser_table.evening, by=alice)
    page = bob_client.get(_shared(snapser_table.evening)).content.decode()
    assert "deals next" not in page
