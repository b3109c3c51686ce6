"""An import's ``hand_count`` is the highest hand number it brings, as recording keeps it: an inflated one numbered
the next hand past what the column holds (2**31: a 500 on PostgreSQL at the next Record) or left a gap."""

from __future__ import annotations

import pytest

from ledger import exchange, services
from ledger.models import Evening
from tests import factories


@pytest.mark.parametrize("inflated", [3, 1000, 2**31 - 1])
def test_an_inflated_hand_count_refuses_the_import(alice, inflated):
    evening = factories.make_evening(alice)
    factories.record(factories.make_table(evening, "skat"), times=2)
    data = exchange.evening_export(evening=evening)
    data["tables"][0]["hand_count"] = inflated
    with pytest.raises(exchange.ImportRefused, match="the highest equal to hand_count"):
        exchange.evening_import(data=data, owner=alice)
    assert Evening.objects.count() == 1


def test_an_imported_table_numbers_its_next_hand_after_its_last(alice):
    evening = factories.make_evening(alice)
    factories.record(factories.make_table(evening, "skat"), times=2)
    copy = exchange.evening_import(data=exchange.evening_export(evening=evening), owner=alice)
    table = copy.tables.get()
    hand = services.hand_record(table=table, hand=dict(factories.SKAT_S1), by=alice)
    assert hand.number == 3
