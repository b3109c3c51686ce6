"""`make run` loads the demo: one evening per game with 20 or more hands, every one priced by the engines."""

from __future__ import annotations

import datetime
from decimal import Decimal

from django.contrib.auth import authenticate
from django.core.management import call_command

from ledger import selectors, stats
from ledger.management.demo_season import EVENINGS, HANDS
from ledger.models import Circle, Evening, Hand, Posting

SEASON_ENDS = datetime.date(2026, 11, 20)  # the demo's Mariáš evening; the season's are the weeks before it


def test_the_demo_has_an_evening_of_each_game_that_balances(db, capsys):
    call_command("load_demo")
    assert "password 'talon-demo'" in capsys.readouterr().out
    evenings = Evening.objects.filter(owner__username="demo").prefetch_related("tables")
    games = sorted(table.game for evening in evenings for table in evening.tables.all())
    assert games == ["marias"] * (1 + EVENINGS) + ["skat", "snapser"]  # the circle's season: Mariáš evenings
    for evening in evenings:
        for table in evening.tables.all():
            assert table.hands.count() >= (HANDS if evening.date < SEASON_ENDS else 20)
            assert sum(selectors.table_balances(table).values(), Decimal(0)) == 0
    assert authenticate(username="demo", password="talon-demo") is not None


def test_loading_the_demo_twice_replaces_it(db):
    call_command("load_demo")
    postings = Posting.objects.count()
    call_command("load_demo")
    assert Evening.objects.filter(owner__username="demo").count() == 3 + EVENINGS
    assert Posting.objects.count() == postings


def test_the_demo_circle_has_a_season_of_statistics(db):
    call_command("load_demo")
    circle = Circle.objects.get(owner__username="demo")
    season = stats.circle_stats(circle)
    counted = Hand.objects.filter(table__evening__circle=circle, status=Hand.Status.COUNTED)
    assert season["evenings"] == 1 + EVENINGS
    assert season["hands"] == counted.count() >= 20 + EVENINGS * HANDS
    assert len(season["table"]) == 4
    assert sum(row["net"] for row in season["table"]) == 0
    assert season["table"][0]["net"] > 0 > season["table"][-1]["net"]
