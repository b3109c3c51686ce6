"""Money every game shares: the limits the ledger can store, and the usual ways a table settles one hand.

Exact Decimals only; who is due what in words is :func:`rules.results.payment_line`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal

ZERO = Decimal(0)

# Limits every number option keeps, whatever its game says (an option's min and max only narrow them). The ledger
# stores money with 4 decimal places and 14 digits (Decimal(14, 4)), so an option has at most 4 places and a size
# that cannot overflow: together with the games' own maxima (stakes up to 1000) every hand of Skat and Šnapser fits,
# and rules.score refuses the rare Mariáš hand (a doubling stovka) that would be worth more than MAX_AMOUNT.
OPTION_LIMIT = 1_000_000
OPTION_PLACES = 4
MONEY_QUANTUM = Decimal(1).scaleb(-OPTION_PLACES)
# The most one hand may move for one player: 10 digits before the point and 4 after, as the ledger stores money.
MAX_AMOUNT = Decimal(10) ** (14 - OPTION_PLACES) - MONEY_QUANTUM
# Every stake: more than nothing. With 4 places at most, "> 0" and ">= 0.0001" are the same rule, so the games
# set min=MIN_STAKE rather than a separate "exclusive" bound. At most MAX_STAKE: the dearest Skat hand (a lost
# Grand ouvert at 264 with Re and 8 Bocks, four seats, Seeger bonuses at their maximum) moves 1,628,016 list points
# for the declarer, which still fits MAX_AMOUNT at 1000 a point; Šnapser stays far below (at most 36 × 2^4 × 2
# stakes per player and opponent).
MIN_STAKE = MONEY_QUANTUM
MAX_STAKE = Decimal(1000)


def pay_between(winners: Sequence[str], losers: Sequence[str], each: Decimal) -> dict[str, Decimal]:
    """Every loser pays every winner ``each``: the usual way a card table settles one hand.

    >>> pay_between(["Ana"], ["Ben", "Cyril"], Decimal("0.20"))
    {'Ana': Decimal('0.40'), 'Ben': Decimal('-0.20'), 'Cyril': Decimal('-0.20')}
    """
    amounts = {player: each * len(losers) for player in winners}
    amounts.update({player: -each * len(winners) for player in losers})
    return amounts


def pairwise_differences(scores: Mapping[str, int | Decimal], stake: Decimal) -> dict[str, Decimal]:
    """Money from list points when everybody pays everybody the difference: ``stake × (n × s_i − Σ s_j)``.

    >>> pairwise_differences({"Ana": 48, "Ben": 0, "Cyril": 0}, Decimal("0.01"))
    {'Ana': Decimal('0.96'), 'Ben': Decimal('-0.48'), 'Cyril': Decimal('-0.48')}
    """
    total = sum(scores.values())
    n = len(scores)
    return {player: stake * (n * points - total) for player, points in scores.items()}
