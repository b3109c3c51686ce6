"""Value types, errors and money helpers shared by every game.

Pure Python: no Django, no I/O, no floats. A game module (``rules/skat.py`` …) exports one
object satisfying :class:`Game`; ``rules/__init__.py`` keeps the registry.

The flow for one hand::

    table = Table(players=("Ana", "Ben", "Cyril"), settings=game.resolve({"preset": "isko"}))
    parsed = game.parse(table, {"declarer": "Ana", "contract": "grand", ...})   # RulesError on bad input
    result = game.price(table, parsed)                                       # -> Score
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from reprlib import Repr
from typing import Any, Generic, Protocol, TypeVar

from rules.i18n import (
    CURRENCY_SIGNS,
    _,
    format_list,
    format_money,
    format_number,
    gettext,
    ngettext,
    render,
    source_of,
)

__all__ = [
    "CURRENCY_SIGNS",
    "MAX_AMOUNT",
    "MAX_STAKE",
    "MIN_STAKE",
    "MONEY_QUANTUM",
    "OPTION_LIMIT",
    "OPTION_PLACES",
    "ZERO",
    "Dealt",
    "Game",
    "HandReader",
    "Line",
    "NextHand",
    "Option",
    "Played",
    "RulesError",
    "Score",
    "Settings",
    "Table",
    "bock_queue",
    "currency_option",
    "format_money",
    "format_number",
    "next_dealer",
    "pairwise_differences",
    "pay_between",
    "payment_line",
    "resolve_settings",
    "seated",
    "settings_as_json",
    "shown",
    "stake_option",
    "to_decimal",
    "to_int",
]

ZERO = Decimal(0)

# Limits every number option keeps, whatever its game says (an option's min and max only narrow them). The ledger
# stores money with 4 decimal places and 14 digits (Decimal(14, 4)), so an option has at most 4 places and a size
# that cannot overflow: together with the games' own maxima (stakes up to 1000) every hand of Skat and Šnapser fits,
# and rules.score refuses the rare Mariáš hand (a doubling stovka) that would be worth more than MAX_AMOUNT.
OPTION_LIMIT = 1_000_000
OPTION_PLACES = 4
MONEY_QUANTUM = Decimal(1).scaleb(-OPTION_PLACES)
# The most one hand may move for one player: 10 digits before the point and 4 after, as the ledger stores money.
MAX_AMOUNT = Decimal(10) ** (14 - OPTION_PLACES) - MONEY_QUANTUM
# Every stake: more than nothing. With 4 places at most, "> 0" and ">= 0.0001" are the same rule, so the games
# set min=MIN_STAKE rather than a separate "exclusive" bound. At most MAX_STAKE: the dearest Skat hand (a lost
# Grand ouvert at 264 with Re and 8 Bocks, four seats, Seeger bonuses at their maximum) moves 1,628,016 list points
# for the declarer, which still fits MAX_AMOUNT at 1000 a point; Šnapser stays far below (at most 36 × 2^4 × 2
# stakes per player and opponent).
MIN_STAKE = MONEY_QUANTUM
MAX_STAKE = Decimal(1000)


class RulesError(ValueError):
    """Bad input: names the field (a path such as ``declarer_points`` or ``rules.stake``) and what is allowed.

    ``field`` is a path into the document and never translated; ``message`` is in the language that was active
    when the error was raised (see :mod:`rules.i18n`).

    >>> err = RulesError("declarer_points", "must be a whole number from 0 to 120")
    >>> err.as_dict()
    {'field': 'declarer_points', 'error': 'must be a whole number from 0 to 120'}

    Both can echo what the caller sent (an unknown field's name, a player who is not at the table). A lone
    surrogate there (JSON's ``"\\ud800"``) cannot be written in any encoding, so it is shown as its escape: the
    error can always be printed, rendered and logged.

    >>> RulesError("hand.x\\ud800", "'\\udfff' is not at this table").as_dict()
    {'field': 'hand.x\\\\ud800', 'error': "'\\\\udfff' is not at this table"}
    """

    def __init__(self, field: str, message: str) -> None:
        field, message = _encodable(field), _encodable(message)
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message

    def as_dict(self) -> dict[str, str]:
        return {"field": self.field, "error": self.message}


def _encodable(text: str) -> str:
    """``text`` with every character UTF-8 cannot encode (lone surrogates) written as its ``\\u`` escape."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


_SHORT = Repr()


def shown(value: object) -> str:
    """A value the caller sent, for an error message: a string as it is, anything else briefly.

    Whatever arrives is shown in bounded size, so a thousand nested lists cannot make the message itself fail.

    >>> shown("Zora"), shown(12), shown([[[[[[[[1]]]]]]]]), shown(list(range(100)))
    ('Zora', '12', '[[[[[[[...]]]]]]]', '[0, 1, 2, 3, 4, 5, ...]')
    """
    if isinstance(value, str):
        return value
    try:
        return _SHORT.repr(value)
    except ValueError:  # an integer longer than Python will print
        return type(value).__name__


# --------------------------------------------------------------------------------------------------------------
# Results


@dataclass(frozen=True)
class Line:
    """One step of the explanation a player reads when asking "why 3,20?".

    ``amount`` is the line's contribution in the unit of :attr:`Score.value` (list points for Skat, money per
    player seen from the declarer's side for the other games), or ``None`` for a line that only explains.
    """

    label: str
    detail: str = ""
    amount: Decimal | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "detail": self.detail,
            "amount": None if self.amount is None else str(self.amount),
        }

    def as_source(self) -> dict[str, Any]:
        """The line with its texts as :data:`rules.i18n.Source`: what the ledger stores, said in any language."""
        return self.as_dict() | {"label": source_of(self.label), "detail": source_of(self.detail)}


@dataclass(frozen=True)
class Score:
    """The priced hand. ``amounts`` is money per player, exact, summing to exactly zero."""

    label: str
    won: bool | None
    value: Decimal
    amounts: Mapping[str, Decimal]
    lines: tuple[Line, ...] = ()
    score: Mapping[str, int] | None = None
    # Skat pub rules: how many Bock rounds this hand starts. The ledger keeps the queue; the engine only
    # reports triggers and takes the factor of the pending ones from the hand's ``bock`` field.
    bock_rounds: int = 0

    def __post_init__(self) -> None:
        total = sum(self.amounts.values(), ZERO)
        if total != 0:
            # A bug in a game module, never bad input: refuse to hand out money that does not balance.
            raise AssertionError(f"amounts of {self.label!r} sum to {total}, not 0")

    def as_dict(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "won": self.won,
            "value": str(self.value),
            "score": None if self.score is None else dict(self.score),
            "amounts": {player: str(amount) for player, amount in self.amounts.items()},
            "lines": [line.as_dict() for line in self.lines],
            "bock_rounds": self.bock_rounds,
        }

    def text_source(self) -> dict[str, Any]:
        """The label and lines as :data:`rules.i18n.Source`, to be said in any language by :func:`said`.

        The hand is priced once, in whichever language is active; this keeps how its texts were made.

        >>> import rules
        >>> from rules.i18n import override
        >>> with override("cs"):
        ...     score = rules.score({"game": "marias", "players": ["Ana", "Ben", "Cyril", "Dana"], "hand": {
        ...         "declarer": "Ana", "partner": "Cyril", "contract": "hra", "trump": "bells", "points": 60}})
        >>> source = score.text_source()
        >>> said(source, "cs")["label"], said(source, "de")["label"]
        ('Hra v kulích', 'Hra in Schellen')
        """
        return {"label": source_of(self.label), "lines": [line.as_source() for line in self.lines]}


def said(source: Mapping[str, Any], language: str | None = None) -> dict[str, Any]:
    """A :meth:`Score.text_source` said in ``language`` (the active one by default): ``label`` and ``lines`` with
    ``label``, ``detail`` and ``amount``, as :meth:`Score.as_dict` writes them."""
    lines = [
        {"label": render(line["label"], language), "detail": render(line["detail"], language), "amount": line["amount"]}
        for line in source.get("lines", [])
    ]
    return {"label": render(source.get("label", ""), language), "lines": lines}


# --------------------------------------------------------------------------------------------------------------
# Rulesets: options, presets, resolution


@dataclass(frozen=True)
class Option:
    """One house rule: its default, what values are allowed, and a sentence that explains it.

    ``help`` is the English sentence, which is also its msgid: options are built at import time, before anybody
    chose a language, so read it translated with :meth:`translated_help` (or ``rules.i18n.option_help``).
    """

    default: bool | int | str | Decimal
    help: str
    choices: tuple[str, ...] = ()
    min: int | Decimal | None = None
    max: int | Decimal | None = None

    def translated_help(self) -> str:
        """:attr:`help` in the active language.

        >>> from rules.i18n import override
        >>> with override("de"):
        ...     Option(False, "Kontra (×2) and Re (×4) on the game value, won or lost.").translated_help()
        'Kontra (×2) und Re (×4) auf den Spielwert, gewonnen oder verloren.'
        """
        return gettext(self.help)

    def coerce(self, name: str, value: object) -> bool | int | str | Decimal:
        """Check ``value`` against the option and return it in the option's type (strings become Decimals).

        Numbers also keep the limits every option shares (:data:`OPTION_LIMIT`, :data:`OPTION_PLACES`), so a
        ruleset can never price a hand into amounts the ledger cannot store; ``min`` and ``max`` only narrow them.

        >>> Option(Decimal("0.20"), "stake", min=Decimal("0.0001"), max=1000).coerce("stake", "1E+30")
        Traceback (most recent call last):
        ...
        rules.base.RulesError: rules.stake: must be a number from 0.0001 to 1000 with at most 4 decimal places
        >>> Option(5, "flek cap", min=0).coerce("flek_cap", 10**12)
        Traceback (most recent call last):
        ...
        rules.base.RulesError: rules.flek_cap: must be a whole number from 0 to 1000000
        """
        where = f"rules.{name}"
        if isinstance(self.default, bool):
            if not isinstance(value, bool):
                raise RulesError(where, _("must be true or false"))
            return value
        lo, hi = self.bounds()
        if isinstance(self.default, int):
            return to_int(value, where, int(lo), int(hi))
        if isinstance(self.default, Decimal):
            amount = to_decimal(value, where)
            if not lo <= amount <= hi or _places(amount) > OPTION_PLACES:
                raise RulesError(
                    where,
                    _("must be a number from %(min)s to %(max)s with at most %(places)s decimal places")
                    % {
                        "min": format_number(lo, places=None),
                        "max": format_number(hi, places=None),
                        "places": OPTION_PLACES,
                    },
                )
            # One spelling per value: "1E+3" is 1000 and "0.200000" is 0.2000 (what the ledger stores).
            exponent = amount.as_tuple().exponent
            if isinstance(exponent, int) and exponent > 0:
                return amount.quantize(Decimal(1))
            if isinstance(exponent, int) and exponent < -OPTION_PLACES:
                return amount.quantize(MONEY_QUANTUM)
            return amount
        if not isinstance(value, str) or (self.choices and value not in self.choices):
            if not self.choices:
                raise RulesError(where, _("must be a text"))
            raise RulesError(where, _("must be one of: %(allowed)s") % {"allowed": ", ".join(self.choices)})
        return value

    def bounds(self) -> tuple[int | Decimal, int | Decimal]:
        """The lowest and highest value a number option allows: its ``min`` and ``max`` within ±OPTION_LIMIT."""
        lo: int | Decimal = -OPTION_LIMIT if self.min is None else max(self.min, -OPTION_LIMIT)
        hi: int | Decimal = OPTION_LIMIT if self.max is None else min(self.max, OPTION_LIMIT)
        return lo, hi


def _places(amount: Decimal) -> int:
    """Decimal places of the value itself, trailing zeros aside: 0.2000 has 1, 1E+3 has 0."""
    exponent = amount.normalize().as_tuple().exponent
    return max(0, -exponent) if isinstance(exponent, int) else 0


CURRENCIES = ("EUR", "CZK")


def stake_option(default: Decimal, help: str) -> Option:
    """Every game's money unit: from MIN_STAKE to MAX_STAKE, at most four places."""
    return Option(default, help, min=MIN_STAKE, max=MAX_STAKE)


def currency_option(default: str, help: str) -> Option:
    return Option(default, help, choices=(default, *(c for c in CURRENCIES if c != default)))


Settings = Mapping[str, Any]


def resolve_settings(
    options: Mapping[str, Option],
    presets: Mapping[str, Mapping[str, Any]],
    default_preset: str,
    rules: Mapping[str, Any] | None,
) -> dict[str, Any]:
    """Defaults, then the preset, then the overrides; every key known and every value allowed.

    The result has the key ``preset`` plus one key per option, so it can be frozen on a table and
    re-resolved later to the same settings.
    """
    rules = dict(rules or {})
    preset = rules.pop("preset", default_preset)
    if not isinstance(preset, str) or preset not in presets:
        raise RulesError("rules.preset", _("unknown preset; allowed: %(allowed)s") % {"allowed": ", ".join(presets)})
    merged: dict[str, Any] = {name: option.default for name, option in options.items()}
    merged.update(presets[preset])
    for name, value in rules.items():
        if name not in options:
            allowed = ", ".join(sorted(options))
            raise RulesError(f"rules.{name}", _("unknown option; allowed: %(allowed)s") % {"allowed": allowed})
        merged[name] = value
    settings: dict[str, Any] = {"preset": preset}
    settings.update({name: options[name].coerce(name, value) for name, value in merged.items()})
    return settings


def settings_as_json(settings: Settings) -> dict[str, Any]:
    """Settings with Decimals as strings, for JSON (the ledger freezes this on the table)."""
    return {key: str(value) if isinstance(value, Decimal) else value for key, value in settings.items()}


@dataclass(frozen=True)
class Table:
    """What a game needs to know about the table: the seat order (clockwise) and the resolved settings."""

    players: tuple[str, ...]
    settings: Settings = field(default_factory=dict)

    @property
    def stake(self) -> Decimal:
        stake = self.settings["stake"]
        assert isinstance(stake, Decimal)
        return stake

    def others(self, *players: str) -> tuple[str, ...]:
        return tuple(p for p in self.players if p not in players)


# --------------------------------------------------------------------------------------------------------------
# Between hands: what carries from one hand to the next at a table


@dataclass(frozen=True)
class Dealt:
    """One counted hand as the next hand needs it: the seat position that dealt it, the Bock rounds it started."""

    dealer: int
    bock_rounds: int = 0


@dataclass(frozen=True)
class NextHand:
    """What the next hand at a table starts from (seat positions count from 0, clockwise).

    ``dealer`` deals; ``sits_out`` is the seat that plays no part in the hand (the dealer at a four-seat Skat table),
    or None; ``bock`` is how many Bock rounds cover the hand, or None where the ruleset has no Bock rounds (the hand
    then carries no ``bock`` field).
    """

    dealer: int
    sits_out: int | None = None
    bock: int | None = None


def next_dealer(seats: int, previous: Sequence[Dealt], first_dealer: int = 0) -> int:
    """The seat that deals next: clockwise after the last counted hand's dealer, or ``first_dealer`` at the start.

    ``previous`` holds the counted hands, oldest first (voided ones left out: undoing a hand gives the deal back).

    >>> next_dealer(4, [], first_dealer=2), next_dealer(4, [Dealt(2)]), next_dealer(3, [Dealt(0), Dealt(2)])
    (2, 3, 0)
    """
    if not previous:
        return first_dealer
    return (previous[-1].dealer + 1) % seats


def bock_queue(seats: int, bock_rounds: Iterable[int]) -> int:
    """How many Bock rounds cover the next hand, from the rounds each counted hand started (oldest first).

    Each round covers the next hand of every seat (``seats`` hands), starting with the hand after its trigger;
    rounds triggered while others run overlap and stack (the engine prices a hand inside two rounds ×4). No round
    outlives ``seats`` hands, so the last ``seats`` counted hands hold the whole queue.

    >>> bock_queue(3, [1]), bock_queue(3, [1, 0, 0]), bock_queue(3, [1, 0, 0, 0]), bock_queue(4, [1, 2, 0])
    (1, 1, 0, 3)
    """
    remaining: list[int] = []
    for started in bock_rounds:
        remaining = [left - 1 for left in remaining if left > 1]
        remaining += [seats] * started
    return len(remaining)


@dataclass(frozen=True)
class Played:
    """Who played a stored hand and under what, as its hand part names them: what a log row says beside its label.

    Read back from a document the engine accepted when the hand was stored, so nothing is checked again and nothing
    is guessed: a name not seated at the table counts as not given, and a field the document lacks stays empty.

    ``declarer`` chose the game (``role`` ``"chose"``: Mariáš, Šnapser) or won the bidding and declared it
    (``"declared"``: Skat); None when nobody did (Skat passed in, Ramsch). ``partner`` played with him; ``alone`` is
    true where the game at this table could have had a partner and had none. ``flekked_by`` is the defender that a
    laid Mariáš names as the one who flekked (no other hand says who flekked, only how much). ``bock`` is how many
    Bock rounds the hand was played under (Skat pub rules), 0 outside them.
    """

    declarer: str | None = None
    role: str = "chose"
    partner: str | None = None
    alone: bool = False
    flekked_by: str | None = None
    bock: int = 0


def seated(name: object, players: Sequence[str]) -> str | None:
    """``name`` when it names one of ``players``, else None (a field left out, empty, or naming nobody seated).

    >>> seated("Ben", ["Ana", "Ben"]), seated("", ["Ana", "Ben"]), seated(None, ["Ana"]), seated("Eva", ["Ana"])
    ('Ben', None, None, None)
    """
    return name if isinstance(name, str) and name in players else None


class DealsInTurn:
    """What carries between hands in a game where the deal moves clockwise, everybody plays every hand and nothing
    else carries over (Mariáš, Šnapser): mixed into those games' objects, which then satisfy the rest of
    :class:`Game` themselves.

    >>> DealsInTurn().next_hand(4, {}, [Dealt(dealer=3)]), DealsInTurn().next_hand(3, {}, [], first_dealer=1)
    (NextHand(dealer=0, sits_out=None, bock=None), NextHand(dealer=1, sits_out=None, bock=None))
    """

    def next_hand(self, seats: int, settings: Settings, previous: Sequence[Dealt], first_dealer: int = 0) -> NextHand:
        """The next dealer clockwise; nobody sits out and there are no Bock rounds."""
        return NextHand(dealer=next_dealer(seats, previous, first_dealer))

    def hand_dealer(self, players: Sequence[str], hand: Mapping[str, Any]) -> int | None:
        """These hands do not name their dealer: the ledger's rotation says who dealt."""
        return None


HandT = TypeVar("HandT")


class Game(Protocol, Generic[HandT]):
    """The interface every game module implements (one object per game, registered in ``rules``)."""

    name: str  # "skat", "marias", "snapser"
    title: str  # "Skat", "Mariáš čtyřka", "Šnapser"
    seats: tuple[int, ...]  # allowed numbers of players
    options: Mapping[str, Option]
    presets: Mapping[str, Mapping[str, Any]]
    default_preset: str

    def parse(self, table: Table, hand: Mapping[str, Any]) -> HandT:
        """Validate the hand part of a document into a typed, frozen hand; RulesError on bad input."""
        ...

    def price(self, table: Table, hand: HandT) -> Score:
        """Price a parsed hand: pure arithmetic, no validation left to do."""
        ...

    def hand_schema(self) -> dict[str, Any]:
        """A JSON Schema (draft 2020-12) of the hand part of the document."""
        ...

    def next_hand(self, seats: int, settings: Settings, previous: Sequence[Dealt], first_dealer: int = 0) -> NextHand:
        """Who deals the next hand, who sits out, and the Bock rounds over it, from the counted hands so far.

        ``previous`` is the counted hands, oldest first; the last ``seats`` of them are enough. ``settings`` is the
        table's ruleset (resolved, or as frozen in JSON).
        """
        ...

    def hand_dealer(self, players: Sequence[str], hand: Mapping[str, Any]) -> int | None:
        """The seat position of the dealer the hand part names, or None when it names none (or nobody seated)."""
        ...

    def played(self, players: Sequence[str], hand: Mapping[str, Any]) -> Played:
        """Who chose or declared the stored hand part ``hand`` at a table seating ``players``, with whom, and under
        how many Bock rounds (:class:`Played`): read as the document says, never inferred from the amounts."""
        ...

    def list_scoring(self, settings: Settings) -> str | None:
        """The list the game writes each hand's points on at a table with these ``settings`` (resolved, or as
        frozen in JSON): its ``scoring`` (``"classic"``, ``"seeger-fabian"``) for a game that keeps a list of
        points beside the money (:attr:`Score.score`), None for a game priced in money only."""
        ...


# --------------------------------------------------------------------------------------------------------------
# Reading input: each reader raises RulesError naming the field and what is allowed.


def to_decimal(value: object, field: str) -> Decimal:
    """A Decimal from a string or an int; floats are refused because they cannot hold money exactly.

    >>> to_decimal("0.20", "rules.stake")
    Decimal('0.20')
    >>> to_decimal(0.2, "rules.stake")  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    ...
    rules.base.RulesError: rules.stake: must be a decimal number written as a string, e.g. "0.20"
    """
    if isinstance(value, Decimal):
        result = value
    elif isinstance(value, int) and not isinstance(value, bool):
        result = Decimal(value)
    elif isinstance(value, str):
        try:
            result = Decimal(value.strip().replace(",", "."))
        except InvalidOperation:
            result = Decimal("NaN")
    else:
        raise RulesError(field, _('must be a decimal number written as a string, e.g. "0.20"'))
    if not result.is_finite():
        raise RulesError(field, _('must be a decimal number written as a string, e.g. "0.20"'))
    return result


def to_int(value: object, field: str, lo: int | None = None, hi: int | None = None) -> int:
    """A whole number (booleans and floats refused), optionally within ``lo..hi``."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise RulesError(field, _range_message(lo, hi))
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise RulesError(field, _range_message(lo, hi))
    return value


def _range_message(lo: int | None, hi: int | None) -> str:
    if lo is not None and hi is not None:
        return _("must be a whole number from %(lo)s to %(hi)s") % {"lo": lo, "hi": hi}
    if lo is not None:
        return _("must be a whole number of at least %(lo)s") % {"lo": lo}
    return _("must be a whole number")


class HandReader:
    """Reads the fields of one hand, refusing unknown fields and naming the field in every error.

    >>> r = HandReader({"declarer": "Ana", "hand": True}, allowed={"declarer", "hand", "ouvert"})
    >>> r.flag("hand"), r.flag("ouvert")
    (True, False)
    """

    def __init__(self, data: object, allowed: Iterable[str], prefix: str = "") -> None:
        if not isinstance(data, Mapping):
            raise RulesError(prefix.rstrip(".") or "hand", _("must be an object"))
        self.data: Mapping[str, Any] = data
        self.prefix = prefix
        unknown = sorted(set(data) - set(allowed))
        if unknown:
            raise RulesError(
                self.path(unknown[0]),
                _("unknown field; allowed: %(allowed)s") % {"allowed": ", ".join(sorted(allowed))},
            )

    def path(self, name: str) -> str:
        return f"{self.prefix}{name}"

    def has(self, name: str) -> bool:
        return self.data.get(name) is not None

    def raw(self, name: str, default: Any = None) -> Any:
        value = self.data.get(name)
        return default if value is None else value

    def flag(self, name: str, default: bool = False) -> bool:
        value = self.data.get(name)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise RulesError(self.path(name), _("must be true or false"))
        return value

    def integer(self, name: str, lo: int | None = None, hi: int | None = None, default: int | None = None) -> int:
        value = self.data.get(name)
        if value is None:
            if default is None:
                raise RulesError(self.path(name), _("is required; %(what)s") % {"what": _range_message(lo, hi)})
            return default
        return to_int(value, self.path(name), lo, hi)

    def choice(self, name: str, choices: Sequence[str], default: str | None = None) -> str:
        value = self.data.get(name)
        if value is None and default is not None:
            return default
        if value not in choices:
            allowed = {"allowed": ", ".join(choices)}
            if value is None:
                raise RulesError(self.path(name), _("is required; allowed: %(allowed)s") % allowed)
            raise RulesError(self.path(name), _("is not allowed; allowed: %(allowed)s") % allowed)
        assert isinstance(value, str)
        return value

    def player(self, name: str, players: Sequence[str], required: bool = True) -> str | None:
        value = self.data.get(name)
        if value is None and not required:
            return None
        if value not in players:
            names = {"player": shown(value), "players": ", ".join(players)}
            if value is None:
                raise RulesError(self.path(name), _("is required; players: %(players)s") % names)
            raise RulesError(self.path(name), _("'%(player)s' is not at this table; players: %(players)s") % names)
        assert isinstance(value, str)
        return value


# --------------------------------------------------------------------------------------------------------------
# Money


# format_number and format_money live in rules.i18n (they depend on the language) and are imported above, so
# ``from rules.base import format_money`` keeps working.


def pay_between(winners: Sequence[str], losers: Sequence[str], each: Decimal) -> dict[str, Decimal]:
    """Every loser pays every winner ``each``: the usual way a card table settles one hand.

    >>> pay_between(["Ana"], ["Ben", "Cyril"], Decimal("0.20"))
    {'Ana': Decimal('0.40'), 'Ben': Decimal('-0.20'), 'Cyril': Decimal('-0.20')}
    """
    amounts = {player: each * len(losers) for player in winners}
    amounts.update({player: -each * len(winners) for player in losers})
    return amounts


def pairwise_differences(scores: Mapping[str, int | Decimal], stake: Decimal) -> dict[str, Decimal]:
    """Money from list points when everybody pays everybody the difference: ``stake × (n × s_i − Σ s_j)``.

    >>> pairwise_differences({"Ana": 48, "Ben": 0, "Cyril": 0}, Decimal("0.01"))
    {'Ana': Decimal('0.96'), 'Ben': Decimal('-0.48'), 'Cyril': Decimal('-0.48')}
    """
    total = sum(scores.values())
    n = len(scores)
    return {player: stake * (n * points - total) for player, points in scores.items()}


def payment_line(amounts: Mapping[str, Decimal], currency: str) -> Line:
    """Who is due what, in one sentence in the players' words: the last line of every hand's explanation.

    ``amounts`` are the hand's money per player in seat order (summing to zero); players with nothing to pay or
    get are left out. When every payer pays the same and every payee gets the same, one sentence names them all;
    otherwise each side is said in groups of equal amounts, the largest first.

    >>> def said(**amounts: str) -> str:
    ...     return payment_line({p: Decimal(a) for p, a in amounts.items()}, "EUR").label
    >>> said(Franta="-0.40", Pepa="0.40", Jarda="-0.40", Mirek="0.40")
    'Franta and Jarda pay Pepa and Mirek €0.40 each'
    >>> said(Ana="-0.20", Ben="0.60", Cyril="-0.20", Dana="-0.20")
    'Ana, Cyril and Dana pay Ben €0.20 each'
    >>> said(Ana="-2.40", Ben="1.20", Cyril="1.20"), said(Ana="0.60", Ben="-0.60")
    ('Ana pays Ben and Cyril €1.20 each', 'Ben pays Ana €0.60')
    >>> said(Ana="0.40", Ben="-0.50", Cyril="0.40", Dana="-0.30")
    'Ben pays €0.50 and Dana pays €0.30; Ana and Cyril get €0.40 each'
    >>> said(Ana="0", Ben="0.00", Cyril="0")
    'Nobody pays anything'
    """
    payers = _groups({player: -amount for player, amount in amounts.items() if amount < 0})
    payees = _groups({player: amount for player, amount in amounts.items() if amount > 0})
    if not payers or not payees:
        return Line(_("Nobody pays anything"))
    if len(payers) == 1 and len(payees) == 1:
        (paid, who_pays), (got, who_gets) = payers[0], payees[0]
        names = {"payers": format_list(who_pays), "payees": format_list(who_gets)}
        if len(who_pays) == 1:
            # One payer: what each payee gets ("Ana pays Ben and Cyril €1.20 each").
            sentence = ngettext(
                "%(payers)s pays %(payees)s %(money)s", "%(payers)s pays %(payees)s %(money)s each", len(who_gets)
            )
            return Line(sentence % (names | {"money": format_money(got, currency)}))
        if len(who_gets) == 1 or paid == got:
            # What each payer pays; with as many payees as payers, that is also what each of them gets.
            sentence = ngettext(
                "%(payers)s pay %(payees)s %(money)s each", "%(payers)s pay %(payees)s %(money)s each", len(who_gets)
            )
            return Line(sentence % (names | {"money": format_money(paid, currency)}))
    pay = [
        ngettext("%(names)s pays %(money)s", "%(names)s pay %(money)s each", len(names))
        % {"names": format_list(names), "money": format_money(money, currency)}
        for money, names in payers
    ]
    get = [
        ngettext("%(names)s gets %(money)s", "%(names)s get %(money)s each", len(names))
        % {"names": format_list(names), "money": format_money(money, currency)}
        for money, names in payees
    ]
    return Line(_("%(payers)s; %(payees)s") % {"payers": format_list(pay), "payees": format_list(get)})


def _groups(amounts: Mapping[str, Decimal]) -> list[tuple[Decimal, list[str]]]:
    """Players by equal amount, the largest amount first, each group in seat order."""
    groups: dict[Decimal, list[str]] = {}
    for player, amount in amounts.items():
        groups.setdefault(amount, []).append(player)
    return sorted(groups.items(), key=lambda group: -group[0])
