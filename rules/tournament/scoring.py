"""One table's result of a series or round: a Skat table's Seeger-Fabian list, or the placement points a Mariáš or
Šnapser table's money gives."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction
from itertools import pairwise

from rules.i18n import _
from rules.money import MONEY_QUANTUM, ZERO
from rules.tournament.errors import TournamentError, _checked_players
from rules.tournament.prizes import Fees
from rules.tournament.seating import seat_counts

# --------------------------------------------------------------------------------------------------------------
# Skat: a Seeger-Fabian series at one table


# Hands in one Skat series by table size (the DSkV's 48 at four seats, 36 at three): a default a tournament may change.
SERIES_GAMES: Mapping[int, int] = {3: 36, 4: 48}


@dataclass(frozen=True)
class SkatHandResult:
    """One hand of a Skat series as the engine priced it with the ``seeger-fabian`` preset.

    ``score`` is each seat's list points for the hand (:attr:`rules.Score.score`: the declarer's value plus the
    won bonus of 50, or minus twice the value and the lost penalty of 50; +40 to each other player at a 3-seat
    table, +30 at a 4-seat table, the sitting dealer included). ``declarer`` and ``won`` are None for a hand
    passed in.
    """

    score: Mapping[str, int]
    declarer: str | None = None
    won: bool | None = None


@dataclass(frozen=True)
class SeriesRow:
    """One player's series: list points, games won and lost as declarer, the lost-game fees due."""

    points: int = 0
    won: int = 0
    lost: int = 0
    lost_fee: Decimal = ZERO


def skat_series(
    hands: Sequence[SkatHandResult], seats: Sequence[str], fees: Fees | None = None
) -> dict[str, SeriesRow]:
    """Each seat's Seeger-Fabian series: the hands' list points added up, won and lost games, lost-game fees.

    The engine's score already holds the Seeger-Fabian bonuses, so points are a plain sum: game points
    + (won − lost) × 50 + the other players' lost games × 40 (3 seats) or 30 (4 seats), as the DSkV list has it.
    The lost-game fees are :meth:`Fees.lost_money` (``lost × fees.lost_fee(len(seats))`` unless fees rise later).

    >>> seats = ["Ana", "Ben", "Cyril"]
    >>> rows = skat_series([SkatHandResult({"Ana": 98, "Ben": 0, "Cyril": 0}, "Ana", True),
    ...                     SkatHandResult({"Ana": 40, "Ben": -146, "Cyril": 40}, "Ben", False)], seats)
    >>> rows["Ana"], rows["Ben"].lost_fee
    (SeriesRow(points=138, won=1, lost=0, lost_fee=Decimal('0.00')), Decimal('0.50'))
    """
    table = _checked_players(seats)
    if len(table) not in seat_counts("skat"):
        raise TournamentError(field="seats", message=_("a Skat table seats 3 or 4 players"))
    charged = fees or Fees()
    points = dict.fromkeys(table, 0)
    won = dict.fromkeys(table, 0)
    lost = dict.fromkeys(table, 0)
    for number, hand in enumerate(hands, start=1):
        _check_hand(number, hand, table)
        for player, score in hand.score.items():
            points[player] += score
        if hand.declarer is not None:
            (won if hand.won else lost)[hand.declarer] += 1
    return {
        p: SeriesRow(points=points[p], won=won[p], lost=lost[p], lost_fee=charged.lost_money(len(table), lost[p]))
        for p in table
    }


def _check_hand(number: int, hand: SkatHandResult, table: Sequence[str]) -> None:
    where = f"hands.{number}"
    if not all(player in table and isinstance(score, int) for player, score in hand.score.items()):
        raise TournamentError(field=where, message=_("must give list points to players at this table only"))
    if (hand.declarer is None) != (hand.won is None) or (hand.declarer is not None and hand.declarer not in table):
        raise TournamentError(
            field=where, message=_("must name a declarer at this table and whether the game was won, or neither")
        )


