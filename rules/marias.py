"""Mariáš čtyřka: four-player křížový volený mariáš, priced as RULES.md §2 and seed 001 describe.

The chooser (``declarer``) picks trump and calls a card; its holder (``partner``) plays with him, 2 against 2. If he
called his own card he plays alone, 1 against 3; betl and durch are always alone. A contract is made of components
(hra, sedma, stovka, betl, durch), each flekked, won and lost on its own; the hand's value ``V`` is their sum in money
per player of the declarer's side, and the table pays it as the ``pay_2v2`` / ``pay_alone`` settings say.

>>> from rules.base import resolve_settings
>>> table = Table(("Ana", "Ben", "Cyril", "Dana"), resolve_settings(OPTIONS, PRESETS, DEFAULT_PRESET, None))
>>> m1 = {"declarer": "Ana", "partner": "Cyril", "contract": "sedma", "trump": "hearts",
...       "flek": {"hra": 1, "sedma": 2}, "points": 80, "marriages": {"declarer": [40]},
...       "seven": {"side": "declarer", "won": False}}
>>> result = GAME.price(table, GAME.parse(table, m1))
>>> result.value
Decimal('3.20')
>>> for line in result.lines:
...     print(f"{line.label}: {line.detail}".replace("\xa0", " "))
card points + hlášky (marriages): declarer's side 80 + 40 = 120, defenders 10
hra in hearts (lepší), flek, won (120:10), silent hundred (tichá stovka): 0.20 × 2 × 2 × 2 × 2 × 2 = 6.40 Kč
sedma in hearts (lepší), re, lost (seven killed): −0.40 × 2 × 4 = −3.20 Kč
>>> result.label
'Sedma in hearts (lepší), re on the sedma, flek on the hra'

The hra is 0.20, doubled for hearts (lepší), for the flek, for the silent hundred and for each ten above it; the
sedma is 0.40, doubled for hearts and four times for the re, and lost: its first factor carries the minus.
``rules.score`` adds who pays whom as the last line. In Czech, the words the table uses:

>>> from rules.i18n import override
>>> with override("cs"):
...     result = GAME.price(table, GAME.parse(table, m1))
>>> result.label
'Lepší sedma, re na sedmu, flek na hru'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

from rules.base import (
    ZERO,
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
    format_number,
    seated,
    stake_option,
)
from rules.i18n import MINUS, N_, NP_, _, capitalised, concat, joined, ngettext, pgettext

__all__ = ["DEFAULT_PRESET", "GAME", "OPTIONS", "PRESETS", "MariasHand", "Renonc", "Seven", "flek_name"]

CONTRACTS = ("hra", "sedma", "stovka", "stosedm", "betl", "durch")
TRUMPS = ("hearts", "bells", "leaves", "acorns")
SIDES = ("declarer", "defenders")
RENONC_KINDS = ("talon", "shuffle", "other")
# The seed's words for the flek levels, in order; level k multiplies its component by 2^k. These are msgids: show
# them with flek_name(level), which says them in the active language.
FLEK_NAMES = (
    NP_("marias", "dobrá"),
    NP_("marias", "flek"),
    NP_("marias", "re"),
    NP_("marias", "tutti"),
    NP_("marias", "boty"),
    NP_("marias", "kalhoty"),
)
ALONE_CONTRACTS = ("betl", "durch")
# Components that hearts (lepší) doubles; betl and durch have no trump, so red never touches them.
COLOUR_COMPONENTS = ("hra", "sedma", "stovka")
CARD_POINTS = 90
HUNDRED = 100

_COMPONENTS: Mapping[str, tuple[str, ...]] = {
    "hra": ("hra",),
    "sedma": ("hra", "sedma"),
    "stovka": ("stovka",),
    "stosedm": ("stovka", "sedma"),
    "betl": ("betl",),
    "durch": ("durch",),
}
# The words of the game are msgids in the context "marias"; English keeps them (hra, sedma, flek …) and explains.
_CONTRACT_WORDS = {
    "hra": NP_("marias", "hra"),
    "sedma": NP_("marias", "sedma"),
    "stovka": NP_("marias", "stovka"),
    "stosedm": NP_("marias", "stosedm"),
    "betl": NP_("marias", "betl"),
    "durch": NP_("marias", "durch"),
}
_TRUMP_IN = {
    "hearts": NP_("marias", "in hearts (lepší)"),
    "bells": NP_("marias", "in bells"),
    "leaves": NP_("marias", "in leaves"),
    "acorns": NP_("marias", "in acorns"),
}
# A flek level said on one component of several ("re na sedmu"): Czech wants the accusative, so one msgid each.
_FLEK_ON = {
    "hra": NP_("marias", "%(level)s on the hra"),
    "sedma": NP_("marias", "%(level)s on the sedma"),
    "stovka": NP_("marias", "%(level)s on the stovka"),
    "betl": NP_("marias", "%(level)s on the betl"),
    "durch": NP_("marias", "%(level)s on the durch"),
}
_RENONC_WORDS = {
    "talon": NP_("marias", "aces or tens in the talon"),
    "shuffle": NP_("marias", "shuffling"),
    "other": NP_("marias", "other"),
}
_BETL_DURCH = {"10/20": (10, 20), "15/30": (15, 30), "5/10": (5, 10)}
# A played-out betl or durch is won or lost: nothing decides the money for the scorekeeper.
_WON_REQUIRED = {
    "betl": N_("is required for a played-out betl: true if the declarer took no trick, false if he took one"),
    "durch": N_("is required for a played-out durch: true if the declarer took every trick, false if he lost one"),
}

_FIELDS = (
    "declarer",
    "partner",
    "contract",
    "trump",
    "flek",
    "played_out",
    "laid",
    "flekked_by",
    "conceded_by",
    "points",
    "marriages",
    "seven",
    "won",
    "renonc",
)
# What only a played-out hand has: a conceded or laid hand is paid from the contract and the fleks alone.
_PLAY_FIELDS = ("points", "marriages", "seven", "won")
# Contracts whose hra may be entered as won or lost instead of card points when nobody declared a hláška.
WON_INSTEAD_OF_POINTS = ("hra", "sedma")

OPTIONS: Mapping[str, Option] = {
    "stake": stake_option(Decimal("0.20"), N_("price of a plain hra: 0.20 in dvacetník, 0.10 in desetník")),
    "currency": currency_option("CZK", N_("currency the table plays in")),
    "betl_durch": Option("10/20", N_("betl and durch as multiples of the stake"), choices=tuple(_BETL_DURCH)),
    "red_doubles": Option(
        True, N_("hearts trump (lepší) doubles hra, sedma, tichá sedma and stovka; never betl or durch")
    ),
    "stovka_steps": Option(
        "linear",
        N_("a lost announced stovka: what each step of the defenders' points beyond the first costs"),
        choices=("linear", "doubling"),
    ),
    "stovka_silent_hundred": Option(
        True,
        N_("when the defenders of an announced stovka reach a silent hundred, the loss doubles, and again per ten"),
    ),
    "ticha_stovka": Option(
        "seed",
        N_("tichá stovka (a hra with 100 or more): how the hra grows per ten above 100"),
        choices=("seed", "csm"),
    ),
    "stovka_pays_hra": Option(False, N_("an announced stovka pays the hra too, flekked on its own")),
    "flek_cap": Option(5, N_("highest flek level: 1 flek, 2 re, 3 tutti, 4 boty, 5 kalhoty"), min=0, max=5),
    "hand_limit": Option(0, N_("cap on one hand's value per player, in multiples of the stake; 0 = none"), min=0),
    "pay_2v2": Option(
        "pair",
        N_("2 against 2: who pays whom the value V of the hand"),
        choices=("pair", "each"),
    ),
    "pay_alone": Option(
        "each",
        N_("alone against 3: what each opponent pays the lone player"),
        choices=("each", "double"),
    ),
    "renonc_talon": Option(
        Decimal("5.00"), N_("renonc fee to each opponent: aces or tens in the talon, shuffling"), min=ZERO
    ),
    "renonc_other": Option(Decimal("2.00"), N_("renonc fee to each opponent: any other renonc"), min=ZERO),
}
PRESETS: Mapping[str, Mapping[str, Any]] = {
    "ctyrka-dvacetnik": {"stake": Decimal("0.20"), "currency": "CZK"},
    "ctyrka-desetnik": {"stake": Decimal("0.10"), "currency": "CZK"},
}
DEFAULT_PRESET = "ctyrka-dvacetnik"
# What a player reads for a preset and for an option's values (rules.labels says them in the active language); the
# keys stay what documents, the API and the CLI speak.
PRESET_LABELS = {
    "ctyrka-dvacetnik": N_("Čtyřka for a dvacetník: a hra costs 0.20"),
    "ctyrka-desetnik": N_("Čtyřka for a desetník: a hra costs 0.10"),
}
VALUE_LABELS = {
    "betl_durch": {
        "10/20": N_("betl 10 ×, durch 20 × the stake"),
        "15/30": N_("betl 15 ×, durch 30 × the stake"),
        "5/10": N_("betl 5 ×, durch 10 × the stake"),
    },
    "stovka_steps": {"linear": N_("each step adds one stovka"), "doubling": N_("each step doubles the loss")},
    "ticha_stovka": {"seed": N_("× 2, and × 2 again per ten"), "csm": N_("× 2 per ten, counted linearly")},
    "pay_2v2": {"pair": N_("each defender pays one opponent V"), "each": N_("each defender pays both opponents V")},
    "pay_alone": {"each": N_("each opponent pays V"), "double": N_("each opponent pays 2V")},
}


# --------------------------------------------------------------------------------------------------------------
# The parsed hand


@dataclass(frozen=True)
class Seven:
    """The trump seven in the last trick: whose it was and whether it took the trick."""

    side: str
    won: bool


@dataclass(frozen=True)
class Renonc:
    """Who broke the rules and how (the kind sets the fee)."""

    player: str
    kind: str


@dataclass(frozen=True)
class MariasHand:
    """One validated hand. ``flek`` holds a level for every component of the contract, in pricing order."""

    declarer: str
    partner: str | None
    contract: str
    trump: str | None
    flek: tuple[tuple[str, int], ...]
    played_out: bool = True
    laid: bool = False
    flekked_by: str | None = None
    conceded_by: str = "defenders"
    points: int | None = 0  # None: a hra without hlášky entered as won or lost (``won``), no card points
    marriages_declarer: tuple[int, ...] = ()
    marriages_defenders: tuple[int, ...] = ()
    seven: Seven | None = None
    won: bool = False
    renonc: Renonc | None = None

    @property
    def side(self) -> tuple[str, ...]:
        """The declarer's side: the declarer and, in 2 against 2, his partner."""
        return (self.declarer,) if self.partner is None else (self.declarer, self.partner)

    @property
    def alone(self) -> bool:
        return self.partner is None

    @property
    def components(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.flek)

    def level(self, component: str) -> int:
        return dict(self.flek)[component]


