"""The organiser's actions name what they mean (idempotent by intent): a double tap or a retried request for the
next round is answered with the round already started; a round asked for while tables still play names them and
asks once; check-in is locked while the tournament runs; finishing and settling the tab ask once; a table's phone
whose link was renewed is told so, never sent to the log-in page. Parallel requests: test_tournament_races.py."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from ledger.services import LedgerError
from ledger.tournaments import selectors
from ledger.tournaments import services as tournaments
from ledger.tournaments.models import Entrant, Round, Tournament, TournamentTable
from tests import factories
from tests.ledger.api_support import token_client

DAY = datetime.date(2026, 12, 4)
SIX = ["Ana", "Ben", "Cyril", "Dana", "Emil", "Fero"]
HX = {"HX-Request": "true"}
GAMES = {"3": 2, "4": 2}  # a short series: two games at each table finish it


@pytest.fixture
def night(alice) -> Tournament:
    """A Skat night of six (two tables of three), three series of two games, series 1 drawn."""
    return tournaments.tournament_create(
        owner=alice,
        game="skat",
        name="Skat night",
        players=SIX,
        rounds=3,
        options={"games": GAMES},
        date=DAY,
        start=True,
    )


def tables(tournament: Tournament, number: int) -> list[TournamentTable]:
    found = TournamentTable.objects.filter(round__tournament=tournament, round__number=number)
    return list(found.select_related("table").order_by("number"))


def finish_round(tournament: Tournament, number: int, *, skip: int | None = None) -> None:
    """Every table of the round plays its two games, but table ``skip`` plays one."""
    for seated in tables(tournament, number):
        declarer = seated.table.seat_names[0]
        hand = {"declarer": declarer, "contract": "grand", "matadors": 1, "declarer_points": 61}
        factories.record(seated.table, hand, times=1 if seated.number == skip else 2)


def start_page(client: Client, tournament: Tournament, **data: str) -> object:
    return client.post(reverse("ledger:tournament_round_start", args=[tournament.pk]), data)


def detail(tournament: Tournament) -> str:
    return reverse("ledger:tournament_detail", args=[tournament.pk])


def rounds_played(tournament: Tournament) -> list[int]:
    return list(Round.objects.filter(tournament=tournament).order_by("number").values_list("number", flat=True))


# --------------------------------------------------------------------------------------------------------------
# The next round, asked twice


def test_a_double_tap_on_start_series_2_starts_series_2_once(alice_client, night):
    finish_round(night, 1)
    first = start_page(alice_client, night, round="2")
    drawn = [(seated.pk, seated.token) for seated in tables(night, 2)]
    again = start_page(alice_client, night, round="2")
    assert first.status_code == again.status_code == 302
    assert rounds_played(night) == [1, 2]  # not 1 → 3
    # Series 2's tables are the ones the first tap drew, their links still live (not retired by a series 3).
    assert [(seated.pk, seated.token) for seated in tables(night, 2)] == drawn
    assert all(tournaments.table_guest(token=token) for _pk, token in drawn)
    page = alice_client.get(detail(night)).content.decode()
    assert "Round 2 had started already: here are its tables, nothing was changed." in page
    assert "Start series 3" in page
    # Nobody was credited an empty series 3.
    assert {row.rounds for row in selectors.standings(night)} == {2}


def test_a_round_that_is_neither_the_next_nor_started_is_refused_naming_the_field(night):
    finish_round(night, 1)
    with pytest.raises(LedgerError) as refused:
        tournaments.round_start(tournament=night, number=3)
    assert refused.value.field == "round"
    assert "the next is round 2" in refused.value.message
    assert rounds_played(night) == [1]
    # Asking again for series 1, long started, answers it and changes nothing.
    answered = tournaments.round_start(tournament=night, number=1)
    assert (answered.round.number, answered.created) == (1, False) and rounds_played(night) == [1]


def test_the_page_without_the_round_it_means_starts_nothing(alice_client, night):
    finish_round(night, 1)
    answer = alice_client.post(reverse("ledger:tournament_round_start", args=[night.pk]), follow=True)
    assert "Say which round to start" in answer.content.decode()
    assert rounds_played(night) == [1]


def test_unfinished_tables_are_named_and_the_next_round_asks_once(alice_client, night):
    finish_round(night, 1, skip=2)
    page = alice_client.get(detail(night)).content.decode()
    box = page.split('id="unfinished-tables"', 1)[1].split("</div>", 1)[0]
    assert "table 2 (1 of 2 hands)" in box and "table 1 " not in box
    assert 'name="confirm_unfinished" value="1" required' in box
    refused = start_page(alice_client, night, round="2")
    assert refused.status_code == 409
    assert "These tables have not finished: table 2 (1 of 2 hands)." in refused.content.decode()
    assert rounds_played(night) == [1]
    assert start_page(alice_client, night, round="2", confirm_unfinished="1").status_code == 302
    assert rounds_played(night) == [1, 2]


def test_the_service_refuses_unfinished_tables_unless_confirmed(night):
    with pytest.raises(tournaments.TablesUnfinished) as refused:
        tournaments.round_start(tournament=night, number=2)
    assert [(t.number, t.played, t.planned) for t in refused.value.tables] == [(1, 0, 2), (2, 0, 2)]
    assert refused.value.field == "confirm_unfinished"
    assert tournaments.round_start(tournament=night, number=2, confirm_unfinished=True).created


def test_a_retried_next_round_request_answers_the_round_already_started(alice, night):
    organiser = token_client(alice)
    url = f"/api/tournaments/{night.pk}/next-round/"
    finish_round(night, 1)
    first = organiser.post(url, {"round": 2}, format="json")
    retried = organiser.post(url, {"round": 2}, format="json")
    assert (first.status_code, retried.status_code) == (201, 200)
    assert first.json()["round"] == retried.json()["round"] == 2
    assert retried.json()["draw"] == first.json()["draw"]
    assert rounds_played(night) == [1, 2]


def test_the_api_names_the_round_field_and_the_unfinished_tables(alice, night):
    organiser = token_client(alice)
    url = f"/api/tournaments/{night.pk}/next-round/"
    missing = organiser.post(url, {}, format="json")
    assert missing.status_code == 400 and missing.json()["field"] == "round"
    skipped = organiser.post(url, {"round": 3}, format="json")
    assert skipped.status_code == 400 and skipped.json()["field"] == "round"
    finish_round(night, 1, skip=1)
    busy = organiser.post(url, {"round": 2}, format="json")
    assert busy.status_code == 409
    assert busy.json()["field"] == "confirm_unfinished"
    assert busy.json()["tables"] == [{"number": 1, "played": 1, "planned": 2}]
    assert rounds_played(night) == [1]
    assert organiser.post(url, {"round": 2, "confirm_unfinished": True}, format="json").status_code == 201
    assert rounds_played(night) == [1, 2]


# --------------------------------------------------------------------------------------------------------------
# Finishing asks once


def test_finishing_without_the_yes_finishes_nothing(alice_client, night):
    url = reverse("ledger:tournament_finish", args=[night.pk])
    answer = alice_client.post(url, follow=True)
    assert "Tick “Yes, finish the tournament” to finish it" in answer.content.decode()
    night.refresh_from_db()
    assert night.status == Tournament.Status.RUNNING
    alice_client.post(url, {"confirm": "1"})
    night.refresh_from_db()
    assert night.status == Tournament.Status.FINISHED


# --------------------------------------------------------------------------------------------------------------
# Check-in


@pytest.fixture
def registering(alice) -> Tournament:
    return tournaments.tournament_create(owner=alice, game="skat", name="Later", players=SIX, rounds=2, date=DAY)


def check_in(client: Client, tournament: Tournament, entrant: Entrant, **data: str) -> object:
    return client.post(reverse("ledger:tournament_check_in", args=[tournament.pk, entrant.pk]), data, headers=HX)


def test_two_taps_on_a_name_check_the_player_in_not_out_again(alice_client, registering):
    ana = registering.entrants.get(player__name="Ana")
    check_in(alice_client, registering, ana, checked_in="1")
    check_in(alice_client, registering, ana, checked_in="1")  # the second of a double tap, or a second phone
    assert Entrant.objects.get(pk=ana.pk).checked_in


def test_check_in_is_locked_while_the_tournament_runs(alice_client, night):
    ana = night.entrants.get(player__name="Ana")
    page = alice_client.get(detail(night)).content.decode()
    assert "Check-in is locked while the tournament runs" in page
    stray = check_in(alice_client, night, ana, checked_in="0")  # a tap as the registering page sent it
    assert stray.status_code == 200 and "Check-in is locked while the tournament runs" in stray.content.decode()
    assert Entrant.objects.get(pk=ana.pk).checked_in
    unconfirmed = check_in(alice_client, night, ana, checked_in="0", for_next_round="1")
    assert "Tick the box to check Ana out" in unconfirmed.content.decode()
    assert Entrant.objects.get(pk=ana.pk).checked_in
    check_in(alice_client, night, ana, checked_in="0", for_next_round="1", confirm="1")
    assert not Entrant.objects.get(pk=ana.pk).checked_in
    late = check_in(alice_client, night, ana, checked_in="1", for_next_round="1")
    assert Entrant.objects.get(pk=ana.pk).checked_in and "Late arrival" not in late.content.decode()


# --------------------------------------------------------------------------------------------------------------
# The renewed table phone


@pytest.fixture
def table_phone(night) -> tuple[Client, TournamentTable]:
    seated = tables(night, 1)[0]
    client = Client(headers={"Accept-Language": "cs"})
    assert client.get(f"/t/{seated.token}/").status_code == 302
    return client, seated


# What a phone whose link was renewed is told, in Czech (the phone's language): "ask the organiser for the new QR code".
ASK_FOR_THE_NEW_CODE = "požádejte pořadatele o nový QR kód"


def test_a_renewed_phone_is_told_in_its_language_not_sent_to_log_in(table_phone):
    client, seated = table_phone
    old = seated.token
    tournaments.table_link_renew(table=seated)
    answer = client.get(f"/tables/{seated.table_id}/")
    assert answer.status_code == 410 and '<html lang="cs"' in answer.content.decode()
    assert ASK_FOR_THE_NEW_CODE in answer.content.decode()
    posted = client.post(f"/tables/{seated.table_id}/hands/", {}, headers=HX)
    assert posted.status_code == 200 and posted["HX-Redirect"] == f"/tables/{seated.table_id}/"
    api = client.get(f"/api/tables/{seated.table_id}/hands/")
    assert api.status_code == 410 and ASK_FOR_THE_NEW_CODE in api.json()["error"]
    scanned_again = client.get(f"/t/{old}/")
    assert scanned_again.status_code == 404 and ASK_FOR_THE_NEW_CODE in scanned_again.content.decode()


def test_a_phone_of_the_last_series_is_told_when_the_next_starts(table_phone, night):
    client, seated = table_phone
    tournaments.round_start(tournament=night, number=2, confirm_unfinished=True)
    answer = client.get(f"/tables/{seated.table_id}/")
    assert answer.status_code == 410 and ASK_FOR_THE_NEW_CODE in answer.content.decode()
    # Anything that is not the table's is as for anybody: the log-in page is there for a player who has an account.
    assert client.get("/accounts/login/").status_code == 200


def test_finishing_twice_finishes_once(night):
    """A double tap or a retry: the second finish finds it finished and retires nothing more (no new links)."""
    tournaments.tournament_finish(tournament=night)
    links = list(TournamentTable.objects.filter(round__tournament=night).values_list("token", flat=True))
    again = tournaments.tournament_finish(tournament=Tournament.objects.get(pk=night.pk))
    assert again.status == Tournament.Status.FINISHED
    assert list(TournamentTable.objects.filter(round__tournament=night).values_list("token", flat=True)) == links