# --------------------------------------------------------------------------------------------------------------
# Mariáš and Šnapser: placement points per table and round


def placement_scheme(seats: int, *, top: Decimal = Decimal(4), bottom: Decimal = Decimal(1)) -> tuple[Decimal, ...]:
    """Placement points for the places at a table of ``seats``, best first: a straight line from ``top`` to ``bottom``.

    4 seats: 4, 3, 2, 1 (the usual scheme); 3 seats: 4, 2.5, 1; 2 seats: 4, 1. Every table size then gives the
    best and the worst of a table the same points and the same average (2.5), so a round at a short table neither
    helps nor hurts on average.

    >>> [str(p) for p in placement_scheme(4)], [str(p) for p in placement_scheme(3)]
    (['4', '3', '2', '1'], ['4', '2.5', '1'])
    """
    if seats == 1:
        return (top,)
    step = (Fraction(top) - Fraction(bottom)) / (seats - 1)
    return tuple(_decimal(Fraction(top) - step * place) for place in range(seats))


def placement_points(
    amounts: Mapping[str, Decimal | int], scheme: Sequence[Decimal | int] | None = None
) -> dict[str, Decimal]:
    """One table's result of a round (each player's money or points) turned into placement points.

    The most money takes the first place's points (``scheme[0]``) and so on; ``scheme`` defaults to
    :func:`placement_scheme` for the table's size. Players with equal amounts share the average of the points of
    the places they hold together, so a table always hands out the scheme's total. An average that is no finite
    decimal (a three-way tie over 5, 3 and 3 points) is rounded to 4 places, the ledger's.

    >>> {p: str(v) for p, v in placement_points({"A": Decimal("12"), "B": Decimal("-2"), "C": Decimal("-2"),
    ...                                          "D": Decimal("-8")}).items()}
    {'A': '4', 'B': '2.5', 'C': '2.5', 'D': '1'}
    """
    if not amounts or not all(
        isinstance(a, (Decimal, int)) and not isinstance(a, bool) and Decimal(a).is_finite() for a in amounts.values()
    ):
        raise TournamentError(field="amounts", message=_("must give each player at the table an amount"))
    points = placement_scheme(len(amounts)) if scheme is None else tuple(Decimal(p) for p in _checked_scheme(scheme))
    if len(points) != len(amounts):
        raise TournamentError(
            field="scheme",
            message=_("must give points for %(count)s places, one per player at the table") % {"count": len(amounts)},
        )
    order = sorted(amounts, key=lambda player: amounts[player], reverse=True)
    result: dict[str, Decimal] = {}
    place = 0
    while place < len(order):
        tied = [p for p in order[place:] if amounts[p] == amounts[order[place]]]
        share = sum((Fraction(points[place + i]) for i in range(len(tied))), Fraction(0)) / len(tied)
        for player in tied:
            result[player] = _decimal(share)
        place += len(tied)
    return {player: result[player] for player in amounts}


def _checked_scheme(scheme: Sequence[Decimal | int]) -> Sequence[Decimal | int]:
    if isinstance(scheme, str) or not all(
        isinstance(p, (Decimal, int)) and not isinstance(p, bool) and Decimal(p).is_finite() for p in scheme
    ):
        raise TournamentError(field="scheme", message=_("must be a list of points, best place first"))
    if any(later > earlier for earlier, later in pairwise(scheme)):
        raise TournamentError(field="scheme", message=_("must not give a worse place more than a better one"))
    return scheme


def _decimal(value: Fraction) -> Decimal:
    """``value`` exactly when it is a finite decimal, else rounded to the ledger's 4 places."""
    denominator = value.denominator
    for prime in (2, 5):
        while denominator % prime == 0:
            denominator //= prime
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return exact if denominator == 1 else exact.quantize(MONEY_QUANTUM, rounding=ROUND_HALF_EVEN)