# --------------------------------------------------------------------------------------------------------------
# Parsing


def components(contract: str, settings: Mapping[str, Any]) -> tuple[str, ...]:
    """The parts of a contract that are won, lost and flekked separately under these settings.

    >>> components("stosedm", {"stovka_pays_hra": False})
    ('stovka', 'sedma')
    """
    return _components(contract, settings)


def flek_name(level: int) -> str:
    """The name of a flek level (0 dobrá … 5 kalhoty) in the active language.

    >>> flek_name(2)
    're'
    """
    return pgettext("marias", FLEK_NAMES[level])


def renonc_name(kind: str) -> str:
    """The name of a renonc kind (``RENONC_KINDS``) in the active language.

    >>> renonc_name("talon")
    'aces or tens in the talon'
    """
    return pgettext("marias", _RENONC_WORDS[kind])


def renonc_fee(kind: str, settings: Mapping[str, Any]) -> Decimal:
    """What a renonc of this kind costs, to each opponent, under these settings (shuffling costs the talon fee).

    >>> renonc_fee("shuffle", {"renonc_talon": Decimal("5.00"), "renonc_other": Decimal("2.00")})
    Decimal('5.00')
    """
    return Decimal(settings["renonc_other" if kind == "other" else "renonc_talon"])


def _word(contract: str) -> str:
    return pgettext("marias", _CONTRACT_WORDS[contract])


