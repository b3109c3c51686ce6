"""The statistics summaries kept hand by hand (``ledger.stats.increments``) equal a computation from scratch after
any sequence of hands recorded, corrected, voided, restored and undone, one request or several at a time; the
changes are written down with the hand and taken in by whoever comes first; and the hand's request does not
recompute its table."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger import services
from ledger.models import Hand, Table
from ledger.stats import increments, summaries
from ledger.stats.models import StatsChange, StatsDeclared, StatsLine, StatsPair
from tests import factories
from tests.ledger.changes_support import changes

# Per game, outcomes that move money both ways, with and without raises, and (Mariáš) with a partner.
SNAPSER = [("s_vodou", 0), ("bez_vody", 1), ("za_6", 0), ("s_vodou", 2), ("bez_vody", 0)]
SKAT = [61, 60, 90, 30, 61]
MARIAS = [(60, 0), (40, 0), (60, 1), (40, 1), (90, 0)]
OUTCOMES = 5


def _hand(table: Table, declarer: int, outcome: int) -> dict[str, Any]:
    seats = table.seat_names
    if table.game == "snapser":
        result, raises = SNAPSER[outcome]
        return factories.SNAPSER_N1 | {"declarer": seats[declarer], "result": result, "raises": raises}
    if table.game == "skat":
        return factories.SKAT_S1 | {"declarer": seats[declarer], "declarer_points": SKAT[outcome]}
    points, flek = MARIAS[outcome]
    partner = seats[(declarer + 1 + outcome % 3) % len(seats)]
    hand = factories.MARIAS_M2 | {"declarer": seats[declarer], "partner": partner, "points": points}
    return hand | ({"flek": {"hra": flek}} if flek else {})


def _apply(table: Table, step: tuple[Any, ...], by: Any) -> None:
    """One change through the services, as the pages and the API make it (``changes_support.changes``' steps)."""
    kind = step[0]
    hands = list(Hand.objects.filter(table=table).order_by("number"))
    if kind == "record":
        services.hand_record(table=table, hand=_hand(table, *step[1:]), by=by)
    elif kind == "undo":
        services.hand_undo_last(table=table, by=by)
    elif hands:
        hand = hands[step[1] % len(hands)]
        if kind == "correct":
            services.hand_correct(hand=hand, document=_hand(table, *step[2:]), by=by, version=hand.version)
        elif kind == "void":
            services.hand_void(hand=hand, by=by)
        else:
            services.hand_restore(hand=hand, by=by)


def _summaries(table: Table) -> tuple[list[Any], list[Any], list[Any]]:
    lines = (
        StatsLine.objects.filter(table=table)
        .order_by("player_id")
        .values_list(
            "player_id", "table_hands", "hands", "won", "net", "most", "least", "most_hand_id", "least_hand_id"
        )
    )
    runs = (
        StatsLine.objects.filter(table=table)
        .order_by("player_id")
        .values_list("flek_given", "flek_won", "declared", "declared_won", "best_run", "lead_run", "tail_run")
    )
    declared = (
        StatsDeclared.objects.filter(table=table)
        .order_by("player_id", "contract")
        .values_list("player_id", "contract", "played", "won")
    )
    pairs = (
        StatsPair.objects.filter(table=table)
        .order_by("player_id", "other_id")
        .values_list(
            "player_id", "other_id", "with_hands", "with_net", "with_won", "against_hands", "against_net", "against_won"
        )
    )
    return [(*line, *run) for line, run in zip(lines, runs, strict=True)], list(declared), list(pairs)


def _as_requests(table: Table, steps: list[tuple[Any, ...]], per_request: int, by: Any, capture: Any) -> list[str]:
    """The steps, ``per_request`` of them per request: each committed, then the request's end works them off. The
    recomputations from scratch ``catch_up`` made, by table revision."""
    recomputed: list[str] = []
    original = summaries.refresh

    def counting(tables: Any) -> int:
        recomputed.append(str(Table.objects.get(pk=table.pk).stats_revision))
        return original(tables)

    summaries.refresh = counting  # type: ignore[assignment]
    try:
        for start in range(0, len(steps), per_request):
            increments.begin()
            with capture(execute=True):
                for step in steps[start : start + per_request]:
                    _apply(table, step, by)
            increments.flush()
    finally:
        summaries.refresh = original  # type: ignore[assignment]
    return recomputed


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    game=st.sampled_from(["snapser", "skat", "marias"]),
    steps=changes(OUTCOMES, most=10),
    per_request=st.integers(1, 3),
)
def test_the_summaries_kept_hand_by_hand_equal_a_computation_from_scratch(
    alice, django_capture_on_commit_callbacks, game, steps, per_request
):
    table = factories.make_table(factories.make_evening(alice), game)
    recomputed = _as_requests(table, steps, per_request, alice, django_capture_on_commit_callbacks)
    table.refresh_from_db()
    assert table.stats_revision == (table.revision or None)
    # Only the table's first change is a computation from scratch (it was never summarized).
    assert recomputed in ([], ["None"])
    kept = _summaries(table)
    Table.objects.filter(pk=table.pk).update(stats_revision=None)
    assert summaries.refresh(Table.objects.filter(pk=table.pk)) == 1
    assert _summaries(table) == kept


