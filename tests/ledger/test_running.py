"""The running balances each hand keeps (``Hand.balances``, ``ledger.running_balances``) always equal the sums of the
postings: after any sequence of hands, corrections, voids, undos and restores, through the import in any order of
hands, and as migration 0012 writes them for the hands stored before it."""

from __future__ import annotations

import datetime
import json
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings

from ledger import exchange, selectors, services
from ledger.models import Hand, Posting, Table
from tests import factories
from tests.ledger.changes_support import apply_changes, changes
from tests.ledger.migrations_support import migrate_to

D = Decimal

# Šnapser hands that move money both ways and by different amounts: (result, raises) for any declarer.
OUTCOMES = [("s_vodou", 0), ("bez_vody", 1), ("za_6", 0), ("s_vodou", 2), ("bez_vody", 0)]
operations = changes(len(OUTCOMES), most=14)


def _hand(table: Table, declarer: int, outcome: int) -> dict:
    result, raises = OUTCOMES[outcome]
    return factories.SNAPSER_N1 | {"declarer": table.seat_names[declarer], "result": result, "raises": raises}


def assert_balances_are_the_postings_summed(table: Table) -> None:
    """Every hand's balances are the counted postings up to it, summed per seat, exactly; each sums to zero; the
    scoreboard's balances are the newest hand's, and those are the postings' aggregate."""
    seats = list(table.seats.order_by("position").values_list("player_id", flat=True))
    running = [D(0)] * len(seats)
    for hand in table.hands.order_by("number"):
        if hand.is_counted:
            for posting in hand.postings.all():
                running[seats.index(posting.player_id)] += posting.amount
        assert hand.balances_after == running, f"hand #{hand.number}"
        assert all(D(value).as_tuple().exponent == -4 for value in hand.balances)  # four places, as money is
        assert sum(hand.balances_after, D(0)) == 0
    totals = Posting.objects.filter(hand__table=table).counted().totals("player__name")
    assert selectors.table_balances(table) == {name: totals.get(name, D(0)) for name in table.seat_names}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=operations)
def test_the_balances_stay_the_sums_of_the_postings_through_any_changes(alice, steps):
    table = factories.make_table(factories.make_evening(alice), "snapser")
    apply_changes(table, steps, _hand, alice)
    assert_balances_are_the_postings_summed(table)


def test_a_correction_of_an_early_hand_moves_the_balances_of_every_later_hand(snapser_table, alice):
    first, *_later = factories.record(snapser_table, times=4)
    assert Hand.objects.get(table=snapser_table, number=4).balances == ["1.6000", "-0.8000", "-0.8000"]
    services.hand_correct(hand=first, document=_hand(snapser_table, 1, 0), by=alice, version=1)  # Ben's now
    assert Hand.objects.get(table=snapser_table, number=4).balances == ["1.0000", "-0.2000", "-0.8000"]
    services.hand_void(hand=Hand.objects.get(pk=first.pk), by=alice)
    assert Hand.objects.get(table=snapser_table, number=4).balances == ["1.2000", "-0.6000", "-0.6000"]
    assert_balances_are_the_postings_summed(snapser_table)


def test_a_voided_hand_carries_the_balances_before_it(snapser_table, alice):
    factories.record(snapser_table, times=2)
    services.hand_undo_last(table=snapser_table, by=alice)
    last = Hand.objects.get(table=snapser_table, number=2)
    assert last.balances == Hand.objects.get(table=snapser_table, number=1).balances == ["0.4000", "-0.2000", "-0.2000"]
    services.hand_restore(hand=last, by=alice)
    assert Hand.objects.get(pk=last.pk).balances == ["0.8000", "-0.4000", "-0.4000"]