def _components(contract: str, settings: Mapping[str, Any]) -> tuple[str, ...]:
    components = _COMPONENTS[contract]
    if settings["stovka_pays_hra"] and "stovka" in components:
        return ("hra", *components)
    return components


def _read_flek(raw: object, components: tuple[str, ...], contract: str, cap: int) -> tuple[tuple[str, int], ...]:
    reader = HandReader(raw, allowed=set(raw) if isinstance(raw, Mapping) else (), prefix="flek.")
    for name in reader.data:
        if name not in components:
            raise RulesError(
                reader.path(str(name)),
                _("%(contract)s has no %(component)s component to flek; flekked separately: %(components)s")
                % {"contract": contract, "component": name, "components": ", ".join(components)},
            )
    levels = []
    for name in components:
        level = reader.data.get(name, 0)
        names = ", ".join(flek_name(k) for k in range(cap + 1))
        message = _("must be a flek level from 0 to %(cap)s (%(names)s)") % {"cap": cap, "names": names}
        if not isinstance(level, int) or isinstance(level, bool) or not 0 <= level <= cap:
            raise RulesError(reader.path(name), message)
        levels.append((name, level))
    return tuple(levels)


def _read_points(reader: HandReader) -> int:
    points = reader.raw("points")
    message = _("must be the declarer side's card points in tens from 0 to 90 (aces and tens 10 each, last trick 10)")
    if points is None:
        raise RulesError("points", _("is required for a played-out game; %(what)s") % {"what": message})
    if not isinstance(points, int) or isinstance(points, bool) or not 0 <= points <= CARD_POINTS or points % 10:
        raise RulesError("points", message)
    return points


