"""The close-out through the API: close, read the settlement, mark paid, reopen."""

from __future__ import annotations

import pytest

from ledger.models import Evening
from tests import factories
from tests.ledger.api_support import anonymous_client, token_client


@pytest.fixture
def api(alice):
    return token_client(alice)


@pytest.fixture
def played(evening, snapser_table):
    factories.record(snapser_table)  # Ana +0.40, Ben −0.20, Cyril −0.20 (EUR, coin 0.01)
    return evening


def test_closing_rounds_and_plans_who_pays_whom(api, played):
    response = api.post(f"/api/evenings/{played.pk}/close/", {"mode": "fewest"}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert (body["status"], body["mode"], body["coin"]) == ("closed", "fewest", "0.01")
    assert body["balances"] == {"Ana": "0.40", "Ben": "-0.20", "Cyril": "-0.20"}
    assert body["rounded"] == {"Ana": "0.40", "Ben": "-0.20", "Cyril": "-0.20"}
    transfers = {(t["from"], t["to"], t["amount"], t["paid"]) for t in body["transfers"]}
    assert transfers == {("Ben", "Ana", "0.20", False), ("Cyril", "Ana", "0.20", False)}
    assert api.get(f"/api/evenings/{played.pk}/settlement/").json() == body
    assert api.get(f"/api/evenings/{played.pk}/").json()["status"] == "closed"


def test_a_coin_of_one_rounds_the_balances(api, alice):
    evening = factories.make_evening(alice, currency="CZK")
    table = factories.make_table(evening, "snapser", stake="1")
    factories.record(table)  # Ana +4, Ben −2, Cyril −2 at 1 Kč a point
    body = api.post(f"/api/evenings/{evening.pk}/close/", {"mode": "banker", "banker": "Ben"}, format="json").json()
    assert body["rounded"] == {"Ana": "4.00", "Ben": "-2.00", "Cyril": "-2.00"}
    assert {(t["from"], t["to"], t["amount"]) for t in body["transfers"]} == {
        ("Ben", "Ana", "4.00"),
        ("Cyril", "Ben", "2.00"),
    }


def test_a_bad_banker_is_refused(api, played):
    response = api.post(f"/api/evenings/{played.pk}/close/", {"mode": "banker", "banker": "Zed"}, format="json")
    assert (response.status_code, response.json()["field"]) == (400, "banker")
    assert Evening.objects.get().status == "open"
    bad_mode = api.post(f"/api/evenings/{played.pk}/close/", {"mode": "lottery"}, format="json")
    assert (bad_mode.status_code, bad_mode.json()["field"]) == (400, "mode")


def test_the_settlement_of_an_open_evening_shows_the_balances_so_far(api, played):
    body = api.get(f"/api/evenings/{played.pk}/settlement/").json()
    assert (body["status"], body["rounded"], body["transfers"]) == ("open", None, [])
    assert body["balances"] == {"Ana": "0.40", "Ben": "-0.20", "Cyril": "-0.20"}


def test_marking_a_transfer_paid_and_reopening(api, played):
    body = api.post(f"/api/evenings/{played.pk}/close/", {}, format="json").json()
    first = body["transfers"][0]
    paid = api.post(f"/api/transfers/{first['id']}/paid/")
    assert paid.status_code == 200 and paid.json()["paid"] is True and paid.json()["paid_at"]
    assert api.post(f"/api/transfers/{first['id']}/paid/").json()["paid_at"] == paid.json()["paid_at"]

    reopened = api.post(f"/api/evenings/{played.pk}/reopen/")
    assert reopened.status_code == 200
    assert reopened.json()["status"] == "open"
    assert [t["id"] for t in reopened.json()["transfers"]] == [first["id"]]  # paid ones stay paid
    assert api.post(f"/api/evenings/{played.pk}/reopen/").status_code == 400  # open already


def test_the_share_link_shows_the_settlement_once_closed(api, played):
    api.post(f"/api/evenings/{played.pk}/close/", {}, format="json")
    shared = anonymous_client().get(f"/api/shared/{played.share_token}/").json()
    assert shared["status"] == "closed"
    assert {(t["from"], t["to"], t["amount"]) for t in shared["settlement"]["transfers"]} == {
        ("Ben", "Ana", "0.20"),
        ("Cyril", "Ana", "0.20"),
    }
