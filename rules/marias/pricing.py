"""Pricing a Mariáš hand: each component at its flek level and red, the silent extras (tichá stovka, tichá sedma),
the hand limit, who pays whom between the sides, a laid game's flekker and renonc fees."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

from rules.i18n import MINUS, concat, format_money, format_number, joined, pgettext
from rules.marias.contracts import (
    BETL_DURCH,
    CARD_POINTS,
    COLOUR_COMPONENTS,
    HUNDRED,
    MariasHand,
    component_words,
    contract_word,
    flek_name,
    renonc_fee,
    renonc_name,
)
from rules.marias.explaining import formula, hand_label, outcome_word, points_lines, tens
from rules.money import ZERO
from rules.results import Line, Score
from rules.seating import Table


@dataclass(frozen=True)
class _Part:
    """One priced component: its words, the factors shown to the players, and the money (declarer's side)."""

    label: str
    factors: tuple[str, ...]
    amount: Decimal


@dataclass(frozen=True)
class _Tariff:
    stake: Decimal
    currency: str
    red: int
    betl: int
    durch: int
    settings: Mapping[str, Any]

    @classmethod
    def of(cls, table: Table, hand: MariasHand) -> _Tariff:
        settings = table.settings
        betl, durch = BETL_DURCH[settings["betl_durch"]]
        red = 2 if hand.trump == "hearts" and settings["red_doubles"] else 1
        return cls(table.stake, settings["currency"], red, betl, durch, settings)

    def base(self, component: str) -> int:
        """The component's price as a multiple of the stake, before red and flek."""
        return {"hra": 1, "sedma": 2, "stovka": 4, "betl": self.betl, "durch": self.durch}[component]

    def red_for(self, component: str) -> int:
        return self.red if component in COLOUR_COMPONENTS else 1


def _part(
    tariff: _Tariff,
    hand: MariasHand,
    component: str,
    won: bool,
    outcome: str | None = None,
    words: Sequence[str] = (),
    factors: Sequence[str] = (),
    multiplier: int = 1,
) -> _Part:
    """A component at its flek level and red, times ``multiplier`` (shown as ``factors``), signed by ``won``.

    The label says the component, its flek, the outcome (``won``/``lost`` unless ``outcome`` says more) and the
    ``words`` that explain the further factors; the first factor carries the sign, so the formula adds up as read.
    """
    level = hand.level(component)
    red = tariff.red_for(component)
    base = tariff.stake * tariff.base(component)
    label = [component_words(contract_word(component), hand.trump)]
    if level:
        label.append(flek_name(level))
    label += [outcome_word(won) if outcome is None else outcome, *words]
    shown = [str(factor) for factor in (red, 1 << level) if factor != 1]
    amount = base * red * (1 << level) * multiplier
    return _Part(
        joined(", ", label),
        (format_number(base if won else -base), *shown, *factors),
        amount if won else -amount,
    )


def _totals(hand: MariasHand) -> tuple[int, int]:
    """Card points plus every hláška, for the declarer's side and the defenders (90 + 20k in all)."""
    assert hand.points is not None, "a hand entered as won or lost has no card points"
    declarer = hand.points + sum(hand.marriages_declarer)
    defenders = CARD_POINTS - hand.points + sum(hand.marriages_defenders)
    return declarer, defenders


def _silent_hundred(tariff: _Tariff, total: int) -> tuple[tuple[str, ...], int]:
    """The tichá stovka factors of the hra for a side that reached ``total`` ≥ 100 unannounced, and their product.

    The seed's reading shows one ×2 for the hundred and one for each ten above, as the seed's own example does;
    the ČSM reading counts the tens linearly.

    >>> t = _Tariff(Decimal("0.20"), "CZK", 1, 10, 20, {"ticha_stovka": "seed"})
    >>> _silent_hundred(t, 100), _silent_hundred(t, 120)
    ((('2',), 2), (('2', '2', '2'), 8))
    >>> _silent_hundred(replace(t, settings={"ticha_stovka": "csm"}), 120)
    (('2', '(1 + 2)'), 6)
    """
    tens = (total - HUNDRED) // 10
    if tariff.settings["ticha_stovka"] == "csm":
        return (("2", f"(1 + {tens})") if tens else ("2",)), 2 * (1 + tens)
    return ("2",) * (1 + tens), 2 << tens


def _hra(tariff: _Tariff, hand: MariasHand) -> _Part:
    if hand.points is None:  # entered as won or lost: without hlášky no silent hundred is possible
        return _part(tariff, hand, "hra", hand.won)
    declarer, defenders = _totals(hand)
    # Totals are 90 + 20k, so a tie is bad data; RULES.md: the declarer's side loses it.
    won = declarer > defenders
    outcome = concat(outcome_word(won), f" ({declarer}:{defenders})")
    best = max(declarer, defenders)
    if "stovka" not in hand.components and best >= HUNDRED:
        factors, multiplier = _silent_hundred(tariff, best)
        silent = [pgettext("marias", "silent hundred (tichá stovka)")]
        return _part(tariff, hand, "hra", won, outcome, silent, factors, multiplier)
    return _part(tariff, hand, "hra", won, outcome)


def _stovka(tariff: _Tariff, hand: MariasHand) -> _Part:
    # One hláška (the best) counts towards the hundred; once it is reached, the others count too.
    assert hand.points is not None, "a stovka is never entered as won or lost"
    reached = hand.points + max(hand.marriages_declarer, default=0)
    if reached >= HUNDRED:
        total = hand.points + sum(hand.marriages_declarer)
        above = (total - HUNDRED) // 10
        made = concat(outcome_word(True), f" ({total})")
        if not above:
            return _part(tariff, hand, "stovka", True, made)
        words = [pgettext("marias", "%(tens)s above") % {"tens": tens(above)}]
        return _part(tariff, hand, "stovka", True, made, words, [f"(1 + {above})"], 1 + above)
    # Each ten the defenders got beyond what they were allowed: the tens missing, plus their own hlášky. Points
    # come in tens, so a missed hundred misses at least one.
    short = (HUNDRED - reached) // 10
    theirs = sum(hand.marriages_defenders)
    steps = short + theirs // 10
    lost = concat(outcome_word(False), f" ({reached})")
    words = [pgettext("marias", "%(tens)s short") % {"tens": tens(short)}]
    if len(hand.marriages_declarer) > 1:
        # The facts line adds every hláška up; a missed stovka counts only the best one.
        words.insert(0, pgettext("marias", "only the best hláška counts"))
    if tariff.settings["stovka_steps"] == "linear":
        multiplier = steps
        factors = [f"({short} + {theirs // 10})"] if theirs else ([str(short)] if short > 1 else [])
    else:
        multiplier = 1 << (steps - 1)
        factors = [str(multiplier)] if multiplier > 1 else []
    defenders = _totals(hand)[1]
    if tariff.settings["stovka_silent_hundred"] and defenders >= HUNDRED:
        # Seed: "každá desítka nad sto počínaje rovnou stovkou násobí prohranou částku dvakrát".
        above = (defenders - HUNDRED) // 10
        their = pgettext("marias", "defenders' hlášky %(marriages)s, silent hundred with %(total)s")
        words.append(their % {"marriages": theirs, "total": defenders})
        factors += ["2"] * (1 + above)
        multiplier *= 2 << above
    elif theirs:
        words.append(pgettext("marias", "defenders' hlášky %(marriages)s") % {"marriages": theirs})
    return _part(tariff, hand, "stovka", False, lost, words, factors, multiplier)


def _sedma(tariff: _Tariff, hand: MariasHand) -> _Part:
    seven = hand.seven
    if seven is not None and seven.won:
        return _part(tariff, hand, "sedma", True)
    why = pgettext("marias", "seven killed") if seven else pgettext("marias", "seven not in the last trick")
    return _part(tariff, hand, "sedma", False, concat(outcome_word(False), " (", why, ")"))


def _silent_seven(tariff: _Tariff, hand: MariasHand) -> _Part | None:
    """Tichá sedma: 1 × stake × red, never flekked; a seven beaten in the last trick costs its side the same."""
    seven = hand.seven
    if seven is None or "sedma" in hand.components:
        return None
    won = (seven.side == "declarer") == seven.won
    base = tariff.stake
    factors = [format_number(base if won else -base)] + ([str(tariff.red)] if tariff.red != 1 else [])
    who = pgettext("marias", "the declarer's") if seven.side == "declarer" else pgettext("marias", "the defenders'")
    result = pgettext("marias", "won") if seven.won else pgettext("marias", "killed")
    silent = component_words(pgettext("marias", "silent seven (tichá sedma)"), hand.trump)
    label = joined(", ", [silent, who, result])
    amount = base * tariff.red
    return _Part(label, tuple(factors), amount if won else -amount)


def _played_parts(tariff: _Tariff, hand: MariasHand) -> list[_Part]:
    parts = []
    for component in hand.components:
        if component == "hra":
            parts.append(_hra(tariff, hand))
        elif component == "sedma":
            parts.append(_sedma(tariff, hand))
        elif component == "stovka":
            parts.append(_stovka(tariff, hand))
        else:
            parts.append(_part(tariff, hand, component, hand.won))
    silent = _silent_seven(tariff, hand)
    return parts if silent is None else [*parts, silent]


def _conceded_parts(tariff: _Tariff, hand: MariasHand) -> list[_Part]:
    # Not played out: every announced component at its flek level, no silent extras; a stovka counts one step.
    won = hand.conceded_by == "defenders"
    return [_part(tariff, hand, component, won) for component in hand.components]


def _parts(tariff: _Tariff, hand: MariasHand) -> list[_Part]:
    if hand.renonc is not None and not hand.played_out:
        return []  # the harmed side did not ask to play it out: only the fee is paid
    return _played_parts(tariff, hand) if hand.played_out else _conceded_parts(tariff, hand)


def _limited(tariff: _Tariff, value: Decimal) -> Decimal:
    limit: Decimal = tariff.stake * tariff.settings["hand_limit"]
    if limit and abs(value) > limit:
        return limit if value > 0 else -limit
    return value


def _defender_share(table: Table, hand: MariasHand, value: Decimal) -> Decimal:
    """What each defender pays (negative: receives) when the hand is worth ``value`` per player."""
    if hand.alone:
        return value * (2 if table.settings["pay_alone"] == "double" else 1)
    return value * (2 if table.settings["pay_2v2"] == "each" else 1)


def _amounts(table: Table, hand: MariasHand, value: Decimal, unflekked: Decimal) -> dict[str, Decimal]:
    """Money per player: the defenders pay their share, the declarer's side splits it evenly.

    ``unflekked`` is the value without the fleks: in a laid game the defender who flekked pays the increase for
    each other defender as well (the seed: "nejen za sebe, ale i za poškozeného").
    """
    defenders = table.others(*hand.side)
    share = _defender_share(table, hand, value)
    paid = {player: share for player in defenders}
    if hand.laid and hand.flekked_by is not None:
        base = _defender_share(table, hand, unflekked)
        paid = {player: base for player in defenders}
        paid[hand.flekked_by] = share + (len(defenders) - 1) * (share - base)
    each = share * len(defenders) / len(hand.side)
    return {player: each if player in hand.side else -paid[player] for player in table.players}


def _renonc_fees(table: Table, hand: MariasHand) -> tuple[dict[str, Decimal], Line | None]:
    fees = dict.fromkeys(table.players, ZERO)
    renonc = hand.renonc
    if renonc is None:
        return fees, None
    fee = renonc_fee(renonc.kind, table.settings)
    opponents = table.others(*hand.side) if renonc.player in hand.side else hand.side
    for player in opponents:
        fees[player] += fee
    fees[renonc.player] -= fee * len(opponents)
    money = format_money(fee, table.settings["currency"])
    kind = renonc_name(renonc.kind)
    label = pgettext("marias", "renonc (%(player)s, %(kind)s)") % {"player": renonc.player, "kind": kind}
    detail = pgettext("marias", "%(money)s to each opponent: %(players)s") % {
        "money": money,
        "players": ", ".join(opponents),
    }
    return fees, Line(label, detail)


def price_hand(table: Table, hand: MariasHand) -> Score:
    """Price a parsed hand: V per player of the declarer's side, amounts per player (fees included), the lines."""
    tariff = _Tariff.of(table, hand)
    parts = _parts(tariff, hand)
    # Start from 0 at the stake's exponent, so a hand worth nothing still prints as 0.00.
    raw = sum((part.amount for part in parts), tariff.stake * 0)
    value = _limited(tariff, raw)
    lines = points_lines(hand)
    lines += [Line(part.label, formula(part.factors, part.amount, tariff.currency), part.amount) for part in parts]
    if value != raw:
        # The cap takes back what the components gave beyond it: "2.00 − 3.20 = −1.20".
        word = pgettext("marias", "limit")
        limit = concat(word, f" {table.settings['hand_limit']} × ", format_number(tariff.stake))
        back = f"{MINUS} " if raw > 0 else "+ "
        money = format_money(value - raw, tariff.currency)
        detail: str = concat(format_number(value), " ", back, format_number(abs(raw)), " = ", money)
        lines.append(Line(limit, detail, value - raw))
    unflekked = value
    if hand.laid and hand.flekked_by is not None and parts:
        bare = replace(hand, flek=tuple((name, 0) for name, _ in hand.flek))
        unflekked = _limited(tariff, sum((part.amount for part in _parts(tariff, bare)), ZERO))
        increase = format_money(_defender_share(table, hand, value - unflekked), tariff.currency)
        detail = pgettext("marias", "%(player)s flekked: pays the increase of %(money)s for the partners too") % {
            "player": hand.flekked_by,
            "money": increase,
        }
        lines.append(Line(pgettext("marias", "laid game"), detail))
    amounts = _amounts(table, hand, value, unflekked)
    fees, fee_line = _renonc_fees(table, hand)
    amounts = {player: amounts[player] + fees[player] for player in table.players}
    # Who pays whom is the last line of every game's explanation (rules.score); these lines say how it came about.
    if fee_line is not None:
        lines.append(fee_line)
    counted = bool(parts)
    return Score(
        label=hand_label(hand),
        won=value > 0 if counted else None,
        value=value,
        amounts=amounts,
        lines=tuple(lines),
    )
