"""The settlement page, marking transfers paid, reopening, players' IBANs and the share link after the close.

Personas: Alice keeps score, Bob follows the share link without an account, Charlie is a stranger (404).
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ledger import services
from ledger.models import Evening, EveningEvent, Hand, Player, Settlement, Transfer
from tests import factories
from tests.ledger.closeout_data import ANA_IBAN, evening_owing, set_iban

HX = {"HX-Request": "true"}


@pytest.fixture
def owing(alice):
    return evening_owing(alice)


@pytest.fixture
def closed(owing, alice):
    set_iban(alice, "Ana", ANA_IBAN)
    services.evening_close(evening=owing, by=alice)
    return owing


def _settlement_url(evening):
    return reverse("ledger:evening_settlement", args=[evening.pk])


def _balance_row(html, player):
    """The exact balance, the rounding and the rounded balance in the player's row of the settlement table."""
    row = html.split(f'<tr data-player="{player}">')[1].split("</tr>")[0]
    cells = [cell.split(">")[-1] for cell in row.replace("</strong>", "").split("</td>")[1:4]]
    return tuple(cells)


def _transfer(payer):
    return Transfer.objects.get(payer__name=payer)


# --------------------------------------------------------------------------------------------------------------
# Alice closes the evening and settles


def test_an_open_evening_shows_the_balances_so_far_and_the_close_form(alice_client, owing):
    html = alice_client.get(_settlement_url(owing)).content.decode()
    assert '<tr data-player="Ana"><td>Ana</td><td class="num plus">+12.40</td>' in html
    assert "−7.30" in html and "−5.10" in html
    assert 'name="mode" value="fewest"' in html and "Close and settle" in html
    assert '<option value="Cyril">Cyril</option>' in html  # the banker choice


def test_closing_shows_the_rounding_and_who_pays_whom(alice_client, owing, alice):
    set_iban(alice, "Ana", ANA_IBAN)
    response = alice_client.post(_settlement_url(owing), {"mode": "fewest", "banker": ""})
    assert response.status_code == 302 and response["Location"] == _settlement_url(owing)
    html = alice_client.get(_settlement_url(owing)).content.decode()
    assert "The evening is closed: here is who pays whom." in html
    assert _balance_row(html, "Ana") == ("+12.40", "−0.40", "+12.00")
    assert _balance_row(html, "Ben") == ("−7.30", "+0.30", "−7.00")
    assert _balance_row(html, "Cyril") == ("−5.10", "+0.10", "−5.00")
    assert "Rounded to 1.00\N{NO-BREAK SPACE}Kč, keeping the sum at zero" in html
    assert '<strong>Ben → Ana</strong>\n    <span class="num amount">7.00\N{NO-BREAK SPACE}Kč</span>' in html
    assert '<strong>Cyril → Ana</strong>\n    <span class="num amount">5.00\N{NO-BREAK SPACE}Kč</span>' in html
    assert html.count('class="qr"') == 2 and "QR Platba · CZ6508000000192000145399" in html
    assert "Reopen the evening" in html and reverse("ledger:evening_summary_pdf", args=[owing.pk]) in html
    assert "Record hand" not in alice_client.get(owing.tables.first().get_absolute_url()).content.decode()


def test_a_payee_without_an_iban_gets_no_code_but_a_link_to_add_one(alice_client, owing, alice):
    alice_client.post(_settlement_url(owing), {"mode": "fewest"})
    html = alice_client.get(_settlement_url(owing)).content.decode()
    ana = Player.objects.get(name="Ana")
    assert 'class="qr"' not in html
    assert "No IBAN for Ana: add one for a payment QR code." in html
    assert f"/players/{ana.pk}/?next=/evenings/{owing.pk}/settlement/" in html


def test_the_banker_mode_without_a_banker_is_refused_beside_the_field(alice_client, owing):
    response = alice_client.post(_settlement_url(owing), {"mode": "banker", "banker": ""})
    assert response.status_code == 400
    assert "is required when everybody settles with one banker" in response.content.decode()
    # Beside the banker choice, not above the form.
    assert "is required when everybody settles with one banker" in response.context["form"].errors["banker"][0]
    owing.refresh_from_db()
    assert owing.is_open and not Settlement.objects.exists()


def test_closing_with_a_banker(alice_client, owing):
    alice_client.post(_settlement_url(owing), {"mode": "banker", "banker": "Ben"})
    html = alice_client.get(_settlement_url(owing)).content.decode()
    assert "(everybody settles with one banker: Ben)" in html
    assert "<strong>Ben → Ana</strong>" in html and "<strong>Cyril → Ben</strong>" in html


def test_closing_twice_says_the_evening_is_closed(alice_client, closed):
    response = alice_client.post(_settlement_url(closed), {"mode": "fewest"})
    assert response.status_code == 400
    assert "This evening is closed" in response.content.decode()
    assert Transfer.objects.count() == 2


# --------------------------------------------------------------------------------------------------------------
# Marking paid and reopening


