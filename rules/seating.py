"""The table a hand is played at (seat order and settings), what carries from one hand to the next (the deal, the
Bock rounds), and who played a stored hand."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from rules.options import Settings


@dataclass(frozen=True)
class Table:
    """What a game needs to know about the table: the seat order (clockwise) and the resolved settings."""

    players: tuple[str, ...]
    settings: Settings = field(default_factory=dict)

    @property
    def stake(self) -> Decimal:
        stake = self.settings["stake"]
        assert isinstance(stake, Decimal)
        return stake

    def others(self, *players: str) -> tuple[str, ...]:
        return tuple(p for p in self.players if p not in players)


# --------------------------------------------------------------------------------------------------------------
# Between hands: what carries from one hand to the next at a table


@dataclass(frozen=True)
class Dealt:
    """One counted hand as the next hand needs it: the seat position that dealt it, the Bock rounds it started."""

    dealer: int
    bock_rounds: int = 0


@dataclass(frozen=True)
class NextHand:
    """What the next hand at a table starts from (seat positions count from 0, clockwise).

    ``dealer`` deals; ``sits_out`` is the seat that plays no part in the hand (the dealer at a four-seat Skat table),
    or None; ``bock`` is how many Bock rounds cover the hand, or None where the ruleset has no Bock rounds (the hand
    then carries no ``bock`` field).
    """

    dealer: int
    sits_out: int | None = None
    bock: int | None = None


def next_dealer(seats: int, previous: Sequence[Dealt], first_dealer: int = 0) -> int:
    """The seat that deals next: clockwise after the last counted hand's dealer, or ``first_dealer`` at the start.

    ``previous`` holds the counted hands, oldest first (voided ones left out: undoing a hand gives the deal back).

    >>> next_dealer(4, [], first_dealer=2), next_dealer(4, [Dealt(2)]), next_dealer(3, [Dealt(0), Dealt(2)])
    (2, 3, 0)
    """
    if not previous:
        return first_dealer
    return (previous[-1].dealer + 1) % seats


def bock_queue(seats: int, bock_rounds: Iterable[int]) -> int:
    """How many Bock rounds cover the next hand, from the rounds each counted hand started (oldest first).

    Each round covers the next hand of every seat (``seats`` hands), starting with the hand after its trigger;
    rounds triggered while others run overlap and stack (the engine prices a hand inside two rounds ×4). No round
    outlives ``seats`` hands, so the last ``seats`` counted hands hold the whole queue.

    >>> bock_queue(3, [1]), bock_queue(3, [1, 0, 0]), bock_queue(3, [1, 0, 0, 0]), bock_queue(4, [1, 2, 0])
    (1, 1, 0, 3)
    """
    remaining: list[int] = []
    for started in bock_rounds:
        remaining = [left - 1 for left in remaining if left > 1]
        remaining += [seats] * started
    return len(remaining)


@dataclass(frozen=True)
class Played:
    """Who played a stored hand and under what, as its hand part names them: what a log row says beside its label.

    Read back from a document the engine accepted when the hand was stored, so nothing is checked again and nothing
    is guessed: a name not seated at the table counts as not given, and a field the document lacks stays empty.

    ``declarer`` chose the game (``role`` ``"chose"``: Mariáš, Šnapser) or won the bidding and declared it
    (``"declared"``: Skat); None when nobody did (Skat passed in, Ramsch). ``partner`` played with him; ``alone`` is
    true where the game at this table could have had a partner and had none. ``flekked_by`` is the defender that a
    laid Mariáš names as the one who flekked (no other hand says who flekked, only how much). ``bock`` is how many
    Bock rounds the hand was played under (Skat pub rules), 0 outside them.
    """

    declarer: str | None = None
    role: str = "chose"
    partner: str | None = None
    alone: bool = False
    flekked_by: str | None = None
    bock: int = 0


def seated(name: object, players: Sequence[str]) -> str | None:
    """``name`` when it names one of ``players``, else None (a field left out, empty, or naming nobody seated).

    >>> seated("Ben", ["Ana", "Ben"]), seated("", ["Ana", "Ben"]), seated(None, ["Ana"]), seated("Eva", ["Ana"])
    ('Ben', None, None, None)
    """
    return name if isinstance(name, str) and name in players else None


class DealsInTurn:
    """What carries between hands in a game where the deal moves clockwise, everybody plays every hand and nothing
    else carries over (Mariáš, Šnapser): mixed into those games' objects, which then satisfy the rest of
    :class:`Game` themselves.

    >>> DealsInTurn().next_hand(4, {}, [Dealt(dealer=3)]), DealsInTurn().next_hand(3, {}, [], first_dealer=1)
    (NextHand(dealer=0, sits_out=None, bock=None), NextHand(dealer=1, sits_out=None, bock=None))
    """

    def next_hand(self, seats: int, settings: Settings, previous: Sequence[Dealt], first_dealer: int = 0) -> NextHand:
        """The next dealer clockwise; nobody sits out and there are no Bock rounds."""
        return NextHand(dealer=next_dealer(seats, previous, first_dealer))

    def hand_dealer(self, players: Sequence[str], hand: Mapping[str, Any]) -> int | None:
        """These hands do not name their dealer: the ledger's rotation says who dealt."""
        return None
