"""Joining a table from a phone (ledger/seats/views.py): the code typed or scanned, the names to tap, the seat
taken; the scorekeeper's door on the table page and the list of seats with Allow, Refuse and Release.

Personas: Alice keeps score; Ben's phone (no account) and Bob (an account that claimed Ben) join; Charlie is a
stranger to the table.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from ledger.devices.phone import COOKIE
from ledger.models import Player
from ledger.people import services as people
from ledger.seats.models import SeatClaim
from tests import factories
from tests.ledger.seats.support import claim, code, new_device, phone_client

HTMX = {"HX-Request": "true"}


def test_the_table_page_shows_the_code_and_its_qr_code(alice_client, snapser_table):
    html = alice_client.get(snapser_table.get_absolute_url()).content.decode()
    shown = code(snapser_table)
    assert "Players join from their own phone" in html
    assert f"{shown[:3]} {shown[3:]}" in html
    assert "<svg" in html and f"/j/{shown}/" in html
    assert reverse("seats:table_seats", args=[snapser_table.pk]) in html
    assert reverse("seats:table_stream", args=[snapser_table.pk]) in html


def test_a_typed_code_leads_to_the_table_in_any_case_and_spacing(client, snapser_table):
    typed = code(snapser_table).lower()
    response = client.get(reverse("seats:join_code"), {"code": f"{typed[:3]} - {typed[3:]}"})
    assert response.status_code == 302 and response.url == reverse("seats:join", args=[code(snapser_table)])


def test_a_wrong_code_is_refused_beside_its_field(client, snapser_table):
    response = client.get(reverse("seats:join_code"), {"code": "0OIL1"})
    assert response.status_code == 400
    assert "No table has the code 0OIL1" in response.content.decode()
    assert client.get(reverse("seats:join", args=["ZZZZZZ"])).status_code in (404,)


def test_the_join_page_offers_every_seat_by_name(client, snapser_table):
    html = client.get(reverse("seats:join", args=[code(snapser_table)])).content.decode()
    buttons = re.findall(r'<button type="submit" name="position" value="(\d)"[^>]*>([^<(]+)', html)
    assert [(value, name.strip()) for value, name in buttons] == [("0", "Ana"), ("1", "Ben"), ("2", "Cyril")]


def test_tapping_a_name_seats_the_phone_and_remembers_it(client, snapser_table):
    response = client.post(reverse("seats:join", args=[code(snapser_table)]), {"position": "1"})
    assert response.status_code == 302 and response.url == reverse("seats:seat_page", args=[snapser_table.pk])
    assert response.cookies[COOKIE]["httponly"]
    held = SeatClaim.objects.get()
    assert (held.position, held.status, held.user) == (1, "held", None)
    # The same tap again (a retry) finds the seat it holds.
    client.post(reverse("seats:join", args=[code(snapser_table)]), {"position": "1"})
    assert SeatClaim.objects.count() == 1


def test_a_seat_another_phone_holds_makes_the_phone_wait(snapser_table):
    claim(snapser_table, 1, new_device())
    ben, _device = phone_client()
    ben.post(reverse("seats:join", args=[code(snapser_table)]), {"position": "1"})
    html = ben.get(reverse("seats:seat_page", args=[snapser_table.pk])).content.decode()
    assert "Another phone holds Ben's seat" in html and 'data-claim-status="pending"' in html


def test_an_account_that_is_one_of_the_players_is_offered_its_own_seat_first(client, snapser_table, alice):
    bob = factories.make_user("bob")
    people.player_claim_grant(
        user=bob, player=Player.objects.get(owner=alice, name="Ben"), granted_by=alice, how="seat"
    )
    client.force_login(bob)
    html = client.get(reverse("seats:join", args=[code(snapser_table)])).content.decode()
    assert "You are Ben: take your seat" in html
    client.post(reverse("seats:join", args=[code(snapser_table)]), {"position": "1"})
    assert SeatClaim.objects.get().acting == bob


def test_a_closed_evening_seats_nobody(client, snapser_table, alice):
    from ledger import services

    factories.record(snapser_table)
    services.evening_close(evening=snapser_table.evening, by=alice)
    url = reverse("seats:join", args=[code(snapser_table)])
    assert "This evening is closed" in client.get(url).content.decode()
    assert client.post(url, {"position": "1"}).status_code == 400
    assert not SeatClaim.objects.exists()


# --------------------------------------------------------------------------------------------------------------
# The scorekeeper's list


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_the_scorekeeper_sees_who_holds_which_seat_and_who_waits(alice_client, snapser_table, htmx):
    bob = factories.make_user("bob")
    claim(snapser_table, 0, new_device(), user=bob)
    claim(snapser_table, 1, new_device())
    waiting = claim(snapser_table, 1, new_device())
    response = alice_client.get(reverse("seats:table_seats", args=[snapser_table.pk]), headers=HTMX if htmx else {})
    html = response.content.decode()
    assert response.status_code == 200 and ("<html" in html) != htmx
    assert "held by bob's phone" in html
    assert "held by a phone without an account" in html
    assert reverse("seats:seat_decide", args=[snapser_table.pk, waiting.pk, "allow"]) in html
    assert re.search(r"<strong>Cyril</strong>:\s*<span class=\"muted\">free</span>", html)


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_allow_lets_the_waiting_phone_sit_and_a_double_tap_changes_nothing(alice_client, snapser_table, htmx):
    first = claim(snapser_table, 1, new_device())
    waiting = claim(snapser_table, 1, new_device())
    url = reverse("seats:seat_decide", args=[snapser_table.pk, waiting.pk, "allow"])
    headers = HTMX if htmx else {}
    answers = [alice_client.post(url, headers=headers) for _ in range(2)]
    assert [a.status_code for a in answers] == ([200, 200] if htmx else [302, 302])
    if htmx:
        assert "Ben&#x27;s seat is held by the phone you allowed." in answers[1].content.decode()
    first.refresh_from_db()
    waiting.refresh_from_db()
    assert (first.status, waiting.status) == ("released", "held")


def test_refuse_and_release_from_the_list(alice_client, snapser_table):
    held = claim(snapser_table, 1, new_device())
    waiting = claim(snapser_table, 1, new_device())
    refused = alice_client.post(
        reverse("seats:seat_decide", args=[snapser_table.pk, waiting.pk, "refuse"]), headers=HTMX
    )
    assert "The phone asking for Ben&#x27;s seat was refused." in refused.content.decode()
    released = alice_client.post(
        reverse("seats:seat_decide", args=[snapser_table.pk, held.pk, "release"]), headers=HTMX
    )
    assert "Ben&#x27;s seat is free again." in released.content.decode()
    assert set(SeatClaim.objects.values_list("status", flat=True)) == {"refused", "released"}


def test_a_stranger_gets_404_for_the_list_and_its_buttons(charlie_client, snapser_table):
    held = claim(snapser_table, 1, new_device())
    assert charlie_client.get(reverse("seats:table_seats", args=[snapser_table.pk])).status_code == 404
    url = reverse("seats:seat_decide", args=[snapser_table.pk, held.pk, "release"])
    assert charlie_client.post(url).status_code == 404
    held.refresh_from_db()
    assert held.status == "held"


def test_a_claim_of_another_table_is_not_found_through_this_one(alice_client, snapser_table, evening):
    other = factories.make_table(evening, "skat")
    held = claim(other, 1, new_device())
    url = reverse("seats:seat_decide", args=[snapser_table.pk, held.pk, "release"])
    assert alice_client.post(url).status_code == 404
    assert alice_client.post(reverse("seats:seat_decide", args=[other.pk, held.pk, "sit"])).status_code == 404


def test_too_many_wrong_codes_from_one_address_stop_the_look_ups(client, snapser_table, settings):
    settings.SEAT_CODE_GUESSES = 2
    for wrong in ("ZZZZZ2", "ZZZZZ3"):
        assert client.get(reverse("seats:join_code"), {"code": wrong}).status_code == 400
    right = client.get(reverse("seats:join_code"), {"code": code(snapser_table)})
    assert right.status_code == 429 and "Too many wrong codes" in right.content.decode()
    assert client.get(reverse("seats:join", args=[code(snapser_table)])).status_code == 404
    # Another address (another venue) is not held up.
    other = client.get(reverse("seats:join_code"), {"code": code(snapser_table)}, REMOTE_ADDR="10.0.0.9")
    assert other.status_code == 302
