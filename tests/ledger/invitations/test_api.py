"""Invitation links through the API: Alice (token) lists, makes and revokes them; Dora (token, holds the link)
reads and accepts; Charlie (a stranger) reaches nothing; an anonymous client is refused."""

from __future__ import annotations

import datetime

from django.utils import timezone

from ledger import services
from ledger.invitations.models import InviteLink, InviteLinkUse
from ledger.models import Player
from tests.ledger.api_support import anonymous_client, token_client
from tests.ledger.invitations.conftest import make_link

LINKS = "/api/invite-links/"


def test_alice_makes_a_link_and_a_repeated_key_answers_the_same_one(alice, evening, snapser_table):
    api = token_client(alice)
    ben = Player.objects.get(owner=alice, name="Ben")
    body = {"kind": "evening", "target": evening.pk, "player": ben.pk, "days": 30, "key": "from-a-script"}
    made = api.post(LINKS, body, format="json")
    assert made.status_code == 201
    link = InviteLink.objects.get()
    assert made.json()["token"] == link.token and made.json()["url"] == f"http://testserver/i/{link.token}/"
    assert made.json()["kind"] == "evening" and made.json()["player"] == {"id": ben.pk, "name": "Ben"}
    assert made.json()["target"] == {"id": evening.pk, "name": "2026-11-27 U Fleků"}
    assert (link.expires_at - link.created_at) == datetime.timedelta(days=30)
    again = api.post(LINKS, body, format="json")
    assert again.status_code == 200 and again.json()["token"] == link.token
    listed = api.get(LINKS, {"kind": "evening", "target": evening.pk})
    assert [row["token"] for row in listed.json()] == [link.token] and listed.json()[0]["accepted"] == 0


def test_dora_reads_and_accepts_once(alice, dora, evening):
    link = make_link(evening, alice)
    api = token_client(dora)
    read = api.get(f"{LINKS}{link.token}/")
    assert read.status_code == 200
    assert read.json()["kind"] == "evening" and read.json()["invited_by"] == "alice"
    assert read.json()["accepted_at"] is None
    accepted = api.post(f"{LINKS}{link.token}/accept/")
    assert accepted.status_code == 200
    assert accepted.json()["granted"] is True and accepted.json()["landing"] == evening.get_absolute_url()
    assert list(evening.scorekeepers.all()) == [dora]
    again = api.post(f"{LINKS}{link.token}/accept/")
    assert again.json()["granted"] is False and again.json()["accepted_at"] == accepted.json()["accepted_at"]
    assert InviteLinkUse.objects.count() == 1 and evening.scorekeepers.count() == 1
    assert token_client(alice).get(LINKS, {"kind": "evening", "target": evening.pk}).json()[0]["accepted"] == 1


def test_a_revoked_link_answers_410_and_grants_nothing(alice, dora, evening):
    link = make_link(evening, alice)
    revoked = token_client(alice).delete(f"{LINKS}{link.token}/")
    assert revoked.status_code == 200 and revoked.json()["revoked_at"] is not None
    api = token_client(dora)
    assert api.get(f"{LINKS}{link.token}/").status_code == 410
    refused = api.post(f"{LINKS}{link.token}/accept/")
    assert refused.status_code == 410
    assert refused.json() == {"field": "token", "error": "This invitation link was revoked."}
    assert not evening.scorekeepers.exists()


def test_an_expired_link_answers_410(alice, dora, circle):
    link = make_link(circle, alice)
    InviteLink.objects.filter(pk=link.pk).update(expires_at=timezone.now() - datetime.timedelta(minutes=1))
    refused = token_client(dora).post(f"{LINKS}{link.token}/accept/")
    assert refused.status_code == 410 and refused.json()["error"] == "This invitation link has expired."
    assert circle.members.count() == 3


def test_strangers_and_co_scorekeepers_make_and_revoke_nothing(alice, dora, charlie, evening, tournament):
    link = make_link(evening, alice)
    services.evening_add_scorekeeper(evening=evening, user=dora)
    body = {"kind": "evening", "target": evening.pk}
    assert token_client(dora).post(LINKS, body, format="json").status_code == 403
    assert token_client(dora).delete(f"{LINKS}{link.token}/").status_code == 403
    stranger = token_client(charlie)
    assert stranger.post(LINKS, body, format="json").status_code == 404
    assert stranger.get(LINKS, {"kind": "tournament", "target": tournament.pk}).status_code == 404
    assert stranger.delete(f"{LINKS}{link.token}/").status_code == 404
    assert stranger.get(f"{LINKS}{link.token[::-1]}/").status_code == 404
    assert anonymous_client().post(f"{LINKS}{link.token}/accept/").status_code in (401, 403)
    assert InviteLink.objects.count() == 1 and InviteLink.objects.get().revoked_at is None


def test_bad_input_says_which_field(alice, charlie, evening):
    api = token_client(alice)
    elsewhere = Player.objects.create(owner=charlie, name="Zdeněk")
    wrong_player = api.post(LINKS, {"kind": "evening", "target": evening.pk, "player": elsewhere.pk}, format="json")
    assert wrong_player.status_code == 400 and wrong_player.json()["field"] == "player"
    wrong_days = api.post(LINKS, {"kind": "evening", "target": evening.pk, "days": 365}, format="json")
    assert wrong_days.status_code == 400 and wrong_days.json()["field"] == "days"
    no_target = api.get(LINKS, {"kind": "evening"})
    assert no_target.status_code == 400 and no_target.json()["field"] == "target"
    assert not InviteLink.objects.exists()
