"""Seating a tournament's players: the table sizes a game allows, the first round's random draw, and a later series
seated by the standings."""

from __future__ import annotations

import random
from collections.abc import Sequence

import rules
from rules.errors import RulesError
from rules.i18n import _
from rules.tournament.errors import TournamentError, _checked_players


def seat_counts(game: str) -> tuple[int, ...]:
    """The table sizes a tournament of ``game`` uses: the seat counts its engine allows, largest first.

    >>> seat_counts("skat"), seat_counts("marias"), seat_counts("snapser")
    ((4, 3), (4,), (4, 3, 2))
    """
    try:
        chosen = rules.game(game)
    except RulesError as error:
        raise TournamentError(field="game", message=error.message) from error
    return tuple(sorted(set(chosen.seats), reverse=True))


def table_sizes(count: int, game: str) -> list[int]:
    """How ``count`` players split into tables of ``game``, largest tables first.

    The smallest table is made as large as possible, then the tables as few as possible. For Skat (3 or 4 seats)
    that is the tournament habit: all tables of 4 when ``count`` allows, else one table of 3 when ``count % 4 == 3``,
    two when it is 2, three when it is 1 (so 5 players cannot play). Mariáš čtyřka needs exactly 4 at every table.
    Šnapser takes 4, then 3, and a two-seat table only where nothing else fits (2 or 5 players).

    >>> table_sizes(12, "skat"), table_sizes(13, "skat"), table_sizes(14, "skat"), table_sizes(15, "skat")
    ([4, 4, 4], [4, 3, 3, 3], [4, 4, 3, 3], [4, 4, 4, 3])
    >>> table_sizes(5, "snapser"), table_sizes(9, "snapser")
    ([3, 2], [3, 3, 3])
    >>> table_sizes(5, "skat")
    Traceback (most recent call last):
    ...
    rules.tournament.errors.TournamentError: players: 5 players cannot be seated at tables of 4 or 3
    """
    allowed = seat_counts(game)
    if isinstance(count, int) and not isinstance(count, bool) and count > 0:
        for smallest in range(len(allowed)):
            plan = _fewest_tables(count, allowed[: smallest + 1])
            if plan is not None:
                return plan
    # xgettext cannot see inside f-strings, so the word is translated outside one (as rules.table does).
    word = _("or")
    sizes = f" {word} ".join(str(size) for size in allowed)
    raise TournamentError(
        field="players",
        message=_("%(count)s players cannot be seated at tables of %(sizes)s") % {"count": count, "sizes": sizes},
    )


def _fewest_tables(count: int, sizes: Sequence[int]) -> list[int] | None:
    """The fewest tables of the given sizes seating exactly ``count`` (largest first), or None."""
    # best[n]: the fewest tables for n players and the size of one of them; a coin-change table, O(count).
    best: list[tuple[int, int] | None] = [(0, 0)] + [None] * count
    for n in range(1, count + 1):
        options = [(prior[0] + 1, size) for size in sizes if size <= n and (prior := best[n - size]) is not None]
        best[n] = min(options, key=lambda option: (option[0], -option[1])) if options else None
    if best[count] is None:
        return None
    plan: list[int] = []
    n = count
    while n:
        step = best[n]
        assert step is not None
        plan.append(step[1])
        n -= step[1]
    return sorted(plan, reverse=True)


def _split(players: Sequence[str], sizes: Sequence[int]) -> list[list[str]]:
    tables, start = [], 0
    for size in sizes:
        tables.append(list(players[start : start + size]))
        start += size
    return tables


def draw(players: Sequence[str], game: str, rng: random.Random) -> list[list[str]]:
    """The first series' seats: ``players`` shuffled by ``rng`` into :func:`table_sizes` (largest tables first).

    >>> draw(["Ana", "Ben", "Cyril", "Dora", "Emil", "Fany", "Gustav"], "skat", random.Random(7))
    [['Fany', 'Gustav', 'Emil', 'Ana'], ['Dora', 'Ben', 'Cyril']]
    """
    shuffled = _checked_players(players)
    sizes = table_sizes(len(shuffled), game)
    rng.shuffle(shuffled)
    return _split(shuffled, sizes)


def seed(ranked: Sequence[str], game: str) -> list[list[str]]:
    """A later series seated by the standings: ranks 1–4 at table 1, 5–8 at table 2 …, the 3-seat tables last.

    >>> seed(["A", "B", "C", "D", "E", "F", "G", "H", "I", "J"], "skat")
    [['A', 'B', 'C', 'D'], ['E', 'F', 'G'], ['H', 'I', 'J']]
    """
    order = _checked_players(ranked)
    return _split(order, table_sizes(len(order), game))
