"""What carries from hand to hand (deal rotation, the dealer who sits out, the Bock queue): pure, per game."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rules
import rules.skat
from rules import Dealt, NextHand, bock_queue

PLAYERS = ("Ana", "Ben", "Cyril", "Dora")


@st.composite
def tables(draw: st.DrawFn) -> tuple[rules.Game[Any], int, list[Dealt], int]:
    """A game, a seat count it allows, its counted hands so far (oldest first) and the first dealer."""
    chosen = draw(st.sampled_from(list(rules.GAMES.values())))
    seats = draw(st.sampled_from(chosen.seats))
    dealt = st.builds(Dealt, dealer=st.integers(0, seats - 1), bock_rounds=st.integers(0, 3))
    return chosen, seats, draw(st.lists(dealt, max_size=20)), draw(st.integers(0, seats - 1))


def test_the_registry_holds_every_game_once_under_its_name() -> None:
    assert list(rules.GAMES) == list(rules.GAME_NAMES) == ["skat", "marias", "snapser"]
    assert all(rules.game(name) is chosen and chosen.name == name for name, chosen in rules.GAMES.items())


@given(tables(), st.booleans())
def test_the_deal_moves_clockwise_from_the_last_counted_hand(
    table: tuple[rules.Game[Any], int, list[Dealt], int], bock: bool
) -> None:
    chosen, seats, previous, first = table
    dealer = chosen.next_hand(seats, {"bock": bock}, previous, first).dealer
    assert dealer == ((previous[-1].dealer + 1) % seats if previous else first)


@given(tables(), st.booleans())
def test_only_the_dealer_at_a_four_seat_skat_table_sits_out(
    table: tuple[rules.Game[Any], int, list[Dealt], int], bock: bool
) -> None:
    chosen, seats, previous, first = table
    following = chosen.next_hand(seats, {"bock": bock}, previous, first)
    four_seat_skat = chosen.name == "skat" and seats == 4
    assert following.sits_out == (following.dealer if four_seat_skat else None)


@given(tables(), st.booleans())
def test_the_last_hands_hold_the_whole_bock_queue(
    table: tuple[rules.Game[Any], int, list[Dealt], int], bock: bool
) -> None:
    chosen, seats, previous, first = table
    whole = chosen.next_hand(seats, {"bock": bock}, previous, first)
    assert chosen.next_hand(seats, {"bock": bock}, previous[-seats:], first) == whole
    if chosen.name == "skat" and bock:
        queued = bock_queue(seats, [hand.bock_rounds for hand in previous])
        assert whole.bock == min(queued, rules.skat.MOST_BOCKS)  # a hand is played under at most this many
    else:
        assert whole.bock is None


@pytest.mark.parametrize(
    ("seats", "started", "pending"),
    [
        (3, [1, 0, 0, 0], [1, 1, 1, 0]),  # one round covers one hand per seat, from the hand after its trigger
        (4, [1, 0, 0, 0, 0], [1, 1, 1, 1, 0]),
        (3, [1, 1, 0, 0, 0], [1, 2, 2, 1, 0]),  # rounds triggered inside a round stack
        (3, [2, 0, 0, 0], [2, 2, 2, 0]),  # two rounds from one trigger run side by side
    ],
)
def test_the_bock_queue_of_a_skat_table(seats: int, started: list[int], pending: list[int]) -> None:
    skat = rules.game("skat")
    dealt = [Dealt(dealer=number % seats, bock_rounds=count) for number, count in enumerate(started)]
    assert [skat.next_hand(seats, {"bock": True}, dealt[: n + 1]).bock for n in range(len(dealt))] == pending


def test_a_skat_hand_names_its_dealer_and_the_others_do_not() -> None:
    hand = {"dealer": "Cyril"}
    assert [chosen.hand_dealer(PLAYERS, hand) for chosen in rules.GAMES.values()] == [2, None, None]
    assert rules.game("skat").hand_dealer(PLAYERS, {"dealer": "Zed"}) is None
    assert rules.game("skat").hand_dealer(PLAYERS, {}) is None


def test_a_table_starts_with_its_first_dealer() -> None:
    assert rules.game("marias").next_hand(4, {}, [], first_dealer=3) == NextHand(dealer=3)
