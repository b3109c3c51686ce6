"""GET /api/me/ and POST /api/me/claims/ as the three personas."""

from __future__ import annotations

import pytest

from ledger.people import services as people
from ledger.people.models import PlayerClaim
from tests.ledger.api_support import anonymous_client, token_client
from tests.ledger.people.worlds import bobs_world


def test_me_sums_bobs_money_and_statistics(alice, bob):
    bobs_world(alice, bob)

    body = token_client(bob).get("/api/me/").json()

    assert body["username"] == "bob"
    assert [(c["player"], c["scorekeeper"], c["status"]) for c in body["claims"]] == [
        ("Bobby", "dana", "approved"),
        ("Ben", "alice", "approved"),
    ]
    assert {
        row["currency"]: (row["net"], row["to_pay"], row["to_receive"], row["in_tabs"])
        for row in body["money"]["totals"]
    } == {
        "CZK": ("6.20", "6.00", "0.00", "12.00"),
        "EUR": ("0.20", "0.20", "0.20", "0.00"),
    }
    assert [(e["date"], e["net"]) for e in body["evenings"]] == [
        ("2026-11-14", "12.40"),
        ("2026-11-13", "0.40"),
        ("2026-11-07", "-6.20"),
        ("2026-11-06", "-0.20"),
    ]
    assert [(s["game"], s["currency"], s["hands"], s["net"]) for s in body["stats"]] == [
        ("snapser", "CZK", 2, "6.20"),
        ("snapser", "EUR", 2, "0.20"),
    ]


def test_a_stranger_sees_only_their_own_empty_summary(alice, bob, charlie):
    bobs_world(alice, bob)

    body = token_client(charlie).get("/api/me/").json()

    assert body["username"] == "charlie"
    assert body["claims"] == [] and body["evenings"] == [] and body["money"]["owed"] == []


def test_anonymous_gets_nothing(db):
    assert anonymous_client().get("/api/me/").status_code in (401, 403)
    assert anonymous_client().post("/api/me/claims/", {"player": 1, "table": 1}, format="json").status_code in (
        401,
        403,
    )


def test_claiming_through_the_share_token_then_again(bob, evening, ben):
    client = token_client(bob)
    body = {"player": ben.pk, "share_token": evening.share_token}

    first = client.post("/api/me/claims/", body, format="json")
    again = client.post("/api/me/claims/", body, format="json")

    assert first.status_code == 201
    assert again.status_code == 200
    assert first.json()["id"] == again.json()["id"]
    assert (first.json()["status"], first.json()["how"], first.json()["scorekeeper"]) == (
        "requested",
        "share_link",
        "alice",
    )


@pytest.mark.parametrize(
    "body",
    [
        {"player": 0},  # nowhere given
        {"player": 0, "table": 1, "share_token": "x"},  # two places
    ],
)
def test_where_the_player_was_reached_is_required_once(bob, ben, body):
    response = token_client(bob).post("/api/me/claims/", body, format="json")

    assert response.status_code == 400
    assert response.json()["field"] == "non_field_errors"


def test_a_table_the_caller_does_not_keep_is_not_found(charlie, snapser_table, ben):
    response = token_client(charlie).post(
        "/api/me/claims/", {"player": ben.pk, "table": snapser_table.pk}, format="json"
    )

    assert response.status_code == 404
    assert not PlayerClaim.objects.exists()


def test_a_player_already_claimed_is_refused_with_the_reason(alice, bob, charlie, evening, ben):
    people.player_claim_grant(user=charlie, player=ben, granted_by=alice, how="invitation")

    response = token_client(bob).post(
        "/api/me/claims/", {"player": ben.pk, "share_token": evening.share_token}, format="json"
    )

    assert response.status_code == 400
    assert response.json() == {
        "field": "player",
        "error": "Ben is already claimed by another account: a player is one person.",
    }
