"""Two phones claiming one free seat at the same instant: one holds it, the other waits for the scorekeeper.

PostgreSQL only (SQLite takes one writer at a time). The test holds the seat's place in the partial unique index
with a claim of its own, uncommitted, until both phones' claims wait on it, then rolls it back and lets them run.
"""

from __future__ import annotations

import pytest
from django.db import transaction

from ledger.seats.models import SeatClaim
from tests import factories
from tests.ledger.race_support import Background, until_waiting_for_a_lock
from tests.ledger.seats.support import claim, new_device
from tests.servers import need_postgresql


@pytest.fixture(autouse=True)
def _parallel_database():
    need_postgresql("parallel transactions need it (SQLite serializes writers); CI runs this on PostgreSQL")


def test_two_phones_claiming_one_free_seat_at_once_leave_one_holding_it(transactional_db):
    alice = factories.make_user("alice")
    table = factories.make_table(factories.make_evening(alice), "snapser")
    blocker = claim(table, 2, new_device())  # a stand-in account to fill the test's own row with
    phones = [new_device(), new_device()]
    answers: dict[str, str] = {}

    with transaction.atomic():
        SeatClaim.objects.create(
            table=table, position=1, player_id=blocker.player_id, device="t" * 64, acting=blocker.acting
        )
        runs = [Background(lambda p=p: answers.__setitem__(p, claim(table, 1, p).status)) for p in phones]
        until_waiting_for_a_lock(2)
        transaction.set_rollback(True)
    for run in runs:
        run.finish()

    assert sorted(answers.values()) == ["held", "pending"]
    at_ben = SeatClaim.objects.filter(table=table, position=1)
    assert at_ben.filter(status="held").count() == 1 and at_ben.filter(status="pending").count() == 1
