"""Who may make and revoke links, and that a double tap makes one link and revokes once."""

from __future__ import annotations

import re

import pytest
from django.contrib.contenttypes.models import ContentType

from ledger import services
from ledger.circles import services as circles
from ledger.invitations import services as invitations
from ledger.invitations.models import InviteLink
from ledger.models import Player
from tests.ledger.invitations.conftest import make_link, make_path, revoke_path


def test_a_double_tap_makes_one_link(alice_browser, evening):
    for _tap in range(2):
        alice_browser.post(make_path("evening", evening.pk), {"key": "same-page", "days": "7"})
    link = InviteLink.objects.get()
    assert (link.expires_at - link.created_at).days == 7
    alice_browser.post(make_path("evening", evening.pk), {"key": "next-page", "days": "30"})
    assert InviteLink.objects.count() == 2


def test_a_key_naming_another_pages_link_is_refused(alice, alice_browser, evening, circle):
    alice_browser.post(make_path("evening", evening.pk), {"key": "k", "days": "7"})
    response = alice_browser.post(make_path("circle", circle.pk), {"key": "k", "days": "7"}, follow=True)
    assert "This request named another invitation link." in response.content.decode()
    assert InviteLink.objects.count() == 1


def test_a_double_tap_on_revoke_keeps_the_first_moment(alice, alice_browser, evening):
    link = make_link(evening, alice)
    alice_browser.post(revoke_path(link))
    first = InviteLink.objects.get().revoked_at
    assert first is not None
    assert alice_browser.post(revoke_path(link)).status_code == 302
    assert InviteLink.objects.get().revoked_at == first


def test_only_the_evenings_owner_invites(alice, dora, dora_browser, charlie_browser, evening):
    services.evening_add_scorekeeper(evening=evening, user=dora)
    assert dora_browser.post(make_path("evening", evening.pk), {"days": "7"}).status_code == 403
    assert charlie_browser.post(make_path("evening", evening.pk), {"days": "7"}).status_code == 404
    link = make_link(evening, alice)
    assert dora_browser.post(revoke_path(link)).status_code == 403
    assert charlie_browser.post(revoke_path(link)).status_code == 404
    assert InviteLink.objects.get().revoked_at is None


def test_a_circles_scorekeepers_invite_members_strangers_do_not(alice, dora, dora_browser, charlie_browser, circle):
    services.evening_add_scorekeeper(evening=services.evening_create(owner=alice, date=circle.created_at), user=dora)
    circles.circle_scorekeeper_add(circle=circle, user=dora, by=alice)
    assert dora_browser.post(make_path("circle", circle.pk), {"days": "1"}).status_code == 302
    link = InviteLink.objects.get()
    assert (link.circle, link.created_by) == (circle, dora)
    assert charlie_browser.post(make_path("circle", circle.pk), {"days": "1"}).status_code == 404
    assert charlie_browser.post(revoke_path(link)).status_code == 404
    assert InviteLink.objects.count() == 1 and link.revoked_at is None


def test_only_the_organiser_invites_to_a_tournament(alice, charlie_browser, tournament):
    assert charlie_browser.post(make_path("tournament", tournament.pk), {"days": "7"}).status_code == 404
    link = make_link(tournament, alice)
    assert charlie_browser.post(revoke_path(link)).status_code == 404
    assert not InviteLink.objects.exclude(pk=link.pk).exists()


@pytest.mark.parametrize("kind", ["table", "players", "evening2"])
def test_an_unknown_kind_is_not_found(alice_browser, evening, kind):
    assert alice_browser.post(make_path(kind, evening.pk), {"days": "7"}).status_code == 404


def test_an_anonymous_visitor_makes_nothing(anonymous, evening):
    response = anonymous.post(make_path("evening", evening.pk), {"days": "7"})
    assert response.status_code == 302 and "/login/" in response["Location"]
    assert not InviteLink.objects.exists()


def test_a_link_names_only_a_player_of_the_page(alice, charlie, alice_browser, evening, snapser_table):
    elsewhere = Player.objects.create(owner=charlie, name="Zdeněk")
    response = alice_browser.post(make_path("evening", evening.pk), {"days": "7", "player": str(elsewhere.pk)})
    assert response.status_code == 302 and not InviteLink.objects.exists()
    unseated = Player.objects.create(owner=alice, name="Quido")  # Alice's, but not at this evening's tables
    alice_browser.post(make_path("evening", evening.pk), {"days": "7", "player": str(unseated.pk)})
    assert not InviteLink.objects.exists()


def test_a_lifetime_not_offered_is_refused(alice_browser, evening):
    response = alice_browser.post(make_path("evening", evening.pk), {"days": "365"}, follow=True)
    assert "Choose how long the link works." in response.content.decode()
    assert not InviteLink.objects.exists()


def test_the_admin_shows_links_without_their_tokens(client, alice, evening, django_user_model):
    link = make_link(evening, alice)
    admin = django_user_model.objects.create_superuser("root", "root@example.com", "x")
    client.force_login(admin)
    page = client.get(f"/admin/talon_invitations/invitelink/{link.pk}/change/")
    assert page.status_code == 200 and "U Fleků" in page.content.decode() and link.token not in page.content.decode()
    assert client.post(f"/admin/talon_invitations/invitelink/{link.pk}/delete/", {"post": "yes"}).status_code == 403


def test_the_admin_offers_no_way_to_the_links_own_page(client, alice, evening, django_user_model):
    link = make_link(evening, alice)
    client.force_login(django_user_model.objects.create_superuser("root", "root@example.com", "x"))
    pages = [
        client.get("/admin/talon_invitations/invitelink/"),
        client.get(f"/admin/talon_invitations/invitelink/{link.pk}/change/"),
        client.get(f"/admin/talon_invitations/invitelink/{link.pk}/history/"),
    ]
    for page in pages:
        html = page.content.decode()
        assert page.status_code == 200 and link.token not in html and "/admin/r/" not in html
    assert "View on site" not in pages[1].content.decode()
    kind = ContentType.objects.get_for_model(InviteLink)
    assert client.get(f"/admin/r/{kind.pk}/{link.pk}/").status_code == 404  # no way round to the link's page


def test_at_most_twenty_links_work_at_once_on_a_page(alice, alice_browser, evening):
    for _link in range(20):
        make_link(evening, alice)
    response = alice_browser.post(make_path("evening", evening.pk), {"key": "one-more", "days": "7"}, follow=True)
    html = response.content.decode()
    assert "At most 20 invitation links work at once here: revoke one to make another." in html
    section = re.search(r'<section class="card" id="invite-links">.*?</section>', html, re.S).group(0)
    assert InviteLink.objects.count() == 20 and section.count("<svg") == 20

    invitations.invite_link_revoke(link=InviteLink.objects.first(), by=alice)
    alice_browser.post(make_path("evening", evening.pk), {"key": "one-more", "days": "7"})
    assert InviteLink.objects.live().count() == 20 and InviteLink.objects.count() == 21


def test_a_double_tap_at_the_limit_finds_the_link_it_made(alice, alice_browser, evening):
    for _link in range(19):
        make_link(evening, alice)
    for _tap in range(2):
        response = alice_browser.post(make_path("evening", evening.pk), {"key": "last", "days": "7"}, follow=True)
        assert "Invitation link made" in response.content.decode()
    assert InviteLink.objects.count() == 20