def test_marking_paid_on_the_full_page(alice_client, closed, alice):
    transfer = _transfer("Ben")
    response = alice_client.post(reverse("ledger:transfer_mark_paid", args=[transfer.pk]))
    assert response.status_code == 302
    transfer.refresh_from_db()
    assert transfer.paid_by == alice and transfer.paid_at is not None
    html = alice_client.get(_settlement_url(closed)).content.decode()
    assert "Paid: Ben → Ana 7.00." in html
    row = html.split(f'id="transfer-{transfer.pk}"')[1].split("</li>")[0]
    assert "Marked paid by alice" in row and "Mark paid" not in row and 'class="qr"' not in row
    assert html.count('class="qr"') == 1  # Cyril's transfer still has its code


def test_marking_paid_with_htmx_swaps_only_the_row(alice_client, closed):
    transfer = _transfer("Cyril")
    response = alice_client.post(reverse("ledger:transfer_mark_paid", args=[transfer.pk]), headers=HX)
    html = response.content.decode()
    assert response.status_code == 200
    assert html.startswith(f'<li class="transfer card paid" id="transfer-{transfer.pk}"')
    assert (
        "<html" not in html and "Marked paid by alice" in html and '<span class="badge paid-badge">paid</span>' in html
    )
    again = alice_client.post(reverse("ledger:transfer_mark_paid", args=[transfer.pk]), headers=HX)
    assert again.status_code == 200
    assert EveningEvent.objects.filter(kind="transfer_paid").count() == 1


def test_reopening_drops_unpaid_transfers_keeps_paid_ones_and_says_so(alice_client, closed):
    alice_client.post(reverse("ledger:transfer_mark_paid", args=[_transfer("Ben").pk]))
    response = alice_client.post(reverse("ledger:evening_reopen", args=[closed.pk]))
    assert response.status_code == 302
    closed.refresh_from_db()
    assert closed.is_open
    assert list(Transfer.objects.values_list("payer__name", flat=True)) == ["Ben"]
    html = alice_client.get(_settlement_url(closed)).content.decode()
    assert "The evening is open again" in html
    assert "Already paid" in html and "Marked paid by alice" in html
    assert "reopened · alice · 1 unpaid transfer dropped" in html
    assert "closed · alice · fewest transfers" in html


def test_reopening_an_open_evening_says_so(alice_client, owing):
    alice_client.post(reverse("ledger:evening_reopen", args=[owing.pk]))
    html = alice_client.get(_settlement_url(owing)).content.decode()
    assert "This evening is open already." in html


# --------------------------------------------------------------------------------------------------------------
# Hands are locked after the close: pages say so and store nothing


def test_a_hand_posted_to_a_closed_evening_is_refused(alice_client, closed):
    table = closed.tables.first()
    url = reverse("ledger:hand_create", args=[table.pk])
    for headers in ({}, HX):
        response = alice_client.post(url, factories.SNAPSER_N1 | {"dealer": "0"}, headers=headers)
        assert "This evening is closed: hands can no longer be added or changed." in response.content.decode()
    assert Hand.objects.count() == 2


def test_undo_and_void_on_a_closed_evening_say_why_and_change_nothing(alice_client, closed):
    table = closed.tables.first()
    hand = table.hands.get()
    undo = alice_client.post(reverse("ledger:hand_undo", args=[table.pk]), headers=HX).content.decode()
    void = alice_client.post(reverse("ledger:hand_void", args=[hand.pk]), headers=HX).content.decode()
    for html in (undo, void):
        assert "This evening is closed: reopen it to change its hands." in html
    hand.refresh_from_db()
    assert (hand.status, hand.version) == ("counted", 1)


def test_a_correction_on_a_closed_evening_is_refused(alice_client, closed):
    hand = closed.tables.first().hands.get()
    data = factories.SNAPSER_N1 | {"result": "za_6", "dealer": "0", "version": "1"}
    response = alice_client.post(reverse("ledger:hand_edit", args=[hand.pk]), data)
    assert response.status_code == 400
    assert "This evening is closed: reopen it to change its hands." in response.content.decode()
    hand.refresh_from_db()
    assert (hand.version, hand.document["result"]) == (1, "s_vodou")


def test_the_evening_and_table_pages_lead_to_the_settlement(alice_client, owing):
    url = _settlement_url(owing)
    assert f'href="{url}"' in alice_client.get(owing.get_absolute_url()).content.decode()
    assert f'href="{url}"' in alice_client.get(owing.tables.first().get_absolute_url()).content.decode()


# --------------------------------------------------------------------------------------------------------------
# Players' IBANs


def test_the_scorekeeper_stores_a_players_iban_and_goes_back(alice_client, owing):
    ana = Player.objects.get(name="Ana")
    url = reverse("ledger:player_edit", args=[ana.pk])
    response = alice_client.post(url, {"iban": "cz65 0800 0000 1920 0014 5399", "next": _settlement_url(owing)})
    assert response.status_code == 302 and response["Location"] == _settlement_url(owing)
    ana.refresh_from_db()
    assert ana.iban == "CZ6508000000192000145399"


