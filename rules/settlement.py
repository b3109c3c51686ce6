"""Settling an evening (RULES.md §4): round the exact balances to the group's coin, then say who pays whom.

Pure: no Django, no I/O, no floats. All arithmetic runs on whole numbers of the smallest decimal place involved,
so nothing is ever rounded by the Decimal context behind our back.

>>> evening = {"Ana": Decimal("12.40"), "Ben": Decimal("-7.30"), "Cyril": Decimal("-5.10")}
>>> result = settle(evening, Decimal("1.00"))
>>> {player: str(amount) for player, amount in result.rounded.items()}
{'Ana': '12.00', 'Ben': '-7.00', 'Cyril': '-5.00'}
>>> [str(transfer) for transfer in result.transfers]
['Ben → Ana 7.00', 'Cyril → Ana 5.00']

Three ways to settle (``mode``):

- ``fewest`` (default): the fewest transfers. Exact for tables of up to :data:`EXACT_LIMIT` players, the greedy
  "largest possible transfer first" beyond. Stable: once one suggested transfer is paid, planning again from the
  new balances gives exactly the other suggested transfers.
- ``banker``: everybody settles with one person.
- ``pairwise``: everybody with everybody, as Skat tables do: ``i`` pays ``j`` the share ``(b_j − b_i) / n``.

Deterministic: the result depends on names and amounts only, never on the order of the mapping. Every tie is
broken by player name in plain string (Unicode code point) order, so "Ana" comes before "Ben" and "Zoe" before "Čeněk".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from rules.base import RulesError, to_decimal
from rules.i18n import _, format_number

MODES = ("fewest", "banker", "pairwise")

# The exact fewest-transfers search looks at every subset of the players who still owe or are owed, once per
# transfer: about 2 × 2^n × n small steps, some 10 ms at 12 players, doubling and more with each further one.
EXACT_LIMIT = 12

# (payer, payee, amount) in whole coins (by default: in units of the smallest decimal place involved).
_Move = tuple[str, str, int]


@dataclass(frozen=True)
class Transfer:
    """``payer`` gives ``payee`` the positive ``amount``.

    >>> str(Transfer("Ben", "Ana", Decimal("7.00")))
    'Ben → Ana 7.00'
    """

    payer: str
    payee: str
    amount: Decimal

    def __post_init__(self) -> None:
        if self.amount <= 0 or self.payer == self.payee:
            # A bug in this module, never bad input.
            raise AssertionError(f"not a transfer: {self.payer} → {self.payee} {self.amount}")

    def __str__(self) -> str:
        return f"{self.payer} → {self.payee} {self.amount}"

    def as_dict(self) -> dict[str, str]:
        return {"payer": self.payer, "payee": self.payee, "amount": str(self.amount)}


@dataclass(frozen=True)
class Settlement:
    """The close of an evening: exact and rounded balances (in the order given) and the suggested transfers."""

    coin: Decimal
    mode: str
    exact: Mapping[str, Decimal]
    rounded: Mapping[str, Decimal]
    transfers: tuple[Transfer, ...]
    banker: str | None = None

    @property
    def adjustment(self) -> dict[str, Decimal]:
        """What rounding did to each balance (rounded − exact); always less than one coin either way."""
        return {player: self.rounded[player] - amount for player, amount in self.exact.items()}

    def as_dict(self) -> dict[str, Any]:
        adjustment = self.adjustment
        return {
            "coin": str(self.coin),
            "mode": self.mode,
            "banker": self.banker,
            "balances": [
                {
                    "player": player,
                    "exact": str(amount),
                    "rounded": str(self.rounded[player]),
                    "adjustment": str(adjustment[player]),
                }
                for player, amount in self.exact.items()
            ],
            "transfers": [transfer.as_dict() for transfer in self.transfers],
        }


# --------------------------------------------------------------------------------------------------------------
# Public functions


def settle(
    balances: Mapping[str, Decimal], coin: Decimal, mode: str = "fewest", banker: str | None = None
) -> Settlement:
    """Round ``balances`` to ``coin`` and plan the transfers; RulesError (coin, balances, mode, banker) otherwise.

    >>> result = settle({"Ana": Decimal("0.50"), "Ben": Decimal("0.50"), "Cyril": Decimal("-1.00")}, Decimal("1"))
    >>> {player: str(amount) for player, amount in result.adjustment.items()}
    {'Ana': '0.50', 'Ben': '-0.50', 'Cyril': '0.00'}
    >>> [str(transfer) for transfer in result.transfers]
    ['Cyril → Ana 1']
    """
    coin = _check_coin(coin)
    _check_mode(mode, banker)
    exact = _check_balances(balances)
    _check_banker(exact, banker)
    rounded = round_balances(exact, coin)
    transfers = plan_transfers(rounded, mode, banker, coin=coin)
    return Settlement(coin=coin, mode=mode, exact=exact, rounded=rounded, transfers=transfers, banker=banker)


def round_balances(balances: Mapping[str, Decimal], coin: Decimal) -> dict[str, Decimal]:
    """Each balance rounded to a whole number of coins so that they still sum to exactly zero.

    Largest remainder: everybody is first rounded down to a coin, then the coins this leaves over go one each to
    the players with the largest remainders; among equal remainders, to the names that sort first. So no balance
    moves by a coin or more, and a balance that already is a whole number of coins never moves.

    >>> round_balances({"Ana": Decimal("12.40"), "Ben": Decimal("-7.30"), "Cyril": Decimal("-5.10")}, Decimal("0.50"))
    {'Ana': Decimal('12.50'), 'Ben': Decimal('-7.50'), 'Cyril': Decimal('-5.00')}
    """
    coin = _check_coin(coin)
    exact = _check_balances(balances)
    exponent = _common_exponent([coin, *exact.values()])
    unit = _to_units(coin, exponent)
    floors: dict[str, int] = {}
    remainders: dict[str, int] = {}
    for player, amount in exact.items():
        # Python's divmod floors, so every remainder lies in [0, unit) whatever the sign of the balance.
        floors[player], remainders[player] = divmod(_to_units(amount, exponent), unit)
    # The balances sum to zero, so the remainders sum to a whole number of coins: exactly what the floors are short.
    leftover = -sum(floors.values())
    rounded_up = set(sorted(exact, key=lambda player: (-remainders[player], player))[:leftover])
    return {player: coin * (floors[player] + (player in rounded_up)) for player in exact}


def plan_transfers(
    rounded: Mapping[str, Decimal],
    mode: str = "fewest",
    banker: str | None = None,
    *,
    coin: Decimal | None = None,
    exact_limit: int = EXACT_LIMIT,
) -> tuple[Transfer, ...]:
    """Who pays whom so that every balance in ``rounded`` ends at zero; largest transfer first, then by names.

    ``coin``: every balance must be a whole number of coins, and so is every transfer (only ``pairwise`` has
    shares to round); without it, the smallest decimal place of the balances is the coin. ``exact_limit`` is the
    largest table (counting everybody in ``rounded``, even those at zero) for which ``fewest`` searches for the
    true minimum; larger tables get the greedy plan. ``banker`` is required for, and only used by, the ``banker``
    mode (but checked in every mode).

    Here Ben and Cyril are even between themselves, so three transfers suffice where greedy needs four:

    >>> table = {"Ana": Decimal(4), "Ben": Decimal(3), "Cyril": Decimal(-3), "Dora": Decimal(-2), "Eva": Decimal(-2)}
    >>> [str(transfer) for transfer in plan_transfers(table)]
    ['Cyril → Ben 3', 'Dora → Ana 2', 'Eva → Ana 2']
    >>> len(plan_transfers(table, exact_limit=0))
    4
    >>> [str(transfer) for transfer in plan_transfers(table, "banker", banker="Ana")]
    ['Ana → Ben 3', 'Cyril → Ana 3', 'Dora → Ana 2', 'Eva → Ana 2']
    >>> evening = {"Ana": Decimal("10.00"), "Ben": Decimal("0.00"), "Cyril": Decimal("-10.00")}
    >>> [str(transfer) for transfer in plan_transfers(evening, "pairwise", coin=Decimal("1.00"))]
    ['Cyril → Ana 7.00', 'Ben → Ana 3.00', 'Cyril → Ben 3.00']
    """
    _check_mode(mode, banker)
    step = None if coin is None else _check_coin(coin)
    amounts = _check_balances(rounded)
    _check_banker(amounts, banker)
    exponent = _common_exponent([*amounts.values(), *([] if step is None else [step])])
    unit = 1 if step is None else _to_units(step, exponent)
    units: dict[str, int] = {}
    for player in sorted(amounts):
        units[player], left = divmod(_to_units(amounts[player], exponent), unit)
        if left:
            assert step is not None  # without a coin the unit is the smallest place, so nothing is left over
            message = _("must be a whole number of coins of %(coin)s; round it first") % {"coin": _shown(step)}
            raise RulesError(f"balances.{player}", message)
    if mode == "fewest":
        moves = _fewest(units, exact=len(units) <= exact_limit)
    elif mode == "banker":
        assert banker is not None
        moves = _via_banker(units, banker)
    else:
        moves = _pairwise(units)
    transfers = (Transfer(payer, payee, _from_units(amount * unit, exponent)) for payer, payee, amount in moves)
    return tuple(sorted(transfers, key=lambda t: (-t.amount, t.payer, t.payee)))


def after_paying(balances: Mapping[str, Decimal], transfer: Transfer) -> dict[str, Decimal]:
    """The balances once ``transfer`` has been paid: the payer owes that much less, the payee is owed that less.

    >>> after_paying({"Ana": Decimal(12), "Ben": Decimal(-7), "Cyril": Decimal(-5)}, Transfer("Ben", "Ana", Decimal(7)))
    {'Ana': Decimal('5'), 'Ben': Decimal('0'), 'Cyril': Decimal('-5')}
    """
    paid = dict(balances)
    paid[transfer.payer] += transfer.amount
    paid[transfer.payee] -= transfer.amount
    return paid


# --------------------------------------------------------------------------------------------------------------
# Fewest transfers
#
# Both regimes use one loop: take the largest transfer that settles a debtor or a creditor completely, among the
# pairs allowed, ties by (payer, payee) name; repeat. Greedy allows every debtor–creditor pair. The exact search
# allows only pairs that sit in one group of some best split of the table into groups that are even among
# themselves (n − groups is the fewest transfers possible, RULES.md §4).
#
# Why paying one transfer never reshuffles the rest. Order transfers by (−amount, payer, payee).
# - Exact: a transfer t is allowed exactly when some fewest-transfers plan contains it, and the allowed transfers
#   of the largest amount all settle somebody. So the loop picks, step by step, the first transfer (in that order)
#   of any fewest plan, then the first of any fewest plan containing it, and so on: it returns the fewest plan
#   whose sorted transfers come first in dictionary order. Comparing two plans of equal size in that order is
#   deciding which one holds the first transfer they do not share, so it ignores transfers they share. Paying t
#   turns the fewest plans of the new balances into exactly the fewest plans of the old ones that contain t,
#   minus t (a plan with one transfer fewer cannot exist, and adding t to a new plan never doubles a pair, else
#   the old balances would have a shorter plan). Hence planning again returns our plan without t.
# - Greedy: say t = (p, q, a) is paid first although the loop picked it at step j. Each earlier pick (x, y) still
#   has the same amount: if x is p, step j came later, so x was not settled at that step, the payee was, and p
#   still owed at least that much on top of a (likewise when y is q; x, y cannot be p, q, as a pair never
#   repeats). Every other pair's amount can only have shrunk. So every earlier step picks the same transfer, the
#   state before step j is the old one minus t, and from there on the loop runs exactly as before.
# The choice between exact and greedy counts everybody at the table, zeros included: paying a transfer can bring
# somebody to zero, and that must not switch the regime.


def _fewest(units: Mapping[str, int], *, exact: bool) -> list[_Move]:
    balance = {player: amount for player, amount in units.items() if amount}
    moves: list[_Move] = []
    while balance:
        allowed = _pairs_in_best_groups(balance) if exact else None
        best: tuple[int, str, str] | None = None
        for payer in (player for player, amount in balance.items() if amount < 0):
            for payee in (player for player, amount in balance.items() if amount > 0):
                if allowed is not None and (payer, payee) not in allowed:
                    continue
                key = (-min(-balance[payer], balance[payee]), payer, payee)
                if best is None or key < best:
                    best = key
        assert best is not None  # a non-empty zero-sum table has a debtor and a creditor sharing a group
        amount, payer, payee = -best[0], best[1], best[2]
        moves.append((payer, payee, amount))
        balance[payer] += amount
        balance[payee] -= amount
        balance = {player: rest for player, rest in balance.items() if rest}
    return moves


def _pairs_in_best_groups(balance: Mapping[str, int]) -> set[tuple[str, str]]:
    """(debtor, creditor) pairs that share a group in some split of the table into the most even groups."""
    players = list(balance)
    values = [balance[player] for player in players]
    full = (1 << len(players)) - 1
    sums = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + values[low.bit_length() - 1]
    # groups[mask]: the most even groups the players of an even mask split into. Taken as "the most even prefixes
    # of some ordering of mask", it needs only the masks one player smaller.
    groups = [0] * (full + 1)
    for mask in range(1, full + 1):
        most = 0
        rest = mask
        while rest:
            low = rest & -rest
            most = max(most, groups[mask ^ low])
            rest ^= low
        groups[mask] = most + (sums[mask] == 0)
    best = groups[full]
    pairs: set[tuple[str, str]] = set()
    for mask in range(1, full + 1):
        # A group of a best split: even, not splittable itself, and what is left splits into the remaining groups.
        if sums[mask] == 0 and groups[mask] == 1 and groups[full ^ mask] == best - 1:
            members = [i for i in range(len(players)) if mask >> i & 1]
            pairs.update((players[i], players[j]) for i in members for j in members if values[i] < 0 < values[j])
    return pairs


# --------------------------------------------------------------------------------------------------------------
# Banker and pairwise


def _via_banker(units: Mapping[str, int], banker: str) -> list[_Move]:
    # Stable for free: paying one transfer settles that player and touches nobody else but the banker.
    moves: list[_Move] = []
    for player, amount in units.items():
        if player != banker and amount < 0:
            moves.append((player, banker, -amount))
        elif player != banker and amount > 0:
            moves.append((banker, player, amount))
    return moves


def _pairwise(units: Mapping[str, int]) -> list[_Move]:
    """Everybody with everybody: ``i`` pays ``j`` the share ``(x_j − x_i) / n``, rounded to whole coins.

    Write each balance as ``x = n·u + v`` with ``0 ≤ v < n``; the share is then ``u_j − u_i + (v_j − v_i)/n``.
    Each share is rounded to one of the two whole amounts next to it (``δ`` = 0 or 1 on top of ``u_j − u_i`` when
    ``v_i < v_j``; exact when ``v_i = v_j``). For every player the shares must still add up to the balance, which
    pins down how many of that player's shares round each way; among all roundings that do, we take one with the
    least total rounding, as a min-cost flow. Such a rounding always exists: the exact shares are a fractional
    flow, and flows with whole-number limits have whole-number optima. Ties go to whichever the search, walking
    players in name order, finds first.
    """
    players = list(units)
    n = len(players)
    if n == 0:
        return []
    u = [units[player] // n for player in players]
    v = [units[player] % n for player in players]
    rounded_up = _round_shares(v, n)
    moves: list[_Move] = []
    for i in range(n):
        for j in range(i + 1, n):
            share = u[j] - u[i] + (1 if (i, j) in rounded_up else -1 if (j, i) in rounded_up else 0)
            if share > 0:
                moves.append((players[i], players[j], share))
            elif share < 0:
                moves.append((players[j], players[i], -share))
    return moves


def _round_shares(v: list[int], n: int) -> set[tuple[int, int]]:
    """The pairs (i, j), ``v_i < v_j``, whose share ``i`` pays ``j`` rounds up; see :func:`_pairwise`."""
    level = sum(v) // n  # the balances sum to zero, so sum(v) is a multiple of n
    source, sink = n, n + 1
    size = n + 2
    capacity = [[0] * size for _ in range(size)]
    cost = [[0] * size for _ in range(size)]
    for i in range(n):
        # Rounding up every share i takes and down every share i pays would give i (v_i − level) too little.
        need = v[i] - level
        if need < 0:
            capacity[source][i] = -need
        elif need > 0:
            capacity[i][sink] = need
        for j in range(n):
            if v[i] < v[j]:
                # Rounding the share up instead of down changes its error from f to 1 − f, f = (v_j − v_i)/n;
                # scaled by n to stay whole.
                capacity[i][j] = 1
                cost[i][j] = n - 2 * (v[j] - v[i])
                cost[j][i] = -cost[i][j]
    for _unit in range(sum(capacity[source])):
        _push_one_cheapest(capacity, cost, source, sink)
    return {(i, j) for i in range(n) for j in range(n) if v[i] < v[j] and capacity[i][j] == 0}


def _push_one_cheapest(capacity: list[list[int]], cost: list[list[int]], source: int, sink: int) -> None:
    # Successive shortest paths (Bellman–Ford, since cancelling a rounding has negative cost); the residual graph
    # starts without cycles because every share arc runs from a smaller v to a larger one.
    size = len(capacity)
    distance: list[int | None] = [None] * size
    previous = [-1] * size
    distance[source] = 0
    for _round in range(size - 1):
        changed = False
        for a in range(size):
            start = distance[a]
            if start is None:
                continue
            for b in range(size):
                if capacity[a][b] > 0:
                    reached = distance[b]
                    if reached is None or start + cost[a][b] < reached:
                        distance[b] = start + cost[a][b]
                        previous[b] = a
                        changed = True
        if not changed:
            break
    assert distance[sink] is not None  # guaranteed by the fractional flow of the exact shares
    node = sink
    while node != source:
        before = previous[node]
        capacity[before][node] -= 1
        capacity[node][before] += 1
        node = before


# --------------------------------------------------------------------------------------------------------------
# Checking input and whole-unit arithmetic


def _check_coin(coin: object) -> Decimal:
    amount = to_decimal(coin, "coin")
    if amount <= 0:
        raise RulesError("coin", _("must be a positive amount, e.g. 1.00 or 0.50"))
    exponent = amount.as_tuple().exponent
    assert isinstance(exponent, int)
    # "1E+1" is a fine coin but would print every rounded balance in scientific notation.
    return amount.quantize(Decimal(1)) if exponent > 0 else amount


def _check_mode(mode: str, banker: str | None) -> None:
    if mode not in MODES:
        raise RulesError("mode", _("unknown mode; allowed: %(allowed)s") % {"allowed": ", ".join(MODES)})
    if mode == "banker" and banker is None:
        raise RulesError("banker", _("is required when everybody settles with one banker"))


def _check_banker(balances: Mapping[str, Decimal], banker: str | None) -> None:
    if banker is not None and banker not in balances:
        players = ", ".join(balances) or _("nobody")
        raise RulesError(
            "banker",
            _("'%(player)s' is not at this table; players: %(players)s") % {"player": banker, "players": players},
        )


def _check_balances(balances: Mapping[str, Decimal]) -> dict[str, Decimal]:
    if not isinstance(balances, Mapping):
        raise RulesError("balances", _("must map each player to a balance"))
    checked = {player: to_decimal(amount, f"balances.{player}") for player, amount in balances.items()}
    exponent = _common_exponent(checked.values())
    total = sum(_to_units(amount, exponent) for amount in checked.values())
    if total != 0:
        total_text = _shown(_from_units(total, exponent))
        raise RulesError("balances", _("must sum to exactly 0, not %(total)s") % {"total": total_text})
    return checked


def _shown(amount: Decimal) -> str:
    """An amount in the active language, with exactly its own decimal places (a coin of 0.50 stays 0,50)."""
    exponent = amount.as_tuple().exponent
    return format_number(amount, places=max(0, -exponent) if isinstance(exponent, int) else 0)


def _common_exponent(amounts: Iterable[Decimal]) -> int:
    exponents = [amount.as_tuple().exponent for amount in amounts]
    return min((exponent for exponent in exponents if isinstance(exponent, int)), default=0)


def _to_units(amount: Decimal, exponent: int) -> int:
    """``amount`` as a whole number of ``10**exponent``; exact for any size (``exponent`` ≤ the amount's)."""
    sign, digits, own = amount.as_tuple()
    assert isinstance(own, int) and own >= exponent
    whole = int("".join(map(str, digits)) + "0" * (own - exponent))
    return -whole if sign else whole


def _from_units(units: int, exponent: int) -> Decimal:
    return Decimal((1 if units < 0 else 0, tuple(int(digit) for digit in str(abs(units))), exponent))
