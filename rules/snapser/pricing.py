"""Pricing a Šnapser hand: ``V = stake × category × 2^raises × L``, paid between the two sides."""

from __future__ import annotations

from decimal import Decimal

from rules.money import pay_between
from rules.options import Settings
from rules.results import Score
from rules.seating import Table
from rules.snapser.contracts import (
    MULTIPLES,
    RED,
    SnapserHand,
)
from rules.snapser.explaining import hand_label, value_lines


def price_hand(table: Table, hand: SnapserHand) -> Score:
    """Price a parsed hand: ``V = stake × category × 2^raises × L``, paid between the two sides."""
    settings = table.settings
    red = red_doubles(hand, settings)
    value = table.stake * MULTIPLES[hand.category] * 2**hand.raises * (2 if red else 1)
    winners, losers = _sides(table, hand)
    each_pays_one = settings.get("payment") == "each_loser_one_winner"
    amounts = _payments(winners, losers, value, each_pays_one)
    return Score(
        label=hand_label(hand, red),
        won=hand.won,
        value=value,
        amounts={player: _tidy(amounts[player]) for player in table.players},
        lines=value_lines(table, hand, red, value, (len(winners), len(losers))),
    )


def red_doubles(hand: SnapserHand, settings: Settings) -> bool:
    """Whether hearts trump doubles this hand (the seed doubles every game in red; two of them are house rules).

    >>> hand = SnapserHand("Ana", None, "hearts", "nehram", 0, "defenders", None, None, "nehram")
    >>> red_doubles(hand, {"red_on_nehram": True}), red_doubles(hand, {"red_on_nehram": False})
    (True, False)
    """
    if hand.trump != RED:
        return False
    if hand.announcement == "nehram":
        return bool(settings.get("red_on_nehram", True))
    if hand.announcement == "durch":
        return bool(settings.get("red_on_durch", True))
    return True


def _sides(table: Table, hand: SnapserHand) -> tuple[tuple[str, ...], tuple[str, ...]]:
    declarers = hand.declarer_side()
    defenders = table.others(*declarers)
    return (declarers, defenders) if hand.won else (defenders, declarers)


def _payments(
    winners: tuple[str, ...], losers: tuple[str, ...], value: Decimal, each_pays_one: bool
) -> dict[str, Decimal]:
    if each_pays_one and len(winners) == len(losers):
        # Sides of equal size pair off: each loser pays one winner, so everybody moves by V.
        return {player: value for player in winners} | {player: -value for player in losers}
    return pay_between(winners, losers, value)


def _tidy(amount: Decimal) -> Decimal:
    # A zero stake would otherwise show "-0.00" for the losers.
    return abs(amount) if amount == 0 else amount
