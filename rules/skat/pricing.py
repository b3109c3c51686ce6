"""Pricing a Skat hand: the game value (overbid, Kontra, Bock), the list score (classic or Seeger-Fabian), the Bock
rounds it starts, Ramsch, and money as everybody pays everybody the difference."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from rules.i18n import _, concat
from rules.money import pairwise_differences
from rules.options import Settings
from rules.results import Line, Score
from rules.seating import Table
from rules.skat.contracts import (
    BASE,
    CARD_POINTS,
    DURCHMARSCH_POINTS,
    LOST_FACTOR,
    SCHNEIDER_POINTS,
    TRUMP_GAMES,
    SkatHand,
    contract_name,
    null_name,
    null_value,
    overbid_value,
)
from rules.skat.explaining import (
    and_joined,
    bock_factor,
    card_points_text,
    count_out,
    each_signed,
    game_value_text,
    money_line,
    multiplier_steps,
    signed,
    trump_failure,
    trump_label,
)
from rules.skat.options import setting


def price_hand(table: Table, hand: SkatHand) -> Score:
    """Price a parsed Skat hand: list points per player, the game value, money, and how it was counted."""
    if hand.contract == "passed":
        score = {p: 0 for p in table.players}
        lines = [Line(_("Nobody bid: everybody scores 0"), "", _points(0))]
        return _score(table, _("Passed in"), None, 0, score, lines)
    if hand.contract == "ramsch":
        return _price_ramsch(table, hand)
    return _price_declared(table, hand)


@dataclass(frozen=True)
class _Priced:
    """The declarer's side of a priced game, before the list (classic or Seeger-Fabian) and money."""

    label: str
    won: bool
    value: int  # with Kontra and Bock
    declarer_score: int
    lines: tuple[Line, ...]
    bock_rounds: int


def _points(amount: int) -> Decimal:
    return Decimal(amount)


def _factor_lines(h: SkatHand, value: int) -> tuple[int, list[Line]]:
    """Kontra/Re and pending Bocks multiply the game value, won or lost."""
    lines = []
    if h.kontra:
        value *= 2**h.kontra
        name = _("Kontra") if h.kontra == 1 else _("Kontra and Re")
        lines.append(Line(concat(name, f" × {2**h.kontra}"), game_value_text(value), _points(value)))
    if h.bock:
        value *= 2**h.bock
        lines.append(Line(bock_factor(h.bock), game_value_text(value), _points(value)))
    return value, lines


def _outcome(declarer: str, won: bool, value: int, why: str) -> tuple[int, Line]:
    if won:
        label = _("Won: %(player)s %(score)s") % {"player": declarer, "score": signed(value)}
        return value, Line(label, why, _points(value))
    score = -LOST_FACTOR * value
    label = _("Lost: −%(factor)s × %(value)s = %(score)s") % {
        "factor": LOST_FACTOR,
        "value": value,
        "score": signed(score),
    }
    return score, Line(label, why, _points(score))


def _bock_rounds(settings: Settings, h: SkatHand, won: bool, value: int) -> int:
    """The Bock rounds this hand starts: one when it fires any trigger the ruleset switches on, however many it fires
    (RULES.md §1); with ``bock_per_trigger``, one per trigger."""
    if not setting(settings, "bock"):
        return 0
    triggers = {
        "bock_lost_60": h.contract in TRUMP_GAMES and h.declarer_points == CARD_POINTS // 2,
        "bock_lost_kontra": h.kontra >= 1 and not won,
        "bock_re": h.kontra == 2,
        "bock_grand_hand": h.contract == "grand" and h.hand and won,
        # The value before Kontra and Bock: otherwise a doubled Bock hand would keep restarting the Bock.
        "bock_big_game": value >= setting(settings, "bock_big_game_value"),
    }
    fired = sum(1 for name, fired in triggers.items() if fired and setting(settings, name))
    return fired if setting(settings, "bock_per_trigger") else min(fired, 1)


