"""A tournament's name refuses what every other name refuses: control and text-direction characters (a name that
reads otherwise on the standings, the printouts and the players' phones), zero-width characters, surrogates."""

from __future__ import annotations

import pytest

from ledger.services import LedgerError
from ledger.tournaments import services as tournaments
from ledger.tournaments.models import Tournament
from tests.ledger.api_support import token_client

HIDDEN = ["Cup\u202eecnarF", "Cup\u2066x\u2069", "Cu\u200bp", "Cup\x07", "\u200e", "Cup\ufeff", "Cup\u061c"]


@pytest.mark.parametrize("name", HIDDEN)
def test_a_tournament_name_with_hidden_characters_is_refused(alice, name):
    with pytest.raises(LedgerError) as refused:
        tournaments.tournament_create(owner=alice, game="skat", name=name, players=["Ana", "Ben", "Cyril"], rounds=1)
    assert refused.value.field == "name"
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("name", HIDDEN[:2])
def test_the_api_and_the_form_refuse_it_beside_the_name(alice, alice_client, name):
    body = {"game": "skat", "name": name, "players": ["Ana", "Ben", "Cyril"], "rounds": 1}
    response = token_client(alice).post("/api/tournaments/", body, format="json")
    assert response.status_code == 400
    assert response.json()["field"] == "name"
    form = {"name": name, "game": "skat", "players": "Ana\nBen\nCyril", "rounds": "1"}
    page = alice_client.post("/tournaments/new/", form)
    assert page.status_code in (200, 400)
    assert not Tournament.objects.exists()


def test_a_plain_name_with_its_spaces_tidied_is_kept(alice):
    made = tournaments.tournament_create(
        owner=alice, game="skat", name="  Friday \t Cup ", players=["Ana", "Ben", "Cyril"], rounds=1
    )
    assert made.name == "Friday Cup"
