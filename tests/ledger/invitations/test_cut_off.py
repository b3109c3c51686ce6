"""Whoever accepted a circle link and was cut off from its player since (the claim dropped, the link revoked or
expired, the member link renewed) no longer reaches that player's personal page through the link: not on the
link's page, not in the API's answer. Dora accepts a link naming Ana, Alice cuts her off."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from ledger.circles import services as circles
from ledger.circles.models import CircleMember
from ledger.invitations import services as invitations
from ledger.models import Player
from ledger.people import services as people
from ledger.people.models import PlayerClaim
from tests.ledger.api_support import token_client
from tests.ledger.invitations.conftest import accept_path, link_path, make_link


def _member_page(circle, name: str) -> str:
    return reverse("ledger:circle_member_page", args=[CircleMember.objects.get(circle=circle, player__name=name).token])


def _renew_member_link(circle, name: str) -> str:
    circles.member_link_create(membership=CircleMember.objects.get(circle=circle, player__name=name))
    return _member_page(circle, name)


def _answers(dora, dora_browser, link) -> tuple[str, str]:
    """What Dora's browser shows on the link's page, and the landing the API's accept answers her."""
    page = dora_browser.get(link_path(link))
    assert page.status_code == 200 and "You accepted this invitation on" in page.content.decode()
    accepted = token_client(dora).post(f"/api/invite-links/{link.token}/accept/")
    assert accepted.status_code == 200 and accepted.json()["granted"] is False
    return page.content.decode(), accepted.json()["landing"]


@pytest.mark.parametrize("cut_off", ["claim dropped", "link revoked"])
def test_who_was_cut_off_from_the_player_no_longer_gets_its_member_page(alice, dora, dora_browser, circle, cut_off):
    ana = Player.objects.get(owner=alice, name="Ana")
    link = make_link(circle, alice, player=ana)
    accepted = dora_browser.post(accept_path(link))
    assert accepted["Location"] == _member_page(circle, "Ana")
    claim = PlayerClaim.objects.get(user=dora, player=ana, status="approved")

    if cut_off == "claim dropped":
        people.player_claim_drop(claim=claim, by=alice)  # "that is not Ana"
    else:
        invitations.invite_link_revoke(link=link, by=alice)
    renewed = _renew_member_link(circle, "Ana")

    html, landing = _answers(dora, dora_browser, link)
    assert renewed not in html and "/m/" not in html and ">Open it</a>" not in html
    assert landing == link_path(link)
    again = dora_browser.post(accept_path(link))
    assert again.status_code == 302 and again["Location"] == link_path(link)


def test_who_still_holds_the_player_finds_the_renewed_member_page(alice, dora, dora_browser, circle):
    ana = Player.objects.get(owner=alice, name="Ana")
    link = make_link(circle, alice, player=ana)
    dora_browser.post(accept_path(link))
    renewed = _renew_member_link(circle, "Ana")
    html, landing = _answers(dora, dora_browser, link)
    assert f'href="{renewed}"' in html and landing == renewed


def test_an_expired_link_for_anybody_leads_no_more_to_the_member_page(alice, dora, dora_browser, circle):
    link = make_link(circle, alice)
    accepted = dora_browser.post(accept_path(link))
    assert accepted["Location"] == _member_page(circle, "dora")
    link.expires_at = timezone.now() - datetime.timedelta(seconds=1)
    link.save(update_fields=["expires_at"])

    page = dora_browser.get(link_path(link))
    assert page.status_code == 200 and "/m/" not in page.content.decode()
    landing = token_client(dora).post(f"/api/invite-links/{link.token}/accept/").json()["landing"]
    assert landing == link_path(link)


def test_a_player_made_for_anybody_given_to_somebody_else_is_no_longer_theirs(alice, charlie, dora, circle):
    link = make_link(circle, alice)
    api = token_client(dora)
    assert api.post(f"/api/invite-links/{link.token}/accept/").json()["landing"] == _member_page(circle, "dora")
    made = Player.objects.get(owner=alice, name="dora")
    PlayerClaim.objects.create(user=charlie, player=made, status="approved", how="invitation")
    assert api.post(f"/api/invite-links/{link.token}/accept/").json()["landing"] == link_path(link)
