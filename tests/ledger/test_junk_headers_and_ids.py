"""Junk where a view reads a header, an id or a name without a form: a 4xx or the usual answer, never a 500, and
nothing half done."""

from __future__ import annotations

import pytest

from ledger.circles import services as circles
from ledger.models import Hand
from tests import factories


@pytest.mark.parametrize("current", ["http://[", "http://[::1", "http://x:99999999/", "\u2028"])
def test_an_htmx_record_with_a_malformed_current_url_answers_with_the_table(alice_client, evening, current):
    table = factories.make_table(evening, "snapser")
    taps = {"declarer": "Ana", "trump": "leaves", "announcement": "hram", "winner": "declarer"}
    taps |= {"result": "s_vodou", "raises": "0"}
    response = alice_client.post(
        f"/tables/{table.pk}/hands/",
        taps | {"dealer": "0"},
        headers={"HX-Request": "true", "HX-Current-URL": current},
    )
    assert response.status_code == 200
    assert Hand.objects.filter(table=table).count() == 1


HUGE_IDS = [2**63, 2**63 - 1, 2**64, 10**30]


@pytest.mark.parametrize("player_id", HUGE_IDS)
@pytest.mark.parametrize("action", ["remove", "link"])
def test_a_member_id_past_what_the_database_holds_is_not_found(alice, alice_client, player_id, action):
    circle = circles.circle_create(owner=alice, name="Friday", members=["Ana", "Ben", "Cyril"], settle="tab")
    response = alice_client.post(f"/circles/{circle.pk}/members/{player_id}/{action}/")
    assert response.status_code == 404
    assert circle.members.count() == 3


@pytest.mark.parametrize("username", ["\x00", "a\x00b", "alice\x00"])
def test_a_scorekeeper_name_with_a_nul_is_refused(alice_client, evening, username):
    response = alice_client.post(f"/evenings/{evening.pk}/scorekeepers/remove/", {"username": username})
    assert response.status_code == 400
    assert evening.owner.username == "alice"
