"""A table's settings beside its ruleset: who records (the scorekeeper alone, or any seated player) and whose OK a
recorded hand needs (nobody, one opponent of the declarer, every other player). Chosen when the table starts, frozen
with the ruleset: no form or request changes them afterwards.

Personas: Alice keeps score, Charlie is a stranger (404).
"""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from ledger import services
from ledger.forms import TableForm
from ledger.models import Table
from ledger.tournaments import services as tournaments
from ledger.tournaments.models import TournamentTable
from tests import factories
from tests.ledger.api_support import token_client

HX = {"HX-Request": "true"}


def _table_form(**chosen: str) -> dict[str, str]:
    """The new-table form as a browser posts it for a Šnapser table of three at the preset's house rules (in
    euros, the evening fixture's money), with ``chosen`` on top."""
    drawn = TableForm(currency="EUR", initial={"game": "snapser"})
    options = {field.html_name: field.value() for field in drawn.option_fields()}
    return {
        **{name: "on" if value is True else str(value) for name, value in options.items() if value is not False},
        "game": "snapser",
        "preset": drawn.preset_name,
        "drawn_for": f"snapser:{drawn.preset_name}",
        "player_0": "Ana",
        "player_1": "Ben",
        "player_2": "Cyril",
        "first_dealer": "0",
        **chosen,
    }


def _create_url(evening):
    return reverse("ledger:table_create", args=[evening.pk])


# --------------------------------------------------------------------------------------------------------------
# The form


def test_the_form_offers_both_settings_with_todays_defaults_ticked(alice_client, evening):
    html = alice_client.get(_create_url(evening)).content.decode()
    assert "Who records" in html and "Confirmation of each hand" in html
    assert 'name="recording" value="scorekeeper" id="id_recording_0" checked' in html.replace("\n", " ")
    assert 'name="confirmation" value="none" id="id_confirmation_0" checked' in html.replace("\n", " ")
    for label in ("only the scorekeeper records", "any seated player records", "one opponent of the declarer confirms"):
        assert label in html


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_the_form_redrawn_for_another_game_keeps_the_settings_chosen(alice_client, evening, htmx):
    posted = _table_form(recording="seated", confirmation="everyone", game="skat", _refresh="1")
    html = alice_client.post(_create_url(evening), posted, headers=HX if htmx else {}).content.decode()
    flat = html.replace("\n", " ")
    assert 'value="seated" id="id_recording_1" checked' in flat
    assert 'value="everyone" id="id_confirmation_2" checked' in flat
    assert not Table.objects.exists()


def test_a_table_started_with_settings_stores_them_and_its_rules_page_names_them(alice_client, evening):
    response = alice_client.post(_create_url(evening), _table_form(recording="seated", confirmation="opponent"))
    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"] == table.get_absolute_url()
    assert (table.recording, table.confirmation) == ("seated", "opponent")
    rules_page = alice_client.get(reverse("ledger:table_rules", args=[table.pk])).content.decode()
    assert '<dd data-setting="recording">Any seated player records</dd>' in rules_page
    assert '<dd data-setting="confirmation">One opponent of the declarer confirms</dd>' in rules_page
    evening_page = alice_client.get(evening.get_absolute_url()).content.decode()
    assert "· one opponent of the declarer confirms" in evening_page


def test_a_post_without_the_settings_starts_the_table_as_before(alice_client, evening):
    alice_client.post(_create_url(evening), _table_form())
    table = Table.objects.get()
    assert (table.recording, table.confirmation) == ("scorekeeper", "none")


def test_an_unknown_setting_is_refused_beside_its_field(alice_client, evening):
    response = alice_client.post(_create_url(evening), _table_form(confirmation="director"))
    html = response.content.decode()
    assert response.status_code == 200 and not Table.objects.exists()
    assert 'id="errors-confirmation"><li>Select a valid choice. director is not one of the available choices.' in html


def test_a_strangers_rules_page_is_not_there(charlie_client, snapser_table):
    assert charlie_client.get(reverse("ledger:table_rules", args=[snapser_table.pk])).status_code == 404


# --------------------------------------------------------------------------------------------------------------
# The service


