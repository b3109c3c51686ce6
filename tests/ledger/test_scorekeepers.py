"""Co-scorekeepers join by accepting an invitation; the owner removes them; they remove nobody else.

Alice owns the evening, Charlie is asked to keep score with her, Dave is another user.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from ledger import services
from ledger.models import Hand, Invitation
from tests import factories
from tests.ledger.api_support import token_client


@pytest.fixture
def dave(db):
    return factories.make_user("dave")


def _invite(client, evening, username):
    return client.post(reverse("ledger:evening_scorekeeper_invite", args=[evening.pk]), {"username": username})


def _remove(client, evening, username):
    return client.post(reverse("ledger:evening_scorekeeper_remove", args=[evening.pk]), {"username": username})


def _keepers(evening):
    return sorted(evening.scorekeepers.values_list("username", flat=True))


def _keeper(evening, user):
    invitation = services.evening_scorekeeper_invite(evening=evening, username=user.username, by=evening.owner)
    services.invitation_accept(invitation=invitation, user=user)


# --------------------------------------------------------------------------------------------------------------
# Inviting and accepting


def test_adding_a_user_only_invites_them(alice_client, evening, snapser_table, charlie):
    response = _invite(alice_client, evening, "charlie")
    assert response.status_code == 302
    assert _keepers(evening) == []
    html = alice_client.get(evening.get_absolute_url()).content.decode()
    assert "charlie" in html and "Waiting for them to accept" in html
    alice_client.force_login(charlie)
    assert alice_client.get(evening.get_absolute_url()).status_code == 404
    hand = alice_client.post(reverse("ledger:hand_create", args=[snapser_table.pk]), factories.SNAPSER_N1)
    assert hand.status_code == 404 and not Hand.objects.exists()


def test_the_invited_user_accepts_and_keeps_score(client, evening, snapser_table, charlie):
    services.evening_scorekeeper_invite(evening=evening, username="charlie", by=evening.owner)
    client.force_login(charlie)
    home = client.get("/").content.decode()
    assert "alice asks you to keep score" in home and "U Fleků" in home
    invitation = Invitation.objects.get()
    response = client.post(reverse("ledger:invitation_accept", args=[invitation.pk]))
    assert response.status_code == 302 and response["Location"] == evening.get_absolute_url()
    assert _keepers(evening) == ["charlie"] and not Invitation.objects.exists()
    hand = client.post(reverse("ledger:hand_create", args=[snapser_table.pk]), factories.SNAPSER_N1 | {"dealer": "0"})
    assert hand.status_code == 302
    assert Hand.objects.get().entered_by == charlie


def test_the_invited_user_may_decline(client, evening, charlie):
    invitation = services.evening_scorekeeper_invite(evening=evening, username="charlie", by=evening.owner)
    client.force_login(charlie)
    client.post(reverse("ledger:invitation_decline", args=[invitation.pk]))
    assert _keepers(evening) == [] and not Invitation.objects.exists()
    assert client.get(evening.get_absolute_url()).status_code == 404


def test_nobody_else_can_accept_or_decline_an_invitation(client, evening, charlie, dave):
    invitation = services.evening_scorekeeper_invite(evening=evening, username="charlie", by=evening.owner)
    client.force_login(dave)
    assert client.post(reverse("ledger:invitation_accept", args=[invitation.pk])).status_code == 404
    assert client.post(reverse("ledger:invitation_decline", args=[invitation.pk])).status_code == 404
    assert _keepers(evening) == [] and Invitation.objects.filter(pk=invitation.pk).exists()
    assert "asks you to keep score" not in client.get("/").content.decode()


def test_the_invitation_form_does_not_tell_which_user_names_exist(alice_client, evening, charlie):
    pages = []
    for name in ("charlie", "nobody-of-that-name"):
        _invite(alice_client, evening, name)
        html = alice_client.get(evening.get_absolute_url()).content.decode()
        assert f"{name} can keep score once they accept the invitation." in html
        assert "No user" not in html
        pages.append(html.count("Waiting for them to accept"))
    assert pages == [1, 2]


def test_only_the_owner_invites(client, evening, charlie, dave):
    _keeper(evening, charlie)
    client.force_login(charlie)
    assert _invite(client, evening, "dave").status_code == 404
    assert not Invitation.objects.exists()


# --------------------------------------------------------------------------------------------------------------
# Removing


def test_the_owner_removes_a_co_scorekeeper(alice_client, evening, snapser_table, charlie):
    _keeper(evening, charlie)
    response = _remove(alice_client, evening, "charlie")
    assert response.status_code == 302
    assert _keepers(evening) == []
    alice_client.force_login(charlie)
    assert alice_client.get(evening.get_absolute_url()).status_code == 404
    assert alice_client.get(snapser_table.get_absolute_url()).status_code == 404


def test_the_owner_withdraws_an_invitation(alice_client, evening, charlie):
    invitation = services.evening_scorekeeper_invite(evening=evening, username="charlie", by=evening.owner)
    _remove(alice_client, evening, "charlie")
    assert not Invitation.objects.exists()
    alice_client.force_login(charlie)
    assert alice_client.post(reverse("ledger:invitation_accept", args=[invitation.pk])).status_code == 404
    assert _keepers(evening) == []


def test_a_co_scorekeeper_cannot_remove_the_owner_or_another_keeper(client, evening, alice, charlie, dave):
    _keeper(evening, charlie)
    _keeper(evening, dave)
    client.force_login(charlie)
    for username in ("dave", "alice"):
        response = _remove(client, evening, username)
        assert response.status_code == 403
    assert _keepers(evening) == ["charlie", "dave"]
    assert client.get(evening.get_absolute_url()).status_code == 200
    html = client.get(evening.get_absolute_url()).content.decode()
    assert "Remove" not in html


def test_a_co_scorekeeper_may_leave(client, evening, charlie):
    _keeper(evening, charlie)
    client.force_login(charlie)
    response = _remove(client, evening, "charlie")
    assert response.status_code == 302 and response["Location"] == reverse("ledger:evening_list")
    assert _keepers(evening) == []


def test_a_stranger_removes_nobody(charlie_client, evening, dave):
    _keeper(evening, dave)
    assert _remove(charlie_client, evening, "dave").status_code == 404
    assert _keepers(evening) == ["dave"]


# --------------------------------------------------------------------------------------------------------------
# The API follows: only accepted co-scorekeepers


def test_the_api_lets_in_only_accepted_co_scorekeepers(evening, snapser_table, charlie):
    api = token_client(charlie)
    url = f"/api/tables/{snapser_table.pk}/hands/"
    invitation = services.evening_scorekeeper_invite(evening=evening, username="charlie", by=evening.owner)
    assert api.post(url, {"hand": factories.SNAPSER_N1}, format="json").status_code == 404
    services.invitation_accept(invitation=invitation, user=charlie)
    assert api.post(url, {"hand": factories.SNAPSER_N1}, format="json").status_code == 201
    assert [e["id"] for e in api.get("/api/evenings/").json()] == [evening.pk]
    services.evening_scorekeeper_remove(evening=evening, username="charlie", by=evening.owner)
    assert api.get(f"/api/evenings/{evening.pk}/").status_code == 404
    assert api.get("/api/evenings/").json() == []
