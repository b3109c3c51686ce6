"""The movement of a tournament played in rounds (Mariáš, Šnapser): every round's tables planned in advance so that
nobody meets the same opponent twice while that is possible."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from itertools import combinations

from rules.i18n import _
from rules.tournament.errors import TournamentError, _checked_players
from rules.tournament.seating import table_sizes

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
