"""Two accepts of one link at once take turns on the link's row: a link meant for one player ends with one owner
of that player and a clear refusal for the other, and the same user's double tap grants once."""

from __future__ import annotations

import pytest
from django.db import transaction

from ledger.invitations import services as invitations
from ledger.invitations.models import InviteLinkUse
from ledger.models import Player
from ledger.people.models import PlayerClaim
from tests import factories
from tests.ledger.invitations.conftest import make_link
from tests.ledger.race_support import Background, until_waiting_for_a_lock
from tests.servers import need_postgresql


@pytest.fixture(autouse=True)
def _postgresql():
    need_postgresql("row locks: SQLite locks the whole database")


def test_two_people_accepting_one_players_link_at_once(transactional_db, alice, charlie):
    dora = factories.make_user("dora")
    evening = factories.make_evening(alice)
    factories.make_table(evening, "snapser")
    ben = Player.objects.get(owner=alice, name="Ben")
    link = make_link(evening, alice, player=ben)
    with transaction.atomic():
        invitations.invite_link_accept(link=link, user=dora)  # holds the link until this commits
        other = Background(lambda: invitations.invite_link_accept(link=link, user=charlie))
        until_waiting_for_a_lock()
    with pytest.raises(invitations.LinkGone, match="for one person, who has accepted it"):
        other.finish()
    assert list(PlayerClaim.objects.values_list("user__username", "player__name")) == [("dora", "Ben")]
    assert list(evening.scorekeepers.all()) == [dora]


def test_a_double_tap_on_accept_grants_once(transactional_db, alice):
    dora = factories.make_user("dora")
    evening = factories.make_evening(alice)
    link = make_link(evening, alice)
    with transaction.atomic():
        first = invitations.invite_link_accept(link=link, user=dora)
        answers = []
        other = Background(lambda: answers.append(invitations.invite_link_accept(link=link, user=dora)))
        until_waiting_for_a_lock()
    other.finish()
    assert first.granted and not answers[0].granted and answers[0].use == first.use
    assert InviteLinkUse.objects.count() == 1