# Four suits, one of them trumps: its marriage is the 40, so at most three hlášky count 20 (the hand form offers
# 0 to this many per side).
MOST_TWENTIES = 3


def _read_marriages(raw: object) -> tuple[tuple[int, ...], tuple[int, ...]]:
    reader = HandReader(raw, allowed=SIDES, prefix="marriages.")
    lists: list[tuple[int, ...]] = []
    seen: list[int] = []
    for side in SIDES:
        path = reader.path(side)
        # A side without hlášky is left out (or an empty list); null is refused, not read as none: the ledger
        # stores the document as sent, and its form reads every side it finds as a list.
        values = reader.data.get(side, [])
        if not isinstance(values, list) or any(type(v) is not int or v not in (20, 40) for v in values):
            raise RulesError(path, _("must be a list of hlášky (marriages), each 20 or 40 (in trumps)"))
        seen.extend(values)
        if len(seen) > 4:
            raise RulesError(path, _("there are only four hlášky (king and queen of each suit) in the game"))
        if seen.count(40) > 1:
            raise RulesError(path, _("only one hláška is in trumps (40); the others are 20"))
        if seen.count(20) > MOST_TWENTIES:
            # Four suits, one of them trumps: its marriage is the 40, so a fourth 20 has no suit left.
            raise RulesError(path, _("at most three hlášky are 20: the fourth marriage is in trumps and counts 40"))
        lists.append(tuple(values))
    return lists[0], lists[1]


def _read_seven(raw: object, announced: bool) -> Seven:
    reader = HandReader(raw, allowed=("side", "won"), prefix="seven.")
    side = reader.choice("side", SIDES, default="declarer" if announced else None)
    if announced and side != "declarer":
        raise RulesError(
            "seven.side",
            _("an announced sedma is played with the declarer's own trump seven; defenders cannot hold it"),
        )
    if not reader.has("won"):
        raise RulesError(
            "seven.won", _("is required: true if the trump seven took the last trick, false if it was beaten")
        )
    return Seven(side=side, won=reader.flag("won"))


def _read_renonc(raw: object, players: Sequence[str]) -> Renonc:
    reader = HandReader(raw, allowed=("player", "kind"), prefix="renonc.")
    player = reader.player("player", players)
    assert player is not None
    return Renonc(player=player, kind=reader.choice("kind", RENONC_KINDS))


def _read_play(reader: HandReader, contract: str) -> dict[str, Any]:
    """The result of a played-out hand: card points, hlášky and the seven, or won for betl/durch."""
    if contract in ALONE_CONTRACTS:
        for name in ("points", "marriages", "seven"):
            if reader.has(name):
                raise RulesError(
                    name,
                    _("%(contract)s has no trumps, card points or hlášky; enter only won") % {"contract": contract},
                )
        if not reader.has("won"):
            raise RulesError("won", _(_WON_REQUIRED[contract]))
        return {"won": reader.flag("won")}
    declarer, defenders = _read_marriages(reader.raw("marriages", {}))
    seven = reader.raw("seven")
    return {
        **_read_points_or_won(reader, contract, declarer + defenders),
        "marriages_declarer": declarer,
        "marriages_defenders": defenders,
        "seven": None if seven is None else _read_seven(seven, announced="sedma" in _COMPONENTS[contract]),
    }


