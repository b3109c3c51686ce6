"""Claiming from where a player is reached, and the scorekeeper's answer, as the three personas."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ledger import services
from ledger.circles import services as circles
from ledger.people import services as people
from ledger.people.models import PlayerClaim
from tests import factories


@pytest.fixture
def bob_client(client, bob):
    client.force_login(bob)
    return client


def _share_claim(evening):
    return reverse("people:claim_from_share", args=[evening.share_token])


def test_the_share_page_offers_this_is_me_to_every_reader(client, evening, ben):
    page = client.get(reverse("ledger:shared_evening", args=[evening.share_token])).content.decode()

    assert _share_claim(evening) in page


def test_anonymous_with_the_share_link_is_sent_to_log_in_and_back(client, evening, ben):
    response = client.get(_share_claim(evening))

    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={_share_claim(evening)}"


def test_bob_claims_ben_from_the_share_link_and_alice_approves(bob_client, client, alice, evening, ben):
    page = bob_client.get(_share_claim(evening)).content.decode()
    assert "I am Ben" in page and "I am Ana" in page

    response = bob_client.post(_share_claim(evening), {"player": ben.pk}, follow=True)

    assert "Asked: alice, who keeps score of Ben, will answer." in response.content.decode()
    claim = PlayerClaim.objects.get()
    assert (claim.user.username, claim.player, claim.status, claim.how) == ("bob", ben, "requested", "share_link")

    client.force_login(alice)
    home = client.get(reverse("home")).content.decode()
    assert "1 player claim waits for your answer" in home
    waiting = client.get(reverse("people:claims")).content.decode()
    assert "bob says they are Ben" in waiting
    client.post(reverse("people:claim_decide", args=[claim.pk]), {"approve": "1"})

    assert PlayerClaim.objects.get().status == "approved"
    assert "claim waits" not in client.get(reverse("home")).content.decode()


def test_a_player_not_at_the_evening_cannot_be_claimed_through_its_link(bob_client, alice, evening, ben):
    stranger = services.player_get_or_create(owner=alice, name="Zoe")

    response = bob_client.post(_share_claim(evening), {"player": stranger.pk})

    assert response.status_code == 404
    assert not PlayerClaim.objects.exists()


def test_a_dead_share_link_claims_nothing(bob_client, ben):
    assert bob_client.get(reverse("people:claim_from_share", args=["nope"])).status_code == 404


def test_a_player_linked_to_another_account_is_shown_taken(bob_client, alice, charlie, evening, ben):
    people.player_claim_grant(user=charlie, player=ben, granted_by=alice, how="invitation")

    page = bob_client.get(_share_claim(evening)).content.decode()
    response = bob_client.post(_share_claim(evening), {"player": ben.pk}, follow=True)

    assert "Already linked to another account." in page
    assert "Ben is already claimed by another account" in response.content.decode()
    assert PlayerClaim.objects.filter(user__username="bob").count() == 0


def test_claiming_from_a_circle_member_link(client, bob_client, alice, ben):
    circle = circles.circle_create(owner=alice, name="Friday", members=["Ben"])
    membership = circles.member_link_create(membership=circle.memberships.get())
    member_page = client.get(reverse("ledger:circle_member_page", args=[membership.token])).content.decode()
    url = reverse("people:claim_from_member", args=[membership.token])
    assert url in member_page

    response = bob_client.post(url, {"player": ben.pk})

    assert response.status_code == 302
    assert PlayerClaim.objects.get().how == "circle_link"
    assert bob_client.get(url)["Referrer-Policy"] == "same-origin"


def test_a_revoked_member_link_claims_nothing(bob_client, alice, ben):
    circle = circles.circle_create(owner=alice, name="Friday", members=["Ben"])
    membership = circles.member_link_create(membership=circle.memberships.get())
    token = membership.token
    circles.member_link_revoke(membership=membership)

    assert bob_client.post(reverse("people:claim_from_member", args=[token]), {"player": ben.pk}).status_code == 404


def test_a_co_scorekeeper_claims_their_seat_from_the_table(client, alice, bob, snapser_table, ben):
    snapser_table.evening.scorekeepers.add(bob)
    client.force_login(bob)
    url = reverse("people:claim_from_table", args=[snapser_table.pk])
    assert url in client.get(snapser_table.get_absolute_url()).content.decode()

    client.post(url, {"player": ben.pk})

    assert PlayerClaim.objects.get().how == "seat"


def test_a_stranger_cannot_reach_a_tables_seats(charlie_client, snapser_table, ben):
    url = reverse("people:claim_from_table", args=[snapser_table.pk])

    assert charlie_client.get(url).status_code == 404
    assert charlie_client.post(url, {"player": ben.pk}).status_code == 404


def test_a_stranger_cannot_decide_or_drop_a_claim(charlie_client, alice, bob, ben):
    claim = people.player_claim_request(user=bob, player=ben, how="seat")

    assert charlie_client.get(reverse("people:claims")).content.decode().count("says they are") == 0
    assert charlie_client.post(reverse("people:claim_decide", args=[claim.pk]), {"approve": "1"}).status_code == 404
    assert charlie_client.post(reverse("people:claim_drop", args=[claim.pk])).status_code == 404
    assert PlayerClaim.objects.get().status == "requested"


def test_the_claiming_user_cannot_approve_through_the_page(bob_client, bob, ben):
    claim = people.player_claim_request(user=bob, player=ben, how="seat")

    assert bob_client.post(reverse("people:claim_decide", args=[claim.pk]), {"approve": "1"}).status_code == 404
    assert PlayerClaim.objects.get().status == "requested"


def test_alice_declines_and_bob_sees_it(client, alice, bob, ben):
    claim = people.player_claim_request(user=bob, player=ben, how="seat")
    client.force_login(alice)
    client.post(reverse("people:claim_decide", args=[claim.pk]), {"approve": "0"})

    client.force_login(bob)
    page = client.get(reverse("people:me")).content.decode()

    assert 'data-claim="declined"' in page


def test_bob_unlinks_himself_and_ben_plays_on_as_a_plain_name(bob_client, alice, bob, snapser_table, ben):
    claim = people.player_claim_grant(user=bob, player=ben, granted_by=alice, how="invitation")

    bob_client.post(reverse("people:claim_drop", args=[claim.pk]))
    factories.record(snapser_table)

    assert not PlayerClaim.objects.exists()
    assert "No players linked" in bob_client.get(reverse("people:me")).content.decode()
    assert snapser_table.hands.count() == 1


def test_the_admin_shows_claims_and_changes_none(admin_client, alice, bob, ben):
    claim = people.player_claim_request(user=bob, player=ben, how="seat")

    listing = admin_client.get(reverse("admin:talon_people_playerclaim_changelist")).content.decode()
    change = admin_client.post(
        reverse("admin:talon_people_playerclaim_change", args=[claim.pk]), {"status": "approved"}
    )

    assert "Ben" in listing and "bob" in listing
    assert change.status_code == 403
    assert PlayerClaim.objects.get().status == "requested"


def test_an_htmx_answer_swaps_the_claims_row(client, alice, bob, charlie, ben):
    bobs = people.player_claim_request(user=bob, player=ben, how="seat")
    charlies = people.player_claim_request(user=charlie, player=ben, how="seat")
    client.force_login(alice)
    url = reverse("people:claim_decide", args=[bobs.pk])

    approved = client.post(url, {"approve": "1"}, headers={"HX-Request": "true"}).content.decode()
    refused = client.post(
        reverse("people:claim_decide", args=[charlies.pk]), {"approve": "1"}, headers={"HX-Request": "true"}
    ).content.decode()

    assert approved.startswith(f'<li id="claim-{bobs.pk}"')
    assert "bob is now Ben." in approved and "<html" not in approved
    assert "Ben is already claimed by another account" in refused
    assert PlayerClaim.objects.get(pk=charlies.pk).status == "requested"


def _co_scorekeeper(snapser_table, name):
    """Somebody the evening's "anybody" link made its co-scorekeeper."""
    user = factories.make_user(name)
    snapser_table.evening.scorekeepers.add(user)
    return user


