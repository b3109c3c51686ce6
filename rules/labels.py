"""What a player reads for a preset, a house rule's value and a default stake: never the key a document stores.

Each game module keeps its words next to its options (``PRESET_LABELS``, ``VALUE_LABELS``, ``CURRENCY_STAKES``);
this module says them in the active language (:mod:`rules.i18n`). A value without a label of its own is a number,
a yes/no or a currency code, which the reader's page formats itself.

>>> from rules.i18n import override
>>> preset_label("skat", "isko"), value_label("marias", "pay_2v2", "pair")
('International Skat Order', 'each defender pays one opponent V')
>>> with override("de"):
...     value_label("snapser", "false_dost", "s_vodou")
'immer s vodou'
>>> currency_stake("skat", "CZK"), currency_stake("skat", "EUR"), currency_stake("marias", "EUR")
(Decimal('0.25'), None, None)
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from types import ModuleType

from rules import marias, skat, snapser
from rules.i18n import gettext

__all__ = ["currency_stake", "preset_label", "value_label"]

_MODULES: Mapping[str, ModuleType] = {"marias": marias, "skat": skat, "snapser": snapser}


def _module(game: str) -> ModuleType | None:
    return _MODULES.get(game)


def preset_label(game: str, preset: str) -> str:
    """The preset's name in the active language (the key itself only for a preset nobody labelled)."""
    labels: Mapping[str, str] = getattr(_module(game), "PRESET_LABELS", {})
    return gettext(labels[preset]) if preset in labels else preset


def value_label(game: str, option: str, value: object) -> str | None:
    """What ``value`` of the house rule ``option`` means, in the active language; None for a value with no words
    of its own (numbers, yes/no, currencies)."""
    labels: Mapping[str, Mapping[str, str]] = getattr(_module(game), "VALUE_LABELS", {})
    label = labels.get(option, {}).get(str(value))
    return gettext(label) if label is not None else None


def currency_stake(game: str, currency: str) -> Decimal | None:
    """A default stake that means something in ``currency`` when the game's presets count in another one; None
    where the preset's own stake is the one to show."""
    stakes: Mapping[str, Decimal] = getattr(_module(game), "CURRENCY_STAKES", {})
    return stakes.get(currency)
