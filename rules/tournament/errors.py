"""The tournament engine's refusal, and the check of a list of player names every part of it makes."""

from __future__ import annotations

from collections.abc import Sequence

from rules.errors import RulesError
from rules.i18n import _


class TournamentError(RulesError):
    """Bad tournament input: names the field (``players``, ``fees.entry``, ``scheme`` …) and what is allowed.

    A :class:`rules.RulesError`, so whatever already turns engine errors into a 400 answer handles these too.

    >>> TournamentError(field="players", message="5 players cannot be seated at Skat tables").as_dict()
    {'field': 'players', 'error': '5 players cannot be seated at Skat tables'}
    """


def _checked_players(players: Sequence[str]) -> list[str]:
    if isinstance(players, str) or not all(isinstance(p, str) and p.strip() for p in players):
        raise TournamentError(field="players", message=_("must be a list of player names"))
    if len(set(players)) != len(players):
        raise TournamentError(field="players", message=_("must not name a player twice"))
    return list(players)
