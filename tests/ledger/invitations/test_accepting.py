"""Accepting a link, for each kind: Alice makes it, Dora (a new account holding the link) accepts and can open
what it grants; accepting again changes nothing."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.urls import reverse

from ledger import hooks
from ledger.circles import services as circles
from ledger.circles.models import CircleMember
from ledger.invitations.models import InviteLink, InviteLinkUse
from ledger.models import Hand, Player
from ledger.people.models import PlayerClaim
from ledger.tournaments.models import Entrant
from tests import factories
from tests.ledger.invitations.conftest import accept_path, browser_of, link_path, make_link, make_path


def test_an_evening_link_makes_a_co_scorekeeper_who_records_a_hand(
    alice_browser, dora_browser, dora, evening, snapser_table
):
    response = alice_browser.post(make_path("evening", evening.pk), {"key": "first-tap", "days": "7"})
    assert response.status_code == 302 and response["Location"] == f"{evening.get_absolute_url()}#invite-links"
    link = InviteLink.objects.get()
    assert (link.kind, link.evening, link.created_by.username) == ("evening", evening, "alice")
    assert dora_browser.get(evening.get_absolute_url()).status_code == 404  # nothing before accepting

    page = dora_browser.get(link_path(link)).content.decode()
    assert "alice invites you to keep score of an evening with them" in page
    assert "27. 11. 2026" in page and "U Fleků" in page and ">Accept</button>" in page

    response = dora_browser.post(accept_path(link))
    assert response.status_code == 302 and response["Location"] == evening.get_absolute_url()
    assert list(evening.scorekeepers.all()) == [dora]
    assert "You keep score of 2026-11-27 U Fleků now." in dora_browser.get(response["Location"]).content.decode()
    hand = dora_browser.post(
        reverse("ledger:hand_create", args=[snapser_table.pk]), factories.SNAPSER_N1 | {"dealer": "0"}
    )
    assert hand.status_code == 302 and Hand.objects.get().entered_by == dora

    again = dora_browser.post(accept_path(link))
    assert again.status_code == 302 and again["Location"] == evening.get_absolute_url()
    assert list(evening.scorekeepers.all()) == [dora]
    use = InviteLinkUse.objects.get()
    assert (use.link, use.user, use.player) == (link, dora, None)
    assert "You accepted this invitation on" in dora_browser.get(link_path(link)).content.decode()


def test_a_circle_link_makes_a_member_with_a_page_of_their_own(alice, alice_browser, dora_browser, dora, circle):
    link = make_link(circle, alice)
    page = dora_browser.get(link_path(link)).content.decode()
    assert "alice invites you to join a circle of regulars" in page and "Friday Šnapser" in page

    response = dora_browser.post(accept_path(link))
    membership = CircleMember.objects.get(circle=circle, player__name="dora")
    assert membership.token and membership.player.owner == alice
    assert response["Location"] == reverse("ledger:circle_member_page", args=[membership.token])
    assert "Friday Šnapser" in dora_browser.get(response["Location"]).content.decode()
    assert "dora" in alice_browser.get(circle.get_absolute_url()).content.decode()  # among the members

    again = dora_browser.post(accept_path(link))
    assert again["Location"] == response["Location"]
    assert sorted(circle.members.values_list("name", flat=True)) == ["Ana", "Ben", "Cyril", "dora"]
    assert CircleMember.objects.get(pk=membership.pk).token == membership.token
    assert InviteLinkUse.objects.get().player == membership.player


def test_a_tournament_link_registers_an_entrant(alice, alice_browser, dora_browser, dora, tournament):
    link = make_link(tournament, alice)
    page = dora_browser.get(link_path(link)).content.decode()
    assert "alice invites you to play in a tournament" in page and "Skat night" in page and "Klubovna" in page

    response = dora_browser.post(accept_path(link))
    entrant = Entrant.objects.get(tournament=tournament, player__name="dora")
    assert entrant.number == 7 and not entrant.checked_in
    assert response["Location"] == reverse("ledger:tournament_live", args=[tournament.share_token])
    assert "Skat night" in dora_browser.get(response["Location"]).content.decode()
    assert "dora" in alice_browser.get(tournament.get_absolute_url()).content.decode()  # among the entrants

    again = dora_browser.post(accept_path(link))
    assert again["Location"] == response["Location"]
    assert tournament.entrants.count() == 7 and InviteLinkUse.objects.count() == 1


def test_a_link_naming_a_player_gives_that_player_to_the_one_who_accepts(
    alice, dora_browser, dora, charlie_browser, circle
):
    ben = Player.objects.get(owner=alice, name="Ben")
    link = make_link(circle, alice, player=ben)
    assert "You join as Ben." in dora_browser.get(link_path(link)).content.decode()

    dora_browser.post(accept_path(link))
    claim = PlayerClaim.objects.get(player=ben)
    assert (claim.user, claim.status, claim.how, claim.decided_by) == (dora, "approved", "invitation", alice)
    membership = CircleMember.objects.get(circle=circle, player=ben)
    assert membership.token  # Ben's own page, now Dora's
    assert sorted(circle.members.values_list("name", flat=True)) == ["Ana", "Ben", "Cyril"]  # nobody new

    # The link was for one person: somebody else holding it gets nothing.
    page = charlie_browser.get(link_path(link))
    assert page.status_code == 410 and "Ben" not in page.content.decode()
    response = charlie_browser.post(accept_path(link))
    assert response.status_code == 410
    assert "This invitation link was for one person, who has accepted it." in response.content.decode()
    assert PlayerClaim.objects.count() == 1 and InviteLinkUse.objects.count() == 1


def test_an_evening_link_naming_a_seated_player(alice, alice_browser, dora_browser, dora, evening, snapser_table):
    cyril = Player.objects.get(owner=alice, name="Cyril")
    alice_browser.post(make_path("evening", evening.pk), {"key": "k", "days": "1", "player": str(cyril.pk)})
    link = InviteLink.objects.get()
    assert link.player == cyril
    assert dora_browser.post(accept_path(link))["Location"] == evening.get_absolute_url()
    assert PlayerClaim.objects.get(player=cyril).user == dora and list(evening.scorekeepers.all()) == [dora]


def test_a_finished_tournament_registers_nobody(alice, dora_browser, tournament):
    link = make_link(tournament, alice)
    tournament.status = "finished"
    tournament.save(update_fields=["status"])
    response = dora_browser.post(accept_path(link), follow=True)
    assert "The tournament is over." in response.content.decode()
    assert not InviteLinkUse.objects.exists() and tournament.entrants.count() == 6


def test_a_deleted_account_revokes_the_links_it_made_and_keeps_its_roles(alice, dora, dora_browser, evening, circle):
    taken = make_link(evening, alice)
    dora_browser.post(accept_path(taken))
    made = make_link(circle, alice)
    hooks.account_deleting.send(hooks.AccountDeleting(user=dora))
    hooks.account_deleting.send(hooks.AccountDeleting(user=alice))
    assert list(evening.scorekeepers.all()) == [dora]  # the books keep the account's row and what it did
    assert InviteLink.objects.get(pk=made.pk).revoked_at is not None
    assert dora_browser.get(link_path(made)).status_code == 410


def test_a_link_for_one_person_stays_taken_after_they_delete_their_account(alice, dora, dora_browser, circle):
    ben = Player.objects.get(owner=alice, name="Ben")
    link = make_link(circle, alice, player=ben)
    dora_browser.post(accept_path(link))
    hooks.account_deleting.send(hooks.AccountDeleting(user=dora))

    mallory = browser_of(factories.make_user("mallory"))
    assert mallory.get(link_path(link)).status_code == 410
    response = mallory.post(accept_path(link))
    assert response.status_code == 410
    assert "This invitation link was for one person, who has accepted it." in response.content.decode()
    assert not PlayerClaim.objects.filter(user__username="mallory").exists()
    assert InviteLinkUse.objects.get().user == dora  # the use stays, with the account's row


def test_a_stranger_named_as_a_member_joins_as_a_player_of_their_own(alice, circle):
    """A link for anybody never hands out an existing player: not Ben's personal page to a new account "Ben"."""
    bens = CircleMember.objects.get(circle=circle, player__name="Ben")
    circles.member_link_create(membership=bens)
    Player.objects.create(owner=alice, name="Ben (2)")  # somebody of that name already: the next number
    link = make_link(circle, alice)

    response = browser_of(factories.make_user("Ben")).post(accept_path(link))
    theirs = CircleMember.objects.get(circle=circle, player__name="Ben (3)")
    assert theirs.token and theirs.token != bens.token
    assert response["Location"] == reverse("ledger:circle_member_page", args=[theirs.token])
    assert CircleMember.objects.get(pk=bens.pk).player.name == "Ben"
    assert InviteLinkUse.objects.get().player == theirs.player
    assert not PlayerClaim.objects.exists()


