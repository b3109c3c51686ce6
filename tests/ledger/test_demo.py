"""`make run` loads the demo: one evening per game with 20 or more hands, every one priced by the engines."""

from __future__ import annotations

from decimal import Decimal

from django.contrib.auth import authenticate
from django.core.management import call_command

from ledger import selectors
from ledger.models import Evening, Posting


def test_the_demo_has_an_evening_of_each_game_that_balances(db, capsys):
    call_command("load_demo")
    assert "password 'talon-demo'" in capsys.readouterr().out
    evenings = Evening.objects.filter(owner__username="demo").prefetch_related("tables")
    games = sorted(table.game for evening in evenings for table in evening.tables.all())
    assert games == ["marias", "skat", "snapser"]
    for evening in evenings:
        for table in evening.tables.all():
            assert table.hands.count() >= 20
            assert sum(selectors.table_balances(table).values(), Decimal(0)) == 0
    assert authenticate(username="demo", password="talon-demo") is not None


def test_loading_the_demo_twice_replaces_it(db):
    call_command("load_demo")
    postings = Posting.objects.count()
    call_command("load_demo")
    assert Evening.objects.filter(owner__username="demo").count() == 3
    assert Posting.objects.count() == postings
