"""Skat's contracts and what they are worth: base values, the card points that decide a game, legal bids, the
validated hand (:class:`SkatHand`) and the games' names."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.i18n import N_, _

SUIT_BASE = {"clubs": 12, "spades": 11, "hearts": 10, "diamonds": 9}
BASE = SUIT_BASE | {"grand": 24}
TRUMP_GAMES = tuple(BASE)
CONTRACTS = (*TRUMP_GAMES, "null", "ramsch", "passed")
# (hand, ouvert) -> value, cheapest first, so the first one covering a bid is the lowest legal Null.
NULL_VALUES = {(False, False): 23, (True, False): 35, (False, True): 46, (True, True): 59}
CARD_POINTS = 120
WIN_POINTS = 61
SCHNEIDER_POINTS = 90
# The 32 cards' points (ace 11, ten 10, king 4, queen 3, jack 2, nine to seven 0), four suits of each.
DECK = (11, 10, 4, 3, 2, 0, 0, 0) * 4
# What the Skat's two cards can hold: all a declarer who took no trick has (he still owns the Skat).
SKAT_HOLDS = frozenset(DECK[i] + DECK[j] for i in range(len(DECK)) for j in range(i + 1, len(DECK)))


def _sums(cards: Sequence[int]) -> frozenset[int]:
    """Every total some of the cards add up to.

    >>> sorted(_sums((11, 2, 0)))
    [0, 2, 11, 13]
    """
    totals = {0}
    for card in cards:
        totals |= {total + card for total in totals}
    return frozenset(totals)


# What one side (or one Ramsch player) can take: anything but 1, and so anything but 119 (the rest would be 1).
HOLDABLE = _sums(DECK)
DURCHMARSCH_POINTS = 120
LOST_FACTOR = 2
# The most Bocks a hand is played under: 2**8 already multiplies a game by 256. Triggers can queue more rounds
# than that (one per trigger, three big hands in a row); the queue stops here (``next_hand``), so the hand form,
# the API and the engine, which take at most this many, always take the next hand.
MOST_BOCKS = 8
# Matadors (with or without) run down the trumps from the club jack: eleven trumps in a suit game, the four
# jacks in a grand. The hand form offers these counts.
MOST_MATADORS = 11
MOST_GRAND_MATADORS = 4
# Seeger-Fabian bonuses: the tournament list gives 50, 40 and 30; a house may change them, within reason.
MOST_SEEGER_POINTS = 1000
# The highest multiplier: 11 matadors, game, hand, Schneider, Schwarz (both announced) and ouvert.
MOST_SUIT_MULTIPLIER = 18
MOST_GRAND_MULTIPLIER = 11
LEGAL_BIDS = frozenset(
    [base * m for base in SUIT_BASE.values() for m in range(2, MOST_SUIT_MULTIPLIER + 1)]
    + [BASE["grand"] * m for m in range(2, MOST_GRAND_MULTIPLIER + 1)]
    + list(NULL_VALUES.values())
)
LOWEST_BID = min(LEGAL_BIDS)
HIGHEST_BID = max(LEGAL_BIDS)


@dataclass(frozen=True)
class SkatHand:
    """One validated Skat hand. Implied flags are already filled in (ouvert → hand and both announcements)."""

    contract: str
    active: tuple[str, ...]
    declarer: str | None = None
    dealer: str | None = None
    matadors: int = 0
    without: bool = False
    hand: bool = False
    ouvert: bool = False
    schneider_announced: bool = False
    schwarz_announced: bool = False
    bid: int = LOWEST_BID
    declarer_points: int = 0
    schwarz: bool = False
    won: bool = False
    kontra: int = 0
    bock: int = 0
    ramsch_points: tuple[tuple[str, int], ...] = ()
    ramsch_loser: str | None = None
    jungfrau: tuple[str, ...] = ()
    durchmarsch: str | None = None


def overbid_value(bid: int, base: int) -> int:
    """What an overbid game is charged at: the smallest multiple of the base value that covers the bid.

    >>> overbid_value(22, 9)
    27
    >>> overbid_value(48, 24)
    48
    """
    return -(-bid // base) * base


def null_value(hand: bool, ouvert: bool) -> int:
    """The fixed value of a Null game.

    >>> null_value(hand=True, ouvert=True)
    59
    """
    return NULL_VALUES[(hand, ouvert)]


_NULL_NAMES = {
    (False, False): N_("Null"),
    (True, False): N_("Null Hand"),
    (False, True): N_("Null Ouvert"),
    (True, True): N_("Null Ouvert Hand"),
}
_CONTRACT_NAMES = {
    "clubs": N_("Clubs"),
    "spades": N_("Spades"),
    "hearts": N_("Hearts"),
    "diamonds": N_("Diamonds"),
    "grand": N_("Grand"),
}


def null_name(hand: bool, ouvert: bool) -> str:
    """The Null game's name in the active language.

    >>> null_name(hand=True, ouvert=False), null_name(hand=True, ouvert=True)
    ('Null Hand', 'Null Ouvert Hand')
    """
    return _(_NULL_NAMES[(hand, ouvert)])


def contract_name(contract: str) -> str:
    """A suit or grand game's name in the active language (German: Kreuz, Pik, Herz, Karo, Grand).

    >>> contract_name("diamonds")
    'Diamonds'
    """
    return _(_CONTRACT_NAMES[contract])
