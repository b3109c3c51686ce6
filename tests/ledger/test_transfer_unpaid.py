"""Taking back a paid mark tapped by mistake: the service, the settlement page (full and htmx), the API.

What reopening does with the transfers, as a scorekeeper expects it:
- closed: a paid mark taken back makes the transfer owed again, part of the same plan (its QR code comes back);
- reopening drops the unpaid transfers and keeps the paid ones (money that changed hands), and the next close
  plans only what is still owed;
- a paid mark taken back while the evening is reopened drops that transfer too, so the next close plans it again.
Each step is in the evening's history, read out in the reader's language.

Personas: Alice keeps score, Bob holds the share link (no account), Charlie is a stranger.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from ledger import services
from ledger.models import EveningEvent, Settlement, Transfer
from tests.ledger.api_support import anonymous_client, token_client
from tests.ledger.closeout_data import ANA_IBAN, evening_owing, set_iban, transfers

D = Decimal
HX = {"HX-Request": "true"}


@pytest.fixture
def closed(alice):
    """Ana +12.40, Ben −7.30, Cyril −5.10 rounded to crowns: Ben pays Ana 7, Cyril pays Ana 5."""
    evening = evening_owing(alice)
    set_iban(alice, "Ana", ANA_IBAN)
    services.evening_close(evening=evening, by=alice)
    return evening


@pytest.fixture
def paid(closed, alice):
    """Ben's transfer marked paid (by mistake: he has not paid yet)."""
    return services.transfer_mark_paid(transfer=Transfer.objects.get(payer__name="Ben"), by=alice)


def _unpaid_url(transfer):
    return reverse("ledger:transfer_mark_unpaid", args=[transfer.pk])


def _settlement_url(evening):
    return reverse("ledger:evening_settlement", args=[evening.pk])


def _history():
    return [(event.kind, event.note) for event in EveningEvent.objects.order_by("id")]


# --------------------------------------------------------------------------------------------------------------
# The service


def test_a_paid_mark_taken_back_makes_the_transfer_owed_again_once(paid, alice, charlie):
    taken_back = services.transfer_mark_unpaid(transfer=paid, by=alice)
    assert (taken_back.paid_at, taken_back.paid_by) == (None, None)
    again = services.transfer_mark_unpaid(transfer=paid, by=charlie)  # a double tap, a retried request
    assert (again.paid_at, again.paid_by) == (None, None)
    assert transfers(Settlement.objects.get()) == [("Ben", "Ana", D(7), False), ("Cyril", "Ana", D(5), False)]
    assert _history() == [
        ("closed", "fewest"),
        ("transfer_paid", "Ben → Ana 7.00"),
        ("transfer_unpaid", "Ben → Ana 7.00"),
    ]
    # It can be marked paid again when Ben really pays.
    assert services.transfer_mark_paid(transfer=paid, by=alice).is_paid


def test_taking_back_a_mark_never_set_changes_nothing(closed, alice):
    transfer = Transfer.objects.get(payer__name="Cyril")
    assert not services.transfer_mark_unpaid(transfer=transfer, by=alice).is_paid
    assert _history() == [("closed", "fewest")]


def test_the_history_names_the_step_in_the_readers_language(paid, alice):
    services.transfer_mark_unpaid(transfer=paid, by=alice)
    event = EveningEvent.objects.get(kind="transfer_unpaid")
    for language in ("en", "cs", "sk", "de"):
        with translation.override(language):
            assert str(event.get_kind_display()) == gettext("transfer marked unpaid")
            assert event.description == "Ben → Ana 7.00"  # names and an amount: the same in every language


def test_reopening_keeps_a_paid_transfer_and_the_next_close_plans_the_rest(paid, closed, alice):
    services.evening_reopen(evening=closed, by=alice)
    assert transfers(Settlement.objects.get()) == [("Ben", "Ana", D(7), True)]
    settlement = services.evening_close(evening=closed, by=alice)
    assert transfers(settlement) == [("Ben", "Ana", D(7), True), ("Cyril", "Ana", D(5), False)]
    # Taken back after the second close: owed again, and the plan still settles every balance.
    services.transfer_mark_unpaid(transfer=paid, by=alice)
    assert transfers(settlement) == [("Ben", "Ana", D(7), False), ("Cyril", "Ana", D(5), False)]


