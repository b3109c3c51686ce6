"""Skat pub rules: the ledger keeps the Bock queue and offers the pending factor for the next hand."""

from __future__ import annotations

from decimal import Decimal

import pytest

from ledger import services
from ledger.models import Hand
from tests import factories

LOST_60_60 = {"declarer": "Ana", "contract": "clubs", "matadors": 1, "declarer_points": 60}
PLAIN = {"declarer": "Ben", "contract": "clubs", "matadors": 1, "declarer_points": 70}


def _pending(table):
    counted = list(Hand.objects.filter(table=table, status="counted").order_by("number"))
    return services.bock_pending(table, counted)


def test_a_game_lost_60_60_starts_a_round_of_one_hand_per_seat(evening):
    table = factories.make_table(evening, "skat", preset="pub")
    factories.record(table, LOST_60_60)
    pending = []
    for _ in range(4):
        pending.append(_pending(table))
        services.hand_record(table=table, hand=PLAIN | {"bock": pending[-1]}, by=evening.owner)
    assert pending == [1, 1, 1, 0]
    hands = list(Hand.objects.filter(table=table).order_by("number"))
    # clubs with 1, game 2 × 12 = 24, doubled inside the Bock round: Ben +48 list points at 0.01 → +0.96 Ben
    assert [h.amounts["Ben"] for h in hands[1:]] == [Decimal("0.96")] * 3 + [Decimal("0.48")]


def test_a_voided_trigger_takes_its_round_back(evening):
    table = factories.make_table(evening, "skat", preset="pub")
    trigger = factories.record(table, LOST_60_60)[0]
    services.hand_void(hand=trigger, by=evening.owner)
    assert _pending(table) == 0


def test_the_table_page_offers_the_pending_bock(alice_client, evening):
    table = factories.make_table(evening, "skat", preset="pub")
    factories.record(table, LOST_60_60)
    html = alice_client.get(table.get_absolute_url()).content.decode()
    assert 'name="bock" value="1"' in html


def test_the_ledger_gives_a_hand_without_bock_its_pending_factor(evening):
    table = factories.make_table(evening, "skat", preset="pub")
    factories.record(table, LOST_60_60)
    hand = services.hand_record(table=table, hand=PLAIN, by=evening.owner)  # as an API client might send it
    assert hand.document["bock"] == 1
    assert hand.amounts["Ben"] == Decimal("0.96")


def test_a_form_drawn_before_the_trigger_is_refused_not_priced_single(evening):
    table = factories.make_table(evening, "skat", preset="pub")
    factories.record(table, LOST_60_60)
    with pytest.raises(services.LedgerError) as caught:
        services.hand_record(table=table, hand=PLAIN | {"bock": 0}, by=evening.owner)
    assert caught.value.field == "bock"
    assert "1 Bock rounds are pending" in caught.value.message
    assert Hand.objects.filter(table=table).count() == 1


# A Grand Hand won, worth 72: it fires two triggers (Grand Hand won, game value ≥ 72).
GRAND_HAND_WON = {"declarer": "Ana", "contract": "grand", "matadors": 1, "declarer_points": 70, "hand": True}


def test_a_hand_that_fires_two_triggers_starts_one_round(evening):
    table = factories.make_table(evening, "skat", preset="pub")
    trigger = factories.record(table, GRAND_HAND_WON)[0]
    assert trigger.result["bock_rounds"] == 1
    pending = []
    for _ in range(4):
        pending.append(_pending(table))
        factories.record(table, PLAIN)
    assert pending == [1, 1, 1, 0]


def test_with_bock_per_trigger_each_trigger_starts_a_round(evening):
    table = factories.make_table(evening, "skat", preset="pub", bock_per_trigger=True)
    factories.record(table, GRAND_HAND_WON)
    pending = []
    for _ in range(4):
        pending.append(_pending(table))
        factories.record(table, PLAIN)
    assert pending == [2, 2, 2, 0]
    hands = list(Hand.objects.filter(table=table).order_by("number"))
    # clubs with 1 (24) inside two rounds: ×4, Ben +96 list points at 0.01 → +1.92
    assert [h.amounts["Ben"] for h in hands[1:]] == [Decimal("1.92")] * 3 + [Decimal("0.48")]
