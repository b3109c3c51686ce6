"""API requests cost the same number of SQL queries at 10 and at 120 hands.

The tables are recorded hand by hand through ``services.hand_record``, as the app stores them, once for the module
(``stored``: 930 hands instead of 2,160 recorded again by each test); the tests only read them
(``factories.kept_for_the_module`` rolls them back when the module is done)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ledger import services
from ledger.models import Evening, Table
from tests import factories
from tests.ledger.api_support import anonymous_client, token_client

# make pytest runs a file's tests on one worker one after another (--dist loadfile): the tables are recorded once.
pytestmark = pytest.mark.django_db

SIZES = (10, 120)  # past the table page's 30-hand log four times over, as in test_query_counts.py


def _fill(table, count):
    for number in range(count):
        services.hand_record(table=table, hand=dict(factories.SNAPSER_N1, raises=number % 3), by=table.evening.owner)


@dataclass(frozen=True)
class Stored:
    """By number of hands: an evening of Alice's with one Šnapser table, and one with two."""

    alice: object
    single: dict[int, Table]
    double: dict[int, Evening]


@pytest.fixture(scope="module")
def stored(django_db_setup, django_db_blocker):
    with factories.kept_for_the_module(django_db_blocker):
        with django_db_blocker.unblock():
            alice = factories.make_user("alice")
            single, double = {}, {}
            for size in SIZES:
                single[size] = factories.make_table(factories.make_evening(alice), "snapser")
                _fill(single[size], size)
                double[size] = factories.make_evening(alice)
                _fill(factories.make_table(double[size], "snapser"), size)
                _fill(factories.make_table(double[size], "snapser"), size)
        yield Stored(alice=alice, single=single, double=double)


@pytest.fixture
def alice(db, stored):
    """The module's Alice, who keeps the stored tables (the shared fixture would make a second one)."""
    return stored.alice


def _queries(client, url):
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, response.content
    return len(captured), response.json()


@pytest.mark.parametrize(
    ("url", "most"),
    [
        ("/api/tables/{table}/hands/", 3),
        ("/api/tables/{table}/", 5),
        ("/api/evenings/{evening}/", 5),
        ("/api/evenings/{evening}/settlement/", 4),
    ],
)
def test_a_read_costs_the_same_at_10_and_120_hands(stored, alice, url, most):
    client = token_client(alice)
    client.get("/api/evenings/")  # the token's user is looked up on every request; warm nothing else
    counts = []
    for size in SIZES:
        table = Table.objects.get(pk=stored.single[size].pk)
        assert table.hands.count() == size and table.evening.tables.count() == 1
        count, _ = _queries(client, url.format(table=table.pk, evening=table.evening_id))
        counts.append(count)
    assert counts[0] == counts[1] <= most


def test_the_hand_log_holds_all_120_hands(stored, alice):
    table = stored.single[120]
    _, log = _queries(token_client(alice), f"/api/tables/{table.pk}/hands/")
    assert [hand["number"] for hand in log] == list(range(1, 121))


def test_the_shared_evening_costs_the_same_at_10_and_120_hands(stored):
    counts = []
    for size in SIZES:
        evening = Evening.objects.get(pk=stored.double[size].pk)
        count, body = _queries(anonymous_client(), f"/api/shared/{evening.share_token}/")
        assert len(body["tables"]) == 2
        assert sum(len(table["hands"]) for table in body["tables"]) == 2 * size
        counts.append(count)
    assert counts[0] == counts[1] <= 6
