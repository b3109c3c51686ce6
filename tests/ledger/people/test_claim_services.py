"""Claims of players through the services: consent, idempotency, one person per player."""

from __future__ import annotations

import pytest

from ledger import services
from ledger.errors import LedgerError
from ledger.models import Player
from ledger.people import services as people
from ledger.people.models import PlayerClaim
from tests import factories

SEAT = PlayerClaim.How.SEAT


def test_a_request_waits_for_the_scorekeeper_and_a_repeat_returns_it(bob, ben):
    first = people.player_claim_request(user=bob, player=ben, how=SEAT)
    again = people.player_claim_request(user=bob, player=ben, how=PlayerClaim.How.SHARE_LINK)

    assert again.pk == first.pk
    assert first.status == "requested"
    assert again.how == "seat"
    assert PlayerClaim.objects.count() == 1


def test_the_owner_approves_and_a_second_approval_changes_nothing(alice, bob, ben):
    claim = people.player_claim_request(user=bob, player=ben, how=SEAT)

    approved = people.player_claim_decide(claim=claim, by=alice, approve=True)
    decided_at = approved.decided_at
    again = people.player_claim_decide(claim=claim, by=alice, approve=True)

    stored = PlayerClaim.objects.get()
    assert (stored.status, stored.decided_by, stored.decided_at) == ("approved", alice, decided_at)
    assert again.decided_at == decided_at


def test_the_owner_declines(alice, bob, ben):
    claim = people.player_claim_request(user=bob, player=ben, how=SEAT)

    people.player_claim_decide(claim=claim, by=alice, approve=False)

    assert PlayerClaim.objects.get().status == "declined"


def test_the_claiming_user_cannot_approve_their_own_claim(bob, ben):
    claim = people.player_claim_request(user=bob, player=ben, how=SEAT)

    with pytest.raises(LedgerError, match="Only a scorekeeper of Ben"):
        people.player_claim_decide(claim=claim, by=bob, approve=True)
    assert PlayerClaim.objects.get().status == "requested"


def test_a_stranger_cannot_decide(charlie, bob, ben):
    claim = people.player_claim_request(user=bob, player=ben, how=SEAT)

    with pytest.raises(LedgerError):
        people.player_claim_decide(claim=claim, by=charlie, approve=True)


def test_a_co_scorekeeper_of_an_evening_the_player_sat_in_may_not_decide(alice, bob, ben, snapser_table):
    # An evening's "anybody" link makes anybody its co-scorekeeper: only the player's owner consents.
    dana = factories.make_user("dana")
    snapser_table.evening.scorekeepers.add(dana)
    claim = people.player_claim_request(user=bob, player=ben, how=SEAT)

    with pytest.raises(LedgerError, match="Only a scorekeeper of Ben"):
        people.player_claim_decide(claim=claim, by=dana, approve=True)
    assert PlayerClaim.objects.get().status == "requested"


def test_a_co_scorekeeper_cannot_approve_their_own_claim(alice, ben, snapser_table):
    dana = factories.make_user("dana")
    snapser_table.evening.scorekeepers.add(dana)
    claim = people.player_claim_request(user=dana, player=ben, how=SEAT)

    with pytest.raises(LedgerError, match="Only a scorekeeper of Ben"):
        people.player_claim_decide(claim=claim, by=dana, approve=True)
    assert PlayerClaim.objects.get().status == "requested"


def test_a_co_scorekeeper_cannot_grant_a_player(alice, bob, ben, snapser_table):
    snapser_table.evening.scorekeepers.add(bob)

    with pytest.raises(LedgerError, match="Only a scorekeeper of Ben"):
        people.player_claim_grant(user=bob, player=ben, granted_by=bob, how=PlayerClaim.How.INVITATION)
    assert not PlayerClaim.objects.exists()


def test_declining_an_approved_claim_changes_nothing(alice, bob, ben):
    claim = people.player_claim_request(user=bob, player=ben, how=SEAT)
    approved = people.player_claim_decide(claim=claim, by=alice, approve=True)

    answer = people.player_claim_decide(claim=claim, by=alice, approve=False)

    stored = PlayerClaim.objects.get()
    assert (stored.status, stored.decided_at) == ("approved", approved.decided_at)
    assert answer.status == "approved"


def test_approving_a_declined_claim_changes_nothing(alice, bob, ben):
    claim = people.player_claim_request(user=bob, player=ben, how=SEAT)
    declined = people.player_claim_decide(claim=claim, by=alice, approve=False)

    answer = people.player_claim_decide(claim=claim, by=alice, approve=True)

    stored = PlayerClaim.objects.get()
    assert (stored.status, stored.decided_at) == ("declined", declined.decided_at)
    assert answer.status == "declined"


