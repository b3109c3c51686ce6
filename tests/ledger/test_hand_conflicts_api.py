"""The API's Record with ``after``: another client's hand recorded meanwhile answers 409 with the stored hand and
the one sent, priced and not stored; the same hand sent again after it is recorded once."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from ledger import services
from ledger.models import Hand
from tests import factories

BEZ_VODY = factories.SNAPSER_N1 | {"result": "bez_vody"}


@pytest.fixture
def api(alice):
    client = APIClient()
    client.force_authenticate(alice)
    return client


def _url(table):
    return reverse("api:hands", args=[table.pk])


def test_a_hand_recorded_meanwhile_answers_409_with_both(api, snapser_table, alice):
    theirs = services.hand_record(table=snapser_table, hand=factories.SNAPSER_N1, by=alice, key="first")
    answer = api.post(_url(snapser_table), {"hand": BEZ_VODY, "key": "mine", "after": 0}, format="json")
    assert answer.status_code == 409
    body = answer.json()
    assert body["field"] == "after"
    assert body["error"] == "Hand #1 was just recorded by alice."
    assert body["stored"]["id"] == theirs.pk and body["stored"]["number"] == 1
    assert body["stored"]["amounts"] == {"Ana": "0.40", "Ben": "-0.20", "Cyril": "-0.20"}
    assert body["yours"]["hand"] == BEZ_VODY
    assert body["yours"]["amounts"] == {"Ana": "0.80", "Ben": "-0.40", "Cyril": "-0.40"}  # RULES.md N2
    assert body["yours"]["label"] and body["yours"]["lines"]
    assert Hand.objects.filter(table=snapser_table).count() == 1
    again = api.post(_url(snapser_table), {"hand": BEZ_VODY, "key": "mine", "after": 1}, format="json")
    assert again.status_code == 201 and again.json()["number"] == 2
    repeat = api.post(_url(snapser_table), {"hand": BEZ_VODY, "key": "mine", "after": 0}, format="json")
    assert repeat.status_code == 201 and repeat.json()["id"] == again.json()["id"]  # a retry is no conflict


def test_after_is_optional_and_checked(api, snapser_table):
    assert api.post(_url(snapser_table), {"hand": BEZ_VODY}, format="json").status_code == 201
    assert api.post(_url(snapser_table), {"hand": BEZ_VODY, "after": None}, format="json").status_code == 201
    assert api.post(_url(snapser_table), {"hand": BEZ_VODY, "after": 2}, format="json").status_code == 201
    beyond = api.post(_url(snapser_table), {"hand": BEZ_VODY, "after": 9}, format="json")
    assert beyond.status_code == 400 and beyond.json()["field"] == "after"
    negative = api.post(_url(snapser_table), {"hand": BEZ_VODY, "after": -1}, format="json")
    assert negative.status_code == 400 and negative.json()["field"] == "after"
    assert Hand.objects.filter(table=snapser_table).count() == 3


def test_a_stranger_hears_nothing_of_the_table(snapser_table, charlie):
    client = APIClient()
    client.force_authenticate(charlie)
    factories.record(snapser_table)
    assert client.post(_url(snapser_table), {"hand": BEZ_VODY, "after": 0}, format="json").status_code == 404


def test_the_schema_documents_the_conflict(client):
    schema = client.get(reverse("api:schema"), {"format": "json"}).json()
    operation = schema["paths"]["/api/tables/{table_id}/hands/"]["post"]
    conflict = operation["responses"]["409"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    properties = schema["components"]["schemas"][conflict]["properties"]
    assert {"field", "error", "stored", "yours"} <= set(properties)
    body = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    assert "after" in schema["components"]["schemas"][body]["properties"]
