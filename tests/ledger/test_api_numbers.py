"""A JSON number past the range of a float (``1e400``, which Python reads as infinity) is refused where the API
reads it, naming where it was: nothing stores an infinity that no JSON column holds and no answer can write."""

from __future__ import annotations

import pytest

from ledger.tournaments.models import Tournament
from tests.ledger.api_support import token_client

TOURNAMENT = '{"game": "skat", "name": "T", "players": ["Ana", "Ben", "Cyril"], "rounds": 1, "options": %s}'


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ('{"rules": {"preset": "isko", "stake": 1e400}}', "options.rules.stake"),
        ('{"rules": {"preset": "isko", "x": -1e400}}', "options.rules.x"),
        ('{"fees": {"entry": 1e999}}', "options.fees.entry"),
    ],
)
def test_a_number_past_a_float_in_tournament_options_is_a_bad_request(alice, options, field):
    response = token_client(alice).generic(
        "POST", "/api/tournaments/", TOURNAMENT % options, content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["field"] == field
    assert not Tournament.objects.exists()


def test_a_number_past_a_float_in_a_hand_is_a_bad_request(alice, evening):
    from tests import factories

    table = factories.make_table(evening, "skat")
    body = '{"hand": {"declarer": "Ana", "contract": "grand", "matadors": 1, "declarer_points": 1e400}}'
    response = token_client(alice).generic(
        "POST", f"/api/tables/{table.pk}/hands/", body, content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["field"] == "hand.declarer_points"