def _read_points_or_won(reader: HandReader, contract: str, marriages: tuple[int, ...]) -> dict[str, Any]:
    """The card points, or only won/lost where no card points can change the price (issue 17).

    A hra (alone or under a sedma) without hlášky: each side has at most 90, so no silent hundred, and the side with
    more wins (50 or more of 90). A stovka, or hlášky on either side, need the points.
    """
    if not reader.has("won"):
        return {"points": _read_points(reader)}
    if contract not in WON_INSTEAD_OF_POINTS:
        raise RulesError("won", _("only betl, durch, and a hra or sedma without hlášky use won; enter the points"))
    if marriages:
        raise RulesError("won", _("with hlášky the card points decide the hra: enter the points instead of won"))
    if reader.has("points"):
        raise RulesError("won", _("enter the points or won, not both"))
    return {"points": None, "won": reader.flag("won")}


def _read_flekked_by(reader: HandReader, table: Table, hand: MariasHand) -> str | None:
    flekked_by = reader.player("flekked_by", table.players, required=False)
    flekked = any(level for _, level in hand.flek)
    if flekked_by is None:
        if hand.laid and flekked:
            raise RulesError("flekked_by", _("is required for a flekked laid game: that defender pays the increase"))
        return None
    if flekked_by in hand.side:
        raise RulesError(
            "flekked_by",
            _("%(player)s plays with the declarer; only a defender flekks") % {"player": flekked_by},
        )
    if not flekked:
        raise RulesError("flekked_by", _("no component of this hand is flekked"))
    return flekked_by


def _check_laid(hand: MariasHand) -> None:
    # The seed: "Nedává se re na ložené hry" - a laid game stops at flek.
    for name, level in hand.flek:
        if level > 1:
            raise RulesError(f"flek.{name}", _("no re on a laid game: at most 1 (flek)"))
    if hand.played_out:
        raise RulesError("played_out", _("a laid game is not played out; if it was played open, enter it without laid"))
    if hand.conceded_by != "defenders":
        raise RulesError("conceded_by", _("a laid game is the declarer's: only the defenders can concede it"))


def parse_hand(table: Table, data: Mapping[str, Any]) -> MariasHand:
    """Validate the hand part of a Mariáš document; RulesError names the field (path) and what is allowed."""
    reader = HandReader(data, allowed=_FIELDS)
    declarer = reader.player("declarer", table.players)
    assert declarer is not None
    partner = reader.player("partner", table.players, required=False)
    partner = None if partner == declarer else partner
    contract = reader.choice("contract", CONTRACTS)
    if contract in ALONE_CONTRACTS:
        if partner is not None:
            raise RulesError(
                "partner", _("%(contract)s is always played alone; leave partner empty") % {"contract": contract}
            )
        if reader.has("trump"):
            raise RulesError("trump", _("%(contract)s is played without trumps") % {"contract": contract})
        trump = None
    else:
        trump = reader.choice("trump", TRUMPS)
    laid = reader.flag("laid")
    hand = MariasHand(
        declarer=declarer,
        partner=partner,
        contract=contract,
        trump=trump,
        flek=_read_flek(
            reader.raw("flek", {}), _components(contract, table.settings), contract, table.settings["flek_cap"]
        ),
        # Laid games are not played (the seed), so a laid hand is not played out unless the form says so.
        played_out=reader.flag("played_out", default=not laid),
        laid=laid,
        renonc=_read_renonc(reader.raw("renonc"), table.players) if reader.has("renonc") else None,
    )
    hand = replace(hand, conceded_by=_read_conceded_by(reader, hand))
    if laid:
        _check_laid(hand)
    hand = replace(hand, flekked_by=_read_flekked_by(reader, table, hand))
    if not hand.played_out:
        for name in _PLAY_FIELDS:
            if reader.has(name):
                raise RulesError(name, _("a hand not played out is paid from its contract and fleks; leave it empty"))
        return hand
    hand = replace(hand, **_read_play(reader, contract))
    _check_deal(hand)
    return hand