def test_a_stranger_named_as_an_entrant_is_registered_as_a_new_entrant(alice, tournament):
    link = make_link(tournament, alice)
    browser_of(factories.make_user("Ana")).post(accept_path(link))
    entrant = Entrant.objects.get(tournament=tournament, player=InviteLinkUse.objects.get().player)
    assert (entrant.player.name, entrant.number) == ("Ana (2)", 7)
    assert tournament.entrants.count() == 7


def test_a_long_user_name_is_cut_to_fit_its_number(alice, circle):
    long = "x" * 40
    Player.objects.create(owner=alice, name=long)
    browser_of(factories.make_user(long + "yz")).post(accept_path(make_link(circle, alice)))
    assert InviteLinkUse.objects.get().player.name == "x" * 36 + " (2)"


def _unnormalised_user(name: str):
    """An account whose name was stored as typed (an older sign-up, an import): not made plain by Django."""
    return get_user_model().objects.create(username=name)


def test_a_look_alike_user_name_joins_a_circle_under_a_name_of_its_own(alice, circle):
    """To whoever reads the circle's page "ana", a full-width "ａnA" and a player "ｂen" the scorekeeper typed are
    Ana and Ben: each new member gets the next number."""
    Player.objects.create(owner=alice, name="ｂen")
    link = make_link(circle, alice)
    for user in (factories.make_user("ana"), _unnormalised_user("ａnA"), factories.make_user("BEN")):
        browser_of(user).post(accept_path(link))
    made = [use.player.name for use in InviteLinkUse.objects.order_by("pk")]
    assert made == ["ana (2)", "anA (3)", "BEN (2)"]
    members = CircleMember.objects.filter(circle=circle).values_list("player__name", flat=True)
    assert sorted(members) == ["Ana", "BEN (2)", "Ben", "Cyril", "anA (3)", "ana (2)"]


def test_a_look_alike_user_name_enters_a_tournament_under_a_name_of_its_own(alice, tournament):
    link = make_link(tournament, alice)
    browser_of(factories.make_user("dAnA")).post(accept_path(link))
    browser_of(_unnormalised_user("ｆｅｒｏ")).post(accept_path(link))
    entrants = Entrant.objects.filter(tournament=tournament, number__gt=6).order_by("number")
    assert [(entrant.player.name, entrant.number) for entrant in entrants] == [("dAnA (2)", 7), ("fero (2)", 8)]


def test_a_user_name_hiding_characters_is_refused_as_the_books_refuse_it(alice, circle):
    link = make_link(circle, alice)
    response = browser_of(_unnormalised_user("A\u200bna")).post(accept_path(link), follow=True)
    assert "A player&#x27;s name cannot contain control or text-direction characters." in response.content.decode()
    assert not InviteLinkUse.objects.exists() and CircleMember.objects.filter(circle=circle).count() == 3
