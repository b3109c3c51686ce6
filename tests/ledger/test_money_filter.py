"""Amounts on the pages are exact until the settlement: never rounded to cents for display."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.utils import translation

from ledger.templatetags.talon import money


@pytest.mark.parametrize(
    ("amount", "english", "czech"),
    [
        ("3.2000", "+3.20", "+3,20"),
        ("-0.1150", "−0.115", "−0,115"),
        ("0.0050", "+0.005", "+0,005"),
        ("-0.125", "−0.125", "−0,125"),
        ("0", "0.00", "0,00"),
    ],
)
def test_money_shows_every_place_the_amount_has(amount, english, czech):
    with translation.override("en"):
        assert money(Decimal(amount)) == english
    with translation.override("cs"):
        assert money(Decimal(amount)) == czech