def _check_deal(hand: MariasHand) -> None:
    """Refuse a played hand that no deal produces (RULES.md: impossible hands are refused, not priced).

    The last trick counts 10 and a trump seven in it says who took it: its own side when it won, the other side
    when a lone declarer's seven was beaten (partners can overtake each other, so only alone is it certain).
    A lone declarer holds eight cards, the trump seven among them when he announced a sedma or it was his in
    the last trick: seven cards are left, room for three hlášky, not four.
    """
    seven = hand.seven
    if seven is not None and hand.points is not None:
        if seven.won and seven.side == "declarer" and hand.points < 10:
            raise RulesError(
                "points",
                _(
                    "the declarer's side took the last trick with its trump seven, and the last trick counts 10: "
                    "at least 10"
                ),
            )
        if seven.won and seven.side == "defenders" and hand.points > CARD_POINTS - 10:
            raise RulesError(
                "points",
                _("the defenders took the last trick with their trump seven, and the last trick counts 10: at most 80"),
            )
        if not seven.won and seven.side == "declarer" and hand.alone and hand.points > CARD_POINTS - 10:
            raise RulesError(
                "points",
                _(
                    "a defender beat the lone declarer's trump seven in the last trick, which counts 10 for the "
                    "defenders: at most 80"
                ),
            )
    holds_seven = "sedma" in _COMPONENTS[hand.contract] or (seven is not None and seven.side == "declarer")
    if hand.alone and holds_seven and len(hand.marriages_declarer) > 3:
        raise RulesError(
            "marriages.declarer",
            _(
                "a declarer playing alone who holds the trump seven has only 7 other cards: "
                "at most three hlášky (king and queen each)"
            ),
        )


def _read_conceded_by(reader: HandReader, hand: MariasHand) -> str:
    if hand.played_out or hand.renonc is not None:
        if reader.has("conceded_by"):
            if hand.played_out:
                raise RulesError("conceded_by", _("this hand was played out; nobody conceded it"))
            raise RulesError("conceded_by", _("this hand stopped at a renonc costs only the fee; nobody conceded it"))
        return "defenders"
    return reader.choice("conceded_by", SIDES, default="defenders")


# --------------------------------------------------------------------------------------------------------------
# Pricing


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
        betl, durch = _BETL_DURCH[settings["betl_durch"]]
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
    label = [_component_words(_word(component), hand.trump)]
    if level:
        label.append(flek_name(level))
    label += [_outcome(won) if outcome is None else outcome, *words]
    shown = [str(factor) for factor in (red, 1 << level) if factor != 1]
    amount = base * red * (1 << level) * multiplier
    return _Part(
        joined(", ", label),
        (format_number(base if won else -base), *shown, *factors),
        amount if won else -amount,
    )


def _outcome(won: bool) -> str:
    """Won or lost, seen from the declarer's side (the sign of the component's money)."""
    return pgettext("marias result", "won") if won else pgettext("marias result", "lost")


def _component_words(words: str, trump: str | None) -> str:
    """A (translated) component with its trump: "sedma v lepších", "sedma in hearts (lepší)"."""
    if trump is None:
        return words
    return pgettext("marias", "%(component)s %(trump)s") % {
        "component": words,
        "trump": pgettext("marias", _TRUMP_IN[trump]),
    }


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
    outcome = concat(_outcome(won), f" ({declarer}:{defenders})")
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
        made = concat(_outcome(True), f" ({total})")
        if not above:
            return _part(tariff, hand, "stovka", True, made)
        words = [pgettext("marias", "%(tens)s above") % {"tens": _tens(above)}]
        return _part(tariff, hand, "stovka", True, made, words, [f"(1 + {above})"], 1 + above)
    # Each ten the defenders got beyond what they were allowed: the tens missing, plus their own hlášky. Points
    # come in tens, so a missed hundred misses at least one.
    short = (HUNDRED - reached) // 10
    theirs = sum(hand.marriages_defenders)
    steps = short + theirs // 10
    lost = concat(_outcome(False), f" ({reached})")
    words = [pgettext("marias", "%(tens)s short") % {"tens": _tens(short)}]
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


