"""A player's word on a hand: given once per version, refused naming the field, asked again after a correction."""

from __future__ import annotations

import pytest

from ledger import services as books
from ledger.confirmations import services
from ledger.confirmations.models import Confirmation
from ledger.confirmations.selectors import state_of
from ledger.errors import LedgerError, StaleVersion
from tests import factories
from tests.ledger.confirmations.support import asking_table, player, seat_phone


@pytest.fixture
def table(alice):
    return asking_table(factories.make_evening(alice), "skat", "opponent")


@pytest.fixture
def hand(table):
    return factories.record(table)[0]


def test_an_opponents_ok_confirms_the_hand(table, hand, alice):
    ben = player(table, "Ben")
    given = services.confirm(hand=hand, version=1, player=ben, by=alice)
    assert (given.verdict, given.claim, given.by) == ("ok", None, alice)
    assert state_of(hand).code == "confirmed"


def test_a_double_tap_answers_with_the_word_given_first(table, hand, alice):
    ben = player(table, "Ben")
    first = services.dispute(hand=hand, version=1, player=ben, by=alice, reason="It was a null")
    again = services.confirm(hand=hand, version=1, player=ben, by=alice)
    assert again.pk == first.pk and again.verdict == "disputed"
    assert Confirmation.objects.count() == 1


def test_a_seated_phone_confirms_for_its_own_player(table, hand):
    claim = seat_phone(table, "Cyril")
    given = services.confirm(hand=hand, version=1, player=claim.player, by=claim.acting, claim=claim)
    assert given.claim == claim and given.on_own_phone


def test_a_phone_cannot_speak_for_another_seat(table, hand):
    claim = seat_phone(table, "Cyril")
    with pytest.raises(LedgerError) as refused:
        services.confirm(hand=hand, version=1, player=player(table, "Ben"), by=claim.acting, claim=claim)
    assert refused.value.field == "player"


def test_the_declarer_need_not_confirm(table, hand, alice):
    with pytest.raises(LedgerError) as refused:
        services.confirm(hand=hand, version=1, player=player(table, "Ana"), by=alice)
    assert refused.value.field == "player"
    assert "Ana need not confirm hand #1" in refused.value.message


def test_a_stale_version_names_who_corrected_it_and_the_new_price(table, hand, alice):
    ota = factories.make_user("ota")
    ota.first_name = "Ota"
    ota.save()
    books.hand_correct(hand=hand, document=factories.SKAT_S1 | {"declarer_points": 91}, by=ota, version=1)
    with pytest.raises(StaleVersion) as refused:
        services.confirm(hand=hand, version=1, player=player(table, "Ben"), by=alice)
    assert refused.value.field == "version"
    assert refused.value.current.version == 2
    message = refused.value.message
    assert message.startswith("Hand #1 was corrected by Ota meanwhile: check version 2")
    # Grand schneider with 1: 24 × (1 + 1 + 1) = 72 points at a cent, from each defender.
    assert message.endswith("(Grand Schneider with 1: Ana +1.44, Ben −0.72, Cyril −0.72).")


def test_a_correction_asks_again_and_keeps_the_old_word(table, hand, alice):
    ben = player(table, "Ben")
    services.dispute(hand=hand, version=1, player=ben, by=alice, reason="61, not 91")
    assert state_of(hand).code == "disputed"
    corrected = books.hand_correct(hand=hand, document=factories.SKAT_S1, by=alice, version=1)
    state = state_of(corrected)
    assert state.code == "awaiting"
    assert [given.reason for given in state.history] == ["61, not 91"]
    services.confirm(hand=corrected, version=2, player=ben, by=alice)
    assert state_of(corrected).code == "confirmed"


def test_a_voided_hand_is_not_confirmed(table, hand, alice):
    books.hand_void(hand=hand, by=alice, version=1)
    with pytest.raises(LedgerError) as refused:
        services.confirm(hand=hand, version=2, player=player(table, "Ben"), by=alice)
    assert refused.value.field == "hand"


def test_a_closed_evening_takes_no_word(table, hand, alice):
    books.evening_close(evening=table.evening, by=alice, **_override())
    with pytest.raises(LedgerError) as refused:
        services.confirm(hand=hand, version=1, player=player(table, "Ben"), by=alice)
    assert refused.value.field == "evening"


def test_a_reason_is_checked_as_every_note(table, hand, alice):
    ben = player(table, "Ben")
    with pytest.raises(LedgerError) as refused:
        services.dispute(hand=hand, version=1, player=ben, by=alice, reason="x" * 201)
    assert refused.value.field == "reason"
    with pytest.raises(LedgerError) as hidden:
        services.dispute(hand=hand, version=1, player=ben, by=alice, reason="Ana\u202epays")
    assert hidden.value.field == "reason"
    given = services.dispute(hand=hand, version=1, player=ben, by=alice, reason="  it  was\ta seven ")
    assert given.reason == "it was a seven"


def test_everyone_must_say_ok_and_one_dispute_flags_it(alice):
    table = asking_table(factories.make_evening(alice), "snapser", "everyone")
    hand = factories.record(table)[0]
    for name in ("Ana", "Ben"):
        services.confirm(hand=hand, version=1, player=player(table, name), by=alice)
    assert [p.name for p in state_of(hand).awaiting] == ["Cyril"]
    services.dispute(hand=hand, version=1, player=player(table, "Cyril"), by=alice)
    assert state_of(hand).code == "disputed"


def _override():
    """The close's override where the books ask for one (open checks): the hand here is unconfirmed."""
    import inspect

    return {"override": True} if "override" in inspect.signature(books.evening_close).parameters else {}
