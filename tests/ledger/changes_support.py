"""Any sequence of changes to a table's hands (record, correct, void, restore, undo), for the properties that say what
every change keeps true (the running balances, the Skat list)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from hypothesis import strategies as st

from ledger import services
from ledger.models import Hand, Table

# A hand drawn from a declarer (its seat) and one of a test's outcomes (its index).
MakeHand = Callable[[Table, int, int], dict[str, Any]]


def changes(outcomes: int, most: int) -> st.SearchStrategy[list[tuple[Any, ...]]]:
    """Steps: ("record", seat, outcome), ("correct", which, seat, outcome), ("void", which), ("restore", which),
    ("undo",); ``which`` picks one of the hands recorded so far."""
    return st.lists(
        st.one_of(
            st.tuples(st.just("record"), st.integers(0, 2), st.integers(0, outcomes - 1)),
            st.tuples(st.just("correct"), st.integers(0, 99), st.integers(0, 2), st.integers(0, outcomes - 1)),
            st.tuples(st.just("void"), st.integers(0, 99)),
            st.tuples(st.just("restore"), st.integers(0, 99)),
            st.tuples(st.just("undo")),
        ),
        max_size=most,
    )


def apply_changes(table: Table, steps: Sequence[tuple[Any, ...]], make_hand: MakeHand, by: Any) -> None:
    """Make each change through the services, as the pages and the API do."""
    hands: list[Hand] = []
    for step in steps:
        kind = step[0]
        if kind == "record":
            hands.append(services.hand_record(table=table, hand=make_hand(table, *step[1:]), by=by))
        elif kind == "undo":
            services.hand_undo_last(table=table, by=by)
        elif hands:
            hand = Hand.objects.get(pk=hands[step[1] % len(hands)].pk)
            if kind == "correct":
                services.hand_correct(hand=hand, document=make_hand(table, *step[2:]), by=by, version=hand.version)
            elif kind == "void":
                services.hand_void(hand=hand, by=by)
            else:
                services.hand_restore(hand=hand, by=by)
