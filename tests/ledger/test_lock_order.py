"""One lock order: the evening's row before its settlement and transfers, whoever writes.

A reopen locks the evening, then deletes the unpaid transfers; a paid mark locked the transfer first and then
needed the evening (its history row points at it): each waited on the other, and PostgreSQL broke the deadlock by
failing one of them (a 500). Now a paid mark asks for the evening first, so it waits before it holds anything.
"""

from __future__ import annotations

import pytest
from django.db import OperationalError, transaction

from ledger import services
from ledger.models import Evening, Transfer
from tests import factories
from tests.ledger.race_support import Background, until_waiting_for_a_lock
from tests.servers import need_postgresql


@pytest.fixture(autouse=True)
def _postgresql():
    need_postgresql("row locks: SQLite locks the whole database")


def test_a_paid_mark_waits_for_the_evening_before_locking_its_transfer(transactional_db, alice):
    evening = factories.make_evening(alice)
    factories.record(factories.make_table(evening, "skat"))
    transfer = services.evening_close(evening=evening, by=alice).transfers.first()
    with transaction.atomic():
        Evening.objects.select_for_update().get(pk=evening.pk)  # as a reopen starts
        marker = Background(lambda: services.transfer_mark_paid(transfer=transfer, by=alice))
        until_waiting_for_a_lock()  # the mark waits for the evening ...
        try:  # ... holding no lock on the transfer, which the reopen deletes next
            with transaction.atomic():
                Transfer.objects.select_for_update(nowait=True).get(pk=transfer.pk)
        except OperationalError:
            pytest.fail("the paid mark locked the transfer before the evening: a reopen now would deadlock")
    marker.finish()
    assert Transfer.objects.get(pk=transfer.pk).paid_at is not None
