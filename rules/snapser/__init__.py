"""Šnapser, the Slovak 24-card game (RULES.md §3, seed ``000_…txt``): 2, 3 or 4 players, one chooser (voliaci).

A hand is worth ``V = stake × category × 2^raises × L``: the category is the multiple of the stake the seed gives
(s vodou 2, bez vody 4, za 6 6, tichý durch 18, za 12 12, durch 36, nehrám 6), each raise (kontra, re, tuti, boty)
doubles, and ``L`` = 2 when hearts (červeň) are trump. By default every member of the losing side pays every member
of the winning side ``V``.

>>> from rules.base import Table, resolve_settings
>>> table = Table(("Ana", "Ben", "Cyril"), resolve_settings(GAME.options, GAME.presets, "seed", None))
>>> hand = GAME.parse(table, {"declarer": "Ana", "trump": "hearts", "announcement": "hram", "raises": 1,
...                           "winner": "declarer", "result": "bez_vody"})
>>> score = GAME.price(table, hand)
>>> score.label, str(score.value), {p: str(a) for p, a in score.amounts.items()}
('bez vody in hearts, kontra', '1.60', {'Ana': '3.20', 'Ben': '-1.60', 'Cyril': '-1.60'})
>>> score.lines[-1].detail
'4 × 2 × 2 × €0.10 = €1.60'

In Slovak, the words of the table:

>>> from rules.i18n import override
>>> with override("sk"):
...     score = GAME.price(table, hand)
>>> score.label, score.lines[-1].detail
('bez vody v červenom, kontra', '4 × 2 × 2 × 0,10\xa0€ = 1,60\xa0€')

The package: :mod:`~rules.snapser.contracts` (games, multiples, the parsed hand, names),
:mod:`~rules.snapser.options` (house rules and the preset), :mod:`~rules.snapser.reading` (the hand document),
:mod:`~rules.snapser.pricing`, :mod:`~rules.snapser.explaining` (the words of the lines) and
:mod:`~rules.snapser.game` (the object registered in :mod:`rules`); every public name is importable from
``rules.snapser``.
"""

from __future__ import annotations

from rules.snapser.contracts import (
    ANNOUNCEMENTS,
    ENDS,
    MAX_RAISES,
    MULTIPLES,
    NAMES,
    PARTNER_SEATS,
    RAISE_NAMES,
    RED,
    RESULTS,
    SEATS,
    TRUMPS,
    WHY,
    WINNERS,
    SnapserHand,
    category_name,
    raise_name,
)
from rules.snapser.game import GAME, Snapser, hand_schema
from rules.snapser.options import CURRENCY_STAKES, FALSE_DOST, OPTIONS, PAYMENTS, PRESET_LABELS, PRESETS, VALUE_LABELS
from rules.snapser.pricing import price_hand, red_doubles
from rules.snapser.reading import FIELDS, parse_hand

__all__ = [
    "ANNOUNCEMENTS",
    "CURRENCY_STAKES",
    "ENDS",
    "FALSE_DOST",
    "FIELDS",
    "GAME",
    "MAX_RAISES",
    "MULTIPLES",
    "NAMES",
    "OPTIONS",
    "PARTNER_SEATS",
    "PAYMENTS",
    "PRESETS",
    "PRESET_LABELS",
    "RAISE_NAMES",
    "RED",
    "RESULTS",
    "SEATS",
    "TRUMPS",
    "VALUE_LABELS",
    "WHY",
    "WINNERS",
    "Snapser",
    "SnapserHand",
    "category_name",
    "hand_schema",
    "parse_hand",
    "price_hand",
    "raise_name",
    "red_doubles",
]
