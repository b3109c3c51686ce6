"""Mariáš čtyřka: four-player křížový volený mariáš, priced as RULES.md §2 and seed 001 describe.

The chooser (``declarer``) picks trump and calls a card; its holder (``partner``) plays with him, 2 against 2. If he
called his own card he plays alone, 1 against 3; betl and durch are always alone. A contract is made of components
(hra, sedma, stovka, betl, durch), each flekked, won and lost on its own; the hand's value ``V`` is their sum in money
per player of the declarer's side, and the table pays it as the ``pay_2v2`` / ``pay_alone`` settings say.

>>> from rules.base import Table, resolve_settings
>>> table = Table(("Ana", "Ben", "Cyril", "Dana"), resolve_settings(OPTIONS, PRESETS, DEFAULT_PRESET, None))
>>> m1 = {"declarer": "Ana", "partner": "Cyril", "contract": "sedma", "trump": "hearts",
...       "flek": {"hra": 1, "sedma": 2}, "points": 80, "marriages": {"declarer": [40]},
...       "seven": {"side": "declarer", "won": False}}
>>> result = GAME.price(table, GAME.parse(table, m1))
>>> result.value
Decimal('3.20')
>>> for line in result.lines:
...     print(f"{line.label}: {line.detail}".replace("\xa0", " "))
card points + hlášky (marriages): declarer's side 80 + 40 = 120, defenders 10
hra in hearts (lepší), flek, won (120:10), silent hundred (tichá stovka): 0.20 × 2 × 2 × 2 × 2 × 2 = 6.40 Kč
sedma in hearts (lepší), re, lost (seven killed): −0.40 × 2 × 4 = −3.20 Kč
>>> result.label
'Sedma in hearts (lepší), re on the sedma, flek on the hra'

The hra is 0.20, doubled for hearts (lepší), for the flek, for the silent hundred and for each ten above it; the
sedma is 0.40, doubled for hearts and four times for the re, and lost: its first factor carries the minus.
``rules.score`` adds who pays whom as the last line. In Czech, the words the table uses:

>>> from rules.i18n import override
>>> with override("cs"):
...     result = GAME.price(table, GAME.parse(table, m1))
>>> result.label
'Lepší sedma, re na sedmu, flek na hru'

The package: :mod:`~rules.marias.contracts` (contracts, components, the parsed hand, names),
:mod:`~rules.marias.options` (house rules and presets), :mod:`~rules.marias.reading` (the hand document),
:mod:`~rules.marias.pricing` (components, fleks, who pays whom), :mod:`~rules.marias.explaining` (the words of the
lines) and :mod:`~rules.marias.game` (the object registered in :mod:`rules`); every public name is importable from
``rules.marias``.
"""

from __future__ import annotations

from rules.marias.contracts import (
    ALONE_CONTRACTS,
    CARD_POINTS,
    COLOUR_COMPONENTS,
    CONTRACTS,
    FLEK_NAMES,
    HUNDRED,
    MOST_TWENTIES,
    RENONC_KINDS,
    SIDES,
    TRUMPS,
    WON_INSTEAD_OF_POINTS,
    MariasHand,
    Renonc,
    Seven,
    components,
    flek_name,
    renonc_fee,
    renonc_name,
)
from rules.marias.game import GAME
from rules.marias.options import DEFAULT_PRESET, OPTIONS, PRESET_LABELS, PRESETS, VALUE_LABELS
from rules.marias.pricing import price_hand
from rules.marias.reading import parse_hand

__all__ = [
    "ALONE_CONTRACTS",
    "CARD_POINTS",
    "COLOUR_COMPONENTS",
    "CONTRACTS",
    "DEFAULT_PRESET",
    "FLEK_NAMES",
    "GAME",
    "HUNDRED",
    "MOST_TWENTIES",
    "OPTIONS",
    "PRESETS",
    "PRESET_LABELS",
    "RENONC_KINDS",
    "SIDES",
    "TRUMPS",
    "VALUE_LABELS",
    "WON_INSTEAD_OF_POINTS",
    "MariasHand",
    "Renonc",
    "Seven",
    "components",
    "flek_name",
    "parse_hand",
    "price_hand",
    "renonc_fee",
    "renonc_name",
]