def test_a_paid_mark_taken_back_while_reopened_drops_the_transfer_and_the_next_close_plans_it(paid, closed, alice):
    services.evening_reopen(evening=closed, by=alice)
    services.transfer_mark_unpaid(transfer=paid, by=alice)
    assert not Transfer.objects.exists() and not Settlement.objects.exists()  # as if it had never been paid
    settlement = services.evening_close(evening=closed, by=alice)
    assert transfers(settlement) == [("Ben", "Ana", D(7), False), ("Cyril", "Ana", D(5), False)]
    assert [kind for kind, _note in _history()] == ["closed", "transfer_paid", "reopened", "transfer_unpaid", "closed"]


def test_a_transfer_dropped_meanwhile_is_not_paid_and_nothing_fails(paid, closed, alice):
    services.evening_reopen(evening=closed, by=alice)
    services.transfer_mark_unpaid(transfer=Transfer.objects.get(), by=alice)
    stale = services.transfer_mark_unpaid(transfer=paid, by=alice)  # a second phone that still showed it
    assert not stale.is_paid
    assert EveningEvent.objects.filter(kind="transfer_unpaid").count() == 1


# --------------------------------------------------------------------------------------------------------------
# The settlement page: Alice


def test_the_settlement_page_offers_to_take_back_a_paid_mark(alice_client, paid, closed):
    html = alice_client.get(_settlement_url(closed)).content.decode()
    row = html.split(f'id="transfer-{paid.pk}"')[1].split("</li>")[0]
    assert "Mark unpaid" in row and f'action="{_unpaid_url(paid)}"' in row and f'hx-post="{_unpaid_url(paid)}"' in row
    unpaid_row = html.split(f'id="transfer-{Transfer.objects.get(payer__name="Cyril").pk}"')[1].split("</li>")[0]
    assert "Mark unpaid" not in unpaid_row and "Mark paid" in unpaid_row


def test_taking_back_on_the_full_page(alice_client, paid, closed):
    response = alice_client.post(_unpaid_url(paid))
    assert response.status_code == 302 and response["Location"] == _settlement_url(closed)
    html = alice_client.get(_settlement_url(closed)).content.decode()
    assert "Not paid: Ben → Ana 7.00." in html
    row = html.split(f'id="transfer-{paid.pk}"')[1].split("</li>")[0]
    assert "Mark paid" in row and 'class="qr"' in row and "Marked paid by" not in row
    assert "transfer marked unpaid · alice · Ben → Ana 7.00" in html
    assert "transfer paid · alice · Ben → Ana 7.00" in html


def test_taking_back_with_htmx_swaps_the_row_and_the_history(alice_client, paid, closed):
    response = alice_client.post(_unpaid_url(paid), headers=HX)
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    assert html.startswith(f'<li class="transfer card" id="transfer-{paid.pk}"')
    row = html.split("</li>")[0]
    assert "Mark paid" in row and 'class="qr"' in row and "Mark unpaid" not in row
    history = html.split('<section class="card history" id="history" hx-swap-oob="true">')[1]
    assert "transfer marked unpaid · alice · Ben → Ana 7.00" in history
    # A double tap: the second one changes nothing.
    assert alice_client.post(_unpaid_url(paid), headers=HX).status_code == 200
    assert EveningEvent.objects.filter(kind="transfer_unpaid").count() == 1


def test_marking_paid_with_htmx_updates_the_history_too(alice_client, closed):
    transfer = Transfer.objects.get(payer__name="Cyril")
    html = alice_client.post(reverse("ledger:transfer_mark_paid", args=[transfer.pk]), headers=HX).content.decode()
    assert "Mark unpaid" in html.split("</li>")[0]
    assert 'id="history" hx-swap-oob="true"' in html and "transfer paid · alice · Cyril → Ana 5.00" in html


def test_a_row_owed_again_links_its_iban_form_back_to_the_settlement_page(alice_client, alice):
    evening = evening_owing(alice)  # nobody has an IBAN
    services.evening_close(evening=evening, by=alice)
    transfer = services.transfer_mark_paid(transfer=Transfer.objects.get(payer__name="Ben"), by=alice)
    html = alice_client.post(_unpaid_url(transfer), headers=HX).content.decode()
    assert "Add an IBAN" in html
    assert f'?next={_settlement_url(evening)}"' in html  # not the address the tap was posted to


