"""Money in the way the active language writes it: 3,20 in Czech, Slovak and German, 3.20 in English."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import template
from django.utils import translation

from rules import i18n
from rules.labels import preset_label as _preset_label

register = template.Library()


@register.filter
def money(value: Any) -> str:
    """An exact amount with a true minus sign and a plus on gains, as a scoreboard shows it: +0,96 · −0,48 · 0,00.

    The scoreboard's style: no currency sign beside every number (the page says the currency once). At least
    two places, more when the amount has them (+0,005 at a Skat stake of half a cent): nothing is rounded before
    the settlement, so what is shown still sums to zero.
    """
    if value in (None, ""):
        return ""
    amount = Decimal(str(value))
    with i18n.override(translation.get_language()):
        text = i18n.format_amount(amount)
    return f"+{text}" if amount > 0 else text


@register.filter
def currency(value: Any, code: str) -> str:
    """An amount with its currency, as the active language writes it: 3,20 Kč · 1,44 € · €1.44 (English)."""
    if value in (None, ""):
        return ""
    amount = Decimal(str(value))
    with i18n.override(translation.get_language()):
        return i18n.format_money(amount, str(code))


@register.filter
def sign_class(value: Any) -> str:
    amount = Decimal(str(value or 0))
    return "plus" if amount > 0 else "minus" if amount < 0 else ""


@register.filter
def get_item(mapping: Any, key: Any) -> Any:
    return mapping.get(key) if hasattr(mapping, "get") else None


@register.filter
def preset_label(game: str, preset: str) -> str:
    """A preset's name in the active language: ``{{ game|preset_label:preset }}`` (never its key)."""
    with i18n.override(translation.get_language()):
        return _preset_label(game, preset)
