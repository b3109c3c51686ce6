"""What a row of the hand log needs beyond the hand itself: who played it, its Bock rounds and its list points.

Its own library, not ``talon``: the offline worker's bundle loads ``talon`` without the database's models.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import template

from ledger import selectors
from ledger.models import Hand, Table

register = template.Library()


@register.filter
def played(hand: Hand, table: Table) -> dict[str, Any]:
    """``{% with played=hand|played:table %}``: :func:`ledger.selectors.hand_played` of the row's hand."""
    return selectors.hand_played(table, hand)


@register.filter
def game_points(amount: Decimal, table: Table) -> str:
    """``{{ amount|game_points:table }}``: a hand's money as the game's points (a tournament not for money)."""
    return selectors.shown_game_points(table, amount)