def _tens(count: int) -> str:
    """Tens of points, as the players say it (Czech has three plural forms).

    >>> from rules.i18n import override
    >>> _tens(1), _tens(3)
    ('1 ten', '3 tens')
    >>> with override("cs"):
    ...     _tens(1), _tens(3), _tens(5)
    ('1 desítka', '3 desítky', '5 desítek')
    """
    return ngettext("%(count)s ten", "%(count)s tens", count) % {"count": count}


def _sedma(tariff: _Tariff, hand: MariasHand) -> _Part:
    seven = hand.seven
    if seven is not None and seven.won:
        return _part(tariff, hand, "sedma", True)
    why = pgettext("marias", "seven killed") if seven else pgettext("marias", "seven not in the last trick")
    return _part(tariff, hand, "sedma", False, concat(_outcome(False), " (", why, ")"))


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
    silent = _component_words(pgettext("marias", "silent seven (tichá sedma)"), hand.trump)
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


def _label(hand: MariasHand) -> str:
    """The hand in the players' words, e.g. "Lepší sedma, re na sedmu, flek na hru"."""
    contract = _word(hand.contract)
    if hand.trump is None:
        words = [contract]
    elif hand.trump == "hearts":
        # Czech says the red game first ("Lepší sedma"), so hearts get a template of their own.
        words = [pgettext("marias", "%(contract)s in hearts (lepší)") % {"contract": contract}]
    else:
        words = [_component_words(contract, hand.trump)]
    flekked = sorted((-level, hand.components.index(name), name) for name, level in hand.flek if level)
    for minus_level, _index, name in flekked:
        level = flek_name(-minus_level)
        words.append(pgettext("marias", _FLEK_ON[name]) % {"level": level} if len(hand.components) > 1 else level)
    if hand.alone and hand.contract not in ALONE_CONTRACTS:
        words.append(pgettext("marias", "alone"))
    if hand.laid:
        words.append(pgettext("marias", "laid"))
    elif not hand.played_out and hand.renonc:
        words.append(pgettext("marias", "not played out"))
    elif not hand.played_out and hand.conceded_by == "declarer":
        words.append(pgettext("marias", "conceded by the declarer"))
    elif not hand.played_out:
        words.append(pgettext("marias", "conceded by the defenders"))
    if hand.renonc:
        words.append(pgettext("marias", "renonc"))
    return capitalised(joined(", ", words))


def _formula(factors: Sequence[str], amount: Decimal, currency: str) -> str:
    """The factors and their product, e.g. "−0.40 × 2 × 4 = −3.20 Kč"; one factor is the amount itself."""
    money = format_money(amount, currency)
    return money if len(factors) == 1 else concat(joined(" × ", factors), " = ", money)


def _facts(hand: MariasHand) -> list[Line]:
    """Lines that explain without money: the points each side made, cards + hlášky = total."""
    if not hand.played_out or hand.contract in ALONE_CONTRACTS or hand.points is None:
        return []

    def side(cards: int, marriages: Sequence[int]) -> str:
        return f"{cards} + {sum(marriages)} = {cards + sum(marriages)}" if marriages else str(cards)

    if hand.marriages_declarer or hand.marriages_defenders:
        label = pgettext("marias", "card points + hlášky (marriages)")
    else:
        label = pgettext("marias", "card points")
    detail = pgettext("marias", "declarer's side %(declarer)s, defenders %(defenders)s") % {
        "declarer": side(hand.points, hand.marriages_declarer),
        "defenders": side(CARD_POINTS - hand.points, hand.marriages_defenders),
    }
    return [Line(label, detail)]


def price_hand(table: Table, hand: MariasHand) -> Score:
    """Price a parsed hand: V per player of the declarer's side, amounts per player (fees included), the lines."""
    tariff = _Tariff.of(table, hand)
    parts = _parts(tariff, hand)
    # Start from 0 at the stake's exponent, so a hand worth nothing still prints as 0.00.
    raw = sum((part.amount for part in parts), tariff.stake * 0)
    value = _limited(tariff, raw)
    lines = _facts(hand)
    lines += [Line(part.label, _formula(part.factors, part.amount, tariff.currency), part.amount) for part in parts]
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
        label=_label(hand),
        won=value > 0 if counted else None,
        value=value,
        amounts=amounts,
        lines=tuple(lines),
    )