def _price_trump(table: Table, h: SkatHand) -> _Priced:
    assert h.declarer is not None
    base = BASE[h.contract]
    points = h.declarer_points
    schwarz = h.schwarz or h.schwarz_announced
    # A made Schneider counts either way (declarer ≥ 90, or ≤ 30 when losing); an announcement counts made or not.
    schneider = points >= SCHNEIDER_POINTS or points <= CARD_POINTS - SCHNEIDER_POINTS or schwarz
    schneider = schneider or h.schneider_announced
    steps = multiplier_steps(h, schneider, schwarz)
    value = base * sum(levels for _, levels in steps)
    lines = [Line(count_out(contract_name(h.contract), steps, base), card_points_text(points), _points(value))]
    charged = value
    if value < h.bid:
        charged = overbid_value(h.bid, base)
        lines.append(
            Line(
                _("Overbid: bid %(bid)s, worth %(value)s") % {"bid": h.bid, "value": value},
                _("charged at %(times)s × %(base)s = %(charged)s, the smallest multiple of %(base)s that covers it")
                % {"base": base, "times": charged // base, "charged": charged},
                _points(charged),
            )
        )
    failure = trump_failure(h)
    won = failure is None and value >= h.bid
    final, factor_lines = _factor_lines(h, charged)
    # The card points are on the first line already: the outcome says only what was missed.
    score, outcome = _outcome(h.declarer, won, final, failure or "")
    return _Priced(
        label=trump_label(h),
        won=won,
        value=final,
        declarer_score=score,
        lines=(*lines, *factor_lines, outcome),
        bock_rounds=_bock_rounds(table.settings, h, won, charged),
    )


def _price_null(table: Table, h: SkatHand) -> _Priced:
    assert h.declarer is not None
    name = null_name(h.hand, h.ouvert)
    value = null_value(h.hand, h.ouvert)
    first = Line(concat(name, f" = {value}"), "", _points(value))
    final, factor_lines = _factor_lines(h, value)
    why = _("the declarer took no trick") if h.won else _("the declarer took a trick")
    score, outcome = _outcome(h.declarer, h.won, final, why)
    return _Priced(
        label=name,
        won=h.won,
        value=final,
        declarer_score=score,
        lines=(first, *factor_lines, outcome),
        bock_rounds=_bock_rounds(table.settings, h, h.won, value),
    )


def _seeger_fabian(table: Table, declarer: str, won: bool) -> tuple[dict[str, int], list[Line]]:
    """The tournament list's fixed bonuses, on top of the classic list score (never multiplied by Kontra or Bock)."""
    settings = table.settings
    if won:
        bonus = setting(settings, "seeger_won_bonus")
        line = Line(_("Seeger-Fabian: won game"), concat(declarer, " ", signed(bonus)), _points(bonus))
        return {declarer: bonus}, [line]
    penalty = setting(settings, "seeger_lost_penalty")
    each = setting(settings, f"seeger_others_bonus_{len(table.players)}")
    others = table.others(declarer)
    extra = {declarer: -penalty} | {p: each for p in others}
    to_others = _("+%(points)s to each of %(players)s") % {"points": each, "players": ", ".join(others)}
    return extra, [
        Line(
            _("Seeger-Fabian: lost game"),
            concat(declarer, " ", signed(-penalty), "; ", to_others),
            _points(-penalty),
        )
    ]


def _score(
    table: Table,
    label: str,
    won: bool | None,
    value: int,
    score: dict[str, int],
    lines: list[Line],
    bock_rounds: int = 0,
) -> Score:
    amounts = pairwise_differences(score, table.stake)
    return Score(
        label=label,
        won=won,
        value=_points(value),
        amounts=amounts,
        lines=(*lines, money_line(table, amounts)),
        score=score,
        bock_rounds=bock_rounds,
    )


def _price_declared(table: Table, h: SkatHand) -> Score:
    assert h.declarer is not None
    priced = _price_null(table, h) if h.contract == "null" else _price_trump(table, h)
    score = {p: 0 for p in table.players}
    score[h.declarer] = priced.declarer_score
    lines = list(priced.lines)
    if setting(table.settings, "scoring") == "seeger-fabian":
        extra, bonus_lines = _seeger_fabian(table, h.declarer, priced.won)
        score = {p: s + extra.get(p, 0) for p, s in score.items()}
        lines += [*bonus_lines, Line(_("List"), each_signed(score))]
    return _score(table, priced.label, priced.won, priced.value, score, lines, priced.bock_rounds)


def _price_ramsch(table: Table, h: SkatHand) -> Score:
    """Ramsch lines carry the running score of the one player it is about, signed: "Jungfrau × 2: … Ana −200"."""
    score = {p: 0 for p in table.players}
    bock = 2**h.bock
    if h.durchmarsch is not None:
        value = DURCHMARSCH_POINTS * bock
        score[h.durchmarsch] = value
        label = _("Durchmarsch: %(player)s took every trick") % {"player": h.durchmarsch}
        lines = [Line(label, signed(DURCHMARSCH_POINTS), _points(DURCHMARSCH_POINTS))]
        if h.bock:
            lines.append(Line(bock_factor(h.bock), concat(h.durchmarsch, " ", signed(value)), _points(value)))
        return _score(table, _("Durchmarsch"), None, value, score, lines)
    assert h.ramsch_loser is not None
    points = dict(h.ramsch_points)[h.ramsch_loser]
    jungfrau = 2 ** len(h.jungfrau)
    value = points * jungfrau * bock
    score[h.ramsch_loser] = -value
    loser = _("Ramsch: %(player)s has the most card points") % {"player": h.ramsch_loser}
    lines = [Line(loser, signed(-points), _points(-points))]
    if h.jungfrau:
        took_none = _("%(players)s took no trick") % {"players": and_joined(h.jungfrau)}
        detail = concat(took_none, "; ", h.ramsch_loser, " ", signed(-points * jungfrau))
        lines.append(Line(concat(_("Jungfrau"), f" × {jungfrau}"), detail, _points(-points * jungfrau)))
    if h.bock:
        lines.append(Line(bock_factor(h.bock), concat(h.ramsch_loser, " ", signed(-value)), _points(-value)))
    label = _("Ramsch Jungfrau") if h.jungfrau else _("Ramsch")
    return _score(table, label, None, value, score, lines)
