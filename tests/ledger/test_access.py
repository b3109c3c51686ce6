"""Who sees what: Alice (scorekeeper) everything, Bob (share link) reads, Charlie (stranger) gets 404."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ledger.models import Hand
from tests import factories


def _pages(table, hand):
    evening = table.evening
    return {
        "evening": reverse("ledger:evening_detail", args=[evening.pk]),
        "table_create": reverse("ledger:table_create", args=[evening.pk]),
        "table": reverse("ledger:table_detail", args=[table.pk]),
        "hand_form": reverse("ledger:hand_form", args=[table.pk]),
        "hand_edit": reverse("ledger:hand_edit", args=[hand.pk]),
    }


def _posts(table, hand):
    evening = table.evening
    return {
        "hand_create": reverse("ledger:hand_create", args=[table.pk]),
        "hand_undo": reverse("ledger:hand_undo", args=[table.pk]),
        "hand_void": reverse("ledger:hand_void", args=[hand.pk]),
        "hand_edit": reverse("ledger:hand_edit", args=[hand.pk]),
        "evening_share": reverse("ledger:evening_share", args=[evening.pk]),
        "evening_scorekeeper_invite": reverse("ledger:evening_scorekeeper_invite", args=[evening.pk]),
        "evening_scorekeeper_remove": reverse("ledger:evening_scorekeeper_remove", args=[evening.pk]),
    }


@pytest.fixture
def hand(snapser_table):
    return factories.record(snapser_table)[0]


# What the scorekeeper must see on each page: the evening's balance, the table's seats, the form's fields.
SEEN = {
    "evening": ["U Fleků", "+0.40"],
    "table_create": ['name="player_0"', "Ana"],
    "table": ['data-player="Ana"', "+0.40", 'id="hand-form"', "a tap records the hand"],
    "hand_form": ['id="field-trump"', 'id="field-announcement"'],
    "hand_edit": ["Correct hand #1", 'name="version" value="1"'],
}


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize("page", sorted(SEEN))
def test_the_scorekeeper_sees_every_page(alice_client, snapser_table, hand, page, htmx):
    headers = {"HX-Request": "true"} if htmx else {}
    response = alice_client.get(_pages(snapser_table, hand)[page], headers=headers)
    assert response.status_code == 200
    html = response.content.decode()
    for text in SEEN[page]:
        assert text in html


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize("page", sorted(SEEN))
def test_a_stranger_gets_404_on_every_page(charlie_client, snapser_table, hand, page, htmx):
    headers = {"HX-Request": "true"} if htmx else {}
    response = charlie_client.get(_pages(snapser_table, hand)[page], headers=headers)
    assert response.status_code == 404
    assert "Ana" not in response.content.decode()


@pytest.mark.parametrize(
    "action",
    [
        "hand_create",
        "hand_undo",
        "hand_void",
        "hand_edit",
        "evening_share",
        "evening_scorekeeper_invite",
        "evening_scorekeeper_remove",
    ],
)
def test_a_stranger_can_change_nothing(charlie_client, snapser_table, hand, action):
    data = factories.SNAPSER_N1 | {"version": "1", "username": "charlie"}
    response = charlie_client.post(_posts(snapser_table, hand)[action], data)
    assert response.status_code == 404
    hand.refresh_from_db()
    assert (hand.status, hand.version, Hand.objects.count()) == ("counted", 1, 1)
    evening = snapser_table.evening
    token = evening.share_token
    evening.refresh_from_db()
    assert (evening.share_token, evening.scorekeepers.count(), evening.invitations.count()) == (token, 0, 0)


@pytest.mark.parametrize("page", ["evening", "table", "hand_edit"])
def test_a_visitor_who_is_not_logged_in_is_sent_to_log_in(bob_client, snapser_table, hand, page):
    url = _pages(snapser_table, hand)[page]
    response = bob_client.get(url)
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={url}"


def test_a_co_scorekeeper_keeps_score_too(alice_client, evening, snapser_table, charlie):
    alice_client.post(reverse("ledger:evening_scorekeeper_invite", args=[evening.pk]), {"username": "charlie"})
    alice_client.force_login(charlie)
    alice_client.post(reverse("ledger:invitation_accept", args=[evening.invitations.get().pk]))
    response = alice_client.post(
        reverse("ledger:hand_create", args=[snapser_table.pk]), factories.SNAPSER_N1 | {"dealer": "0"}
    )
    assert response.status_code == 302
    assert Hand.objects.get().entered_by == charlie


def test_the_share_link_shows_the_scoreboard_to_a_player_without_an_account(bob_client, snapser_table, hand):
    token = snapser_table.evening.share_token
    response = bob_client.get(reverse("ledger:shared_evening", args=[token]))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'data-player="Ana"' in html and "+0.40" in html and "−0.20" in html
    assert 'id="hand-form"' not in html and "a tap records the hand" not in html and "Void" not in html  # read only


def test_a_revoked_share_link_stops_working(alice_client, bob_client, evening, snapser_table):
    old = evening.share_token
    alice_client.post(reverse("ledger:evening_share", args=[evening.pk]), {"action": "revoke"})
    alice_client.logout()
    assert bob_client.get(reverse("ledger:shared_evening", args=[old])).status_code == 404


def test_a_new_share_link_replaces_the_old_one(alice_client, evening):
    old = evening.share_token
    alice_client.post(reverse("ledger:evening_share", args=[evening.pk]), {"action": "reset"})
    evening.refresh_from_db()
    assert evening.share_token and evening.share_token != old
    assert len(evening.share_token) >= 24
    alice_client.logout()
    assert alice_client.get(reverse("ledger:shared_evening", args=[old])).status_code == 404
    assert alice_client.get(reverse("ledger:shared_evening", args=[evening.share_token])).status_code == 200


def test_the_share_link_answers_304_until_something_changes(bob_client, snapser_table, hand):
    url = reverse("ledger:shared_evening", args=[snapser_table.evening.share_token])
    first = bob_client.get(url, headers={"HX-Request": "true"})
    etag = first["ETag"]
    assert bob_client.get(url, headers={"HX-Request": "true", "If-None-Match": etag}).status_code == 304
    factories.record(snapser_table)
    changed = bob_client.get(url, headers={"HX-Request": "true", "If-None-Match": etag})
    assert changed.status_code == 200
    assert "+0.80" in changed.content.decode()


def test_the_share_page_and_its_partial_never_share_a_cached_copy(bob_client, snapser_table, hand):
    url = reverse("ledger:shared_evening", args=[snapser_table.evening.share_token])
    page = bob_client.get(url)
    partial = bob_client.get(url, headers={"HX-Request": "true"})
    assert page["ETag"] != partial["ETag"]
    assert "HX-Request" in page["Vary"] and "HX-Request" in partial["Vary"]
    assert page.content.decode().startswith("<!doctype html>")
    assert partial.content.decode().startswith('<div id="shared-live"')
    # A poll carrying the full page's ETag gets the fragment, not a 304 that would reuse the page.
    assert bob_client.get(url, headers={"HX-Request": "true", "If-None-Match": page["ETag"]}).status_code == 200
