"""Talon's rules engine: prices one hand of Skat, Mariáš or Šnapser from the hand document.

>>> result = score({"game": "skat", "players": ["Ana", "Ben", "Cyril"],
...                 "hand": {"declarer": "Ana", "contract": "grand", "matadors": 1, "declarer_points": 61}})
>>> result.label, result.won, {p: str(a) for p, a in result.amounts.items()}
('Grand with 1', True, {'Ana': '0.96', 'Ben': '-0.48', 'Cyril': '-0.48'})

Labels, explanation lines and error messages come in the active language (:mod:`rules.i18n`; English by default):

>>> from rules import i18n
>>> with i18n.override("de"):
...     score({"game": "skat", "players": ["Ana", "Ben", "Cyril"],
...            "hand": {"declarer": "Ana", "contract": "grand", "matadors": 1, "declarer_points": 61}}).label
'Grand mit 1'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from decimal import DecimalException
from typing import Any

from rules import marias, skat, snapser
from rules.base import (
    MAX_AMOUNT,
    MONEY_QUANTUM,
    Dealt,
    Game,
    Line,
    NextHand,
    Option,
    Played,
    RulesError,
    Score,
    Table,
    bock_queue,
    payment_line,
    resolve_settings,
    settings_as_json,
)
from rules.i18n import _, format_number

__all__ = [
    "GAMES",
    "GAME_NAMES",
    "MAX_AMOUNT",
    "Dealt",
    "Game",
    "Line",
    "NextHand",
    "Played",
    "RulesError",
    "Score",
    "Table",
    "bock_queue",
    "game",
    "resolve",
    "schema",
    "score",
]

# The registry: each game module exports one GAME satisfying rules.base.Game; mypy checks all three against it here.
GAMES: Mapping[str, Game[Any]] = {chosen.name: chosen for chosen in (skat.GAME, marias.GAME, snapser.GAME)}
GAME_NAMES = tuple(GAMES)


def game(name: object) -> Game[Any]:
    """The game registered under ``name``; RulesError naming the field ``game`` otherwise.

    >>> game("snapser").title, [chosen.name for chosen in GAMES.values()]
    ('Šnapser', ['skat', 'marias', 'snapser'])
    """
    if not isinstance(name, str) or name not in GAMES:
        raise RulesError("game", _("unknown game; allowed: %(allowed)s") % {"allowed": ", ".join(GAME_NAMES)})
    return GAMES[name]


def resolve(game_name: str, rules: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The full ruleset (preset plus overrides, every option present) as JSON-ready values.

    This is what the ledger freezes on a table, so later preset changes never re-price old hands.
    """
    if rules is not None and not isinstance(rules, Mapping):
        raise RulesError("rules", _("must be an object with a preset and overrides"))
    chosen = game(game_name)
    return settings_as_json(resolve_settings(chosen.options, chosen.presets, chosen.default_preset, rules))


def table(document: Mapping[str, Any]) -> tuple[Game[Any], Table]:
    """The game and the table (seat order, resolved settings) a hand document describes."""
    if not isinstance(document, Mapping):
        raise RulesError("document", _("must be an object with game, players, rules and hand"))
    chosen = game(document.get("game"))
    players = document.get("players")
    if (
        not isinstance(players, list)
        or not all(isinstance(p, str) and p.strip() for p in players)
        or len(set(players)) != len(players)
    ):
        raise RulesError("players", _("must be a list of distinct player names in seat order"))
    if len(players) not in chosen.seats:
        # xgettext cannot see inside f-strings, so translate outside them.
        word = _("or")
        allowed = f" {word} ".join(str(n) for n in chosen.seats)
        raise RulesError(
            "players",
            _("%(game)s is played by %(allowed)s players, not %(count)s")
            % {"game": chosen.title, "allowed": allowed, "count": len(players)},
        )
    rules = document.get("rules")
    if rules is not None and not isinstance(rules, Mapping):
        raise RulesError("rules", _("must be an object with a preset and overrides"))
    settings = resolve_settings(chosen.options, chosen.presets, chosen.default_preset, rules)
    return chosen, Table(players=tuple(players), settings=settings)


def score(document: Mapping[str, Any]) -> Score:
    """Price one hand document; RulesError (field, message) on bad input, nothing half-computed.

    Every amount fits what the ledger stores (:data:`rules.base.MAX_AMOUNT`, 4 decimal places): the options'
    limits keep nearly every hand there, and a hand worth more is refused here rather than overflowing later.

    The explanation of every game ends with who is due what, in the players' words
    (:func:`rules.base.payment_line`), so each game's own lines stop at how the money came about.
    """
    chosen, seated = table(document)
    hand = document.get("hand")
    if not isinstance(hand, Mapping):
        raise RulesError("hand", _("must be an object with the hand's fields"))
    try:
        result = chosen.price(seated, chosen.parse(seated, hand))
    except DecimalException as error:
        # A last guard (InvalidOperation, Overflow…): the options' limits should make this impossible, but a
        # ruleset that slipped past them must be a clear error for the caller, never a crash.
        raise RulesError("rules", _("the ruleset makes this hand too large to price; lower the stake")) from error
    if any(abs(amount) > MAX_AMOUNT for amount in result.amounts.values()):
        raise RulesError(
            "hand",
            _("is worth %(limit)s or more to one player, more than one hand can move; check it or lower the stake")
            % {"limit": format_number(MAX_AMOUNT + MONEY_QUANTUM, places=0)},
        )
    currency = str(seated.settings.get("currency", "EUR"))
    return replace(result, lines=(*result.lines, payment_line(result.amounts, currency)))


def schema(game_name: str) -> dict[str, Any]:
    """A JSON Schema of a whole hand document of one game."""
    chosen = game(game_name)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"{chosen.title} hand document",
        "type": "object",
        "required": ["game", "players", "hand"],
        "properties": {
            "game": {"const": chosen.name},
            "players": {
                "type": "array",
                "items": {"type": "string", "minLength": 1},
                "minItems": min(chosen.seats),
                "maxItems": max(chosen.seats),
                "uniqueItems": True,
            },
            "rules": {
                "type": "object",
                "properties": {"preset": {"enum": list(chosen.presets)}}
                | {name: _option_schema(option) for name, option in chosen.options.items()},
                "additionalProperties": False,
            },
            "hand": chosen.hand_schema(),
        },
    }


def _option_schema(option: Option) -> dict[str, Any]:
    default = option.default
    if isinstance(default, bool):
        return {"type": "boolean"}
    if isinstance(default, int):
        lo, hi = option.bounds()
        return {"type": "integer", "minimum": int(lo), "maximum": int(hi)}
    if isinstance(default, str):
        return {"enum": list(option.choices)} if option.choices else {"type": "string"}
    # The range (Option.bounds) is checked on the number, not in the schema: JSON Schema cannot compare strings.
    return {"type": "string", "pattern": r"^-?\d+([.,]\d+)?$"}
