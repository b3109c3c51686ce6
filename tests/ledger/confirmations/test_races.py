"""Two taps on one player's word at the same instant (two phones, or a double tap that raced): one word is stored
and both taps are answered with it. PostgreSQL only (SQLite takes one writer at a time)."""

from __future__ import annotations

import pytest
from django.db import transaction

from ledger.confirmations import services
from ledger.confirmations.models import Confirmation
from ledger.models import Table
from tests import factories
from tests.ledger.confirmations.support import asking_table, player
from tests.ledger.race_support import Background, until_waiting_for_a_lock
from tests.servers import need_postgresql


@pytest.fixture(autouse=True)
def _parallel_database():
    need_postgresql("parallel transactions need it (SQLite serializes writers); CI runs this on PostgreSQL")


def test_an_ok_and_a_dispute_racing_for_one_player_store_one_word(transactional_db):
    alice = factories.make_user("alice")
    table = asking_table(factories.make_evening(alice), "skat", "opponent")
    hand = factories.record(table)[0]
    ben = player(table, "Ben")
    answers: dict[str, int] = {}

    def tap(verdict: str) -> None:
        act = services.confirm if verdict == "ok" else services.dispute
        answers[verdict] = act(hand=hand, version=1, player=ben, by=alice).pk

    with transaction.atomic():
        Table.objects.select_for_update().get(pk=table.pk)  # both taps queue behind the table's row lock
        runs = [Background(lambda verdict=verdict: tap(verdict)) for verdict in ("ok", "disputed")]
        until_waiting_for_a_lock(2)
    for run in runs:
        run.finish()

    stored = Confirmation.objects.get()
    assert answers == {"ok": stored.pk, "disputed": stored.pk}
