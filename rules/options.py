"""Rulesets: the house rules (:class:`Option`) a game offers, and the settings a preset and overrides resolve to."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from rules.errors import RulesError
from rules.i18n import _, format_number, gettext
from rules.money import MAX_STAKE, MIN_STAKE, MONEY_QUANTUM, OPTION_LIMIT, OPTION_PLACES
from rules.reading import to_decimal, to_int


@dataclass(frozen=True)
class Option:
    """One house rule: its default, what values are allowed, and a sentence that explains it.

    ``help`` is the English sentence, which is also its msgid: options are built at import time, before anybody
    chose a language, so read it translated with :meth:`translated_help` (or ``rules.i18n.option_help``).
    """

    default: bool | int | str | Decimal
    help: str
    choices: tuple[str, ...] = ()
    min: int | Decimal | None = None
    max: int | Decimal | None = None

    def translated_help(self) -> str:
        """:attr:`help` in the active language.

        >>> from rules.i18n import override
        >>> with override("de"):
        ...     Option(False, "Kontra (×2) and Re (×4) on the game value, won or lost.").translated_help()
        'Kontra (×2) und Re (×4) auf den Spielwert, gewonnen oder verloren.'
        """
        return gettext(self.help)

    def coerce(self, name: str, value: object) -> bool | int | str | Decimal:
        """Check ``value`` against the option and return it in the option's type (strings become Decimals).

        Numbers also keep the limits every option shares (:data:`OPTION_LIMIT`, :data:`OPTION_PLACES`), so a
        ruleset can never price a hand into amounts the ledger cannot store; ``min`` and ``max`` only narrow them.

        >>> Option(Decimal("0.20"), "stake", min=Decimal("0.0001"), max=1000).coerce("stake", "1E+30")
        Traceback (most recent call last):
        ...
        rules.errors.RulesError: rules.stake: must be a number from 0.0001 to 1000 with at most 4 decimal places
        >>> Option(5, "flek cap", min=0).coerce("flek_cap", 10**12)
        Traceback (most recent call last):
        ...
        rules.errors.RulesError: rules.flek_cap: must be a whole number from 0 to 1000000
        """
        where = f"rules.{name}"
        if isinstance(self.default, bool):
            if not isinstance(value, bool):
                raise RulesError(where, _("must be true or false"))
            return value
        lo, hi = self.bounds()
        if isinstance(self.default, int):
            return to_int(value, where, int(lo), int(hi))
        if isinstance(self.default, Decimal):
            amount = to_decimal(value, where)
            if not lo <= amount <= hi or _places(amount) > OPTION_PLACES:
                raise RulesError(
                    where,
                    _("must be a number from %(min)s to %(max)s with at most %(places)s decimal places")
                    % {
                        "min": format_number(lo, places=None),
                        "max": format_number(hi, places=None),
                        "places": OPTION_PLACES,
                    },
                )
            # One spelling per value: "1E+3" is 1000 and "0.200000" is 0.2000 (what the ledger stores).
            exponent = amount.as_tuple().exponent
            if isinstance(exponent, int) and exponent > 0:
                return amount.quantize(Decimal(1))
            if isinstance(exponent, int) and exponent < -OPTION_PLACES:
                return amount.quantize(MONEY_QUANTUM)
            return amount
        if not isinstance(value, str) or (self.choices and value not in self.choices):
            if not self.choices:
                raise RulesError(where, _("must be a text"))
            raise RulesError(where, _("must be one of: %(allowed)s") % {"allowed": ", ".join(self.choices)})
        return value

    def bounds(self) -> tuple[int | Decimal, int | Decimal]:
        """The lowest and highest value a number option allows: its ``min`` and ``max`` within ±OPTION_LIMIT."""
        lo: int | Decimal = -OPTION_LIMIT if self.min is None else max(self.min, -OPTION_LIMIT)
        hi: int | Decimal = OPTION_LIMIT if self.max is None else min(self.max, OPTION_LIMIT)
        return lo, hi


def _places(amount: Decimal) -> int:
    """Decimal places of the value itself, trailing zeros aside: 0.2000 has 1, 1E+3 has 0."""
    exponent = amount.normalize().as_tuple().exponent
    return max(0, -exponent) if isinstance(exponent, int) else 0


CURRENCIES = ("EUR", "CZK")


def stake_option(default: Decimal, help: str) -> Option:
    """Every game's money unit: from MIN_STAKE to MAX_STAKE, at most four places."""
    return Option(default, help, min=MIN_STAKE, max=MAX_STAKE)


def currency_option(default: str, help: str) -> Option:
    return Option(default, help, choices=(default, *(c for c in CURRENCIES if c != default)))


Settings = Mapping[str, Any]


def resolve_settings(
    options: Mapping[str, Option],
    presets: Mapping[str, Mapping[str, Any]],
    default_preset: str,
    rules: Mapping[str, Any] | None,
) -> dict[str, Any]:
    """Defaults, then the preset, then the overrides; every key known and every value allowed.

    The result has the key ``preset`` plus one key per option, so it can be frozen on a table and
    re-resolved later to the same settings.
    """
    rules = dict(rules or {})
    preset = rules.pop("preset", default_preset)
    if not isinstance(preset, str) or preset not in presets:
        raise RulesError("rules.preset", _("unknown preset; allowed: %(allowed)s") % {"allowed": ", ".join(presets)})
    merged: dict[str, Any] = {name: option.default for name, option in options.items()}
    merged.update(presets[preset])
    for name, value in rules.items():
        if name not in options:
            allowed = ", ".join(sorted(options))
            raise RulesError(f"rules.{name}", _("unknown option; allowed: %(allowed)s") % {"allowed": allowed})
        merged[name] = value
    settings: dict[str, Any] = {"preset": preset}
    settings.update({name: options[name].coerce(name, value) for name, value in merged.items()})
    return settings


def settings_as_json(settings: Settings) -> dict[str, Any]:
    """Settings with Decimals as strings, for JSON (the ledger freezes this on the table)."""
    return {key: str(value) if isinstance(value, Decimal) else value for key, value in settings.items()}
