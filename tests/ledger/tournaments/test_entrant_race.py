"""Two players added to a tournament at once take consecutive start numbers: the second waits for the first (the
tournament's row is locked first, as check-in and the draw do) instead of failing on the same number (a 500)."""

from __future__ import annotations

import pytest
from django.db import transaction

from ledger.tournaments import services as tournaments
from ledger.tournaments.models import Entrant, Tournament
from tests.ledger.race_support import Background, until_waiting_for_a_lock
from tests.servers import need_postgresql


@pytest.fixture(autouse=True)
def _postgresql():
    need_postgresql("row locks: SQLite locks the whole database")


def test_entrants_added_at_once_take_consecutive_numbers(transactional_db, alice):
    cup = tournaments.tournament_create(owner=alice, game="skat", name="Cup", players=["Ana", "Ben", "Cyril"], rounds=1)
    with transaction.atomic():
        tournaments.entrant_add(tournament=cup, name="Emil")  # holds the tournament until this commits
        other = Background(lambda: tournaments.entrant_add(tournament=cup, name="Dora"))
        until_waiting_for_a_lock()  # the other add waits ...
    other.finish()  # ... and goes on once this one is committed
    numbers = dict(Entrant.objects.filter(tournament=cup).values_list("player__name", "number"))
    assert (numbers["Emil"], numbers["Dora"]) == (4, 5)
    assert Tournament.objects.get(pk=cup.pk).status == cup.status
