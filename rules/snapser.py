"""Šnapser, the Slovak 24-card game (RULES.md §3, seed ``000_…txt``): 2, 3 or 4 players, one chooser (voliaci).

A hand is worth ``V = stake × category × 2^raises × L``: the category is the multiple of the stake the seed gives
(s vodou 2, bez vody 4, za 6 6, tichý durch 18, za 12 12, durch 36, nehrám 6), each raise (kontra, re, tuti, boty)
doubles, and ``L`` = 2 when hearts (červeň) are trump. By default every member of the losing side pays every member
of the winning side ``V``.

>>> from rules.base import Table, resolve_settings
>>> table = Table(("Ana", "Ben", "Cyril"), resolve_settings(GAME.options, GAME.presets, "seed", None))
>>> hand = GAME.parse(table, {"declarer": "Ana", "trump": "hearts", "announcement": "hram", "raises": 1,
...                           "winner": "declarer", "result": "bez_vody"})
>>> score = GAME.price(table, hand)
>>> score.label, str(score.value), {p: str(a) for p, a in score.amounts.items()}
('bez vody in hearts, kontra', '1.60', {'Ana': '3.20', 'Ben': '-1.60', 'Cyril': '-1.60'})
>>> score.lines[-1].detail
'4 × 2 × 2 × €0.10 = €1.60'

In Slovak, the words of the table:

>>> from rules.i18n import override
>>> with override("sk"):
...     score = GAME.price(table, hand)
>>> score.label, score.lines[-1].detail
('bez vody v červenom, kontra', '4 × 2 × 2 × 0,10\xa0€ = 1,60\xa0€')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from rules.base import (
    DealsInTurn,
    Game,
    HandReader,
    Line,
    Option,
    Played,
    RulesError,
    Score,
    Settings,
    Table,
    currency_option,
    format_money,
    pay_between,
    seated,
    stake_option,
)
from rules.i18n import MINUS, N_, NP_, _, concat, joined, pgettext

SEATS = (2, 3, 4)
# Only four seats play 2 against 2 (the chooser's hidden partner holds the trump card he names).
PARTNER_SEATS = 4
TRUMPS = ("hearts", "bells", "leaves", "acorns")
RED = "hearts"
ANNOUNCEMENTS = ("hram", "za12", "durch", "nehram")
RESULTS = ("s_vodou", "bez_vody", "za_6", "tichy_durch")
WINNERS = ("declarer", "defenders")
ENDS = ("dost", "last_trick", "false_dost")
FIELDS = ("declarer", "partner", "trump", "announcement", "raises", "winner", "result", "end")
MAX_RAISES = 4

# Multiples of the stake ("násobok základu" in the seed). Results apply to hrám only; the other announcements are
# won or lost at their own multiple.
MULTIPLES = {
    "s_vodou": 2,
    "bez_vody": 4,
    "za_6": 6,
    "tichy_durch": 18,
    "za12": 12,
    "durch": 36,
    "nehram": 6,
}
# The table's words are msgids in the context "snapser" (English keeps them and explains them in WHY); say them
# with category_name(key) and raise_name(level).
NAMES = {
    "s_vodou": NP_("snapser", "s vodou"),
    "bez_vody": NP_("snapser", "bez vody"),
    "za_6": NP_("snapser", "za 6"),
    "tichy_durch": NP_("snapser", "tichý durch"),
    "hram": NP_("snapser", "hrám"),
    "za12": NP_("snapser", "za 12"),
    "durch": NP_("snapser", "durch"),
    "nehram": NP_("snapser", "nehrám"),
}
WHY = {
    "s_vodou": NP_("snapser", "the losers have 33 points or more"),
    "bez_vody": NP_("snapser", "the losers have fewer than 33 points"),
    "za_6": NP_("snapser", "the losers took no trick"),
    "tichy_durch": NP_("snapser", "the winners took every trick without announcing it"),
    "za12": NP_("snapser", "announced: 66 and “dosť” before the other side takes a trick"),
    "durch": NP_("snapser", "announced: the chooser takes every trick"),
    "nehram": NP_("snapser", "the chooser gave up and loses at once"),
}
RAISE_NAMES = (
    "",
    NP_("snapser", "kontra"),
    NP_("snapser", "re"),
    NP_("snapser", "tuti"),
    NP_("snapser", "boty"),
)

PAYMENTS = ("every_loser_every_winner", "each_loser_one_winner")
FALSE_DOST = ("by_points", "s_vodou", "bez_vody", "za_6")

OPTIONS: dict[str, Option] = {
    "stake": stake_option(Decimal("0.10"), N_("Money for one základ: a hand pays category × raises × red × stake.")),
    "currency": currency_option("EUR", N_("The currency the stake is in.")),
    "payment": Option(
        "every_loser_every_winner",
        N_(
            "Who pays whom: every member of the losing side pays every member of the winning side V (2 against 2: "
            "±2V each), or each loser pays one winner V (2 against 2: ±V each; a lone chooser still settles with "
            "every opponent)."
        ),
        choices=PAYMENTS,
    ),
    "red_on_nehram": Option(True, N_("Hearts trump doubles nehrám too, as it doubles every other game.")),
    "red_on_durch": Option(True, N_("Hearts trump doubles an announced durch too, as it doubles every other game.")),
    "tichy_durch_on_za12": Option(
        True,
        N_(
            "A za 12 in which one side takes every trick is paid as tichý durch (18, whatever game was "
            "announced), or, when off, as the za 12 it was (12). Enter it as result tichý durch either way."
        ),
    ),
    "false_dost": Option(
        "by_points",
        N_(
            "What a false “dosť” (said without 66) costs in hrám: the other side wins the category the caller's "
            "points give (enter it as the result), or always one fixed category."
        ),
        choices=FALSE_DOST,
    ),
}
PRESETS: dict[str, dict[str, Any]] = {
    "seed": {
        "stake": Decimal("0.10"),
        "currency": "EUR",
        "payment": "every_loser_every_winner",
        "red_on_nehram": True,
        "red_on_durch": True,
        "tichy_durch_on_za12": True,
        "false_dost": "by_points",
    },
}
# What a player reads for a preset and for an option's values (rules.labels says them in the active language).
PRESET_LABELS = {"seed": N_("Standard rules")}
VALUE_LABELS = {
    "payment": {
        "every_loser_every_winner": N_("every loser pays every winner V"),
        "each_loser_one_winner": N_("each loser pays one winner V"),
    },
    "false_dost": {
        "by_points": N_("what the caller's points give"),
        "s_vodou": N_("always s vodou"),
        "bez_vody": N_("always bez vody"),
        "za_6": N_("always za 6"),
    },
}
# A stake that means something in another currency than the preset's (one základ).
CURRENCY_STAKES = {"CZK": Decimal("2.00")}


@dataclass(frozen=True)
class SnapserHand:
    """A validated hand: the document's facts and the ``category`` (a key of :data:`MULTIPLES`) it is paid at.

    ``result`` is what the document says: the category of a hrám, or ``tichy_durch`` on a za 12 in which one side
    took every trick (paid as tichý durch or as za 12, as the table's rules say); ``partner`` None = alone.
    """

    declarer: str
    partner: str | None
    trump: str
    announcement: str
    raises: int
    winner: str
    result: str | None
    end: str | None
    category: str

    @property
    def won(self) -> bool:
        return self.winner == "declarer"

    def declarer_side(self) -> tuple[str, ...]:
        return (self.declarer,) if self.partner is None else (self.declarer, self.partner)


# --------------------------------------------------------------------------------------------------------------
# Parsing


def parse_hand(table: Table, hand: Mapping[str, Any]) -> SnapserHand:
    """Validate the ``hand`` part of a Šnapser document; RulesError naming the hand key on bad input.

    >>> table = Table(("Ana", "Ben"), {"false_dost": "by_points"})
    >>> parse_hand(table, {"declarer": "Ana", "trump": "bells", "announcement": "nehram"}).winner
    'defenders'
    >>> parse_hand(table, {"declarer": "Ana", "trump": "bells", "announcement": "nehram", "raises": 1})
    Traceback (most recent call last):
    ...
    rules.errors.RulesError: raises: nehrám ends the hand at once, so it cannot be raised; leave raises at 0

    What no deal can produce is refused, naming the field to correct:

    >>> parse_hand(table, {"declarer": "Ana", "trump": "bells", "announcement": "hram", "winner": "declarer",
    ...                    "result": "za_6", "end": "last_trick"})
    Traceback (most recent call last):
    ...
    rules.errors.RulesError: result: played to the last trick with the losers trickless, the winners took every \
trick: that is tichy_durch (za_6 ends with “dosť”)
    """
    _check_seats(table)
    reader = HandReader(hand, allowed=FIELDS)
    declarer = reader.player("declarer", table.players)
    assert declarer is not None
    partner = _read_partner(reader, table, declarer)
    trump = reader.choice("trump", TRUMPS)
    announcement = reader.choice("announcement", ANNOUNCEMENTS)
    raises = reader.integer("raises", 0, MAX_RAISES, default=0)
    if announcement == "nehram" and raises:
        raise RulesError("raises", _("nehrám ends the hand at once, so it cannot be raised; leave raises at 0"))
    end = _read_end(reader, announcement)
    winner = _read_winner(reader, announcement, end)
    result = _read_result(reader, announcement, winner, end, str(table.settings.get("false_dost", "by_points")))
    category = _category(announcement, result, bool(table.settings.get("tichy_durch_on_za12", True)))
    return SnapserHand(declarer, partner, trump, announcement, raises, winner, result, end, category)


def _check_seats(table: Table) -> None:
    # rules.table() checks documents already; a Table built by hand (the ledger, tests) must not slip through.
    if len(table.players) not in SEATS:
        raise RulesError(
            "players", _("Šnapser is played by 2, 3 or 4 players, not %(count)s") % {"count": len(table.players)}
        )


def _read_partner(reader: HandReader, table: Table, declarer: str) -> str | None:
    if not reader.has("partner"):
        return None
    if len(table.players) != 4:
        raise RulesError(
            "partner",
            _("only with 4 players; with %(count)s the chooser plays alone") % {"count": len(table.players)},
        )
    partner = reader.player("partner", table.players)
    # Calling a trump card he holds himself means the chooser plays alone (1 against 3).
    return None if partner == declarer else partner


def _read_end(reader: HandReader, announcement: str) -> str | None:
    if not reader.has("end"):
        return None
    if announcement == "nehram":
        raise RulesError("end", _("nehrám ends the hand before the first trick; leave end out"))
    return reader.choice("end", ENDS)


def _read_winner(reader: HandReader, announcement: str, end: str | None) -> str:
    if announcement == "nehram":
        winner = reader.choice("winner", WINNERS, default="defenders")
        if winner != "defenders":
            raise RulesError("winner", _("nehrám loses at once: the winner is always the defenders"))
        return winner
    winner = reader.choice("winner", WINNERS)
    if announcement in ("za12", "durch") and end == "false_dost" and winner == "declarer":
        # The seed: "Ak hráč povie dosť a nemá dostatočný počet bodov, vyhráva zahlásenú hru súper."
        raise RulesError(
            "winner",
            _("a false “dosť” loses %(name)s: the defenders win it") % {"name": category_name(announcement)},
        )
    if announcement == "durch" and end == "dost" and winner == "declarer":
        # A durch is won by the last trick; a "dosť" before it means the chooser stopped short of every trick.
        raise RulesError(
            "end", _("a won durch takes every trick, so it ends with the last trick: end is last_trick or left out")
        )
    return winner


def _read_result(reader: HandReader, announcement: str, winner: str, end: str | None, false_dost: str) -> str | None:
    if announcement in ("durch", "nehram"):
        if reader.has("result"):
            raise RulesError(
                "result",
                _("%(name)s is paid as announced, whatever the tricks; leave result out")
                % {"name": category_name(announcement)},
            )
        return None
    if announcement == "za12":
        result = _read_za12_result(reader, winner, end)
    elif end == "false_dost" and false_dost != "by_points":
        # House rule: a false "dosť" always costs one fixed category, whatever the points were.
        result = reader.choice("result", RESULTS, default=false_dost)
        if result != false_dost:
            raise RulesError(
                "result",
                _("at this table a false “dosť” always counts %(name)s; leave result out")
                % {"name": category_name(false_dost)},
            )
    else:
        result = reader.choice("result", RESULTS)
    if result == "tichy_durch":
        _check_every_trick(end)
    if result == "za_6" and end == "last_trick":
        # Nobody said "dosť", so all the tricks were played: the losers' none means the winners took them all.
        raise RulesError(
            "result",
            _(
                "played to the last trick with the losers trickless, the winners took every trick: that is "
                "tichy_durch (za_6 ends with “dosť”)"
            ),
        )
    return result


def _read_za12_result(reader: HandReader, winner: str, end: str | None) -> str | None:
    """A za 12 has a result only when one side took every trick (RULES.md §3: it is a tichý durch)."""
    if not reader.has("result"):
        if winner == "declarer" and end == "last_trick":
            # Za 12 is won by "dosť" before the other side has a trick; with no "dosť", only every trick wins it.
            raise RulesError(
                "result",
                _(
                    "a za 12 played to the last trick is won only by taking every trick: result tichy_durch, or "
                    "the defenders won"
                ),
            )
        return None
    result = reader.choice("result", RESULTS)
    if result != "tichy_durch":
        raise RulesError(
            "result",
            _("za 12 is paid as announced; its only result is tichy_durch, when one side took every trick"),
        )
    return result


def _check_every_trick(end: str | None) -> None:
    if end == "false_dost":
        raise RulesError("result", _("a false “dosť” stops the hand early, so nobody took every trick"))
    if end == "dost":
        raise RulesError(
            "end", _("a tichý durch takes every trick, so it ends with the last trick: end is last_trick or left out")
        )


def _category(announcement: str, result: str | None, tichy_durch_on_za12: bool) -> str:
    """The key of :data:`MULTIPLES` a hand is paid at.

    >>> _category("za12", "tichy_durch", True), _category("za12", "tichy_durch", False), _category("za12", None, True)
    ('tichy_durch', 'za12', 'za12')
    """
    if result is None or (announcement == "za12" and not tichy_durch_on_za12):
        return announcement
    return result


# --------------------------------------------------------------------------------------------------------------
# Pricing


def price_hand(table: Table, hand: SnapserHand) -> Score:
    """Price a parsed hand: ``V = stake × category × 2^raises × L``, paid between the two sides."""
    settings = table.settings
    red = red_doubles(hand, settings)
    value = table.stake * MULTIPLES[hand.category] * 2**hand.raises * (2 if red else 1)
    winners, losers = _sides(table, hand)
    each_pays_one = settings.get("payment") == "each_loser_one_winner"
    amounts = _payments(winners, losers, value, each_pays_one)
    return Score(
        label=_label(hand, red),
        won=hand.won,
        value=value,
        amounts={player: _tidy(amounts[player]) for player in table.players},
        lines=_lines(table, hand, red, value, (len(winners), len(losers))),
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


# --------------------------------------------------------------------------------------------------------------
# Explaining


def category_name(key: str) -> str:
    """A category or announcement (a key of :data:`NAMES`) in the table's words of the active language.

    >>> category_name("bez_vody")
    'bez vody'
    """
    return pgettext("snapser", NAMES[key])


def raise_name(raises: int) -> str:
    """The name of a raise level (1 kontra … 4 boty) in the active language."""
    return pgettext("snapser", RAISE_NAMES[raises])


def _label(hand: SnapserHand, red: bool) -> str:
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


def _lines(table: Table, hand: SnapserHand, red: bool, value: Decimal, sides: tuple[int, int]) -> tuple[Line, ...]:
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


# --------------------------------------------------------------------------------------------------------------
# Schema and the game object


def hand_schema() -> dict[str, Any]:
    """A JSON Schema (draft 2020-12) of the ``hand`` part of a Šnapser document."""
    optional_player = {"type": ["string", "null"], "minLength": 1}
    return {
        "type": "object",
        "required": ["declarer", "trump", "announcement"],
        "additionalProperties": False,
        "properties": {
            "declarer": {"type": "string", "minLength": 1},
            "partner": optional_player | {"description": "4 players only; absent or the declarer = alone"},
            "trump": {"enum": list(TRUMPS)},
            "announcement": {"enum": list(ANNOUNCEMENTS)},
            "raises": {"type": ["integer", "null"], "minimum": 0, "maximum": MAX_RAISES},
            "winner": {"enum": [*WINNERS, None]},
            "result": {
                "enum": [*RESULTS, None],
                "description": "hrám; on a za 12 only tichy_durch, when one side took every trick",
            },
            "end": {
                "enum": [*ENDS, None],
                "description": "how the hand ended: false_dost may fix the category; refused where it contradicts "
                "the tricks (za_6 at the last trick, tichy_durch or a won durch after dost)",
            },
        },
        "allOf": [
            {
                "if": {"properties": {"announcement": {"const": "za12"}}},
                "then": {"required": ["winner"], "properties": {"result": {"enum": ["tichy_durch", None]}}},
            },
            {
                "if": {"properties": {"announcement": {"const": "durch"}}},
                "then": {"required": ["winner"], "properties": {"result": {"type": "null"}}},
            },
            {
                "if": {"properties": {"announcement": {"const": "nehram"}}},
                "then": {
                    "properties": {
                        "raises": {"enum": [0, None]},
                        "winner": {"enum": ["defenders", None]},
                        "result": {"type": "null"},
                        "end": {"type": "null"},
                    }
                },
            },
            {"if": {"properties": {"announcement": {"const": "hram"}}}, "then": {"required": ["winner"]}},
        ],
    }


class Snapser(DealsInTurn):
    """The Šnapser game object registered in :mod:`rules` (satisfies :class:`rules.base.Game`)."""

    name = "snapser"
    title = "Šnapser"
    seats: tuple[int, ...] = SEATS
    options: Mapping[str, Option] = OPTIONS
    presets: Mapping[str, Mapping[str, Any]] = PRESETS
    default_preset = "seed"

    def parse(self, table: Table, hand: Mapping[str, Any]) -> SnapserHand:
        """Validate the hand part of a document (see :func:`parse_hand`)."""
        return parse_hand(table, hand)

    def price(self, table: Table, hand: SnapserHand) -> Score:
        """Price a parsed hand (see :func:`price_hand`)."""
        return price_hand(table, hand)

    def hand_schema(self) -> dict[str, Any]:
        """A JSON Schema of the hand part of the document."""
        return hand_schema()

    def played(self, players: Sequence[str], hand: Mapping[str, Any]) -> Played:
        """The chooser and, at four seats, the holder of the named trump card (or alone); two or three seats have
        no partners, so nobody plays "alone" there.

        >>> GAME.played(["Ana", "Ben", "Cyril", "Dana"], {"declarer": "Ana", "partner": "Cyril"})
        Played(declarer='Ana', role='chose', partner='Cyril', alone=False, flekked_by=None, bock=0)
        >>> GAME.played(["Ana", "Ben", "Cyril", "Dana"], {"declarer": "Ana"}).alone
        True
        >>> GAME.played(["Ana", "Ben", "Cyril"], {"declarer": "Ana"}).alone
        False
        """
        declarer = seated(hand.get("declarer"), players)
        partner = seated(hand.get("partner"), players)
        partner = None if partner == declarer else partner
        partners = len(players) == PARTNER_SEATS
        return Played(declarer=declarer, partner=partner, alone=partners and declarer is not None and partner is None)

    def list_scoring(self, settings: Settings) -> str | None:
        """Money only: no list of points."""
        return None


GAME: Game[SnapserHand] = Snapser()
