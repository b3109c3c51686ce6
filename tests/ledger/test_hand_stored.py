"""``hooks.hand_stored``: after the commit, the features hear each hand recorded, corrected, voided (undone) or
counted again, with its version and who changed it; never for a change rolled back, a repeat or a conflict."""

from __future__ import annotations

import pytest

from ledger import hooks, services
from ledger.errors import HandConflict
from tests import factories

BEZ_VODY = factories.SNAPSER_N1 | {"result": "bez_vody"}


@pytest.fixture
def told():
    heard: list[hooks.HandStored] = []
    hooks.hand_stored.connect(heard.append)
    yield heard
    hooks.hand_stored.disconnect(heard.append)


def _changes(heard):
    return [(event.number, event.version, event.change) for event in heard]


def test_each_change_of_a_hand_is_told_after_the_commit(
    snapser_table, alice, charlie, told, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        hand = services.hand_record(table=snapser_table, hand=factories.SNAPSER_N1, by=alice, after=0)
    assert len(callbacks) >= 1
    assert told == [
        hooks.HandStored(
            hand_id=hand.pk,
            table_id=snapser_table.pk,
            evening_id=snapser_table.evening_id,
            number=1,
            version=1,
            change="recorded",
            by_id=alice.pk,
            confirmation="none",
        )
    ]
    with django_capture_on_commit_callbacks(execute=True):
        hand = services.hand_correct(hand=hand, document=BEZ_VODY, by=charlie, version=1)
        hand = services.hand_void(hand=hand, by=alice)
        services.hand_restore(hand=hand, by=alice)
        services.hand_undo_last(table=snapser_table, by=charlie, number=1)
    assert _changes(told) == [
        (1, 1, "recorded"),
        (1, 2, "corrected"),
        (1, 3, "voided"),
        (1, 4, "restored"),
        (1, 5, "voided"),
    ]
    assert [event.by_id for event in told] == [alice.pk, charlie.pk, alice.pk, alice.pk, charlie.pk]


def test_nothing_is_told_before_the_commit(snapser_table, alice, told, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.hand_record(table=snapser_table, hand=factories.SNAPSER_N1, by=alice)
    assert told == []  # waiting for the commit, which this test's transaction never makes
    assert callbacks


def test_a_repeat_a_double_tap_or_a_conflict_tells_nothing(
    snapser_table, alice, told, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        hand = services.hand_record(table=snapser_table, hand=factories.SNAPSER_N1, by=alice, key="k", after=0)
        hand = services.hand_void(hand=hand, by=alice)
    told.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.hand_record(table=snapser_table, hand=factories.SNAPSER_N1, by=alice, key="k", after=0)
        services.hand_void(hand=hand, by=alice)  # voided already: the double tap changes nothing
        assert services.hand_undo_last(table=snapser_table, by=alice, number=1) is None
        with pytest.raises(HandConflict):
            services.hand_record(table=snapser_table, hand=factories.SNAPSER_N1, by=alice, key="other", after=0)
        with pytest.raises(services.StaleVersion):
            services.hand_correct(hand=hand, document=BEZ_VODY, by=alice, version=1)
    assert told == []
    with django_capture_on_commit_callbacks(execute=True):
        services.hand_restore(hand=hand, by=alice)
        services.evening_close(evening=snapser_table.evening, by=alice)
    assert _changes(told) == [(1, 3, "restored")]
    told.clear()
    # Refused inside the hand's transaction: rolled back, never told.
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(services.EveningClosed):
        services.hand_void(hand=hand, by=alice, version=3)
    assert told == []
