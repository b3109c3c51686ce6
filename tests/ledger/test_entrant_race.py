"""Two players added to a tournament at once take consecutive start numbers: the second waits for the first (the
tournament's row is locked first, as check-in and the draw do) instead of failing on the same number (a 500)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction

from ledger import tournaments
from ledger.models import Entrant, Tournament
from tests.servers import need_postgresql

TIMEOUT = 20


@pytest.fixture(autouse=True)
def _postgresql():
    need_postgresql("row locks: SQLite locks the whole database")


def test_entrants_added_at_once_take_consecutive_numbers(transactional_db, alice):
    cup = tournaments.tournament_create(owner=alice, game="skat", name="Cup", players=["Ana", "Ben", "Cyril"], rounds=1)
    done = threading.Event()
    failures: list[BaseException] = []

    def add() -> None:
        try:
            tournaments.entrant_add(tournament=cup, name="Dora")
        except BaseException as error:
            failures.append(error)
        finally:
            connection.close()
            done.set()

    with transaction.atomic():
        tournaments.entrant_add(tournament=cup, name="Emil")  # holds the tournament until this commits
        other = threading.Thread(target=add)
        other.start()
        assert not done.wait(1)  # the other add waits ...
    assert done.wait(TIMEOUT)  # ... and goes on once this one is committed
    other.join(TIMEOUT)
    assert not failures
    numbers = dict(Entrant.objects.filter(tournament=cup).values_list("player__name", "number"))
    assert (numbers["Emil"], numbers["Dora"]) == (4, 5)
    assert Tournament.objects.get(pk=cup.pk).status == cup.status
