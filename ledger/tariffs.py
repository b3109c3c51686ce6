"""The rules page of a game: how a hand is priced under a ruleset (the tariff tables and the options in force).

Every number comes from the rules engine: each row prices a sample hand with ``rules.score`` under the ruleset
shown, so the page can never disagree with what the table actually charges. Texts and numbers are in the active
language (the caller runs inside ``rules.i18n.override``, as every request does).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _

import rules
from rules import marias, skat, snapser
from rules.i18n import format_amount, format_money, format_number
from rules.i18n import pgettext as rules_word
from rules.labels import preset_label, value_label

PLAYERS = ("Ana", "Ben", "Cyril", "Dana")


@dataclass
class Tariff:
    """One table of the rules page: a title, a sentence on how to read it, column headers and rows of texts."""

    title: str
    intro: str
    headers: list[str]
    rows: list[list[str]] = field(default_factory=list)


@dataclass
class Option:
    name: str
    help: str
    value: str
    changed: bool  # differs from the game's default


def options(game_name: str, ruleset: dict[str, Any]) -> list[Option]:
    """Each house rule of the game with its translated explanation and its value in this ruleset."""
    game = rules.game(game_name)
    return [
        Option(
            name,
            option.translated_help(),
            value_label(game_name, name, ruleset[name]) or _shown(ruleset[name]),
            _json(ruleset[name]) != _json(option.default),
        )
        for name, option in game.options.items()
        if name in ruleset
    ]


def presets(game_name: str) -> list[tuple[str, str, list[Option]]]:
    """The game's presets (key, name in the active language), each with the options it sets away from the game's
    defaults."""
    game = rules.game(game_name)
    return [
        (
            name,
            preset_label(game_name, name),
            [o for o in options(game_name, rules.resolve(game_name, {"preset": name})) if o.changed],
        )
        for name in game.presets
    ]


# --------------------------------------------------------------------------------------------------------------
# Helpers


def _json(value: Any) -> str:
    return str(value)


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, int):
        return format_number(Decimal(value), places=0)
    try:
        amount = Decimal(str(value))  # money options are stored as strings: at least two places, like money
    except ArithmeticError:
        return str(value)
    return format_amount(amount)


def _score(game_name: str, ruleset: dict[str, Any], players: int, hand: dict[str, Any]) -> rules.Score:
    return rules.score({"game": game_name, "players": list(PLAYERS[:players]), "rules": ruleset, "hand": hand})


def _multiple(value: Decimal, stake: Decimal) -> str:
    return format_number(value / stake, places=None)


# --------------------------------------------------------------------------------------------------------------
# Mariáš: components × stake, red doubling, flek levels


def marias_tariffs(ruleset: dict[str, Any], seats: int | None = None) -> list[Tariff]:
    """The tariff tables of Mariáš under ``ruleset`` (a resolved ruleset, as frozen on a table)."""
    stake, currency = Decimal(str(ruleset["stake"])), str(ruleset["currency"])

    def value(contract: str, trump: str | None = None, **extra: Any) -> Decimal:
        hand: dict[str, Any] = {"declarer": "Ana", "contract": contract} | extra
        if contract not in marias.ALONE_CONTRACTS:
            hand |= {"partner": "Cyril", "trump": trump, "points": extra.get("points", 60)}
        return _score("marias", ruleset, 4, hand).value

    won = {"side": "declarer", "won": True}
    samples: dict[str, Callable[[str], Decimal]] = {
        "hra": lambda trump: value("hra", trump),
        "sedma": lambda trump: value("sedma", trump, seven=won) - value("hra", trump),
        "ticha_sedma": lambda trump: value("hra", trump, seven=won) - value("hra", trump),
        "stovka": lambda trump: value("stovka", trump, marriages={"declarer": [40]}),
        "betl": lambda trump: value("betl", won=True),
        "durch": lambda trump: value("durch", won=True),
    }
    names = {
        "hra": rules_word("marias", "hra"),
        "sedma": rules_word("marias", "sedma"),
        "ticha_sedma": _("tichá sedma (silent seven, never flekked)"),
        "stovka": _("stovka, per step"),
        "betl": rules_word("marias", "betl"),
        "durch": rules_word("marias", "durch"),
    }
    components = Tariff(
        _("Components of a hand"),
        _(
            "What each part of a contract is worth to each player of the winning side, before any flek; "
            "a hand is the sum of its parts, each won or lost on its own."
        ),
        [_("Component"), _("× stake"), _("Value"), _("Hearts trump (lepší)")],
    )
    for key, sample in samples.items():
        plain, red = sample("bells"), sample("hearts")
        components.rows.append(
            [names[key], _multiple(plain, stake), format_money(plain, currency), format_money(red, currency)]
        )
    base = value("hra", "bells")
    fleks = Tariff(
        _("Flek levels"),
        _("Each component is flekked on its own; every level doubles it."),
        [_("Level"), _("Factor"), _("A hra is worth")],
    )
    for level in range(int(ruleset.get("flek_cap", 5)) + 1):
        flekked = value("hra", "bells", flek={"hra": level}) if level else base
        fleks.rows.append(
            [marias.flek_name(level), f"× {format_number(flekked / base, places=0)}", format_money(flekked, currency)]
        )
    return [components, fleks]


# --------------------------------------------------------------------------------------------------------------
# Šnapser: categories × stake, red doubling, raises


def snapser_tariffs(ruleset: dict[str, Any], seats: int | None = None) -> list[Tariff]:
    """The tariff tables of Šnapser under ``ruleset`` (a resolved ruleset, as frozen on a table)."""
    stake, currency = Decimal(str(ruleset["stake"])), str(ruleset["currency"])

    def value(key: str, trump: str, raises: int = 0) -> Decimal:
        hand: dict[str, Any]  # a hand document, as in marias_tariffs
        if key in snapser.RESULTS:
            hand = {"announcement": "hram", "winner": "declarer", "result": key}
        else:
            hand = {"announcement": key} | ({} if key == "nehram" else {"winner": "declarer"})
        hand |= {"declarer": "Ana", "trump": trump} | ({"raises": raises} if raises else {})
        return _score("snapser", ruleset, 3, hand).value

    categories = Tariff(
        _("Categories"),
        _(
            "V, the value of a hand: what every member of the losing side pays every member of the winning side "
            "(see who pays whom below)."
        ),
        [_("Category"), _("When"), _("× stake"), _("V"), _("Hearts trump (červeň)")],
    )
    for key in (*snapser.RESULTS, "za12", "durch", "nehram"):
        plain, red = value(key, "leaves"), value(key, "hearts")
        categories.rows.append(
            [
                snapser.category_name(key),
                rules_word("snapser", snapser.WHY[key]),
                _multiple(plain, stake),
                format_money(plain, currency),
                format_money(red, currency),
            ]
        )
    base = value("s_vodou", "leaves")
    raises = Tariff(
        _("Raises"),
        _("Each raise doubles the value of the hand (not nehrám)."),
        [_("Raise"), _("Factor"), _("s vodou is worth")],
    )
    for level in range(1, snapser.MAX_RAISES + 1):
        raised = value("s_vodou", "leaves", level)
        raises.rows.append(
            [snapser.raise_name(level), f"× {format_number(raised / base, places=0)}", format_money(raised, currency)]
        )
    return [categories, raises]


# --------------------------------------------------------------------------------------------------------------
# Skat: base values, the multiplier, Null values


def skat_tariffs(ruleset: dict[str, Any], seats: int | None = None) -> list[Tariff]:
    """The tariff tables of Skat under ``ruleset`` (a resolved ruleset, as frozen on a table)."""
    currency = str(ruleset["currency"])
    players = 4 if seats == 4 else 3

    def score(contract: str, **hand: Any) -> rules.Score:
        hand = {"declarer": "Ana", "contract": contract} | hand
        if players == 4:
            hand["dealer"] = PLAYERS[3]
        return _score("skat", ruleset, players, hand)

    suits = Tariff(
        _("Suit games and Grand"),
        _(
            "Game value = base value × multiplier. The multiplier: matadors (with or without), +1 game, +1 hand, "
            "+1 Schneider, +1 Schneider announced, +1 Schwarz, +1 Schwarz announced, +1 ouvert. "
            "A lost game counts twice its value against the declarer."
        ),
        [_("Game"), _("Base value"), _("With 1, won"), _("List score"), _("Declarer's money")],
    )
    for contract in ("diamonds", "hearts", "spades", "clubs", "grand"):
        won = score(contract, matadors=1, declarer_points=61)
        suits.rows.append(
            [
                skat.contract_name(contract),
                format_number(won.value // 2, places=0),
                format_number(won.value, places=0),
                format_number((won.score or {})["Ana"], places=0),
                format_money(won.amounts["Ana"], currency),
            ]
        )
    nulls = Tariff(
        _("Null games"),
        _("A Null has a fixed value; the declarer wins when taking no trick."),
        [_("Game"), _("Value"), _("List score"), _("Declarer's money")],
    )
    for extra in ({}, {"hand": True}, {"ouvert": True}, {"hand": True, "ouvert": True}):
        won = score("null", won=True, **extra)
        nulls.rows.append(
            [
                won.label,
                format_number(won.value, places=0),
                format_number((won.score or {})["Ana"], places=0),
                format_money(won.amounts["Ana"], currency),
            ]
        )
    tables = [suits, nulls]
    if ruleset.get("kontra") or ruleset.get("bock"):
        doubles = Tariff(
            _("Kontra, Re and Bock"),
            _("Doubling on top of the game value, won or lost."),
            [_("Doubling"), _("Grand with 1: value"), _("List score"), _("Declarer's money")],
        )
        rows: list[tuple[str, dict[str, Any]]] = []
        if ruleset.get("kontra"):
            rows += [(_("Kontra"), {"kontra": 1}), (_("Kontra and Re"), {"kontra": 2})]
        if ruleset.get("bock"):
            rows += [(_("One Bock round"), {"bock": 1}), (_("Two Bock rounds"), {"bock": 2})]
        for name, extra in rows:
            won = score("grand", matadors=1, declarer_points=61, **extra)
            doubles.rows.append(
                [
                    name,
                    format_number(won.value, places=0),
                    format_number((won.score or {})["Ana"], places=0),
                    format_money(won.amounts["Ana"], currency),
                ]
            )
        tables.append(doubles)
    return tables
