"""Player names without control or text-direction characters; private answers are never stored.

A right-to-left override in a name turns "Ana owes 5" into something else on every page that shows it, and control
characters break the PDF and the payment codes. Pages for a logged-in scorekeeper, the PDF and the API carry
``Cache-Control: no-store``, so a shared computer or a proxy keeps no copy of somebody's money.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from ledger import services
from ledger.models import Player, Table
from tests import factories
from tests.ledger.api_support import anonymous_client, token_client

BAD_NAMES = {
    "right-to-left override": "Ana\u202eCBA",
    "left-to-right embedding": "\u202aBen",
    "right-to-left isolate": "Cyril\u2067x\u2069",
    "right-to-left mark": "Dana\u200f",
    "bell": "Eva\x07",
    "escape": "\x1b[31mFilip",
    "null": "Ga\x00bi",
    "delete": "Hana\x7f",
    "zero-width space": "Iv\u200ban",
}


@pytest.mark.parametrize("name", BAD_NAMES.values(), ids=BAD_NAMES.keys())
def test_a_name_with_control_or_direction_characters_is_refused(evening, name):
    with pytest.raises(services.LedgerError) as refused:
        factories.make_table(evening, "snapser", players=["Xaver", "Yvona", name])
    assert refused.value.field == "players"
    assert "control or text-direction" in refused.value.message
    assert not Table.objects.exists() and not Player.objects.exists()


def test_the_page_says_why_a_name_was_refused(alice_client, evening):
    data = {"game": "snapser", "preset": "seed", "drawn_for": "snapser:seed", "first_dealer": "0"}
    data |= {"opt_stake": "0.10", "opt_payment": "every_loser_every_winner", "opt_false_dost": "by_points"}
    data |= {"player_0": "Ana\u202eCBA", "player_1": "Ben", "player_2": "Cyril"}
    response = alice_client.post(reverse("ledger:table_create", args=[evening.pk]), data)
    assert response.status_code == 200
    assert "control or text-direction" in response.content.decode()
    assert not Table.objects.exists()


def test_the_api_says_why_a_name_was_refused(alice, evening):
    response = token_client(alice).post(
        f"/api/evenings/{evening.pk}/tables/",
        {"game": "snapser", "players": ["Ana", "Ben\u202e", "Cyril"]},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["field"] == "players"
    assert not Table.objects.exists()


def test_names_in_other_scripts_and_with_accents_are_fine(evening):
    table = factories.make_table(evening, "snapser", players=["Šárka", "עמית", "Ľubo  Nový"])
    assert table.seat_names == ["Šárka", "עמית", "Ľubo Nový"]


def test_a_place_with_direction_characters_is_refused(alice):
    with pytest.raises(services.LedgerError) as refused:
        factories.make_evening(alice, place="U Fleků\u202e")
    assert refused.value.field == "place"


# --------------------------------------------------------------------------------------------------------------
# Cache-Control: no-store on private answers


@pytest.fixture
def hand(snapser_table):
    return factories.record(snapser_table)[0]


def _no_store(response) -> bool:
    return "no-store" in response.get("Cache-Control", "")


@pytest.mark.parametrize("htmx", [False, True])
def test_private_pages_are_never_stored(alice_client, snapser_table, hand, htmx):
    evening = snapser_table.evening
    headers = {"HX-Request": "true"} if htmx else {}
    for url in (
        "/",
        reverse("ledger:evening_list"),
        evening.get_absolute_url(),
        snapser_table.get_absolute_url(),
        reverse("ledger:hand_edit", args=[hand.pk]),
        reverse("ledger:evening_settlement", args=[evening.pk]),
    ):
        response = alice_client.get(url, headers=headers)
        assert response.status_code == 200, url
        assert _no_store(response), url


def test_a_post_answer_is_never_stored(alice_client, snapser_table):
    response = alice_client.post(reverse("ledger:hand_create", args=[snapser_table.pk]), factories.SNAPSER_N1)
    assert _no_store(response)


def test_the_pdf_is_never_stored(alice_client, snapser_table, hand):
    response = alice_client.get(reverse("ledger:evening_summary_pdf", args=[snapser_table.evening.pk]))
    assert response["Content-Type"] == "application/pdf"
    assert _no_store(response)


def test_api_answers_are_never_stored(alice, snapser_table, hand):
    evening = snapser_table.evening
    api = token_client(alice)
    for url in ("/api/evenings/", f"/api/evenings/{evening.pk}/", f"/api/tables/{snapser_table.pk}/hands/"):
        assert _no_store(api.get(url)), url
    assert _no_store(api.post(f"/api/tables/{snapser_table.pk}/hands/", {"hand": factories.SNAPSER_N1}, format="json"))
    assert _no_store(anonymous_client().get(f"/api/shared/{evening.share_token}/"))
    assert _no_store(anonymous_client().get("/api/evenings/"))  # the 401 too


def test_the_share_page_still_answers_304_to_a_polling_phone(client, snapser_table, hand):
    url = reverse("ledger:shared_evening", args=[snapser_table.evening.share_token])
    first = client.get(url, headers={"HX-Request": "true"})
    assert not _no_store(first)  # the phone keeps its copy and asks whether it changed
    assert client.get(url, headers={"HX-Request": "true", "If-None-Match": first["ETag"]}).status_code == 304


def test_public_pages_may_be_stored(client, db):
    assert not _no_store(client.get(reverse("ledger:game_rules", args=["skat"])))
