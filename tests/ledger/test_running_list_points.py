"""The list points each Skat hand keeps (``Hand.list_points``, ``ledger.running_balances``) are always the counted
hands' scores summed per seat: after any sequence of hands, corrections, voids, undos and restores, through the
import, and as migration 0018 writes them for the hands stored before it. A game priced in money only keeps none."""

from __future__ import annotations

import datetime
import json

import pytest
from hypothesis import HealthCheck, given, settings

from ledger import exchange, selectors, services
from ledger.models import Hand, Table
from tests import factories
from tests.ledger.changes_support import apply_changes, changes
from tests.ledger.migrations_support import migrate_to

# Skat hands whose Seeger-Fabian scores differ for every seat: won, lost (+40 to the others), lost 60:60, Null.
OUTCOMES = [
    {"contract": "grand", "matadors": 1, "declarer_points": 61},
    {"contract": "clubs", "matadors": 2, "declarer_points": 30},
    {"contract": "spades", "matadors": 1, "declarer_points": 60},
    {"contract": "null", "won": True},
]
operations = changes(len(OUTCOMES), most=12)


def _hand(table: Table, declarer: int, outcome: int) -> dict:
    return OUTCOMES[outcome] | {"declarer": table.seat_names[declarer]}


def assert_list_points_are_the_scores_summed(table: Table) -> None:
    running = [0] * len(table.seat_names)
    for hand in table.hands.order_by("number"):
        if hand.is_counted:
            for name, points in hand.result["score"].items():
                running[table.seat_names.index(name)] += points
        assert hand.list_points == running, f"hand #{hand.number}"
    assert selectors.table_list_points(table) == dict(zip(table.seat_names, running, strict=True))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=operations)
def test_the_list_points_stay_the_scores_summed_through_any_changes(alice, steps):
    table = factories.make_table(factories.make_evening(alice), "skat", preset="seeger-fabian")
    apply_changes(table, steps, _hand, alice)
    assert_list_points_are_the_scores_summed(table)


def test_a_correction_and_a_void_move_the_list_of_every_later_hand(evening, alice):
    """Seeger-Fabian, three seats: Ana's grand with 1 won is +98; Ben's clubs with 2 lost with 30 (Schneider):
    game 4 × 12 = 48, −96 − 50 = −146 and +40 to Ana and Cyril."""
    table = factories.make_table(evening, "skat", preset="seeger-fabian")
    first, _second = (services.hand_record(table=table, hand=_hand(table, *h), by=alice) for h in [(0, 0), (1, 1)])
    assert Hand.objects.get(table=table, number=2).list_points == [138, -146, 40]
    services.hand_correct(hand=first, document=_hand(table, 2, 0), by=alice, version=1)  # Cyril's now
    assert Hand.objects.get(table=table, number=2).list_points == [40, -146, 138]
    services.hand_void(hand=Hand.objects.get(pk=first.pk), by=alice)
    assert Hand.objects.get(table=table, number=1).list_points == [0, 0, 0]  # a voided hand carries the list before
    assert Hand.objects.get(table=table, number=2).list_points == [40, -146, 40]
    assert_list_points_are_the_scores_summed(table)


def test_a_game_priced_in_money_keeps_no_list(snapser_table):
    factories.record(snapser_table, times=2)
    assert list(snapser_table.hands.values_list("list_points", flat=True)) == [None, None]
    assert selectors.table_list_points(snapser_table) is None


def test_the_import_writes_the_same_list_points(evening, alice):
    table = factories.make_table(evening, "skat", preset="seeger-fabian")
    for number, (declarer, outcome) in enumerate([(0, 0), (1, 1), (2, 2), (1, 3)]):
        hand = services.hand_record(table=table, hand=_hand(table, declarer, outcome), by=alice)
        if number == 2:
            services.hand_void(hand=hand, by=alice)
    data = json.loads(json.dumps(exchange.evening_export(evening=evening)))
    data["tables"][0]["hands"].reverse()
    copy = exchange.evening_import(data=data, owner=factories.make_user("bob")).tables.get()
    assert list(copy.hands.order_by("number").values_list("list_points", flat=True)) == list(
        table.hands.order_by("number").values_list("list_points", flat=True)
    )
    assert_list_points_are_the_scores_summed(copy)


def test_hands_stored_without_list_points_still_count_for_the_hands_after_them(evening, alice):
    """Hands written by the release before list points (between migration 0018 and the new code serving) have none:
    their scores still reach the list of every hand written after them."""
    table = factories.make_table(evening, "skat", preset="seeger-fabian")
    for number in range(3):
        services.hand_record(table=table, hand=_hand(table, number, number), by=alice)
    Hand.objects.filter(table=table, number__in=[2, 3]).update(list_points=None)
    assert selectors.table_list_points(table) == {"Ana": 178, "Ben": -106, "Cyril": -54}  # summed from the scores
    services.hand_record(table=table, hand=_hand(table, 0, 0), by=alice)
    assert table.hands.order_by("-number").first().list_points == [276, -106, -54]


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("back_to_the_latest_schema")
def test_migration_0018_writes_the_list_points_of_the_hands_stored_before_it():
    apps = migrate_to([("ledger", "0017_tournaments")])
    model = apps.get_model
    owner = model("auth", "User").objects.create(username="alice")
    evening = model("ledger", "Evening").objects.create(owner=owner, date=datetime.date(2026, 1, 1), coin="1")
    seats = ["Ana", "Ben", "Cyril"]
    skat = model("ledger", "Table").objects.create(evening=evening, game="skat", ruleset={}, seat_names=seats)
    snapser = model("ledger", "Table").objects.create(evening=evening, game="snapser", ruleset={}, seat_names=seats)
    # Hand 2 voided; hand 3 stored before hand 1 (ids out of the order of the numbers).
    for table, number, status, score in [
        (skat, 3, "counted", {"Ana": 40, "Ben": -146, "Cyril": 40}),
        (skat, 1, "counted", {"Ana": 98, "Ben": 0, "Cyril": 0}),
        (skat, 2, "voided", {"Ana": 0, "Ben": 0, "Cyril": 500}),
        (snapser, 1, "counted", None),
    ]:
        model("ledger", "Hand").objects.create(
            table=table,
            number=number,
            dealer=0,
            document={},
            result={"score": score},
            status=status,
            entered_by=owner,
            changed_by=owner,
        )

    apps = migrate_to([("ledger", "0018_hand_list_points")])
    stored = apps.get_model("ledger", "Hand").objects.order_by("table_id", "number")
    assert list(stored.values_list("list_points", flat=True)) == [[98, 0, 0], [98, 0, 0], [138, -146, 40], None]
