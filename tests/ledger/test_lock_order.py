"""One lock order: the evening's row before its settlement and transfers, whoever writes.

A reopen locks the evening, then deletes the unpaid transfers; a paid mark locked the transfer first and then
needed the evening (its history row points at it): each waited on the other, and PostgreSQL broke the deadlock by
failing one of them (a 500). Now a paid mark asks for the evening first, so it waits before it holds anything.
"""

from __future__ import annotations

import threading

import pytest
from django.db import OperationalError, connection, transaction

from ledger import services
from ledger.models import Evening, Transfer
from tests import factories
from tests.servers import need_postgresql

TIMEOUT = 20


@pytest.fixture(autouse=True)
def _postgresql():
    need_postgresql("row locks: SQLite locks the whole database")


def test_a_paid_mark_waits_for_the_evening_before_locking_its_transfer(transactional_db, alice):
    evening = factories.make_evening(alice)
    factories.record(factories.make_table(evening, "skat"))
    transfer = services.evening_close(evening=evening, by=alice).transfers.first()
    marking_started, done = threading.Event(), threading.Event()
    failures: list[BaseException] = []

    def mark() -> None:
        try:
            marking_started.set()
            services.transfer_mark_paid(transfer=transfer, by=alice)
        except BaseException as error:
            failures.append(error)
        finally:
            connection.close()
            done.set()

    with transaction.atomic():
        Evening.objects.select_for_update().get(pk=evening.pk)  # as a reopen starts
        marker = threading.Thread(target=mark)
        marker.start()
        marking_started.wait(TIMEOUT)
        assert not done.wait(1)  # the mark waits for the evening ...
        try:  # ... holding no lock on the transfer, which the reopen deletes next
            with transaction.atomic():
                Transfer.objects.select_for_update(nowait=True).get(pk=transfer.pk)
        except OperationalError:
            pytest.fail("the paid mark locked the transfer before the evening: a reopen now would deadlock")
    assert done.wait(TIMEOUT)
    marker.join(TIMEOUT)
    assert not failures
    assert Transfer.objects.get(pk=transfer.pk).paid_at is not None
