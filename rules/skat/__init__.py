"""Skat as the International Skat Order scores it, plus the tournament list and the pub rules of RULES.md §1.

One hand document in, list points and money out. The declarer's list score is the game value when won and
−2 × the value when lost; money is "everybody pays everybody the difference" at the table's stake.

>>> import rules
>>> result = rules.score({"game": "skat", "players": ["Ana", "Ben", "Cyril"],
...                       "hand": {"declarer": "Ana", "contract": "grand", "hand": True, "matadors": 2,
...                                "declarer_points": 95}})
>>> result.label, result.value, dict(result.score or {})
('Grand Hand Schneider with 2', Decimal('120'), {'Ana': 120, 'Ben': 0, 'Cyril': 0})
>>> result.lines[0].label
'Grand with 2, game 3, hand 4, Schneider 5 × 24 = 120'

In German, with Skat's own words (Spitzen, Augen, Schneider angesagt …):

>>> from rules.i18n import override
>>> with override("de"):
...     result = rules.score({"game": "skat", "players": ["Ana", "Ben", "Cyril"],
...                           "hand": {"declarer": "Ana", "contract": "grand", "hand": True, "matadors": 2,
...                                    "declarer_points": 95}})
>>> result.label, result.lines[0].label
('Grand Hand Schneider mit 2', 'Grand mit 2, Spiel 3, Hand 4, Schneider 5 × 24 = 120')

The package: :mod:`~rules.skat.contracts` (values, bids, the parsed hand, names), :mod:`~rules.skat.options`
(house rules and presets), :mod:`~rules.skat.reading` (the hand document), :mod:`~rules.skat.pricing` (game value,
list, Bock, Ramsch, money), :mod:`~rules.skat.explaining` (the words of the lines) and :mod:`~rules.skat.game` (the
object registered in :mod:`rules`); every public name is importable from ``rules.skat``.
"""

from __future__ import annotations

from rules.skat.contracts import (
    BASE,
    CARD_POINTS,
    CONTRACTS,
    DECK,
    DURCHMARSCH_POINTS,
    HIGHEST_BID,
    HOLDABLE,
    LEGAL_BIDS,
    LOST_FACTOR,
    LOWEST_BID,
    MOST_BOCKS,
    MOST_GRAND_MATADORS,
    MOST_GRAND_MULTIPLIER,
    MOST_MATADORS,
    MOST_SEEGER_POINTS,
    MOST_SUIT_MULTIPLIER,
    NULL_VALUES,
    SCHNEIDER_POINTS,
    SKAT_HOLDS,
    SUIT_BASE,
    TRUMP_GAMES,
    WIN_POINTS,
    SkatHand,
    contract_name,
    null_name,
    null_value,
    overbid_value,
)
from rules.skat.game import GAME, Skat
from rules.skat.options import CURRENCY_STAKES, OPTIONS, PRESET_LABELS, PRESETS, VALUE_LABELS
from rules.skat.pricing import price_hand
from rules.skat.reading import FIELDS, parse_hand

__all__ = [
    "BASE",
    "CARD_POINTS",
    "CONTRACTS",
    "CURRENCY_STAKES",
    "DECK",
    "DURCHMARSCH_POINTS",
    "FIELDS",
    "GAME",
    "HIGHEST_BID",
    "HOLDABLE",
    "LEGAL_BIDS",
    "LOST_FACTOR",
    "LOWEST_BID",
    "MOST_BOCKS",
    "MOST_GRAND_MATADORS",
    "MOST_GRAND_MULTIPLIER",
    "MOST_MATADORS",
    "MOST_SEEGER_POINTS",
    "MOST_SUIT_MULTIPLIER",
    "NULL_VALUES",
    "OPTIONS",
    "PRESETS",
    "PRESET_LABELS",
    "SCHNEIDER_POINTS",
    "SKAT_HOLDS",
    "SUIT_BASE",
    "TRUMP_GAMES",
    "VALUE_LABELS",
    "WIN_POINTS",
    "Skat",
    "SkatHand",
    "contract_name",
    "null_name",
    "null_value",
    "overbid_value",
    "parse_hand",
    "price_hand",
]
