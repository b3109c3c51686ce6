"""A circle's scorekeeper removed (or leaving) loses what the role reached: the circle's evenings, those they started
included, with their tables and hands, their close into the circle's tab and any evening started meanwhile. The
circle's scorekeeper picker offers people only, never a tournament table phone's guest account.

Personas: Alice owns the circle, Charlie kept score of it until she removed him.
"""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse

from ledger import services
from ledger.circles import services as circles
from ledger.circles.models import Circle, CircleEntry
from ledger.models import Evening, Hand
from ledger.tournaments import services as tournaments
from ledger.tournaments.models import TournamentTable
from tests import factories

DAY = datetime.date(2026, 11, 27)


@pytest.fixture
def circle(alice, charlie):
    """Alice's circle that carries its evenings into a tab, kept by Charlie too."""
    made = circles.circle_create(owner=alice, name="Friday Šnapser", members=["Ana", "Ben", "Cyril"], settle="tab")
    services.evening_add_scorekeeper(evening=factories.make_evening(alice), user=charlie)
    circles.circle_scorekeeper_add(circle=made, user=charlie, by=alice)
    return made


@pytest.fixture
def started(circle, charlie):
    """An evening of the circle that Charlie started, with a table and a hand."""
    evening = circles.circle_evening_create(circle=circle, by=charlie, date=DAY)
    table = factories.make_table(evening, "snapser")
    factories.record(table)
    return table


def charlie_browser(charlie) -> Client:
    client = Client()
    client.force_login(charlie)
    return client


@pytest.mark.parametrize("by_owner", [True, False], ids=["removed", "left"])
def test_a_removed_keeper_no_longer_reaches_the_evenings_they_started(alice, charlie, circle, started, by_owner):
    evening = started.evening
    other = circles.circle_evening_create(circle=circle, by=alice, date=DAY + datetime.timedelta(days=7))
    browser = charlie_browser(charlie)
    assert browser.get(evening.get_absolute_url()).status_code == 200  # before: his evening

    circles.circle_scorekeeper_remove(circle=circle, user=charlie, by=alice if by_owner else charlie)

    assert not Evening.objects.for_user(charlie).filter(pk__in=[evening.pk, other.pk]).exists()
    assert browser.get(evening.get_absolute_url()).status_code == 404
    assert browser.get(started.get_absolute_url()).status_code == 404
    hand = {"declarer": "Ana", "trump": "leaves", "announcement": "hram", "winner": "declarer", "result": "s_vodou"}
    assert browser.post(reverse("ledger:hand_create", args=[started.pk]), hand).status_code == 404
    closing = browser.post(reverse("ledger:evening_settlement", args=[evening.pk]), {"mode": "fewest"})
    assert closing.status_code == 404
    assert browser.get(reverse("ledger:evening_summary_pdf", args=[evening.pk])).status_code == 404
    # Nothing was recorded or booked into the tab he no longer sees.
    assert Hand.objects.filter(table=started).count() == 1
    assert Evening.objects.get(pk=evening.pk).is_open and not CircleEntry.objects.filter(evening=evening).exists()
    # The owner keeps everything.
    assert evening.can_keep_score(alice) and other.can_keep_score(alice)


def test_a_removed_keeper_is_refused_an_evening_of_the_circle(alice, charlie, circle):
    circles.circle_scorekeeper_remove(circle=circle, user=charlie, by=alice)
    with pytest.raises(PermissionDenied):
        circles.circle_evening_create(circle=circle, by=charlie, date=DAY)
    assert not Evening.objects.filter(circle=circle).exists()


def test_an_evening_of_another_circle_stays_his(alice, charlie, circle, started):
    """Only what the removed role reached goes: an evening outside the circle he was invited to stays his."""
    invited = Evening.objects.filter(owner=alice, circle__isnull=True).get()
    circles.circle_scorekeeper_remove(circle=circle, user=charlie, by=alice)
    assert invited.can_keep_score(charlie)


def test_the_picker_offers_no_table_phone(alice, alice_client, charlie):
    circle = circles.circle_create(owner=alice, name="Friday Skat", members=["Ana"])
    services.evening_add_scorekeeper(evening=factories.make_evening(alice), user=charlie)
    tournament = tournaments.tournament_create(
        owner=alice,
        game="skat",
        name="Skat night",
        players=["Ana", "Ben", "Cyril"],
        rounds=1,
        date=DAY,
        start=True,
    )
    table = TournamentTable.objects.get(round__tournament=tournament)
    _, guest = tournaments.table_guest(token=table.token)
    assert table.evening.can_keep_score(guest)  # the phone keeps score of one of Alice's evenings

    assert circles.circle_scorekeeper_candidates(circle) == [charlie]
    page = alice_client.get(circle.get_absolute_url()).content.decode()
    assert f'<option value="{charlie.pk}">charlie</option>' in page
    assert guest.get_username() not in page
    with pytest.raises(services.LedgerError):
        circles.circle_scorekeeper_add(circle=circle, user=guest, by=alice)
    # A renewed link retires the old guest (inactive): not offered either, nor is the new one once it logs in.
    tournaments.table_link_renew(table=table)
    tournaments.table_guest(token=TournamentTable.objects.get(pk=table.pk).token)
    assert circles.circle_scorekeeper_candidates(circle) == [charlie]
    assert not Circle.objects.get(pk=circle.pk).scorekeepers.exists()