def test_a_co_scorekeeper_cannot_approve_their_own_claim(client, snapser_table, ben):
    dana = _co_scorekeeper(snapser_table, "dana")
    client.force_login(dana)
    client.post(reverse("people:claim_from_table", args=[snapser_table.pk]), {"player": ben.pk})
    claim = PlayerClaim.objects.get()

    waiting = client.get(reverse("people:claims")).content.decode()
    response = client.post(reverse("people:claim_decide", args=[claim.pk]), {"approve": "1"})

    assert "says they are" not in waiting
    assert response.status_code == 404
    assert PlayerClaim.objects.get().status == "requested"
    assert not PlayerClaim.objects.approved().exists()


def test_a_co_scorekeeper_cannot_decide_someone_elses_claim(client, bob, snapser_table, ben):
    dana = _co_scorekeeper(snapser_table, "dana")
    claim = people.player_claim_request(user=bob, player=ben, how="seat")
    client.force_login(dana)

    waiting = client.get(reverse("people:claims")).content.decode()
    approve = client.post(reverse("people:claim_decide", args=[claim.pk]), {"approve": "1"})
    decline = client.post(reverse("people:claim_decide", args=[claim.pk]), {"approve": "0"})

    assert "bob says they are Ben" not in waiting
    assert (approve.status_code, decline.status_code) == (404, 404)
    assert PlayerClaim.objects.get().status == "requested"


def test_the_owner_approves_what_a_co_scorekeeper_could_not(client, alice, bob, snapser_table, ben):
    _co_scorekeeper(snapser_table, "dana")
    claim = people.player_claim_request(user=bob, player=ben, how="seat")
    client.force_login(alice)

    response = client.post(reverse("people:claim_decide", args=[claim.pk]), {"approve": "1"}, follow=True)

    assert "bob is now Ben." in response.content.decode()
    assert (PlayerClaim.objects.get().status, PlayerClaim.objects.get().decided_by) == ("approved", alice)


def test_declining_an_approved_claim_answers_that_it_is_approved(client, alice, bob, ben):
    claim = people.player_claim_request(user=bob, player=ben, how="seat")
    people.player_claim_decide(claim=claim, by=alice, approve=True)
    client.force_login(alice)

    page = client.post(reverse("people:claim_decide", args=[claim.pk]), {"approve": "0"}, follow=True)
    row = client.post(
        reverse("people:claim_decide", args=[claim.pk]), {"approve": "0"}, headers={"HX-Request": "true"}
    ).content.decode()

    assert "bob is now Ben." in page.content.decode() and "declined" not in page.content.decode()
    assert 'data-status="approved"' in row and "bob is now Ben." in row
    assert PlayerClaim.objects.get().status == "approved"


def test_dropping_a_claim_again_answers_that_it_is_gone(bob_client, alice, bob, ben):
    claim = people.player_claim_grant(user=bob, player=ben, granted_by=alice, how="invitation")
    url = reverse("people:claim_drop", args=[claim.pk])
    bob_client.post(url)

    again = bob_client.post(url, follow=True)

    assert again.status_code == 200
    assert again.redirect_chain == [(reverse("people:me"), 302)]
    assert "This claim was withdrawn meanwhile." in again.content.decode()
    assert not PlayerClaim.objects.exists()