def test_a_co_scorekeeper_of_another_evening_may_not(alice, bob, ben):
    dana = factories.make_user("dana")
    other = factories.make_evening(alice)
    other.scorekeepers.add(dana)  # Ben never sat in it
    claim = people.player_claim_request(user=bob, player=ben, how=SEAT)

    with pytest.raises(LedgerError):
        people.player_claim_decide(claim=claim, by=dana, approve=True)


def test_one_approved_claim_per_player(alice, bob, charlie, ben):
    bobs = people.player_claim_request(user=bob, player=ben, how=SEAT)
    charlies = people.player_claim_request(user=charlie, player=ben, how=SEAT)
    people.player_claim_decide(claim=bobs, by=alice, approve=True)

    with pytest.raises(LedgerError, match="Ben is already claimed by another account"):
        people.player_claim_decide(claim=charlies, by=alice, approve=True)
    assert list(PlayerClaim.objects.approved().values_list("user__username", flat=True)) == ["bob"]


def test_no_new_request_for_a_player_already_claimed(alice, bob, charlie, ben):
    people.player_claim_grant(user=bob, player=ben, granted_by=alice, how=PlayerClaim.How.INVITATION)

    with pytest.raises(LedgerError, match="already claimed"):
        people.player_claim_request(user=charlie, player=ben, how=SEAT)


def test_an_invitation_grants_at_once_and_a_repeat_returns_the_claim(alice, bob, ben):
    first = people.player_claim_grant(user=bob, player=ben, granted_by=alice, how=PlayerClaim.How.INVITATION)
    again = people.player_claim_grant(user=bob, player=ben, granted_by=alice, how=PlayerClaim.How.INVITATION)

    assert first.pk == again.pk
    assert (again.status, again.decided_by) == ("approved", alice)


def test_a_grant_turns_a_waiting_request_approved(alice, bob, ben):
    people.player_claim_request(user=bob, player=ben, how=SEAT)

    people.player_claim_grant(user=bob, player=ben, granted_by=alice, how=PlayerClaim.How.INVITATION)

    assert PlayerClaim.objects.get().status == "approved"


def test_only_a_scorekeeper_of_the_player_can_grant(bob, charlie, ben):
    with pytest.raises(LedgerError, match="Only a scorekeeper of Ben"):
        people.player_claim_grant(user=bob, player=ben, granted_by=charlie, how=PlayerClaim.How.INVITATION)
    assert not PlayerClaim.objects.exists()


def test_the_owner_claiming_their_own_player_needs_no_consent(alice, snapser_table):
    ana = Player.objects.get(owner=alice, name="Ana")

    claim = people.player_claim_request(user=alice, player=ana, how=SEAT)

    assert claim.status == "approved"


def test_one_user_holds_players_of_several_scorekeepers(alice, bob, ben):
    dana = factories.make_user("dana")
    danas_ben = services.player_get_or_create(owner=dana, name="Ben")
    people.player_claim_grant(user=bob, player=ben, granted_by=alice, how=PlayerClaim.How.INVITATION)
    people.player_claim_grant(user=bob, player=danas_ben, granted_by=dana, how=PlayerClaim.How.INVITATION)

    owners = set(PlayerClaim.objects.approved().filter(user=bob).values_list("player__owner__username", flat=True))
    assert owners == {"alice", "dana"}


def test_anonymous_cannot_claim(ben):
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(LedgerError, match="Log in"):
        people.player_claim_request(user=AnonymousUser(), player=ben, how=SEAT)


def test_an_unknown_way_is_refused(bob, ben):
    with pytest.raises(LedgerError, match="Unknown way"):
        people.player_claim_request(user=bob, player=ben, how="telepathy")


@pytest.mark.parametrize("dropper", ["bob", "alice"])
def test_the_user_or_the_owner_drops_a_claim_and_the_player_stays(request, alice, bob, ben, dropper):
    claim = people.player_claim_grant(user=bob, player=ben, granted_by=alice, how=PlayerClaim.How.INVITATION)

    people.player_claim_drop(claim=claim, by=request.getfixturevalue(dropper))

    assert not PlayerClaim.objects.exists()
    assert Player.objects.filter(pk=ben.pk, name="Ben").exists()


def test_a_stranger_cannot_drop_a_claim(alice, bob, charlie, ben):
    claim = people.player_claim_grant(user=bob, player=ben, granted_by=alice, how=PlayerClaim.How.INVITATION)

    with pytest.raises(LedgerError):
        people.player_claim_drop(claim=claim, by=charlie)
    assert PlayerClaim.objects.count() == 1
