"""Two approvals of different accounts' claims on one player at once: one wins, the other is refused clearly.

PostgreSQL only (SQLite takes one writer at a time). The test holds the player's row locked until both approvals
wait for it, so they truly overlap, then lets them run.
"""

from __future__ import annotations

import pytest
from django.db import transaction

from ledger.errors import LedgerError
from ledger.models import Player
from ledger.people import services as people
from ledger.people.models import PlayerClaim
from tests import factories
from tests.ledger.race_support import Background, until_waiting_for_a_lock
from tests.servers import need_postgresql


@pytest.fixture(autouse=True)
def _parallel_database():
    need_postgresql("parallel transactions need it (SQLite serializes writers); CI runs this on PostgreSQL")


def test_two_approvals_at_once_leave_one_approved_claim(transactional_db):
    alice = factories.make_user("alice")
    factories.make_table(factories.make_evening(alice), "snapser")
    ben = Player.objects.get(owner=alice, name="Ben")
    claims = [
        people.player_claim_request(user=factories.make_user(name), player=ben, how=PlayerClaim.How.SEAT)
        for name in ("bob", "charlie")
    ]

    with transaction.atomic():
        Player.objects.select_for_update().get(pk=ben.pk)
        runs = [
            Background(lambda claim=claim: people.player_claim_decide(claim=claim, by=alice, approve=True))
            for claim in claims
        ]
        until_waiting_for_a_lock(2)
    outcomes = []
    for run in runs:
        try:
            run.finish()
            outcomes.append("approved")
        except LedgerError as error:
            outcomes.append(error.message)

    assert sorted(outcomes) == ["Ben is already claimed by another account: a player is one person.", "approved"]
    assert PlayerClaim.objects.approved().count() == 1
    assert PlayerClaim.objects.pending().count() == 1


def test_two_identical_requests_at_once_make_one_claim(transactional_db):
    alice = factories.make_user("alice")
    bob = factories.make_user("bob")
    factories.make_table(factories.make_evening(alice), "snapser")
    ben = Player.objects.get(owner=alice, name="Ben")
    found: list[int] = []

    with transaction.atomic():
        Player.objects.select_for_update().get(pk=ben.pk)
        runs = [
            Background(lambda: found.append(people.player_claim_request(user=bob, player=ben, how="seat").pk))
            for _ in range(2)
        ]
        until_waiting_for_a_lock(2)
    for run in runs:
        run.finish()

    assert PlayerClaim.objects.count() == 1
    assert found == [PlayerClaim.objects.get().pk] * 2
