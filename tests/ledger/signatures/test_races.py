"""Two taps at once on PostgreSQL (row locks; SQLite locks the whole database): the same signature twice makes one
signature, and a close racing a signature leaves either a signature of the open evening or none."""

from __future__ import annotations

import pytest
from django.db import transaction

from ledger import services as books
from ledger.errors import LedgerError
from ledger.models import Evening, Player
from ledger.signatures.models import Signature
from ledger.signatures.services import signature_sign
from tests import factories
from tests.ledger.race_support import Background, until_waiting_for_a_lock
from tests.servers import need_postgresql


@pytest.fixture(autouse=True)
def _postgresql():
    need_postgresql("row locks: SQLite locks the whole database")


def _evening(alice):
    table = factories.make_table(factories.make_evening(alice), "snapser")
    factories.record(table, times=2)
    return table.evening, Player.objects.get(owner=alice, name="Ben")


def test_two_taps_at_once_make_one_signature(transactional_db, alice):
    evening, ben = _evening(alice)
    answers = []

    def tap():
        answers.append(signature_sign(evening=evening, player=ben, by=alice, revision=2))

    with transaction.atomic():
        Evening.objects.select_for_update().get(pk=evening.pk)  # both taps wait for the evening's row
        taps = [Background(tap), Background(tap)]
        until_waiting_for_a_lock(2)
    for each in taps:
        each.finish()
    assert sorted(answer.made for answer in answers) == [False, True]
    assert Signature.objects.count() == 1
    assert answers[0].signature.pk == answers[1].signature.pk


def test_a_signature_waiting_for_a_close_is_refused_after_it(transactional_db, alice):
    evening, ben = _evening(alice)
    refused = []

    def tap():
        try:
            signature_sign(evening=evening, player=ben, by=alice)
        except LedgerError as error:
            refused.append(error.field)

    with transaction.atomic():
        books.evening_close(evening=Evening.objects.get(pk=evening.pk), by=alice)  # holds the evening's row
        late = Background(tap)
        until_waiting_for_a_lock()
    late.finish()
    assert refused == ["evening"]
    assert not Signature.objects.exists()