def test_a_change_outside_a_request_is_written_down_and_taken_in_by_the_next(alice, django_capture_on_commit_callbacks):
    table = factories.make_table(factories.make_evening(alice), "snapser")
    _as_requests(table, [("record", 0, 0), ("record", 1, 1)], 1, alice, django_capture_on_commit_callbacks)
    factories.record(table)  # a script's hand: nobody takes it in now, but it is written down
    assert StatsChange.objects.filter(table=table).count() == 1
    assert _as_requests(table, [("record", 2, 2)], 1, alice, django_capture_on_commit_callbacks) == []
    table.refresh_from_db()
    assert table.stats_revision == table.revision == 4
    assert StatsLine.objects.get(table=table, player__name="Ana").hands == 4
    assert not StatsChange.objects.filter(table=table).exists()


def test_a_rename_moves_the_revision_without_a_change_and_the_table_is_recomputed(alice):
    table = factories.make_table(factories.make_evening(alice), "snapser")
    factories.record(table, times=2)
    assert increments.catch_up(table.pk) == "recomputed"  # never summarized
    factories.record(table)
    services.player_rename(player=table.seats.get(position=0).player, name="Anna")
    assert increments.catch_up(table.pk) == "recomputed"
    assert StatsLine.objects.get(table=table, player__name="Anna").hands == 3
    assert not StatsChange.objects.filter(table=table).exists()


@pytest.mark.parametrize("hands", [10, 200])
def test_a_hand_adds_its_rows_in_a_fixed_number_of_queries(alice, django_capture_on_commit_callbacks, hands):
    table = factories.make_table(factories.make_evening(alice), "snapser")
    for number in range(hands):
        services.hand_record(table=table, hand=_hand(table, number % 3, number % OUTCOMES), by=alice)
    summaries.refresh(Table.objects.filter(pk=table.pk))
    increments.begin()
    with django_capture_on_commit_callbacks(execute=True):
        services.hand_record(table=table, hand=_hand(table, 0, 1), by=alice)
    with CaptureQueriesContext(connection) as queries:
        increments.flush()
    # The lock, the changes waiting, seats, hands, the three summaries read, at most a delete and an insert each,
    # the changes deleted and the revision marked, in a savepoint.
    assert len(queries) <= 18, [query["sql"] for query in queries]
    assert not any("INSERT INTO ledger_statsline" in query["sql"] and "SELECT" in query["sql"] for query in queries)


def test_the_changes_of_several_requests_are_taken_in_by_whoever_comes_first(alice):
    # Three requests commit (a hand, another hand, a correction of the first) before the first one's answer has
    # gone out: the first to end takes in all three, in the order written; the others find the table current.
    table = factories.make_table(factories.make_evening(alice), "snapser")
    services.hand_record(table=table, hand=_hand(table, 0, 0), by=alice)
    summaries.refresh(Table.objects.filter(pk=table.pk))
    first = services.hand_record(table=table, hand=_hand(table, 1, 1), by=alice)
    services.hand_record(table=table, hand=_hand(table, 2, 3), by=alice)
    services.hand_correct(hand=first, document=_hand(table, 0, 2), by=alice, version=1)
    assert list(StatsChange.objects.filter(table=table).order_by("pk").values_list("hand_id", "version")) == [
        (first.pk, None),
        (first.pk + 1, None),
        (first.pk, 1),
    ]
    assert increments.catch_up(table.pk) == "added"
    assert increments.catch_up(table.pk) == "current"
    kept = _summaries(table)
    Table.objects.filter(pk=table.pk).update(stats_revision=None)
    summaries.refresh(Table.objects.filter(pk=table.pk))
    assert _summaries(table) == kept


def test_a_correction_of_an_old_hand_takes_out_its_old_version(alice):
    table = factories.make_table(factories.make_evening(alice), "snapser")
    hands = [services.hand_record(table=table, hand=_hand(table, n % 3, n % OUTCOMES), by=alice) for n in range(4)]
    summaries.refresh(Table.objects.filter(pk=table.pk))
    services.hand_correct(hand=hands[1], document=_hand(table, 2, 2), by=alice, version=1)
    services.hand_void(hand=hands[0], by=alice)
    assert increments.catch_up(table.pk) == "added"
    kept = _summaries(table)
    assert StatsLine.objects.filter(table=table).first().table_hands == 3
    Table.objects.filter(pk=table.pk).update(stats_revision=None)
    summaries.refresh(Table.objects.filter(pk=table.pk))
    assert _summaries(table) == kept
