"""The confirmations' parts drawn in the books' pages: redrawn by each Record, read in queries that do not grow with
the table's hands."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ledger.confirmations import services
from ledger.confirmations.pages import seat_cards, table_part
from tests import factories
from tests.ledger.confirmations.support import asking_table, player, seat_phone
from tests.ledger.form_support import post_hand

SNAPSER_TAPS = {
    "declarer": "Ana",
    "trump": "hearts",
    "announcement": "hram",
    "winner": "declarer",
    "result": "bez_vody",
    "raises": "0",
}


@pytest.fixture
def table(alice):
    return asking_table(factories.make_evening(alice), "snapser", "opponent")


def test_the_answer_to_record_redraws_the_part(alice_client, table):
    answer = post_hand(alice_client, table, SNAPSER_TAPS, htmx=True)
    text = answer.content.decode()
    assert answer.status_code == 200
    assert 'id="table-confirmations"' in text
    table.refresh_from_db()
    second = post_hand(alice_client, table, SNAPSER_TAPS | {"table_revision": str(table.revision)}, htmx=True)
    text = second.content.decode()  # only what the hand changed, each part swapped into place by its id
    assert 'id="table-confirmations" class="table-confirmations" hx-swap-oob="true"' in text
    assert "Hand #1 awaits an OK" in text and "OK — Ben" in text and "OK — Cyril" in text


def test_the_log_marks_the_hand(alice_client, table, alice):
    hand = factories.record(table)[0]
    services.confirm(hand=hand, version=1, player=player(table, "Ben"), by=alice)
    text = alice_client.get(table.get_absolute_url()).content.decode()
    assert 'data-mark="confirmed"' in text and "OK from Ben at " in text


def _queries(read) -> int:
    with CaptureQueriesContext(connection) as done:
        read()
    return len(done)


@pytest.mark.parametrize("part", ["table", "seat"])
def test_the_parts_cost_the_same_at_10_and_40_hands(table, alice, part):
    claim = seat_phone(table, "Cyril")
    factories.record(table, times=8)
    hand = factories.record(table)[0]
    services.dispute(hand=hand, version=1, player=player(table, "Ben"), by=alice)
    factories.record(table)
    read = (lambda: table_part(table)) if part == "table" else (lambda: seat_cards(table, claim))
    few = _queries(read)
    factories.record(table, times=30)
    assert _queries(read) == few


def test_the_cards_of_the_phone_are_the_hands_it_still_must_answer(table, alice):
    claim = seat_phone(table, "Cyril")
    first, second, _third = factories.record(table, times=3)
    services.confirm(hand=first, version=1, player=player(table, "Ben"), by=alice)  # one opponent was enough
    services.dispute(hand=second, version=1, player=claim.player, by=claim.acting, claim=claim)
    cards = seat_cards(table, claim)["confirmation_cards"]
    assert [state.hand.number for state in cards] == [3]


def test_a_scorekeeper_seated_at_the_table_taps_for_a_player_without_a_phone(alice, table):
    phone = Client()
    phone.force_login(alice)
    seat_phone(table, "Cyril", phone).__class__.objects.update(user=alice)
    hand = factories.record(table)[0]
    url = reverse("confirmations:answer", args=[hand.pk]) + "?part=table"
    phone.post(url, {"version": 1, "player": player(table, "Ben").pk}, headers={"HX-Request": "true"})
    from ledger.confirmations.models import Confirmation

    given = Confirmation.objects.get()
    assert (given.player.name, given.claim, given.by) == ("Ben", None, alice)


def test_a_tournament_tables_phone_offers_the_opponents_ok_by_name(alice):
    from ledger.tournaments import services as tournaments
    from ledger.tournaments.models import Entrant, TournamentTable

    club = tournaments.tournament_create(
        owner=alice, game="skat", name="Club night", players=factories.PLAYERS["skat"], rounds=1, start=True
    )
    Entrant.objects.filter(tournament=club).update(checked_in=True)
    tournaments.round_start(tournament=club, number=1)
    seated = TournamentTable.objects.filter(round__tournament=club).select_related("table").first()
    table = seated.table
    if table.confirmation == "none":  # the books make a tournament's tables ask an opponent
        type(table).objects.filter(pk=table.pk).update(confirmation="opponent")
    phone = Client()
    phone.get(reverse("ledger:tournament_sheet", args=[seated.token]))  # the score-sheet link logs the phone in
    declarer, opponent = table.seat_names[0], table.seat_names[1]
    hand = factories.record(table, factories.SKAT_S1 | {"declarer": declarer})[0]
    page = phone.get(table.get_absolute_url()).content.decode()
    assert f"OK — {opponent}" in page and f"OK — {declarer}" not in page
    url = reverse("confirmations:answer", args=[hand.pk]) + "?part=table"
    phone.post(url, {"version": 1, "player": player(table, opponent).pk}, headers={"HX-Request": "true"})
    from ledger.confirmations.models import Confirmation

    given = Confirmation.objects.get()
    seated.refresh_from_db()  # the link made the phone's guest account
    assert (given.player.name, given.claim, given.by) == (opponent, None, seated.guest)