def test_a_mistyped_iban_is_refused_beside_the_field(alice_client, owing):
    ana = Player.objects.get(name="Ana")
    response = alice_client.post(
        reverse("ledger:player_edit", args=[ana.pk]), {"iban": "CZ65 0800 0000 1920 0014 5398"}
    )
    assert response.status_code == 400
    assert "check digits do not match" in response.content.decode()
    assert "check digits do not match" in response.context["form"].errors["iban"][0]
    ana.refresh_from_db()
    assert ana.iban == ""


def test_the_iban_page_never_sends_the_scorekeeper_to_another_site(alice_client, owing):
    ana = Player.objects.get(name="Ana")
    response = alice_client.post(
        reverse("ledger:player_edit", args=[ana.pk]), {"iban": "", "next": "https://evil.example/"}
    )
    assert response["Location"] == reverse("ledger:evening_list")


def test_only_the_owner_changes_a_players_payment_details(alice_client, owing, charlie):
    services.evening_add_scorekeeper(evening=owing, user=charlie)
    alice_client.force_login(charlie)
    ana = Player.objects.get(name="Ana")
    response = alice_client.post(reverse("ledger:player_edit", args=[ana.pk]), {"iban": ANA_IBAN})
    assert response.status_code == 404
    ana.refresh_from_db()
    assert ana.iban == ""
    settlement_page = alice_client.get(reverse("ledger:evening_settlement", args=[owing.pk])).content.decode()
    assert reverse("ledger:player_edit", args=[ana.pk]) not in settlement_page


# --------------------------------------------------------------------------------------------------------------
# Bob (share link) reads the settlement; Charlie (stranger) gets 404 everywhere


def test_the_share_link_shows_the_settlement_and_paid_flags_read_only(bob_client, closed, alice):
    url = reverse("ledger:shared_evening", args=[closed.share_token])
    first = bob_client.get(url, headers=HX)
    html = first.content.decode()
    assert "Who pays whom" in html and "<strong>Ben → Ana</strong>" in html and "+12.00" in html
    assert "Mark paid" not in html and html.count('class="qr"') == 2  # the players pay from their own phones
    services.transfer_mark_paid(transfer=_transfer("Ben"), by=alice)
    changed = bob_client.get(url, headers=HX | {"If-None-Match": first["ETag"]})
    assert changed.status_code == 200  # marking paid changes the page, so the ETag moves
    assert '<span class="badge paid-badge">paid</span>' in changed.content.decode()


def test_the_share_link_shows_no_settlement_while_the_evening_is_open(bob_client, owing):
    html = bob_client.get(reverse("ledger:shared_evening", args=[owing.share_token])).content.decode()
    assert "Who pays whom" not in html


def _closeout_urls(evening):
    transfer = Transfer.objects.first()
    return {
        "settlement": ("get", _settlement_url(evening)),
        "close": ("post", _settlement_url(evening)),
        "pdf": ("get", reverse("ledger:evening_summary_pdf", args=[evening.pk])),
        "reopen": ("post", reverse("ledger:evening_reopen", args=[evening.pk])),
        "mark_paid": ("post", reverse("ledger:transfer_mark_paid", args=[transfer.pk])),
        "player": ("post", reverse("ledger:player_edit", args=[Player.objects.get(name="Ana").pk])),
    }


@pytest.mark.parametrize("action", ["settlement", "close", "pdf", "reopen", "mark_paid", "player"])
def test_a_stranger_gets_404_and_changes_nothing(charlie_client, closed, action):
    method, url = _closeout_urls(closed)[action]
    response = getattr(charlie_client, method)(url, {"mode": "fewest", "iban": ""})
    assert response.status_code == 404
    closed.refresh_from_db()
    assert closed.status == "closed"
    assert list(Transfer.objects.filter(paid_at__isnull=False)) == []
    assert Player.objects.get(name="Ana").iban == "CZ6508000000192000145399"


@pytest.mark.parametrize("action", ["settlement", "close", "pdf", "reopen", "mark_paid", "player"])
def test_a_player_without_an_account_is_sent_to_log_in(bob_client, closed, action):
    method, url = _closeout_urls(closed)[action]
    response = getattr(bob_client, method)(url, {"mode": "fewest"})
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert Evening.objects.get(pk=closed.pk).status == "closed"
    assert not Transfer.objects.filter(paid_at__isnull=False).exists()


# --------------------------------------------------------------------------------------------------------------
# Cost


def test_the_settlement_page_costs_the_same_at_10_and_120_hands(alice_client, alice):
    counts = []
    for size in (10, 120):
        evening = factories.make_evening(alice)
        table = factories.make_table(evening, "snapser")
        for number in range(size):
            services.hand_record(table=table, hand=factories.SNAPSER_N1 | {"raises": number % 3}, by=alice)
        services.evening_close(evening=evening, by=alice)
        with CaptureQueriesContext(connection) as captured:
            assert alice_client.get(_settlement_url(evening)).status_code == 200
        counts.append(len(captured))
    assert counts[0] == counts[1]
