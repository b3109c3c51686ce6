"""Tournaments (issue 20): seating, movements, Skat series scoring, fees, prizes, placement points and standings.

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

>>> table_sizes(21, "skat")
[4, 4, 4, 3, 3, 3]
>>> seed(["A", "B", "C", "D", "E", "F", "G"], "skat")
[['A', 'B', 'C', 'D'], ['E', 'F', 'G']]
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction
from itertools import combinations, pairwise

import rules
from rules.base import MONEY_QUANTUM, ZERO, RulesError
from rules.i18n import _

__all__ = [
    "DEFAULT_LOST_FEES",
    "PRIZE_SCHEMES",
    "SERIES_GAMES",
    "Fees",
    "PlayerRound",
    "SeriesRow",
    "SkatFees",
    "SkatHandResult",
    "Standing",
    "TournamentError",
    "draw",
    "movement",
    "placement_points",
    "placement_scheme",
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
]


class TournamentError(RulesError):
    """Bad tournament input: names the field (``players``, ``fees.entry``, ``scheme`` …) and what is allowed.

    A :class:`rules.RulesError`, so whatever already turns engine errors into a 400 answer handles these too.

    >>> TournamentError(field="players", message="5 players cannot be seated at Skat tables").as_dict()
    {'field': 'players', 'error': '5 players cannot be seated at Skat tables'}
    """


# --------------------------------------------------------------------------------------------------------------
# Seating: table sizes, the random draw and seeding by the standings


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
    rules.tournament.TournamentError: players: 5 players cannot be seated at tables of 4 or 3
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


def _checked_players(players: Sequence[str]) -> list[str]:
    if isinstance(players, str) or not all(isinstance(p, str) and p.strip() for p in players):
        raise TournamentError(field="players", message=_("must be a list of player names"))
    if len(set(players)) != len(players):
        raise TournamentError(field="players", message=_("must not name a player twice"))
    return list(players)


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


# --------------------------------------------------------------------------------------------------------------
# The movement of a Mariáš or Šnapser tournament: nobody meets the same opponent twice while that is possible

# How many swaps the movement's search may weigh: about a second's work on a small server. Designed plans (16 players
# over 5 rounds, 32 over 4 to 8, …) need none; 24 players over 6 rounds end with one or two repeats, 24 over 7
# with about ten (whether 7 rounds without a repeat exist for 24 is not known to this module).
DEFAULT_EFFORT = 600_000
# Each step weighs the swaps of at most this many players who meet someone again (picked at random), and the plan
# is shaken after this many steps without a new best.
_MOST_CONFLICTS = 48
_STALE_STEPS = 300


def repeats(plan: Sequence[Sequence[Sequence[str]]]) -> int:
    """How many meetings in ``plan`` were not the first of their pair: a pair seated together 3 times counts 2.

    >>> repeats([[["A", "B", "C", "D"]], [["A", "B", "C", "D"]]])
    6
    >>> repeats([[["A", "B"], ["C", "D"]], [["A", "C"], ["B", "D"]]])
    0
    """
    seen: dict[frozenset[str], int] = {}
    for tables in plan:
        for table in tables:
            for pair in combinations(table, 2):
                key = frozenset(pair)
                seen[key] = seen.get(key, 0) + 1
    return sum(count - 1 for count in seen.values())


def movement(
    players: Sequence[str], rounds: int, game: str, rng: random.Random, *, effort: int = DEFAULT_EFFORT
) -> list[list[list[str]]]:
    """Every round's tables of a Mariáš or Šnapser tournament, with as few repeated meetings as the search finds.

    The tables of each round have :func:`table_sizes`. Where the numbers allow, the first rounds come from an
    affine geometry (:func:`_designed_rounds`: ``m`` tables of ``k``, ``m`` a prime power, give ``m`` rounds
    without a repeat, ``m + 1`` when ``m = k``); further rounds are built greedily (each seat to a player who met
    the table least). A tabu search then swaps two players of one round at a time (after Dotú and Van Hentenryck's
    local search for the social golfer problem) until no pair meets twice, the repeats reach the least the table
    sizes force (:func:`_fewest_repeats`), or ``effort`` swaps have been weighed. Deterministic for a seeded ``rng``.

    So 16 players at tables of 4 play 5 rounds with no repeat (the affine plane of order 4: the most there can be),
    32 players up to 8 rounds, 20 players 5; other fields rely on the search (24 players over 6 rounds: one or two
    repeated pairs, over 7: about ten, within the default effort).

    >>> plan = movement([f"P{i}" for i in range(16)], 5, "marias", random.Random(1))
    >>> len(plan), [len(tables) for tables in plan], repeats(plan)
    (5, [4, 4, 4, 4, 4], 0)
    """
    names = _checked_players(players)
    if not isinstance(rounds, int) or isinstance(rounds, bool) or rounds < 1:
        raise TournamentError(field="rounds", message=_("must be a whole number of at least 1"))
    sizes = table_sizes(len(names), game)
    search = _Search(len(names), rounds, sizes, rng, _designed_rounds(len(names), rounds, sizes, rng))
    search.run(effort)
    return [[[names[p] for p in table] for table in tables] for tables in search.best]


def _fewest_repeats(count: int, rounds: int, sizes: Sequence[int]) -> int:
    """A lower bound on the repeats of any plan, so that the search can stop once it gets there.

    Two bounds, the larger holds. Each round a player at a table of k meets k − 1 others, at least
    ``rounds × (smallest − 1)`` meetings in all; more than the ``count − 1`` others means meeting some again.
    And with fewer tables (m) than seats (k), every later round must seat players of one first-round table
    together: k players from m tables share at least the pairs of k spread evenly over m (8 players in two tables
    of 4: 2 + 2 at each table, 2 repeated pairs per table and round).

    >>> _fewest_repeats(8, 3, [4, 4]), _fewest_repeats(12, 2, [4, 4, 4]), _fewest_repeats(16, 5, [4] * 4)
    (8, 3, 0)
    """
    meetings = rounds * (min(sizes) - 1)
    by_meetings = (count * max(0, meetings - (count - 1)) + 1) // 2
    tables, seats = len(sizes), sizes[0]
    if len(set(sizes)) != 1 or tables >= seats:
        return by_meetings
    each, more = divmod(seats, tables)
    per_table = more * (each + 1) * each // 2 + (tables - more) * each * (each - 1) // 2
    return max(by_meetings, (rounds - 1) * tables * per_table)


# Finite fields of prime-power order (a prime's own field needs no table): the order and the coefficients of an
# irreducible monic polynomial over GF(p), lowest power first. Orders up to 49 cover tournaments of up to 49 tables.
_IRREDUCIBLE: Mapping[int, tuple[int, tuple[int, ...]]] = {
    4: (2, (1, 1, 1)),  # x² + x + 1
    8: (2, (1, 1, 0, 1)),  # x³ + x + 1
    9: (3, (1, 0, 1)),  # x² + 1
    16: (2, (1, 1, 0, 0, 1)),  # x⁴ + x + 1
    25: (5, (2, 0, 1)),  # x² + 2
    27: (3, (1, 2, 0, 1)),  # x³ + 2x + 1
    32: (2, (1, 0, 1, 0, 0, 1)),  # x⁵ + x² + 1
    49: (7, (1, 0, 1)),  # x² + 1
}


def _field(order: int) -> tuple[list[list[int]], list[list[int]]] | None:
    """Addition and multiplication tables of GF(order) on 0…order−1 (base-p digits), or None if there is none."""
    if order in _IRREDUCIBLE:
        prime, modulus = _IRREDUCIBLE[order]
    elif order >= 2 and all(order % d for d in range(2, int(order**0.5) + 1)):
        prime, modulus = order, (0, 1)
    else:
        return None
    degree = len(modulus) - 1

    def digits(a: int) -> list[int]:
        return [(a // prime**power) % prime for power in range(degree)]

    def number(coefficients: Sequence[int]) -> int:
        return sum(c * prime**power for power, c in enumerate(coefficients))

    def times(a: int, b: int) -> int:
        product = [0] * (2 * degree - 1)
        for i, x in enumerate(digits(a)):
            for j, y in enumerate(digits(b)):
                product[i + j] = (product[i + j] + x * y) % prime
        for top in range(len(product) - 1, degree - 1, -1):  # reduce by the monic modulus
            factor = product[top]
            for power, c in enumerate(modulus):
                product[top - degree + power] = (product[top - degree + power] - factor * c) % prime
        return number(product[:degree])

    plus = [
        [number([(x + y) % prime for x, y in zip(digits(a), digits(b), strict=True)]) for b in range(order)]
        for a in range(order)
    ]
    return plus, [[times(a, b) for b in range(order)] for a in range(order)]


def _designed_rounds(count: int, rounds: int, sizes: Sequence[int], rng: random.Random) -> list[list[list[int]]]:
    """Rounds with no repeat from an affine geometry, where the numbers allow one; [] otherwise.

    With ``m`` tables of ``k`` (``m`` a prime power, ``k ≤ m``), name each player (i, j) with i in GF(m) and j one
    of k fixed field elements; in round c player (i, j) sits at table i + c·j. Two players (i, j), (i', j') with
    j ≠ j' meet only in the round c = (i − i') / (j' − j), and players with equal j never (unless m = k, when a
    last round seats each j together: the affine plane, 5 rounds for 16 players). So there are m (or m + 1) rounds
    without a repeat; the search fills any rounds beyond them. Players, rounds and tables are shuffled by ``rng``.
    """
    seats, tables = sizes[0], len(sizes)
    field_tables = _field(tables) if len(set(sizes)) == 1 and 2 <= seats <= tables else None
    if field_tables is None:
        return []
    plus, times = field_tables
    names = list(range(count))
    rng.shuffle(names)
    cell = {(i, j): names[i * seats + j] for i in range(tables) for j in range(seats)}
    classes: list[int | None] = [*range(tables), *([None] if seats == tables else [])]
    rng.shuffle(classes)
    plan = []
    for c in classes[:rounds]:
        seated: list[list[int]] = [[] for _ in range(tables)]
        for (i, j), player in cell.items():
            seated[j if c is None else plus[i][times[c][j]]].append(player)
        rng.shuffle(seated)
        plan.append(seated)
    return plan


class _Search:
    """The social-golfer search over player numbers 0…n−1; ``best`` is the best plan seen."""

    def __init__(
        self, count: int, rounds: int, sizes: Sequence[int], rng: random.Random, start: Sequence[list[list[int]]] = ()
    ) -> None:
        self.count, self.rounds, self.sizes, self.rng = count, rounds, list(sizes), rng
        self.meet = [[0] * count for _ in range(count)]
        self.plan: list[list[list[int]]] = []
        self.where: list[list[int]] = []  # where[r][p]: the table of player p in round r
        self.cost = 0
        for tables in start[:rounds]:
            self._add_round(tables)
        while len(self.plan) < rounds:
            self._add_round(self._greedy_round())
        self.best = [[list(table) for table in tables] for tables in self.plan]
        self.best_cost = self.cost
        self.floor = _fewest_repeats(count, rounds, sizes)

    def _greedy_round(self) -> list[list[int]]:
        waiting = list(range(self.count))
        self.rng.shuffle(waiting)
        tables: list[list[int]] = []
        for size in self.sizes:
            table = [waiting.pop()]
            while len(table) < size:
                # The player who met this table's players least; the shuffle breaks ties at random.
                chosen = min(range(len(waiting)), key=lambda i: sum(self.meet[waiting[i]][q] for q in table))
                table.append(waiting.pop(chosen))
            tables.append(table)
        return tables

    def _add_round(self, tables: list[list[int]]) -> None:
        where = [0] * self.count
        for index, table in enumerate(tables):
            for p in table:
                where[p] = index
            for p, q in combinations(table, 2):
                self.cost += self.meet[p][q] >= 1
                self.meet[p][q] += 1
                self.meet[q][p] += 1
        self.plan.append(tables)
        self.where.append(where)

    def _delta(self, r: int, x: int, y: int) -> int:
        """The change in repeats if x and y (at different tables of round r) swap seats."""
        meet = self.meet
        delta = 0
        for z in self.plan[r][self.where[r][x]]:
            if z != x:
                delta += (meet[y][z] >= 1) - (meet[x][z] >= 2)
        for z in self.plan[r][self.where[r][y]]:
            if z != y:
                delta += (meet[x][z] >= 1) - (meet[y][z] >= 2)
        return delta

    def _swap(self, r: int, x: int, y: int) -> None:
        meet, tables, where = self.meet, self.plan[r], self.where[r]
        self.cost += self._delta(r, x, y)
        tx, ty = where[x], where[y]
        for z in tables[tx]:
            if z != x:
                meet[x][z] -= 1
                meet[z][x] -= 1
                meet[y][z] += 1
                meet[z][y] += 1
        for z in tables[ty]:
            if z != y:
                meet[y][z] -= 1
                meet[z][y] -= 1
                meet[x][z] += 1
                meet[z][x] += 1
        tables[tx][tables[tx].index(x)] = y
        tables[ty][tables[ty].index(y)] = x
        where[x], where[y] = ty, tx

    def _conflicts(self) -> list[tuple[int, int]]:
        """(round, player) for every player who meets a table-mate again in that round."""
        found = []
        for r, tables in enumerate(self.plan):
            for table in tables:
                for p in table:
                    if any(q != p and self.meet[p][q] >= 2 for q in table):
                        found.append((r, p))
        return found

    def run(self, effort: int) -> None:
        """Tabu search: each step makes the best swap of a player who meets someone again, until the repeats reach
        :attr:`floor` or ``effort`` swaps have been weighed."""
        tabu: dict[tuple[int, int, int], int] = {}
        stale = step = 0
        while effort > 0 and self.best_cost > self.floor:
            step += 1
            conflicts = self._conflicts()
            if len(conflicts) > _MOST_CONFLICTS:
                conflicts = self.rng.sample(conflicts, _MOST_CONFLICTS)
            moves: list[tuple[int, int, int]] = []
            least = self.count * self.count
            for r, x in conflicts:
                where = self.where[r]
                for y in range(self.count):
                    if where[y] == where[x]:
                        continue
                    effort -= 1
                    delta = self._delta(r, x, y)
                    # A tabu swap is taken only when it beats the best plan seen (aspiration).
                    if tabu.get((r, min(x, y), max(x, y)), 0) >= step and self.cost + delta >= self.best_cost:
                        continue
                    if delta < least:
                        least, moves = delta, [(r, x, y)]
                    elif delta == least:
                        moves.append((r, x, y))
            if not moves:
                continue
            r, x, y = moves[self.rng.randrange(len(moves))]
            self._swap(r, x, y)
            tabu[(r, min(x, y), max(x, y))] = step + 10 + self.rng.randrange(20)
            if self.cost < self.best_cost:
                self.best_cost, stale = self.cost, 0
                self.best = [[list(table) for table in tables] for tables in self.plan]
            else:
                stale += 1
            if stale > _STALE_STEPS:
                self._shake()
                stale = 0

    def _shake(self) -> None:
        """Out of a plateau: a few random swaps in random rounds."""
        for _swap in range(max(2, self.count // 8)):
            r = self.rng.randrange(self.rounds)
            x, y = self.rng.sample(range(self.count), 2)
            if self.where[r][x] != self.where[r][y]:
                self._swap(r, x, y)


# --------------------------------------------------------------------------------------------------------------
# Fees and prizes

# Verlustspielgeld per lost game by table size. The DSkV's tournament order itself was not at hand here; Wikipedia's
# "Preisskat" gives about 0.50 € per lost game, often about 1.00 € from the fourth lost game of a list on
# (Fees.lost_later, Fees.lost_later_from). By table size these defaults follow the brief: 0.50 at a 3-seat
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


# --------------------------------------------------------------------------------------------------------------
# Standings


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
