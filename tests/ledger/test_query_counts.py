"""Per-request SQL must not grow with the number of hands: the same count at 10 and at 120 hands.

The tables are recorded hand by hand through ``services.hand_record``, as the app stores them, once for the module
(``stored``: about 400 hands instead of 1,500 recorded again by each test); each test runs inside that data and
its own writes (a hand submitted) are undone after it (``factories.kept_for_the_module``)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ledger import selectors, services
from ledger.models import Hand, Table
from tests import factories

# make pytest runs a file's tests on one worker one after another (--dist loadfile): the tables are recorded once.
pytestmark = pytest.mark.django_db


def _fill(table, count):
    hand = factories.SNAPSER_N1
    for number in range(count):
        services.hand_record(table=table, hand=dict(hand, raises=number % 3), by=table.evening.owner)


def _fill_seeger(table, count):
    """Seeger-Fabian with Bock rounds: every third hand lost 60:60 (a Bock round), the others won inside it."""
    for number in range(count):
        declarer = table.seat_names[number % 3]
        points = 60 if number % 3 == 0 else 61
        hand = {"declarer": declarer, "contract": "grand", "matadors": 1, "declarer_points": points}
        services.hand_record(table=table, hand=hand, by=table.evening.owner)


def _fill_bock(table, count):
    for number in range(count):
        declarer = table.seat_names[number % 3]
        hand = {"declarer": declarer, "contract": "grand", "matadors": 1, "declarer_points": 61}
        services.hand_record(table=table, hand=hand, by=table.evening.owner)


# Past the log's 30 hands (selectors.LOG_LENGTH) four times over: a query per hand, or per hand beyond the log,
# shows as a difference of 110; no count in the app depends on the number of hands beyond that.
SIZES = (10, 120)


@dataclass(frozen=True)
class Stored:
    """Alice's tables by number of hands, each alone in an evening of its own."""

    alice: object
    snapser: dict[int, Table]
    bock: dict[int, Table]
    seeger: dict[int, Table]


@pytest.fixture(scope="module")
def stored(django_db_setup, django_db_blocker):
    with factories.kept_for_the_module(django_db_blocker):
        with django_db_blocker.unblock():
            alice = factories.make_user("alice")
            tables: dict[str, dict[int, Table]] = {"snapser": {}, "bock": {}, "seeger": {}}
            for size in SIZES:
                tables["snapser"][size] = factories.make_table(factories.make_evening(alice), "snapser")
                _fill(tables["snapser"][size], size)
                tables["bock"][size] = factories.make_table(factories.make_evening(alice), "skat", preset="pub")
                _fill_bock(tables["bock"][size], size)
                seeger = factories.make_table(factories.make_evening(alice), "skat", preset="seeger-fabian", bock=True)
                _fill_seeger(seeger, size)
                tables["seeger"][size] = seeger
        yield Stored(alice=alice, **tables)


@pytest.fixture
def alice(db, stored):
    """The module's Alice, who keeps the stored tables (the shared fixture would make a second one)."""
    return stored.alice


def _fresh(table):
    """The stored table as the database has it now (a test before this one may have read it into this object)."""
    return Table.objects.get(pk=table.pk)


def _queries(client, method, url, data=None, **headers):
    with CaptureQueriesContext(connection) as captured:
        response = getattr(client, method)(url, data or {}, headers=headers)
    assert response.status_code in (200, 302), response.status_code
    return len(captured)


@pytest.mark.parametrize("htmx", [False, True])
def test_the_table_page_costs_the_same_at_10_and_120_hands(stored, alice_client, htmx):
    headers = {"HX-Request": "true"} if htmx else {}
    counts = []
    for size in SIZES:
        table = _fresh(stored.snapser[size])
        assert table.hands.count() == size
        counts.append(_queries(alice_client, "get", table.get_absolute_url(), **headers))
    assert counts[0] == counts[1]
    # Session, user, table; the newest hands of the log and their count; the newest counted contracts for the
    # fresh form; the chart's sample of running balances (the balances are the newest hand's: no query).
    assert counts[0] <= 7