@pytest.mark.parametrize("order", ["as exported", "newest first"])
def test_the_import_writes_the_same_balances_in_any_order_of_hands(evening, alice, order):
    table = factories.make_table(evening, "snapser")
    for number, (declarer, outcome) in enumerate([(0, 0), (1, 1), (2, 2), (1, 3), (0, 4)]):
        hand = services.hand_record(table=table, hand=_hand(table, declarer, outcome), by=alice)
        if number == 2:
            services.hand_void(hand=hand, by=alice)
    data = json.loads(json.dumps(exchange.evening_export(evening=evening)))
    if order == "newest first":
        data["tables"][0]["hands"].reverse()
    copy = exchange.evening_import(data=data, owner=factories.make_user("bob")).tables.get()
    assert list(copy.hands.order_by("number").values_list("balances", flat=True)) == list(
        table.hands.order_by("number").values_list("balances", flat=True)
    )
    assert_balances_are_the_postings_summed(copy)


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("back_to_the_latest_schema")
def test_migration_0012_writes_the_balances_of_the_hands_stored_before_it():
    apps = migrate_to([("ledger", "0011_settlement_names_dropped")])
    model = apps.get_model
    owner = model("auth", "User").objects.create(username="alice")
    evening = model("ledger", "Evening").objects.create(owner=owner, date=datetime.date(2026, 1, 1), coin="1")
    table = model("ledger", "Table").objects.create(
        evening=evening, game="snapser", ruleset={}, seat_names=["Ana", "Ben", "Cyril"], hand_count=3
    )
    players = [model("ledger", "Player").objects.create(owner=owner, name=name) for name in table.seat_names]
    for position, player in enumerate(players):
        model("ledger", "Seat").objects.create(table=table, player=player, position=position)
    # Hand 2 voided; hand 3 stored before hand 1 (ids out of the order of the numbers).
    for number, status, amounts in [
        (3, "counted", ["-0.1000", "0.0500", "0.0500"]),
        (1, "counted", ["0.4000", "-0.2000", "-0.2000"]),
        (2, "voided", ["-9", "4.5", "4.5"]),
    ]:
        hand = model("ledger", "Hand").objects.create(
            table=table,
            number=number,
            dealer=0,
            document={},
            result={},
            status=status,
            entered_by=owner,
            changed_by=owner,
        )
        for player, amount in zip(players, amounts, strict=True):
            model("ledger", "Posting").objects.create(hand=hand, player=player, amount=amount)

    apps = migrate_to([("ledger", "0012_hand_balances")])
    stored = apps.get_model("ledger", "Hand").objects.filter(table_id=table.pk).order_by("number")
    assert list(stored.values_list("balances", flat=True)) == [
        ["0.4000", "-0.2000", "-0.2000"],
        ["0.4000", "-0.2000", "-0.2000"],
        ["0.3000", "-0.1500", "-0.1500"],
    ]


@pytest.mark.parametrize("change", ["record", "correct the first", "void the first"])
def test_hands_stored_without_balances_still_count_for_the_hands_after_them(snapser_table, alice, change):
    """Hands written by a release before running balances (between migration 0012 and the new code serving) have
    none: their money must still reach the balances of every hand written after them."""
    hands = [services.hand_record(table=snapser_table, hand=_hand(snapser_table, n % 3, n), by=alice) for n in range(4)]
    Hand.objects.filter(table=snapser_table, number__in=[2, 3]).update(balances=None)
    if change == "record":
        services.hand_record(table=snapser_table, hand=_hand(snapser_table, 1, 1), by=alice)
    elif change == "correct the first":
        services.hand_correct(hand=hands[0], document=_hand(snapser_table, 2, 3), by=alice, version=1)
    else:
        services.hand_void(hand=hands[0], by=alice, version=1)
    newest = snapser_table.hands.order_by("-number").first()
    totals = Posting.objects.filter(hand__table=snapser_table).counted().totals("player__name")
    assert [D(value) for value in newest.balances] == [totals.get(name, D(0)) for name in snapser_table.seat_names]
    assert sum(selectors.table_balances(snapser_table).values()) == 0
    assert selectors.table_balances(snapser_table) == {n: totals.get(n, D(0)) for n in snapser_table.seat_names}
