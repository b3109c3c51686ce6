"""The interface every game implements (:class:`Game`), and one place to import what the games share.

Pure Python: no Django, no I/O, no floats. A game (the package ``rules/skat/`` …) exports one object satisfying
:class:`Game`; ``rules/__init__.py`` keeps the registry. What the games share lives in modules of its own, all of
them importable from here:

- :mod:`rules.errors`: :class:`RulesError`, and ``shown`` for what the caller sent;
- :mod:`rules.money`: the limits the ledger can store, ``pay_between``, ``pairwise_differences``;
- :mod:`rules.results`: :class:`Score`, :class:`Line`, ``said``, ``payment_line``;
- :mod:`rules.reading`: ``to_decimal``, ``to_int``, :class:`HandReader`;
- :mod:`rules.options`: :class:`Option`, ``resolve_settings`` and the settings they give;
- :mod:`rules.seating`: :class:`Table`, the deal and Bock rounds between hands, :class:`Played`.

The flow for one hand::

    table = Table(players=("Ana", "Ben", "Cyril"), settings=game.resolve({"preset": "isko"}))
    parsed = game.parse(table, {"declarer": "Ana", "contract": "grand", ...})   # RulesError on bad input
    result = game.price(table, parsed)                                       # -> Score
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Generic, Protocol, TypeVar

from rules.errors import RulesError, shown
from rules.i18n import CURRENCY_SIGNS, format_money, format_number
from rules.money import (
    MAX_AMOUNT,
    MAX_STAKE,
    MIN_STAKE,
    MONEY_QUANTUM,
    OPTION_LIMIT,
    OPTION_PLACES,
    ZERO,
    pairwise_differences,
    pay_between,
)
from rules.options import (
    CURRENCIES,
    Option,
    Settings,
    currency_option,
    resolve_settings,
    settings_as_json,
    stake_option,
)
from rules.reading import HandReader, to_decimal, to_int
from rules.results import Line, Score, payment_line, said
from rules.seating import DealsInTurn, Dealt, NextHand, Played, Table, bock_queue, next_dealer, seated

# format_number and format_money live in rules.i18n (they depend on the language); they are imported above so
# ``from rules.base import format_money`` keeps working.
__all__ = [
    "CURRENCIES",
    "CURRENCY_SIGNS",
    "MAX_AMOUNT",
    "MAX_STAKE",
    "MIN_STAKE",
    "MONEY_QUANTUM",
    "OPTION_LIMIT",
    "OPTION_PLACES",
    "ZERO",
    "DealsInTurn",
    "Dealt",
    "Game",
    "HandReader",
    "Line",
    "NextHand",
    "Option",
    "Played",
    "RulesError",
    "Score",
    "Settings",
    "Table",
    "bock_queue",
    "currency_option",
    "format_money",
    "format_number",
    "next_dealer",
    "pairwise_differences",
    "pay_between",
    "payment_line",
    "resolve_settings",
    "said",
    "seated",
    "settings_as_json",
    "shown",
    "stake_option",
    "to_decimal",
    "to_int",
]

HandT = TypeVar("HandT")


class Game(Protocol, Generic[HandT]):
    """The interface every game module implements (one object per game, registered in ``rules``)."""

    name: str  # "skat", "marias", "snapser"
    title: str  # "Skat", "Mariáš čtyřka", "Šnapser"
    seats: tuple[int, ...]  # allowed numbers of players
    options: Mapping[str, Option]
    presets: Mapping[str, Mapping[str, Any]]
    default_preset: str

    def parse(self, table: Table, hand: Mapping[str, Any]) -> HandT:
        """Validate the hand part of a document into a typed, frozen hand; RulesError on bad input."""
        ...

    def price(self, table: Table, hand: HandT) -> Score:
        """Price a parsed hand: pure arithmetic, no validation left to do."""
        ...

    def hand_schema(self) -> dict[str, Any]:
        """A JSON Schema (draft 2020-12) of the hand part of the document."""
        ...

    def next_hand(self, seats: int, settings: Settings, previous: Sequence[Dealt], first_dealer: int = 0) -> NextHand:
        """Who deals the next hand, who sits out, and the Bock rounds over it, from the counted hands so far.

        ``previous`` is the counted hands, oldest first; the last ``seats`` of them are enough. ``settings`` is the
        table's ruleset (resolved, or as frozen in JSON).
        """
        ...

    def hand_dealer(self, players: Sequence[str], hand: Mapping[str, Any]) -> int | None:
        """The seat position of the dealer the hand part names, or None when it names none (or nobody seated)."""
        ...

    def played(self, players: Sequence[str], hand: Mapping[str, Any]) -> Played:
        """Who chose or declared the stored hand part ``hand`` at a table seating ``players``, with whom, and under
        how many Bock rounds (:class:`Played`): read as the document says, never inferred from the amounts."""
        ...

    def list_scoring(self, settings: Settings) -> str | None:
        """The list the game writes each hand's points on at a table with these ``settings`` (resolved, or as
        frozen in JSON): its ``scoring`` (``"classic"``, ``"seeger-fabian"``) for a game that keeps a list of
        points beside the money (:attr:`Score.score`), None for a game priced in money only."""
        ...