# --------------------------------------------------------------------------------------------------------------
# Schema and the game object


def _hand_schema() -> dict[str, Any]:
    player = {"type": "string", "minLength": 1}
    flek_level = {"type": "integer", "minimum": 0, "maximum": 5}
    marriage_list = {"type": "array", "items": {"enum": [20, 40]}, "maxItems": 4}
    return {
        "type": "object",
        "required": ["declarer", "contract"],
        "additionalProperties": False,
        "properties": {
            "declarer": player,
            "partner": {"type": ["string", "null"], "description": "holder of the called card; empty = alone"},
            "contract": {"enum": list(CONTRACTS)},
            "trump": {"enum": list(TRUMPS), "description": "required for hra, sedma, stovka, stosedm"},
            "flek": {
                "type": "object",
                "properties": {name: flek_level for name in ("hra", "sedma", "stovka", "betl", "durch")},
                "additionalProperties": False,
            },
            "played_out": {"type": "boolean", "default": True, "description": "default false for a laid game"},
            "laid": {"type": "boolean", "default": False},
            "flekked_by": {"type": ["string", "null"], "description": "the defender who flekked (laid games)"},
            "conceded_by": {"enum": list(SIDES), "default": "defenders", "description": "hand not played out"},
            "points": {"type": "integer", "minimum": 0, "maximum": CARD_POINTS, "multipleOf": 10},
            "marriages": {
                "type": "object",
                "properties": {"declarer": marriage_list, "defenders": marriage_list},
                "additionalProperties": False,
            },
            "seven": {
                "type": "object",
                "description": "the trump seven in the last trick: whose, and whether it took the trick",
                "required": ["won"],
                "properties": {"side": {"enum": list(SIDES)}, "won": {"type": "boolean"}},
                "additionalProperties": False,
            },
            "won": {
                "type": "boolean",
                "description": "betl and durch: required when played out; hra and sedma without hlášky: "
                "instead of points",
            },
            "renonc": {
                "type": "object",
                "required": ["player", "kind"],
                "properties": {"player": player, "kind": {"enum": list(RENONC_KINDS)}},
                "additionalProperties": False,
            },
        },
    }


class _Marias(DealsInTurn):
    """Mariáš čtyřka as a :class:`rules.base.Game`."""

    name = "marias"
    title = "Mariáš čtyřka"
    seats: tuple[int, ...] = (4,)
    options = OPTIONS
    presets = PRESETS
    default_preset = DEFAULT_PRESET

    def parse(self, table: Table, hand: Mapping[str, Any]) -> MariasHand:
        """Validate the hand part of a document; RulesError naming the field on bad input."""
        return parse_hand(table, hand)

    def price(self, table: Table, hand: MariasHand) -> Score:
        """Price a parsed hand: pure arithmetic."""
        return price_hand(table, hand)

    def hand_schema(self) -> dict[str, Any]:
        """A JSON Schema (draft 2020-12) of the hand part of the document."""
        return _hand_schema()

    def played(self, players: Sequence[str], hand: Mapping[str, Any]) -> Played:
        """The chooser, the partner who held the called card (or alone), and the defender a laid game names as
        the one who flekked.

        >>> seats = ["Ana", "Ben", "Cyril", "Dana"]
        >>> GAME.played(seats, {"declarer": "Ben", "partner": "Dana", "contract": "hra"})
        Played(declarer='Ben', role='chose', partner='Dana', alone=False, flekked_by=None, bock=0)
        >>> GAME.played(seats, {"declarer": "Ben", "partner": "Ben", "contract": "sedma", "laid": True,
        ...                     "flekked_by": "Cyril"})
        Played(declarer='Ben', role='chose', partner=None, alone=True, flekked_by='Cyril', bock=0)
        """
        declarer = seated(hand.get("declarer"), players)
        partner = seated(hand.get("partner"), players)
        partner = None if partner == declarer else partner
        return Played(
            declarer=declarer,
            partner=partner,
            alone=declarer is not None and partner is None,
            flekked_by=seated(hand.get("flekked_by"), players),
        )

    def list_scoring(self, settings: Settings) -> str | None:
        """Money only: no list of points."""
        return None


GAME: Game[MariasHand] = _Marias()
