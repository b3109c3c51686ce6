"""An import costs the same number of queries per table whatever its hands (5,000 in seconds, not minutes): the
postings of a table go in at once, with one pass over its running balances."""

from __future__ import annotations

import copy

from django.db import connection
from django.test.utils import CaptureQueriesContext

from ledger import exchange, selectors
from tests import factories


def _document(alice, hands: int) -> dict:
    """An open evening's export with ``hands`` Skat hands (the two recorded ones, repeated)."""
    evening = factories.make_evening(alice)
    factories.record(factories.make_table(evening, "skat"), times=2)
    data = exchange.evening_export(evening=evening)
    table = data["tables"][0]
    model = table["hands"][0]
    table["hands"] = [copy.deepcopy(model) | {"number": number, "key": None} for number in range(1, hands + 1)]
    table["hand_count"] = hands
    return data


def _queries(alice, hands: int) -> int:
    data = _document(alice, hands)
    with CaptureQueriesContext(connection) as queries:
        copy_ = exchange.evening_import(data=data, owner=alice)
    assert selectors.table_balances(copy_.tables.get())["Ana"] == hands * factories.money("0.96")
    return len(queries)


def test_an_import_asks_about_as_many_queries_for_many_hands_as_for_few(alice):
    # Only the bulk inserts and updates grow, in batches (SQLite takes some seventy hands a statement): before, each
    # hand cost several queries reading every later hand.
    few, many = _queries(alice, 20), _queries(alice, 400)
    assert many - few <= 400 // 40