@pytest.mark.parametrize("answer", ["what changed", "the whole live part"])
def test_a_hand_submission_costs_the_same_at_10_and_120_hands(stored, alice_client, answer):
    counts = []
    for size in SIZES:
        table = _fresh(stored.snapser[size])
        assert table.hands.count() == size
        url = reverse("ledger:hand_create", args=[table.pk])
        data = factories.SNAPSER_N1 | {"dealer": "0", "key": f"k{size}"}
        if answer == "what changed":  # the form was drawn on the table as it is: out-of-band swaps
            data["table_revision"] = Table.objects.get(pk=table.pk).revision
        counts.append(_queries(alice_client, "post", url, data, **{"HX-Request": "true"}))
        assert Hand.objects.filter(table=table).count() == size + 1
    assert counts[0] == counts[1]
    if answer == "what changed":
        # Recording (with its three for the running balances), then the revision with the hand count, the newest
        # counted contracts for the fresh form and the chart's sample, and whether the table plays in a tournament
        # (whose standings are pushed after the commit).
        assert counts[0] <= 19


def test_a_bock_table_page_costs_the_same_at_10_and_120_hands(stored, alice_client):
    counts = []
    for size in SIZES:
        table = _fresh(stored.bock[size])
        assert table.hands.count() == size
        counts.append(_queries(alice_client, "get", table.get_absolute_url()))
    assert counts[0] == counts[1]


@pytest.mark.parametrize("htmx", [False, True])
def test_a_seeger_fabian_table_page_costs_the_same_at_10_and_120_hands(stored, alice_client, htmx):
    """Its list points so far are the newest hand's (``Hand.list_points``), read with the log: no query of their own."""
    headers = {"HX-Request": "true"} if htmx else {}
    counts = []
    for size in SIZES:
        table = _fresh(stored.seeger[size])
        assert table.hands.count() == size
        page = alice_client.get(table.get_absolute_url(), headers=headers)
        assert "Seeger-Fabian points" in page.content.decode()
        counts.append(_queries(alice_client, "get", table.get_absolute_url(), **headers))
    assert counts[0] == counts[1]
    # The Šnapser page's 7 and the Bock queue's newest hands.
    assert counts[0] <= 8


def test_a_seeger_fabian_hand_submission_costs_the_same_at_10_and_120_hands(stored, alice_client):
    counts = []
    for size in SIZES:
        table = _fresh(stored.seeger[size])
        assert table.hands.count() == size
        declarer = table.seat_names[size % 3]
        data = {"declarer": declarer, "contract": "grand", "matadors": "1", "declarer_points": "61"}
        data |= {
            "bock": selectors.table_pending_bock(table),
            "dealer": selectors.next_dealer(table, table.hands.first()),
        }
        data |= {"key": f"k{size}", "table_revision": table.revision}
        url = reverse("ledger:hand_create", args=[table.pk])
        counts.append(_queries(alice_client, "post", url, data, **{"HX-Request": "true"}))
        assert Hand.objects.filter(table=table).count() == size + 1
    assert counts[0] == counts[1]


def test_the_share_page_costs_the_same_at_10_and_120_hands(stored, client):
    counts = []
    for size in SIZES:
        evening = _fresh(stored.snapser[size]).evening
        assert evening.tables.count() == 1
        counts.append(_queries(client, "get", reverse("ledger:shared_evening", args=[evening.share_token])))
    assert counts[0] == counts[1]
    # The ETag, the evening, its tables; per table its log, hand count, balances and chart (selectors).
    assert counts[0] <= 7


def test_the_evening_page_costs_the_same_at_10_and_120_hands(stored, alice_client):
    counts = []
    for size in SIZES:
        evening = _fresh(stored.snapser[size]).evening
        assert evening.tables.count() == 1
        counts.append(_queries(alice_client, "get", evening.get_absolute_url()))
    assert counts[0] == counts[1]


def test_the_share_page_of_a_seeger_fabian_table_costs_the_same_at_10_and_120_hands(stored, client):
    counts = []
    for size in SIZES:
        evening = _fresh(stored.seeger[size]).evening
        assert evening.tables.count() == 1
        counts.append(_queries(client, "get", reverse("ledger:shared_evening", args=[evening.share_token])))
    assert counts[0] == counts[1]
    assert counts[0] <= 7  # as the Šnapser share page: the list points come with the log