def test_a_reopened_evening_lists_the_paid_transfers_with_the_button(alice_client, paid, closed, alice):
    services.evening_reopen(evening=closed, by=alice)
    html = alice_client.get(_settlement_url(closed)).content.decode()
    assert "Already paid" in html and "Mark unpaid" in html


@pytest.mark.parametrize("htmx", [False, True])
def test_taking_back_while_reopened_drops_it_and_shows_the_page_anew(alice_client, paid, closed, alice, htmx):
    services.evening_reopen(evening=closed, by=alice)
    response = alice_client.post(_unpaid_url(paid), headers=HX if htmx else {})
    if htmx:
        assert (response.status_code, response["HX-Redirect"]) == (200, _settlement_url(closed))
    else:
        assert (response.status_code, response["Location"]) == (302, _settlement_url(closed))
    assert not Transfer.objects.exists()
    html = alice_client.get(_settlement_url(closed)).content.decode()
    assert "Not paid: Ben → Ana 7.00. Closing the evening plans it again." in html
    assert "Already paid" not in html and "Close and settle" in html


# --------------------------------------------------------------------------------------------------------------
# Bob (share link) sees no button and cannot post; Charlie (stranger) gets 404


def test_the_share_link_shows_the_paid_mark_without_the_button(bob_client, paid, closed):
    url = reverse("ledger:shared_evening", args=[closed.share_token])
    for headers in ({}, HX):
        html = bob_client.get(url, headers=headers).content.decode()
        assert "Marked paid" in html and "Mark unpaid" not in html and _unpaid_url(paid) not in html


@pytest.mark.parametrize("htmx", [False, True])
def test_a_player_without_an_account_cannot_take_it_back(bob_client, paid, htmx):
    response = bob_client.post(_unpaid_url(paid), headers=HX if htmx else {})
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert Transfer.objects.get(pk=paid.pk).is_paid


@pytest.mark.parametrize("htmx", [False, True])
def test_a_stranger_gets_404_and_the_mark_stays(charlie_client, paid, htmx):
    assert charlie_client.get(_settlement_url(paid.settlement.evening)).status_code == 404
    response = charlie_client.post(_unpaid_url(paid), headers=HX if htmx else {})
    assert response.status_code == 404
    assert Transfer.objects.get(pk=paid.pk).is_paid
    assert not EveningEvent.objects.filter(kind="transfer_unpaid").exists()


def test_taking_back_needs_a_post(alice_client, paid):
    assert alice_client.get(_unpaid_url(paid)).status_code == 405
    assert Transfer.objects.get(pk=paid.pk).is_paid


# --------------------------------------------------------------------------------------------------------------
# The API: DELETE …/paid/ is the symmetrical of POST …/paid/


def test_the_api_takes_back_a_paid_mark(alice, paid, closed):
    api = token_client(alice)
    url = f"/api/transfers/{paid.pk}/paid/"
    response = api.delete(url)
    assert response.status_code == 200
    assert (response.json()["paid"], response.json()["paid_at"]) == (False, None)
    assert api.delete(url).json() == response.json()  # again: no change
    settlement = api.get(f"/api/evenings/{closed.pk}/settlement/").json()
    assert [(t["from"], t["paid"]) for t in settlement["transfers"]] == [("Ben", False), ("Cyril", False)]
    assert api.post(url).json()["paid"] is True


def test_the_api_drops_a_transfer_taken_back_while_reopened(alice, paid, closed):
    api = token_client(alice)
    assert [t["id"] for t in api.post(f"/api/evenings/{closed.pk}/reopen/").json()["transfers"]] == [paid.pk]
    taken_back = api.delete(f"/api/transfers/{paid.pk}/paid/").json()
    assert (taken_back["id"], taken_back["paid"]) == (paid.pk, False)
    assert api.get(f"/api/evenings/{closed.pk}/settlement/").json()["transfers"] == []
    assert api.delete(f"/api/transfers/{paid.pk}/paid/").status_code == 404  # gone with the plan


def test_the_api_refuses_a_stranger_and_a_visitor(charlie, paid):
    url = f"/api/transfers/{paid.pk}/paid/"
    assert token_client(charlie).delete(url).status_code == 404
    assert anonymous_client().delete(url).status_code in (401, 403)
    assert Transfer.objects.get(pk=paid.pk).is_paid
