"""The words of a Šnapser hand's explanation: its label and what it is worth, step by step."""

from __future__ import annotations

from decimal import Decimal

from rules.i18n import MINUS, concat, format_money, joined, pgettext
from rules.results import Line
from rules.seating import Table
from rules.snapser.contracts import (
    MULTIPLES,
    RED,
    WHY,
    SnapserHand,
    category_name,
    raise_name,
)


def hand_label(hand: SnapserHand, red: bool) -> str:
    label = _name(hand, red)
    if not hand.won and hand.announcement != "nehram":
        return _lost(label)
    return label


def _lost(name: str) -> str:
    return pgettext("snapser", "%(name)s, the chooser lost") % {"name": name}


def _name(hand: SnapserHand, red: bool) -> str:
    category = category_name(hand.category)
    if red:
        category = pgettext("snapser", "%(name)s in hearts") % {"name": category}
    return concat(category, ", ", raise_name(hand.raises)) if hand.raises else category


def value_lines(table: Table, hand: SnapserHand, red: bool, value: Decimal, sides: tuple[int, int]) -> tuple[Line, ...]:
    """What the hand is worth, step by step; who pays whom in the end is the payment line that rules.score adds.

    Each factor is said once ("kontra, re: × 4"); a lost hand says so and shows its minus, seen from the chooser.
    """
    currency = str(table.settings.get("currency", "EUR"))
    multiple = MULTIPLES[hand.category]
    # The multiple after the reason: "za 12: 12 × …" would say the number twice in a row.
    why = pgettext("snapser", "%(why)s, × %(multiple)s") % {"multiple": multiple, "why": _why(hand)}
    lines = [Line(category_name(hand.category), why)]
    if hand.result == "tichy_durch" and hand.category == "za12":
        detail = pgettext("snapser", "paid as %(name)s (house rule)") % {"name": category_name("za12")}
        lines.append(Line(category_name("tichy_durch"), detail))
    if hand.end == "false_dost":
        false_dost = _false_dost(hand, str(table.settings.get("false_dost", "by_points")))
        lines.append(Line(pgettext("snapser", "false “dosť”"), false_dost))
    if red:
        lines.append(Line(pgettext("snapser", "hearts trump"), "× 2"))
    elif hand.trump == RED:
        detail = pgettext("snapser", "not doubled for %(name)s (house rule)") % {
            "name": category_name(hand.announcement)
        }
        lines.append(Line(pgettext("snapser", "hearts trump"), detail))
    if hand.raises:
        steps = joined(", ", [raise_name(level) for level in range(1, hand.raises + 1)])
        lines.append(Line(steps, f"× {2**hand.raises}"))
    factors = [str(multiple)] + (["2"] if red else []) + ([str(2**hand.raises)] if hand.raises else [])
    arithmetic = joined(" × ", [*factors, format_money(table.stake, currency)])
    if hand.won:
        lines.append(Line(_name(hand, red), concat(arithmetic, " = ", format_money(value, currency)), value))
    else:
        total = concat(MINUS, arithmetic, " = ", format_money(-value, currency))
        lines.append(Line(_lost(_name(hand, red)), total, -value))
    winners, losers = sides
    paired = winners == losers and table.settings.get("payment") == "each_loser_one_winner"
    if winners > 1 and losers > 1 and not paired:
        # Two against two: the payment line gives each player's sum (2 × V); this says how it is made up.
        how = pgettext("snapser", "each loser pays every winner %(money)s") % {"money": format_money(value, currency)}
        lines.append(Line(pgettext("snapser", "two against two"), how))
    return tuple(lines)


def _why(hand: SnapserHand) -> str:
    if hand.end == "false_dost" and hand.announcement == "hram":
        # The points did not decide it (or not the usual way): the false-dosť line says why.
        return pgettext("snapser", "after a false “dosť”")
    if hand.announcement == "za12" and hand.category == "tichy_durch":
        return pgettext("snapser", "%(name)s announced, the winners took every trick") % {"name": category_name("za12")}
    if hand.announcement in ("za12", "durch") and not hand.won:
        why = pgettext("snapser", WHY[hand.announcement])
        return pgettext("snapser", "%(why)s; not made, the opponents win") % {"why": why}
    return pgettext("snapser", WHY[hand.category])


def _false_dost(hand: SnapserHand, rule: str) -> str:
    # The line's label already says "false dosť": the detail says what it cost, without the word again.
    if hand.announcement != "hram":
        return pgettext("snapser", "said without 66 points, so the announced game is lost")
    if rule == "by_points":
        return pgettext("snapser", "said without 66 points, so the other side wins by the caller's points")
    return pgettext("snapser", "said without 66 points, so the other side always wins %(name)s (house rule)") % {
        "name": category_name(rule)
    }
