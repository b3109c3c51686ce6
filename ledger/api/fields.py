"""Serializer fields for money and hand documents: exact Decimal strings, never floats."""

from __future__ import annotations

from decimal import Decimal
from typing import Any, Never

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from rules.i18n import plain_money

MONEY_SCHEMA = {"type": "string", "pattern": r"^-?\d+\.\d{2,}$", "example": "0.40"}


def exact(amount: Decimal | str) -> str:
    """An exact amount as a string with at least two decimals: ``0.4000`` → ``"0.40"``, ``0.0125`` stays."""
    return plain_money(Decimal(amount))


# Field[value, data, representation, instance]: these two are output only, so no data comes in (Never), and they
# read their value from whatever object the serializer shows.
@extend_schema_field(MONEY_SCHEMA)
class MoneyField(serializers.Field[Decimal | str, Never, str, object]):
    """Output only: an exact amount (Decimal, or the Decimal string the rules engine stored)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs["read_only"] = True
        super().__init__(**kwargs)

    def to_representation(self, value: Decimal | str) -> str:
        return exact(value)


@extend_schema_field({"type": "object", "additionalProperties": MONEY_SCHEMA, "example": {"Ana": "0.40"}})
class AmountsField(serializers.Field[dict[str, Decimal | str], Never, dict[str, str], object]):
    """Output only: ``{player name: exact amount}``."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs["read_only"] = True
        super().__init__(**kwargs)

    def to_representation(self, value: dict[str, Decimal | str]) -> dict[str, str]:
        return {name: exact(amount) for name, amount in value.items()}


class ExactDecimalField(serializers.DecimalField):
    """A Decimal written as a string (``"0.50"``) or a whole number; a JSON float cannot hold money exactly."""

    default_error_messages = {"float": 'Write the amount as a string, e.g. "0.50".'}

    def to_internal_value(self, data: Any) -> Decimal:
        if isinstance(data, float):
            self.fail("float")
        return super().to_internal_value(data)


def _has_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_has_nul(key) or _has_nul(item) for key, item in value.items())
    if isinstance(value, list):
        return any(_has_nul(item) for item in value)
    return False


@extend_schema_field({"type": "object", "additionalProperties": True})
class DocumentField(serializers.DictField):
    """A JSON object passed to the rules engine as it is (the engine checks the fields).

    Only NUL characters are refused here: PostgreSQL cannot store them in a JSON column.
    """

    default_error_messages = {"nul": "Null characters are not allowed."}

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        value = super().to_internal_value(data)
        if _has_nul(value):
            self.fail("nul")
        return value
