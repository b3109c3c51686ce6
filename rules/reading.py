"""Reading input: numbers and the fields of one hand, each reader raising RulesError naming the field and what is
allowed."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal, InvalidOperation
from typing import Any

from rules.errors import RulesError, shown
from rules.i18n import _


def to_decimal(value: object, field: str) -> Decimal:
    """A Decimal from a string or an int; floats are refused because they cannot hold money exactly.

    >>> to_decimal("0.20", "rules.stake")
    Decimal('0.20')
    >>> to_decimal(0.2, "rules.stake")  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    ...
    rules.errors.RulesError: rules.stake: must be a decimal number written as a string, e.g. "0.20"
    """
    if isinstance(value, Decimal):
        result = value
    elif isinstance(value, int) and not isinstance(value, bool):
        result = Decimal(value)
    elif isinstance(value, str):
        try:
            result = Decimal(value.strip().replace(",", "."))
        except InvalidOperation:
            result = Decimal("NaN")
    else:
        raise RulesError(field, _('must be a decimal number written as a string, e.g. "0.20"'))
    if not result.is_finite():
        raise RulesError(field, _('must be a decimal number written as a string, e.g. "0.20"'))
    return result


def to_int(value: object, field: str, lo: int | None = None, hi: int | None = None) -> int:
    """A whole number (booleans and floats refused), optionally within ``lo..hi``."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise RulesError(field, _range_message(lo, hi))
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise RulesError(field, _range_message(lo, hi))
    return value


def _range_message(lo: int | None, hi: int | None) -> str:
    if lo is not None and hi is not None:
        return _("must be a whole number from %(lo)s to %(hi)s") % {"lo": lo, "hi": hi}
    if lo is not None:
        return _("must be a whole number of at least %(lo)s") % {"lo": lo}
    return _("must be a whole number")


class HandReader:
    """Reads the fields of one hand, refusing unknown fields and naming the field in every error.

    >>> r = HandReader({"declarer": "Ana", "hand": True}, allowed={"declarer", "hand", "ouvert"})
    >>> r.flag("hand"), r.flag("ouvert")
    (True, False)
    """

    def __init__(self, data: object, allowed: Iterable[str], prefix: str = "") -> None:
        if not isinstance(data, Mapping):
            raise RulesError(prefix.rstrip(".") or "hand", _("must be an object"))
        self.data: Mapping[str, Any] = data
        self.prefix = prefix
        unknown = sorted(set(data) - set(allowed))
        if unknown:
            raise RulesError(
                self.path(unknown[0]),
                _("unknown field; allowed: %(allowed)s") % {"allowed": ", ".join(sorted(allowed))},
            )

    def path(self, name: str) -> str:
        return f"{self.prefix}{name}"

    def has(self, name: str) -> bool:
        return self.data.get(name) is not None

    def raw(self, name: str, default: Any = None) -> Any:
        value = self.data.get(name)
        return default if value is None else value

    def flag(self, name: str, default: bool = False) -> bool:
        value = self.data.get(name)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise RulesError(self.path(name), _("must be true or false"))
        return value

    def integer(self, name: str, lo: int | None = None, hi: int | None = None, default: int | None = None) -> int:
        value = self.data.get(name)
        if value is None:
            if default is None:
                raise RulesError(self.path(name), _("is required; %(what)s") % {"what": _range_message(lo, hi)})
            return default
        return to_int(value, self.path(name), lo, hi)

    def choice(self, name: str, choices: Sequence[str], default: str | None = None) -> str:
        value = self.data.get(name)
        if value is None and default is not None:
            return default
        if value not in choices:
            allowed = {"allowed": ", ".join(choices)}
            if value is None:
                raise RulesError(self.path(name), _("is required; allowed: %(allowed)s") % allowed)
            raise RulesError(self.path(name), _("is not allowed; allowed: %(allowed)s") % allowed)
        assert isinstance(value, str)
        return value

    def player(self, name: str, players: Sequence[str], required: bool = True) -> str | None:
        value = self.data.get(name)
        if value is None and not required:
            return None
        if value not in players:
            names = {"player": shown(value), "players": ", ".join(players)}
            if value is None:
                raise RulesError(self.path(name), _("is required; players: %(players)s") % names)
            raise RulesError(self.path(name), _("'%(player)s' is not at this table; players: %(players)s") % names)
        assert isinstance(value, str)
        return value
