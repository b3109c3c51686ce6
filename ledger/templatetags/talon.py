"""Money in the way the active language writes it: 3,20 in Czech, Slovak and German, 3.20 in English."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import template
from django.utils.formats import number_format

register = template.Library()


@register.filter
def money(value: Any, places: int = 2) -> str:
    """An amount with a true minus sign and a plus on gains, as a scoreboard shows it: +0,96 · −0,48 · 0,00."""
    if value in (None, ""):
        return ""
    amount = Decimal(str(value))
    text = number_format(abs(amount), decimal_pos=places, use_l10n=True)
    if amount > 0:
        return f"+{text}"
    if amount < 0:
        return f"−{text}"
    return text


@register.filter
def sign_class(value: Any) -> str:
    amount = Decimal(str(value or 0))
    return "plus" if amount > 0 else "minus" if amount < 0 else ""


@register.filter
def get_item(mapping: Any, key: Any) -> Any:
    return mapping.get(key) if hasattr(mapping, "get") else None