def test_the_service_refuses_an_unknown_setting_naming_its_field(evening):
    with pytest.raises(services.LedgerError) as refused:
        services.table_create(evening=evening, game="snapser", players=["Ana", "Ben", "Cyril"], recording="anyone")
    assert refused.value.field == "recording" and '"scorekeeper", "seated"' in refused.value.message
    with pytest.raises(services.LedgerError) as refused:
        services.table_create(evening=evening, game="snapser", players=["Ana", "Ben", "Cyril"], confirmation="all")
    assert refused.value.field == "confirmation" and '"none", "opponent", "everyone"' in refused.value.message
    assert not Table.objects.exists()


# --------------------------------------------------------------------------------------------------------------
# The API reads them; nothing changes them


def test_the_api_reads_the_settings_with_readable_labels(alice, evening):
    table = services.table_create(
        evening=evening, game="snapser", players=["Ana", "Ben", "Cyril"], recording="seated", confirmation="everyone"
    )
    data = token_client(alice).get(f"/api/tables/{table.pk}/", headers={"Accept-Language": "en"}).json()
    assert data["recording"] == "seated" and data["recording_label"] == "any seated player records"
    assert data["confirmation"] == "everyone" and data["confirmation_label"] == "every other player confirms"
    listed = token_client(alice).get(f"/api/evenings/{evening.pk}/").json()["tables"][0]
    assert (listed["recording"], listed["confirmation"]) == ("seated", "everyone")


def test_the_api_starts_a_table_with_todays_defaults(alice, evening):
    data = token_client(alice).post(
        f"/api/evenings/{evening.pk}/tables/", {"game": "snapser", "players": ["Ana", "Ben", "Cyril"]}, format="json"
    )
    assert data.status_code == 201
    assert (data.json()["recording"], data.json()["confirmation"]) == ("scorekeeper", "none")


def test_the_api_starts_a_table_with_the_settings_chosen(alice, evening):
    posted = {"game": "snapser", "players": ["Ana", "Ben", "Cyril"], "recording": "seated", "confirmation": "opponent"}
    data = token_client(alice).post(f"/api/evenings/{evening.pk}/tables/", posted, format="json")
    assert data.status_code == 201
    assert (data.json()["recording"], data.json()["confirmation"]) == ("seated", "opponent")
    assert Table.objects.filter(recording="seated", confirmation="opponent").count() == 1


@pytest.mark.parametrize("method", ["patch", "put"])
def test_no_request_changes_the_settings_of_a_started_table(alice, evening, method):
    table = factories.make_table(evening, "snapser")
    answer = getattr(token_client(alice), method)(
        f"/api/tables/{table.pk}/", {"recording": "seated", "confirmation": "everyone"}, format="json"
    )
    assert answer.status_code == 405
    table.refresh_from_db()
    assert (table.recording, table.confirmation) == ("scorekeeper", "none")


def test_starting_another_table_leaves_the_first_ones_settings(alice_client, evening):
    alice_client.post(_create_url(evening), _table_form(confirmation="opponent"))
    alice_client.post(_create_url(evening), _table_form(confirmation="everyone", recording="seated"))
    first, second = Table.objects.order_by("pk")
    assert (first.recording, first.confirmation) == ("scorekeeper", "opponent")
    assert (second.recording, second.confirmation) == ("seated", "everyone")


def test_the_next_table_and_same_players_as_last_time_offer_the_last_tables_settings(alice_client, evening):
    alice_client.post(_create_url(evening), _table_form(recording="seated", confirmation="everyone"))
    next_table = alice_client.get(_create_url(evening)).content.decode().replace("\n", " ")
    again = alice_client.post(reverse("ledger:evening_again"))
    assert again["Location"].endswith(f"?again={Table.objects.get().pk}")
    same_players = alice_client.get(again["Location"]).content.decode().replace("\n", " ")
    for html in (next_table, same_players):
        assert 'value="seated" id="id_recording_1" checked' in html
        assert 'value="everyone" id="id_confirmation_2" checked' in html


# --------------------------------------------------------------------------------------------------------------
# Tournaments


def test_a_tournaments_tables_ask_an_opponent_to_confirm(alice):
    tournament = tournaments.tournament_create(
        owner=alice,
        game="skat",
        name="Club night",
        players=["Ana", "Ben", "Cyril", "Dora", "Emil", "Fany"],
        rounds=1,
        date=datetime.date(2026, 11, 27),
        start=True,
    )
    tables = [entry.table for entry in TournamentTable.objects.filter(round__tournament=tournament)]
    assert len(tables) == 2
    assert {(table.recording, table.confirmation) for table in tables} == {("scorekeeper", "opponent")}
