"""What a tournament charges its players (entry, table and lost-game fees) and how the prize pool is paid out."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from itertools import pairwise

from rules.i18n import _
from rules.money import ZERO
from rules.tournament.errors import TournamentError, _checked_players

# Verlustspielgeld per lost game by table size. The DSkV's tournament order itself was not at hand here; Wikipedia's
# "Preisskat" gives about 0.50 € per lost game, often about 1.00 € from the fourth lost game of a list on
# (Fees.lost_later, Fees.lost_later_from). By table size these defaults are Talon's own: 0.50 at a 3-seat
# table, 1.00 at a 4-seat table. Every tournament sets its own.
DEFAULT_LOST_FEES: Mapping[int, Decimal] = {3: Decimal("0.50"), 4: Decimal("1.00")}


def _fee(name: str, value: object) -> Decimal:
    if not isinstance(value, Decimal) or not value.is_finite() or value < 0:
        raise TournamentError(field=f"fees.{name}", message=_("must be an amount of money, 0 or more"))
    return value


@dataclass(frozen=True)
class Fees:
    """What a tournament charges its players, and what of it goes to the prizes.

    - ``entry``: the entry fee (Startgeld), once per player; all of it goes to the prize pool.
    - ``table``: the table fee (Tischgeld), per player and series or round, at whichever table; kept by the
      organiser (room, cards, score sheets) unless ``table_to_prizes``.
    - ``lost``: the lost-game fee (Verlustspielgeld) per game a player loses as declarer, by table size (Skat);
      kept by the organiser, as is usual, unless ``lost_to_prizes``. With ``lost_later``, the
      ``lost_later_from``-th lost game of a series and every one after it costs that fee instead.

    >>> fees = Fees(entry=Decimal("10"), lost_later={3: Decimal("1.00")})
    >>> fees.lost_fee(3), fees.lost_fee(4)
    (Decimal('0.50'), Decimal('1.00'))
    >>> fees.lost_money(3, 5), fees.lost_money(4, 5)  # 3 × 0.50 + 2 × 1.00; 5 × 1.00
    (Decimal('3.50'), Decimal('5.00'))
    """

    entry: Decimal = ZERO
    table: Decimal = ZERO
    lost: Mapping[int, Decimal] = field(default_factory=lambda: dict(DEFAULT_LOST_FEES))
    lost_later: Mapping[int, Decimal] = field(default_factory=dict)
    lost_later_from: int = 4
    table_to_prizes: bool = False
    lost_to_prizes: bool = False

    def __post_init__(self) -> None:
        _fee("entry", self.entry)
        _fee("table", self.table)
        for name in ("lost", "lost_later"):
            fees = getattr(self, name)
            if not isinstance(fees, Mapping):
                raise TournamentError(field=f"fees.{name}", message=_("must map each table size to a fee"))
            for seats, fee in fees.items():
                _fee(f"{name}.{seats}", fee)
        if not isinstance(self.lost_later_from, int) or self.lost_later_from < 1:
            raise TournamentError(field="fees.lost_later_from", message=_("must be a whole number of at least 1"))

    def lost_fee(self, seats: int) -> Decimal:
        """The fee for one lost game at a table of ``seats``; nothing where the tournament set none."""
        return self.lost.get(seats, ZERO)

    def lost_money(self, seats: int, lost: int) -> Decimal:
        """The fees for ``lost`` games lost in one series at a table of ``seats``."""
        if seats not in self.lost_later:
            return self.lost_fee(seats) * lost
        early = min(lost, self.lost_later_from - 1)
        return self.lost_fee(seats) * early + self.lost_later[seats] * (lost - early)


# The brief's name for the fees of a Skat tournament: the same fees serve Mariáš and Šnapser (without lost games).
SkatFees = Fees


def prize_pool(fees: Fees, players: int, *, seatings: int = 0, lost_money: Decimal = ZERO) -> Decimal:
    """The money paid out as prizes: every entry fee, plus table and lost-game fees where they go to the prizes.

    ``seatings``: how many times a player took a seat for a series or round (players × series when everyone
    played every series); ``lost_money``: the lost-game fees of the whole tournament (Σ :attr:`SeriesRow.lost_fee`).

    >>> prize_pool(Fees(entry=Decimal("10")), 24)
    Decimal('240')
    >>> prize_pool(Fees(entry=Decimal("10"), table=Decimal("1"), table_to_prizes=True, lost_to_prizes=True), 24,
    ...            seatings=48, lost_money=Decimal("23.50"))
    Decimal('311.50')
    """
    if not isinstance(players, int) or players < 0 or not isinstance(seatings, int) or seatings < 0:
        raise TournamentError(field="players", message=_("must be a whole number, 0 or more"))
    pool = fees.entry * players
    if fees.table_to_prizes:
        pool += fees.table * seatings
    if fees.lost_to_prizes:
        pool += _fee("lost_money", lost_money)
    return pool


def player_dues(fees: Fees, *, seatings: int, lost_money: Decimal = ZERO) -> Decimal:
    """What one player pays in all: the entry fee, the table fee for each of ``seatings``, their lost-game fees.

    >>> player_dues(Fees(entry=Decimal("10"), table=Decimal("1")), seatings=2, lost_money=Decimal("3.50"))
    Decimal('15.50')
    """
    return fees.entry + fees.table * seatings + _fee("lost_money", lost_money)


def _top3(count: int) -> list[Fraction]:
    return [Fraction(50), Fraction(30), Fraction(20)]


def _winner(count: int) -> list[Fraction]:
    return [Fraction(1)]


def _third(count: int) -> list[Fraction]:
    # The best third of the field (at least one player), paid on a falling straight line: with k places the winner
    # gets k parts, the second k − 1 … the last paid place 1 part.
    paid = max(1, count // 3)
    return [Fraction(paid - place) for place in range(paid)]


# Weights of the paid places, best first, for a field of ``count`` players; normalised to the pool.
PRIZE_SCHEMES: Mapping[str, Callable[[int], list[Fraction]]] = {
    "winner": _winner,
    "top3": _top3,
    "third": _third,
}


def _weights(scheme: str | Sequence[Decimal | int], count: int) -> list[Fraction]:
    if isinstance(scheme, str):
        if scheme not in PRIZE_SCHEMES:
            allowed = ", ".join(PRIZE_SCHEMES)
            raise TournamentError(
                field="scheme", message=_("unknown scheme; allowed: %(allowed)s") % {"allowed": allowed}
            )
        weights = PRIZE_SCHEMES[scheme](count)
    else:
        if isinstance(scheme, Mapping) or not all(
            isinstance(w, (Decimal, int)) and not isinstance(w, bool) and Decimal(w).is_finite() and w >= 0
            for w in scheme
        ):
            raise TournamentError(field="scheme", message=_("must be a list of shares, 0 or more"))
        weights = [Fraction(w) for w in scheme]
    if not weights or not weights[0]:
        raise TournamentError(field="scheme", message=_("must pay at least one place"))
    if any(later > earlier for earlier, later in pairwise(weights)):
        raise TournamentError(field="scheme", message=_("must not give a worse place more than a better one"))
    # A field smaller than the paid places: the missing places' shares go to the places there are, in proportion.
    return weights[:count]


def prizes(
    ranked: Sequence[str],
    pool: Decimal,
    scheme: str | Sequence[Decimal | int],
    coin: Decimal,
    *,
    ranks: Mapping[str, int] | None = None,
) -> dict[str, Decimal]:
    """The pool paid out to ``ranked`` (best first) by ``scheme``, every amount a whole number of ``coin``.

    ``scheme`` names one of :data:`PRIZE_SCHEMES` (``winner`` 100 %; ``top3`` 50/30/20 %; ``third``: the best third
    of the field on a falling scale) or gives the places' shares, best first (any proportions: ``[50, 30, 20]``;
    never more for a worse place).
    Each amount is rounded down to the coin and the remainder goes to the first player listed, so the prizes add
    up to exactly ``pool`` (and the first prize is a whole number of coins whenever the pool is).

    Ties: players of equal rank (``ranks``, as :func:`standings` gives them) share the prizes of the places they
    hold together equally (two players tied for 2nd in ``top3`` get (30 + 20) / 2 = 25 % each). A tie for first
    place gets the rounding remainder on the first player listed only: less than a coin per paid place.

    Every player in ``ranked`` is in the answer, those without a prize at 0.

    >>> paid = prizes(["Ana", "Ben", "Cyril", "Dora"], Decimal("100"), "top3", Decimal("1"),
    ...               ranks={"Ana": 1, "Ben": 2, "Cyril": 2, "Dora": 4})
    >>> {player: str(amount) for player, amount in paid.items()}
    {'Ana': '50', 'Ben': '25', 'Cyril': '25', 'Dora': '0'}
    >>> {p: str(a) for p, a in prizes(["A", "B", "C"], Decimal("99"), "top3", Decimal("1")).items()}
    {'A': '51', 'B': '29', 'C': '19'}
    """
    order = _checked_players(ranked)
    if not isinstance(pool, Decimal) or not pool.is_finite() or pool < 0:
        raise TournamentError(field="pool", message=_("must be an amount of money, 0 or more"))
    if not isinstance(coin, Decimal) or not coin.is_finite() or coin <= 0:
        raise TournamentError(field="coin", message=_("must be an amount of money above 0"))
    if not order:
        if pool:
            raise TournamentError(field="players", message=_("nobody to pay the prizes to"))
        return {}
    weights = _weights(scheme, len(order))
    total = sum(weights, Fraction(0))
    shares = [w / total for w in weights] + [Fraction(0)] * (len(order) - len(weights))
    amounts: dict[str, Decimal] = {}
    for group in _tied_groups(order, ranks):
        each = sum((shares[place] for place in group), Fraction(0)) / len(group)
        coins = Fraction(pool) * each / Fraction(coin)
        for place in group:
            amounts[order[place]] = coin * (coins.numerator // coins.denominator)
    first = order[0]
    amounts[first] += pool - sum(amounts.values(), ZERO)
    return amounts


def _tied_groups(order: Sequence[str], ranks: Mapping[str, int] | None) -> list[list[int]]:
    """Places (0-based) grouped by equal rank; without ``ranks`` every player has a place of their own."""
    if ranks is None:
        return [[place] for place in range(len(order))]
    if set(ranks) != set(order) or any(ranks[a] > ranks[b] for a, b in pairwise(order)):
        raise TournamentError(field="ranks", message=_("must give every player a rank, best first"))
    groups: list[list[int]] = []
    for place, player in enumerate(order):
        if groups and ranks[order[groups[-1][0]]] == ranks[player]:
            groups[-1].append(place)
        else:
            groups.append([place])
    return groups
