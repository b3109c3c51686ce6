"""The standings: every player's series or rounds added up, best first, with shared ranks."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal

from rules.i18n import _
from rules.money import ZERO
from rules.tournament.errors import TournamentError
from rules.tournament.scoring import SeriesRow


@dataclass(frozen=True)
class PlayerRound:
    """One player's result of one series (Skat) or round (Mariáš, Šnapser).

    ``points``: Seeger-Fabian list points or placement points; ``won``/``lost``: games won and lost as declarer;
    ``money``: the money won or lost at the table (tournaments played for money); ``fees``: the lost-game fees.
    """

    player: str
    points: Decimal | int
    won: int = 0
    lost: int = 0
    money: Decimal = ZERO
    fees: Decimal = ZERO


@dataclass(frozen=True)
class Standing:
    """A row of the standings: the rounds' sums and the shared rank (1, 2, 2, 4 …)."""

    rank: int
    player: str
    points: Decimal
    won: int
    lost: int
    money: Decimal
    fees: Decimal
    rounds: int

    def as_dict(self) -> dict[str, object]:
        """JSON-ready: numbers of money and points as strings, exact.

        >>> Standing(1, "Ana", Decimal("7.5"), 0, 0, Decimal("1.20"), ZERO, 2).as_dict()
        {'rank': 1, 'player': 'Ana', 'points': '7.5', 'won': 0, 'lost': 0, 'money': '1.20', 'fees': '0', 'rounds': 2}
        """
        return {
            "rank": self.rank,
            "player": self.player,
            "points": str(self.points),
            "won": self.won,
            "lost": self.lost,
            "money": str(self.money),
            "fees": str(self.fees),
            "rounds": self.rounds,
        }


def series_rounds(rows: Mapping[str, SeriesRow]) -> list[PlayerRound]:
    """The rows of one Skat series (:func:`skat_series`) as rounds for :func:`standings`."""
    return [
        PlayerRound(player=player, points=row.points, won=row.won, lost=row.lost, fees=row.lost_fee)
        for player, row in rows.items()
    ]


def standings(rows: Iterable[PlayerRound]) -> list[Standing]:
    """The players' sums over all their rounds, best first.

    Order (the DSkV's for Skat): more points; then more games won; then fewer games lost; then more money. Rows
    equal in all four share a rank (the next rank skips: 1, 2, 2, 4) and are listed by name; the DSkV would draw
    lots between them, which is the organiser's call.

    >>> table = standings([PlayerRound("Ana", 900, won=5, lost=1), PlayerRound("Ben", 900, won=5, lost=1),
    ...                    PlayerRound("Cyril", 900, won=6, lost=2), PlayerRound("Ana", 100)])
    >>> [(row.rank, row.player, str(row.points)) for row in table]
    [(1, 'Ana', '1000'), (2, 'Cyril', '900'), (3, 'Ben', '900')]
    """
    sums: dict[str, list[Decimal]] = {}
    for row in rows:
        if not isinstance(row.player, str) or not row.player.strip():
            raise TournamentError(field="player", message=_("must be a player's name"))
        total = sums.setdefault(row.player, [ZERO] * 6)
        for index, value in enumerate((row.points, row.won, row.lost, row.money, row.fees, 1)):
            total[index] += value

    def key(player: str) -> tuple[Decimal, Decimal, Decimal, Decimal]:
        points, won, lost, money = sums[player][:4]
        return -points, -won, lost, -money

    order = sorted(sums, key=lambda p: (key(p), p))
    table: list[Standing] = []
    for place, player in enumerate(order, start=1):
        rank = table[-1].rank if table and key(table[-1].player) == key(player) else place
        points, won, lost, money, fees, rounds = sums[player]
        table.append(Standing(rank, player, points, int(won), int(lost), money, fees, int(rounds)))
    return table
