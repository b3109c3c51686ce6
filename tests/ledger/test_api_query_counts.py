"""API requests cost the same number of SQL queries at 10 and at 300 hands."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ledger import services
from tests import factories
from tests.ledger.api_support import anonymous_client, token_client


def _fill(table, count):
    for number in range(count):
        services.hand_record(table=table, hand=dict(factories.SNAPSER_N1, raises=number % 3), by=table.evening.owner)


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
def test_a_read_costs_the_same_at_10_and_300_hands(alice, url, most):
    client = token_client(alice)
    client.get("/api/evenings/")  # the token's user is looked up on every request; warm nothing else
    counts = []
    for size in (10, 300):
        evening = factories.make_evening(alice)
        table = factories.make_table(evening, "snapser")
        _fill(table, size)
        count, _ = _queries(client, url.format(table=table.pk, evening=evening.pk))
        counts.append(count)
    assert counts[0] == counts[1] <= most


def test_the_hand_log_holds_all_300_hands(alice):
    evening = factories.make_evening(alice)
    table = factories.make_table(evening, "snapser")
    _fill(table, 300)
    _, log = _queries(token_client(alice), f"/api/tables/{table.pk}/hands/")
    assert [hand["number"] for hand in log] == list(range(1, 301))


def test_the_shared_evening_costs_the_same_at_10_and_300_hands(alice):
    counts = []
    for size in (10, 300):
        evening = factories.make_evening(alice)
        _fill(factories.make_table(evening, "snapser"), size)
        _fill(factories.make_table(evening, "snapser"), size)
        count, body = _queries(anonymous_client(), f"/api/shared/{evening.share_token}/")
        assert sum(len(table["hands"]) for table in body["tables"]) == 2 * size
        counts.append(count)
    assert counts[0] == counts[1] <= 6
