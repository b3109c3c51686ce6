"""Two phones record the next hand at the same moment, each on its own connection (PostgreSQL's row locks): one
hand is stored, the other phone hears of it; the same tap sent twice at once is one hand, never a conflict."""

from __future__ import annotations

import pytest
from django.db import transaction

from ledger import services
from ledger.errors import HandConflict
from ledger.models import Hand, Posting, Table
from tests import factories
from tests.ledger.race_support import Background, until_waiting_for_a_lock
from tests.servers import need_postgresql

BEZ_VODY = factories.SNAPSER_N1 | {"result": "bez_vody"}


@pytest.fixture(autouse=True)
def _postgresql():
    need_postgresql("row locks: SQLite takes one writer at a time, so the two never meet")


def _phone(table, hand, by, key, answers):
    def record():
        try:
            answers[key] = services.hand_record(table=table, hand=hand, by=by, key=key, after=0)
        except HandConflict as conflict:
            answers[key] = conflict

    return record


def test_two_phones_recording_the_next_hand_at_once_store_one(transactional_db, alice, charlie):
    evening = factories.make_evening(alice)
    services.evening_add_scorekeeper(evening=evening, user=charlie)
    table = factories.make_table(evening, "snapser")
    answers: dict[str, object] = {}
    with transaction.atomic():
        Table.objects.select_for_update().get(pk=table.pk)  # both taps arrive while the table is busy
        phones = [
            Background(_phone(table, factories.SNAPSER_N1, alice, "alice", answers)),
            Background(_phone(table, BEZ_VODY, charlie, "charlie", answers)),
        ]
        until_waiting_for_a_lock(2)
    for phone in phones:
        phone.finish()
    stored = [answer for answer in answers.values() if isinstance(answer, Hand)]
    refused = [answer for answer in answers.values() if isinstance(answer, HandConflict)]
    assert len(stored) == len(refused) == 1
    assert refused[0].stored.pk == stored[0].pk
    assert refused[0].message == f"Hand #1 was just recorded by {stored[0].entered_by.username}."
    assert list(Hand.objects.filter(table=table).values_list("number", flat=True)) == [1]
    assert Posting.objects.filter(hand__table=table).count() == 3
    table.refresh_from_db()
    assert (table.hand_count, table.revision) == (1, 1)


def test_the_same_tap_sent_twice_at_once_is_one_hand_and_no_conflict(transactional_db, alice):
    table = factories.make_table(factories.make_evening(alice), "snapser")
    answers: dict[str, object] = {}
    first: dict[str, object] = {}
    with transaction.atomic():
        Table.objects.select_for_update().get(pk=table.pk)
        # Both pass the first look for the key (no hand yet) and wait for the lock with after=0.
        phones = [
            Background(_phone(table, BEZ_VODY, alice, "tap", answers)),
            Background(_phone(table, BEZ_VODY, alice, "tap", first)),
        ]
        until_waiting_for_a_lock(2)
    for phone in phones:
        phone.finish()
    assert isinstance(answers["tap"], Hand) and isinstance(first["tap"], Hand)
    assert answers["tap"].pk == first["tap"].pk
    assert Hand.objects.filter(table=table).count() == 1
