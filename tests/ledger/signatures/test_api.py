"""Signatures through the API: Alice (token) lists who signed and signs for a player who left; Ana's seated phone
(its device cookie, no account) signs for her; Charlie (a stranger) and a phone holding no seat reach nothing."""

from __future__ import annotations

from ledger.devices.phone import COOKIE
from ledger.signatures.models import Signature
from ledger.signatures.services import signature_sign
from tests import factories
from tests.ledger.api_support import anonymous_client, token_client
from tests.ledger.signatures.conftest import ANA_PHONE, BEN_PHONE


def listed_url(evening) -> str:
    return f"/api/evenings/{evening.pk}/signatures/"


def test_alice_lists_who_signed_and_who_has_not(alice, evening, players, ana_claim):
    signature_sign(evening=evening, player=players["Ana"], by=ana_claim.acting, claim=ana_claim)
    factories.record(evening.tables.get())
    signature_sign(evening=evening, player=players["Cyril"], by=alice, for_absent=True)
    answer = token_client(alice).get(listed_url(evening))
    assert answer.status_code == 200
    body = answer.json()
    assert (body["revision"], body["hands"], body["complete"]) == (3, 3, False)
    rows = {row["name"]: row for row in body["signatures"]}
    assert rows["Ana"] | {"at": None} == {
        "player": players["Ana"].pk, "name": "Ana", "signed": False, "stale": True, "changed_from": 3, "at": None,
        "by": "Ana", "own_phone": True, "for_absent": False, "revision": 2, "hands": 2, "balance": "0.8000",
    }  # fmt: skip
    assert rows["Ben"] == {
        "player": players["Ben"].pk, "name": "Ben", "signed": False, "stale": False, "changed_from": None,
        "at": None, "by": None, "own_phone": False, "for_absent": False, "revision": None, "hands": None,
        "balance": None,
    }  # fmt: skip
    assert rows["Cyril"]["signed"] and rows["Cyril"]["for_absent"] and rows["Cyril"]["by"] == "alice"
    assert rows["Cyril"]["balance"] == "-0.6000"


def test_alice_signs_for_a_player_who_left_and_the_same_request_again_answers_200(alice, evening, players):
    api = token_client(alice)
    body = {"player": players["Ben"].pk, "for_absent": True, "revision": 2}
    made = api.post(listed_url(evening), body, format="json")
    assert made.status_code == 201
    assert made.json()["signed"] and made.json()["for_absent"] and made.json()["balance"] == "-0.4000"
    again = api.post(listed_url(evening), body, format="json")
    assert again.status_code == 200 and again.json()["at"] == made.json()["at"]
    assert Signature.objects.count() == 1


def test_refusals_name_the_field(alice, evening, players):
    api = token_client(alice)
    stale = api.post(listed_url(evening), {"player": players["Ben"].pk, "revision": 1}, format="json")
    assert (stale.status_code, stale.json()["field"]) == (400, "revision")
    elsewhere = factories.make_table(factories.make_evening(alice, place="X"), "snapser", ["Dana", "Emil", "Fero"])
    dana = elsewhere.seats.get(position=0).player
    wrong = api.post(listed_url(evening), {"player": dana.pk}, format="json")
    assert (wrong.status_code, wrong.json()["field"]) == (400, "player")
    missing = api.post(listed_url(evening), {}, format="json")
    assert (missing.status_code, missing.json()["field"]) == (400, "player")
    assert not Signature.objects.exists()


def test_a_stranger_and_an_anonymous_client_reach_nothing(charlie, evening, players):
    assert token_client(charlie).get(listed_url(evening)).status_code == 404
    assert (
        token_client(charlie).post(listed_url(evening), {"player": players["Ben"].pk}, format="json").status_code == 404
    )
    assert anonymous_client().get(listed_url(evening)).status_code in (401, 403)


def test_a_seated_phone_signs_for_its_player(evening, table, ana_claim):
    api = anonymous_client()
    api.cookies[COOKIE] = ANA_PHONE
    url = f"/api/tables/{table.pk}/signature/"
    made = api.post(url, {"revision": 2}, format="json")
    assert made.status_code == 201
    assert (made.json()["name"], made.json()["own_phone"], made.json()["by"]) == ("Ana", True, "Ana")
    assert api.post(url, {"revision": 2}, format="json").status_code == 200
    assert Signature.objects.get().claim == ana_claim


def test_a_phone_holding_no_seat_gets_404(evening, table, ana_claim):
    api = anonymous_client()
    api.cookies[COOKIE] = BEN_PHONE
    assert api.post(f"/api/tables/{table.pk}/signature/", {}, format="json").status_code == 404
    assert anonymous_client().post(f"/api/tables/{table.pk}/signature/", {}, format="json").status_code == 404
