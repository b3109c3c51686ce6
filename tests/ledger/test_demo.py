"""`make run` loads the demo: one evening per game with 20 or more hands, every one priced by the engines.

The demo is loaded once for the module (``demo``: recording its hundreds of hands takes seconds), each test reading
it inside its own savepoint; the test that loads it again does so on top of the module's copy."""

from __future__ import annotations

import datetime
from decimal import Decimal
from io import StringIO

import pytest
from django.contrib.auth import authenticate, get_user_model
from django.core.management import call_command
from django.urls import reverse

from ledger import selectors
from ledger.circles.demo_season import EVENINGS, HANDS
from ledger.circles.models import Circle
from ledger.models import Evening, Hand, Posting
from ledger.stats import selectors as stats
from ledger.tournaments import selectors as tournament_selectors
from ledger.tournaments.demo import (
    MARIAS_HANDS,
    MARIAS_NAME,
    MARIAS_PLAYERS,
    SKAT_GAMES,
    SKAT_NAME,
    SKAT_PLAYERS,
)
from ledger.tournaments.models import Tournament, TournamentTable
from tests import factories

SEASON_ENDS = datetime.date(2026, 11, 20)  # the demo's Mariáš evening; the season's are the weeks before it


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    """What ``load_demo`` printed; the demo stays in the database for the module's tests."""
    printed = StringIO()
    with factories.kept_for_the_module(django_db_blocker):
        with django_db_blocker.unblock():
            call_command("load_demo", stdout=printed)
        yield printed.getvalue()


def test_the_demo_has_an_evening_of_each_game_that_balances(db, demo):
    assert "password 'talon-demo'" in demo
    # Each tournament table is an evening of its own, checked apart (below).
    evenings = Evening.objects.filter(owner__username="demo", tournament_table__isnull=True).prefetch_related("tables")
    games = sorted(table.game for evening in evenings for table in evening.tables.all())
    assert games == ["marias"] * (1 + EVENINGS) + ["skat", "snapser"]  # the circle's season: Mariáš evenings
    for evening in evenings:
        for table in evening.tables.all():
            assert table.hands.count() >= (HANDS if evening.date < SEASON_ENDS else 20)
            assert sum(selectors.table_balances(table).values(), Decimal(0)) == 0
    assert authenticate(username="demo", password="talon-demo") is not None


def test_loading_the_demo_twice_replaces_it(db, demo):
    postings = Posting.objects.count()
    call_command("load_demo", stdout=StringIO())
    assert Evening.objects.filter(owner__username="demo", tournament_table__isnull=True).count() == 3 + EVENINGS
    assert Tournament.objects.filter(owner__username="demo").count() == 2
    assert Posting.objects.count() == postings
    circle = Circle.objects.get(owner__username="demo")  # one circle, its members not doubled
    assert sorted(circle.members.values_list("name", flat=True)) == ["Honza", "Jirka", "Petr", "Šárka"]


def test_the_demo_has_a_circle_with_the_mariáš_players_and_their_evening(db, demo):
    circle = Circle.objects.get(owner__username="demo")
    assert (circle.name, circle.settle) == ("Friday Mariáš", "tab")
    assert sorted(circle.members.values_list("name", flat=True)) == ["Honza", "Jirka", "Petr", "Šárka"]
    games = {(e.date.isoformat(), table.game) for e in circle.evenings.all() for table in e.tables.all()}
    assert ("2026-11-20", "marias") in games and {game for _date, game in games} == {"marias"}


def test_the_demo_circle_page_answers_in_czech_and_german(db, demo, client):
    circle = Circle.objects.get(name="Friday Mariáš")
    client.force_login(circle.owner)
    for language, words in (("cs", "Nový večer s kroužkem"), ("de", "Neuer Abend mit der Runde")):
        response = client.get(circle.get_absolute_url(), headers={"Accept-Language": language})
        assert response.status_code == 200 and words in response.content.decode()


def test_the_demo_circle_has_a_season_of_statistics(db, demo):
    circle = Circle.objects.get(owner__username="demo")
    season = stats.circle_stats(circle)
    counted = Hand.objects.filter(table__evening__circle=circle, status=Hand.Status.COUNTED)
    assert season["evenings"] == 1 + EVENINGS
    assert season["hands"] == counted.count() >= 20 + EVENINGS * HANDS
    assert len(season["table"]) == 4
    assert sum(row["net"] for row in season["table"]) == 0
    assert season["table"][0]["net"] > 0 > season["table"][-1]["net"]


def test_the_demo_has_a_running_skat_club_night_and_a_finished_marias_tournament(db, demo):
    skat = Tournament.objects.get(owner__username="demo", game="skat")
    assert skat.status == Tournament.Status.RUNNING
    # Series 1 at three four-seat tables with games on each list; series 2 seated by the standings, not yet played.
    seated = TournamentTable.objects.filter(round__tournament=skat).select_related("round", "table")
    assert sorted((table.round.number, len(table.table.seat_names)) for table in seated) == [(1, 4)] * 3 + [(2, 4)] * 3
    assert [table.table.hands.count() for table in seated if table.round.number == 1] == [SKAT_GAMES] * 3
    assert sum(table.table.hands.count() for table in seated if table.round.number == 2) == 0
    table = tournament_selectors.standings(skat)
    assert sorted(row.player for row in table) == sorted(SKAT_PLAYERS)
    assert table[0].rank == 1 and table[0].points > table[-1].points
    # Every game has a declarer who won or lost it: 8 games at each of the three tables.
    assert sum(row.won + row.lost for row in table) == 3 * SKAT_GAMES
    # Series 2 is seeded by the standings: the leader takes the first seat of the first table.
    first = next(t for t in seated if (t.round.number, t.number) == (2, 1))
    assert first.table.seat_names[0] == table[0].player

    marias = Tournament.objects.get(owner__username="demo", game="marias")
    assert marias.status == Tournament.Status.FINISHED
    assert marias.round_set.count() == 2
    rows = tournament_selectors.standings(marias)
    assert sorted(row.player for row in rows) == sorted(MARIAS_PLAYERS)
    assert all(row.rounds == 2 for row in rows)
    # Placement points 4, 3, 2, 1 per table and round (ties share): 10 per table, two tables, two rounds.
    assert sum(row.points for row in rows) == 2 * 2 * 10
    assert Hand.objects.filter(table__tournament_table__round__tournament=marias).count() == 2 * 2 * MARIAS_HANDS
    prizes = tournament_selectors.prize_list(marias, rows)
    assert sum(prizes.values()) == 8 * 100  # the entry fees, all to the prizes


def test_make_run_shows_the_demo_tournaments(db, demo, client):
    client.force_login(get_user_model().objects.get(username="demo"))
    listed = client.get(reverse("ledger:tournament_list"))
    assert listed.status_code == 200
    assert SKAT_NAME in listed.text and MARIAS_NAME in listed.text
    skat = Tournament.objects.get(owner__username="demo", game="skat")
    leader = tournament_selectors.standings(skat)[0].player
    live = client.get(reverse("ledger:tournament_live", args=[skat.share_token]))
    assert live.status_code == 200 and leader in live.text
