"""What each game of the registry (``rules.GAMES``) says of its tournaments, so that the tournament code asks the
game instead of branching on its name.

>>> play("skat").series, play("skat").list_points, dict(play("skat").rules)
(True, True, {'preset': 'seeger-fabian'})
>>> play("marias").series, play("snapser").seats
(False, (4, 3, 2))
>>> set(PLAYS) == set(rules.GAMES), tournament_games()
(True, ('skat', 'marias', 'snapser'))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import rules
from rules.i18n import _
from rules.tournament.errors import TournamentError
from rules.tournament.seating import seat_counts


@dataclass(frozen=True)
class TournamentPlay:
    """How a tournament of one game is played.

    - ``rules``: the preset and overrides its tables play by unless the tournament's format says otherwise;
    - ``series``: True for series of a set number of games by table size (``SERIES_GAMES``), the first drawn at
      random and each later one seated by the standings (:func:`~rules.tournament.seating.seed`); False for rounds
      of a set number of hands, seated by a movement planned with the first round
      (:func:`~rules.tournament.movement.movement`);
    - ``list_points``: True when a table's result is its list (list points, games won and lost as declarer,
      lost-game fees: :func:`~rules.tournament.scoring.skat_series`); False when it is the placement points of the
      table's money (:func:`~rules.tournament.scoring.placement_points`).
    """

    game: str
    rules: Mapping[str, Any] = field(default_factory=dict)
    series: bool = False
    list_points: bool = False

    @property
    def seats(self) -> tuple[int, ...]:
        """The table sizes, largest first: the seat counts the game's engine allows."""
        return seat_counts(self.game)


# Keyed by the registry's game ids; a game without an entry here offers no tournament.
PLAYS: Mapping[str, TournamentPlay] = {
    "skat": TournamentPlay("skat", rules={"preset": "seeger-fabian"}, series=True, list_points=True),
    "marias": TournamentPlay("marias"),
    "snapser": TournamentPlay("snapser"),
}


def tournament_games() -> tuple[str, ...]:
    """The games a tournament can be played at, in the registry's order."""
    return tuple(name for name in rules.GAMES if name in PLAYS)


def play(game: object) -> TournamentPlay:
    """How a tournament of ``game`` is played; TournamentError naming the field ``game`` for any other.

    >>> play("poker")
    Traceback (most recent call last):
    ...
    rules.tournament.errors.TournamentError: game: unknown game; allowed: skat, marias, snapser
    """
    if not isinstance(game, str) or game not in PLAYS or game not in rules.GAMES:
        allowed = ", ".join(tournament_games())
        raise TournamentError(field="game", message=_("unknown game; allowed: %(allowed)s") % {"allowed": allowed})
    return PLAYS[game]
