"""Tournaments: seating, movements, Skat series scoring, fees, prizes, placement points and standings.

Pure: no Django, no I/O, no floats; money is :class:`~decimal.Decimal` and every share is computed exactly (with
:class:`~fractions.Fraction`) before it is rounded once, down to the coin. Randomness comes only from the
:class:`random.Random` the caller passes, so a seeded draw or movement can be replayed.

The flow of a Skat club night::

    sizes = table_sizes(len(players), "skat")              # [4, 4, 4, 3, 3, 3] for 21 players
    first = draw(players, "skat", rng)                      # series 1: drawn at random
    rows = skat_series(hands, seats, fees)                  # per table and series: list points, won, lost, fees
    table = standings(series_rounds(rows) + ...)            # after each series, best first
    second = seed([row.player for row in table], "skat")    # series 2: seated by the standings
    paid = prizes([row.player for row in table], prize_pool(fees, len(players)), "third", Decimal("1"),
                  ranks={row.player: row.rank for row in table})

A Mariáš or Šnapser tournament plays rounds of a fixed length: :func:`movement` seats every round in advance so that
nobody meets the same opponent twice while that is possible, and :func:`placement_points` turns each table's money
(or points) of a round into placement points, which :func:`standings` adds up.

What differs from game to game (series or rounds, list points or placement points, the tables' default rules) is
asked of :func:`play`, keyed by the registry's game ids; the seat counts come from the game's engine. The parts:
:mod:`~rules.tournament.seating`, :mod:`~rules.tournament.movement`, :mod:`~rules.tournament.prizes`,
:mod:`~rules.tournament.scoring`, :mod:`~rules.tournament.standings` and :mod:`~rules.tournament.games`.

>>> table_sizes(21, "skat")
[4, 4, 4, 3, 3, 3]
>>> seed(["A", "B", "C", "D", "E", "F", "G"], "skat")
[['A', 'B', 'C', 'D'], ['E', 'F', 'G']]
"""

from __future__ import annotations

from rules.tournament.errors import TournamentError
from rules.tournament.games import PLAYS, TournamentPlay, play, tournament_games
from rules.tournament.movement import DEFAULT_EFFORT, movement, repeats
from rules.tournament.movement import _designed_rounds as _designed_rounds  # the movement's tests read them
from rules.tournament.movement import _fewest_repeats as _fewest_repeats
from rules.tournament.prizes import (
    DEFAULT_LOST_FEES,
    PRIZE_SCHEMES,
    Fees,
    SkatFees,
    player_dues,
    prize_pool,
    prizes,
)
from rules.tournament.scoring import (
    SERIES_GAMES,
    SeriesRow,
    SkatHandResult,
    placement_points,
    placement_scheme,
    skat_series,
)
from rules.tournament.seating import draw, seat_counts, seed, table_sizes
from rules.tournament.standings import PlayerRound, Standing, series_rounds, standings

__all__ = [
    "DEFAULT_EFFORT",
    "DEFAULT_LOST_FEES",
    "PLAYS",
    "PRIZE_SCHEMES",
    "SERIES_GAMES",
    "Fees",
    "PlayerRound",
    "SeriesRow",
    "SkatFees",
    "SkatHandResult",
    "Standing",
    "TournamentError",
    "TournamentPlay",
    "draw",
    "movement",
    "placement_points",
    "placement_scheme",
    "play",
    "player_dues",
    "prize_pool",
    "prizes",
    "repeats",
    "seat_counts",
    "seed",
    "series_rounds",
    "skat_series",
    "standings",
    "table_sizes",
    "tournament_games",
]
