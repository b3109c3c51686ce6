"""The confirmations' pages for the three personas: the scorekeeper (the table's shared phone), a seated phone, and a
stranger (404), as whole pages and as the htmx parts a push or a tap redraws."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from ledger import hooks
from ledger import services as books
from ledger.confirmations.models import Confirmation
from ledger.seats.hooks import SeatPage, seat_page_context
from tests import factories
from tests.ledger.confirmations.support import asking_table, player, seat_phone

HTMX = {"HX-Request": "true"}


@pytest.fixture
def table(alice):
    return asking_table(factories.make_evening(alice), "snapser", "opponent")


@pytest.fixture
def hand(table):
    return factories.record(table)[0]


@pytest.fixture
def cyril_phone(table):
    client = Client()
    claim = seat_phone(table, "Cyril", client)
    client.claim = claim
    return client


def _page(client, table, htmx=False):
    return client.get(reverse("confirmations:table", args=[table.pk]), headers=HTMX if htmx else {})


@pytest.mark.parametrize("htmx", [False, True])
def test_the_scorekeeper_sees_the_hand_awaiting_and_offers_the_players_without_a_phone(
    alice_client, table, hand, cyril_phone, htmx
):
    answer = _page(alice_client, table, htmx)
    text = answer.content.decode()
    assert answer.status_code == 200
    assert ("<html" in text) is not htmx
    assert "Hand #1 awaits an OK" in text
    assert "OK — Ben" in text and "OK — Cyril" not in text  # Cyril's own phone asks him
    assert "Asked on their own phones: Cyril." in text


@pytest.mark.parametrize("htmx", [False, True])
def test_a_seated_phone_sees_its_card_priced_with_its_why(table, hand, cyril_phone, htmx):
    answer = _page(cyril_phone, table, htmx)
    text = answer.content.decode()
    assert answer.status_code == 200
    assert ("<html" in text) is not htmx
    assert "Hand #1 needs your OK" in text
    assert "s vodou" in text and "+0.40" in text and "−0.20" in text
    assert "Why?" in text and "Ben and Cyril pay Ana €0.20 each" in text
    assert "That&#x27;s not what happened" in text or "That's not what happened" in text


@pytest.mark.parametrize("htmx", [False, True])
def test_a_stranger_finds_nothing(charlie_client, client, table, hand, htmx):
    assert _page(charlie_client, table, htmx).status_code == 404
    assert _page(client, table, htmx).status_code == 404  # no account, no seat
    url = reverse("confirmations:answer", args=[hand.pk])
    assert charlie_client.post(url, {"version": 1, "player": player(table, "Ben").pk}).status_code == 404
    assert not Confirmation.objects.exists()


def test_the_declarers_phone_has_no_card(table, hand):
    phone = Client()
    seat_phone(table, "Ana", phone)
    assert "needs your OK" not in _page(phone, table, htmx=True).content.decode()


def test_one_tap_on_the_seated_phone_confirms_and_the_card_goes(table, hand, cyril_phone):
    url = reverse("confirmations:answer", args=[hand.pk])
    data = {"version": 1, "player": cyril_phone.claim.player_id, "verdict": "ok"}
    answer = cyril_phone.post(url, data, headers=HTMX)
    text = answer.content.decode()
    assert "Hand #1: OK from Cyril." in text and "needs your OK" not in text
    again = cyril_phone.post(url, data, headers=HTMX)  # the double tap
    assert "Hand #1: OK from Cyril." in again.content.decode()
    given = Confirmation.objects.get()
    assert (given.claim, given.by) == (cyril_phone.claim, cyril_phone.claim.acting)


def test_without_javascript_the_tap_comes_back_to_the_seat_page(table, hand, cyril_phone):
    url = reverse("confirmations:answer", args=[hand.pk])
    answer = cyril_phone.post(url, {"version": 1, "player": cyril_phone.claim.player_id, "verdict": "ok"})
    assert answer.status_code == 302 and answer["Location"] == f"/seat/{hand.table_id}/"


def test_the_opponent_disputes_on_the_scorekeepers_phone_and_the_hand_is_flagged(alice_client, alice, table, hand):
    url = reverse("confirmations:answer", args=[hand.pk]) + "?part=table"
    data = {"version": 1, "player": player(table, "Ben").pk, "verdict": "disputed", "reason": "It was za 6"}
    text = alice_client.post(url, data, headers=HTMX).content.decode()
    assert "Hand #1: disputed by Ben; the scorekeeper is told." in text
    assert "Hand #1 is disputed" in text and "It was za 6" in text
    assert reverse("ledger:hand_edit", args=[hand.pk]) in text
    given = Confirmation.objects.get()
    assert (given.by, given.claim, given.verdict) == (alice, None, "disputed")


def test_a_tap_on_a_corrected_hand_says_what_changed(alice_client, alice, table, hand):
    books.hand_correct(hand=hand, document=factories.SNAPSER_N1 | {"result": "za_6"}, by=alice, version=1)
    url = reverse("confirmations:answer", args=[hand.pk]) + "?part=table"
    answer = alice_client.post(url, {"version": 1, "player": player(table, "Ben").pk}, headers=HTMX)
    assert "Hand #1 was corrected by alice meanwhile: check version 2" in answer.content.decode()
    assert not Confirmation.objects.exists()


def test_the_table_page_draws_the_part(alice_client, table, hand):
    text = alice_client.get(table.get_absolute_url()).content.decode()
    assert 'id="table-confirmations"' in text and "OK — Ben" in text


def test_a_table_without_confirmation_draws_no_part(alice_client, alice):
    table = factories.make_table(factories.make_evening(alice), "snapser")
    factories.record(table)
    assert 'id="table-confirmations"' not in alice_client.get(table.get_absolute_url()).content.decode()


def test_the_seat_page_hook_gives_the_cards(rf, table, hand, cyril_phone):
    answer = hooks.page_parts(seat_page_context, SeatPage(rf.get("/"), table, cyril_phone.claim), "seat_page_parts")
    assert "ledger/confirmations/_seat_cards.html" in answer["seat_page_parts"]
    assert [state.hand for state in answer["confirmation_cards"]] == [hand]


def test_a_phone_that_lost_the_race_may_dispute_the_stored_hand(rf, table, hand, cyril_phone):
    request = rf.get("/")
    request.COOKIES = {name: morsel.value for name, morsel in cyril_phone.cookies.items()}
    request.user = cyril_phone.claim.acting
    answer = hooks.page_parts(hooks.hand_conflict_context, hooks.PageShown(request, hand), "conflict_parts")
    assert answer["conflict_parts"] == ["ledger/confirmations/_conflict_dispute.html"]
    assert [p.name for p in answer["conflict_players"]] == ["Cyril"]
