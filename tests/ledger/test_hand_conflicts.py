"""Two phones record "the next hand" at once: the one that names the hands it saw (``after``) and finds another hand
recorded meanwhile stores nothing and hears which hand won and who recorded it; its own retried tap is no conflict."""

from __future__ import annotations

from decimal import Decimal

import pytest

from ledger import services
from ledger.errors import HandConflict, LedgerError
from ledger.models import Hand, Posting, Table
from tests import factories

D = Decimal
BEZ_VODY = factories.SNAPSER_N1 | {"result": "bez_vody"}


@pytest.fixture
def vera(db):
    user = factories.make_user("vera")
    user.first_name, user.last_name = "Věra", "Nováková"
    user.save()
    return user


def _stored(table):
    table.refresh_from_db()
    return table.hand_count, table.revision, Hand.objects.filter(table=table).count(), Posting.objects.count()


def test_a_hand_recorded_after_the_hands_the_phone_saw_is_stored(snapser_table, alice):
    factories.record(snapser_table, times=2)
    hand = services.hand_record(table=snapser_table, hand=BEZ_VODY, by=alice, key="k3", after=2)
    assert hand.number == 3
    assert hand.amounts == {"Ana": D("0.80"), "Ben": D("-0.40"), "Cyril": D("-0.40")}  # RULES.md N2


def test_a_hand_recorded_meanwhile_wins_and_nothing_of_mine_is_stored(snapser_table, alice, vera):
    theirs = services.hand_record(table=snapser_table, hand=factories.SNAPSER_N1, by=vera, key="vera", after=0)
    before = _stored(snapser_table)
    with pytest.raises(HandConflict) as caught:
        services.hand_record(table=snapser_table, hand=BEZ_VODY, by=alice, key="alice", after=0)
    assert caught.value.stored.pk == theirs.pk
    assert caught.value.field == "after"
    assert caught.value.message == "Hand #1 was just recorded by Věra Nováková."
    assert _stored(snapser_table) == before == (1, 1, 1, 3)
    assert not Hand.objects.filter(key="alice").exists()


def test_the_conflict_names_the_first_hand_the_phone_had_not_seen(snapser_table, alice):
    factories.record(snapser_table, times=4)
    with pytest.raises(HandConflict) as caught:
        services.hand_record(table=snapser_table, hand=BEZ_VODY, by=alice, after=1)
    assert caught.value.stored.number == 2
    assert caught.value.message == "Hand #2 was just recorded by alice."  # no full name: the user name


def test_a_voided_or_corrected_hand_is_no_new_hand(snapser_table, alice, vera):
    """Undo, void and corrections keep the count: a phone that saw two hands still records the third."""
    first, _second = factories.record(snapser_table, times=2)
    services.hand_undo_last(table=snapser_table, by=vera)
    services.hand_correct(hand=first, document=BEZ_VODY, by=vera, version=1)
    assert services.hand_record(table=snapser_table, hand=BEZ_VODY, by=alice, after=2).number == 3


def test_my_own_tap_again_is_answered_with_my_hand_not_a_conflict(snapser_table, alice):
    mine = services.hand_record(table=snapser_table, hand=BEZ_VODY, by=alice, key="tap", after=0)
    again = services.hand_record(table=snapser_table, hand=BEZ_VODY, by=alice, key="tap", after=0)
    assert again.pk == mine.pk
    assert _stored(snapser_table)[2:] == (1, 3)


def test_mine_recorded_as_the_next_hand_after_theirs(snapser_table, alice, vera):
    """The conflict's second way out: the same document and key, after the hand that won."""
    services.hand_record(table=snapser_table, hand=factories.SNAPSER_N1, by=vera, after=0)
    with pytest.raises(HandConflict) as caught:
        services.hand_record(table=snapser_table, hand=BEZ_VODY, by=alice, key="mine", after=0)
    mine = services.hand_record(
        table=snapser_table, hand=BEZ_VODY, by=alice, key="mine", after=caught.value.stored.number
    )
    assert (mine.number, mine.key, mine.entered_by) == (2, "mine", alice)
    assert list(Hand.objects.filter(table=snapser_table).values_list("number", flat=True)) == [2, 1]


def test_without_after_a_hand_is_recorded_as_before(snapser_table, alice):
    factories.record(snapser_table, times=3)
    assert services.hand_record(table=snapser_table, hand=BEZ_VODY, by=alice).number == 4


@pytest.mark.parametrize("after", [3, -1])
def test_a_count_the_table_never_had_is_refused_on_its_field(snapser_table, alice, after):
    factories.record(snapser_table, times=2)
    with pytest.raises(LedgerError) as caught:
        services.hand_record(table=snapser_table, hand=BEZ_VODY, by=alice, after=after)
    assert not isinstance(caught.value, HandConflict)
    assert caught.value.field == "after"
    assert caught.value.message == f"The table has 2 hands, not {after}; reload the page."
    assert _stored(snapser_table)[2] == 2


def test_an_imported_evening_that_skips_numbers_names_the_next_hand_there_is(snapser_table, alice):
    hands = factories.record(snapser_table, times=3)
    Hand.objects.filter(pk=hands[1].pk).update(number=5)  # as an old export may hold 1, 3, 5
    Hand.objects.filter(pk=hands[2].pk).update(number=3)
    Table.objects.filter(pk=snapser_table.pk).update(hand_count=5)
    with pytest.raises(HandConflict) as caught:
        services.hand_record(table=snapser_table, hand=BEZ_VODY, by=alice, after=1)
    assert caught.value.stored.number == 3


def test_a_correction_from_an_old_version_names_who_changed_it(snapser_table, alice, vera):
    hand = factories.record(snapser_table)[0]
    services.hand_correct(hand=hand, document=BEZ_VODY, by=vera, version=1)
    with pytest.raises(services.StaleVersion) as caught:
        services.hand_correct(hand=hand, document=factories.SNAPSER_N1, by=alice, version=1)
    assert caught.value.message == (
        "Hand #1 was changed meanwhile (now version 2) by Věra Nováková; reload it and try again."
    )
    assert str(caught.value) == caught.value.message
    assert caught.value.current.version == 2
    with pytest.raises(services.StaleVersion, match="by Věra Nováková"):
        services.hand_void(hand=hand, by=alice, version=1)
