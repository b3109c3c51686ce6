"""Seats in the API (ledger/seats/api.py): the scorekeeper's list and decisions, a phone's claim by code; the same
access and the same repeats as the pages.

Personas: Alice keeps score (token); Ben's phone claims without an account (its device cookie); Charlie (token) is a
stranger to the table.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from ledger import services
from ledger.devices.phone import COOKIE
from ledger.seats.models import SeatClaim
from tests import factories
from tests.ledger.api_support import anonymous_client, token_client
from tests.ledger.seats.support import claim, code, new_device


def _claim_url() -> str:
    return reverse("api:seat_claim")


def test_a_phone_without_an_account_claims_a_seat_by_code_and_again_gets_the_same_claim(snapser_table):
    phone = anonymous_client()
    first = phone.post(_claim_url(), {"code": code(snapser_table).lower(), "position": 1}, format="json")
    assert first.status_code == 201
    assert first.json() | {"id": 0, "claimed_at": ""} == {
        "id": 0,
        "table": snapser_table.pk,
        "position": 1,
        "player": "Ben",
        "status": "held",
        "account": None,
        "claimed_at": "",
        "ended_at": None,
    }
    assert first.cookies[COOKIE].value
    again = phone.post(_claim_url(), {"code": code(snapser_table), "position": 1}, format="json")
    assert again.status_code == 200 and again.json()["id"] == first.json()["id"]
    assert SeatClaim.objects.count() == 1


def test_a_second_phone_s_claim_waits(snapser_table):
    claim(snapser_table, 1, new_device())
    answer = anonymous_client().post(_claim_url(), {"code": code(snapser_table), "position": 1}, format="json")
    assert (answer.status_code, answer.json()["status"]) == (201, "pending")


def test_a_claim_names_the_account_that_made_it(snapser_table):
    bob = factories.make_user("bob")
    answer = token_client(bob).post(_claim_url(), {"code": code(snapser_table), "position": 0}, format="json")
    assert answer.json()["account"] == "bob" and SeatClaim.objects.get().acting == bob


@pytest.mark.parametrize(
    ("body", "status", "field"),
    [
        ({"code": "ZZZZZZ", "position": 0}, 404, None),
        ({"code": "", "position": 0}, 400, "code"),
        ({"position": 0}, 400, "code"),
        ({"code": "X", "position": -1}, 400, "position"),
    ],
)
def test_a_bad_claim_is_refused_naming_its_field(snapser_table, body, status, field):
    answer = anonymous_client().post(_claim_url(), body, format="json")
    assert answer.status_code == status and answer.json()["field"] == field
    assert not SeatClaim.objects.exists()


def test_a_seat_the_table_does_not_have_and_a_closed_evening_are_refused(snapser_table, alice):
    phone = anonymous_client()
    missing = phone.post(_claim_url(), {"code": code(snapser_table), "position": 5}, format="json")
    assert (missing.status_code, missing.json()["field"]) == (400, "position")
    factories.record(snapser_table)
    services.evening_close(evening=snapser_table.evening, by=alice)
    closed = phone.post(_claim_url(), {"code": code(snapser_table), "position": 1}, format="json")
    assert (closed.status_code, closed.json()["field"]) == (409, "evening")


def test_the_scorekeeper_lists_the_seats_and_allows_a_waiting_phone_once(snapser_table, alice):
    held = claim(snapser_table, 1, new_device())
    waiting = claim(snapser_table, 1, new_device())
    api = token_client(alice)
    listed = api.get(reverse("api:table_seats", args=[snapser_table.pk])).json()
    assert [(c["id"], c["status"], c["player"]) for c in listed] == [
        (held.pk, "held", "Ben"),
        (waiting.pk, "pending", "Ben"),
    ]
    url = reverse("api:seat_allow", args=[snapser_table.pk])
    answers = [api.post(url, {"claim": waiting.pk}, format="json") for _ in range(2)]
    assert [(a.status_code, a.json()["status"]) for a in answers] == [(200, "held"), (200, "held")]
    held.refresh_from_db()
    assert held.status == "released"


def test_refuse_and_release(snapser_table, alice):
    held = claim(snapser_table, 1, new_device())
    waiting = claim(snapser_table, 1, new_device())
    api = token_client(alice)
    refused = api.post(reverse("api:seat_refuse", args=[snapser_table.pk]), {"claim": waiting.pk}, format="json")
    released = api.post(reverse("api:seat_release", args=[snapser_table.pk]), {"claim": held.pk}, format="json")
    assert (refused.json()["status"], released.json()["status"]) == ("refused", "released")
    assert released.json()["ended_at"] is not None


def test_a_stranger_gets_404_and_changes_nothing(snapser_table, charlie):
    held = claim(snapser_table, 1, new_device())
    api = token_client(charlie)
    assert api.get(reverse("api:table_seats", args=[snapser_table.pk])).status_code == 404
    answer = api.post(reverse("api:seat_release", args=[snapser_table.pk]), {"claim": held.pk}, format="json")
    assert answer.status_code == 404
    held.refresh_from_db()
    assert held.status == "held"
    assert anonymous_client().get(reverse("api:table_seats", args=[snapser_table.pk])).status_code == 401


def test_too_many_wrong_codes_are_answered_429(snapser_table, settings):
    settings.SEAT_CODE_GUESSES = 1
    phone = anonymous_client()
    assert phone.post(_claim_url(), {"code": "ZZZZZ2", "position": 0}, format="json").status_code == 404
    answer = phone.post(_claim_url(), {"code": code(snapser_table), "position": 0}, format="json")
    assert answer.status_code == 429 and "Too many wrong codes" in answer.json()["error"]
    assert not SeatClaim.objects.exists()
