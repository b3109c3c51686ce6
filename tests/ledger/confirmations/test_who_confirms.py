"""Whose OK a stored hand needs, per game and confirmation setting, read from real hands priced by the rules."""

from __future__ import annotations

import pytest

from ledger.confirmations.selectors import state_of
from tests import factories
from tests.ledger.confirmations.support import SKAT_RAMSCH, SNAPSER_PAIR, asking_table, record_on_phone, seat_phone

CASES = [
    # game, seats, hand, mode, recorder's seat (None: the scorekeeper's phone), whose OK counts, every one of them
    ("marias", None, factories.MARIAS_M2, "opponent", None, ["Ben", "Dana"], False),
    ("marias", None, factories.MARIAS_M2, "opponent", "Ben", ["Dana"], False),
    ("marias", None, factories.MARIAS_M2 | {"partner": "Ana"}, "opponent", None, ["Ben", "Cyril", "Dana"], False),
    ("marias", None, factories.MARIAS_M2, "everyone", None, ["Ana", "Ben", "Cyril", "Dana"], True),
    ("marias", None, factories.MARIAS_M2, "everyone", "Cyril", ["Ana", "Ben", "Dana"], True),
    ("skat", None, factories.SKAT_S1, "opponent", None, ["Ben", "Cyril"], False),
    ("skat", None, factories.SKAT_S1, "opponent", "Ana", ["Ben", "Cyril"], False),
    ("skat", None, SKAT_RAMSCH, "opponent", "Ben", ["Ana", "Cyril"], False),
    ("skat", None, factories.SKAT_S1, "everyone", "Ben", ["Ana", "Cyril"], True),
    ("snapser", None, factories.SNAPSER_N1, "opponent", None, ["Ben", "Cyril"], False),
    ("snapser", ["Ana", "Ben", "Cyril", "Dana"], SNAPSER_PAIR, "opponent", "Ana", ["Ben", "Dana"], False),
    ("snapser", ["Ana", "Ben"], factories.SNAPSER_N1, "opponent", "Ben", ["Ana"], False),
    ("snapser", ["Ana", "Ben"], factories.SNAPSER_N1, "opponent", None, ["Ben"], False),
]


@pytest.mark.parametrize(("game", "seats", "hand", "mode", "recorder", "needed", "every"), CASES)
def test_the_hand_asks_the_players_the_setting_names(alice, game, seats, hand, mode, recorder, needed, every):
    table = asking_table(
        factories.make_evening(alice), game, mode, seats, **({"ramsch": True} if hand is SKAT_RAMSCH else {})
    )
    if recorder is None:
        stored = factories.record(table, hand)[0]
    else:
        stored = record_on_phone(table, seat_phone(table, recorder), hand)
    state = state_of(stored)
    assert [player.name for player in state.needed] == needed
    assert state.every is every
    assert state.code == "awaiting"


def test_a_table_without_confirmation_asks_nobody(alice):
    table = factories.make_table(factories.make_evening(alice), "skat")
    assert state_of(factories.record(table)[0]) is None


def test_a_voided_hand_asks_nobody(alice):
    from ledger import services

    table = asking_table(factories.make_evening(alice), "skat")
    hand = factories.record(table)[0]
    voided = services.hand_void(hand=hand, by=alice, version=1)
    assert state_of(voided) is None


def test_the_scorekeepers_own_player_is_the_recorder_by_an_approved_claim(alice):
    from ledger.people.models import PlayerClaim
    from tests.ledger.confirmations.support import player

    table = asking_table(factories.make_evening(alice), "skat", "everyone")
    PlayerClaim.objects.create(user=alice, player=player(table, "Cyril"), status="approved", how="seat")
    state = state_of(factories.record(table)[0])
    assert [p.name for p in state.needed] == ["Ana", "Ben"]
