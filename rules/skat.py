"""Skat as the International Skat Order scores it, plus the tournament list and the pub rules of RULES.md §1.

One hand document in, list points and money out. The declarer's list score is the game value when won and
−2 × the value when lost; money is "everybody pays everybody the difference" at the table's stake.

>>> import rules
>>> result = rules.score({"game": "skat", "players": ["Ana", "Ben", "Cyril"],
...                       "hand": {"declarer": "Ana", "contract": "grand", "hand": True, "matadors": 2,
...                                "declarer_points": 95}})
>>> result.label, result.value, dict(result.score or {})
('Grand Hand Schneider with 2', Decimal('120'), {'Ana': 120, 'Ben': 0, 'Cyril': 0})
>>> result.lines[0].label
'Grand with 2, game 3, hand 4, Schneider 5 × 24 = 120'

In German, with Skat's own words (Spitzen, Augen, Schneider angesagt …):

>>> from rules.i18n import override
>>> with override("de"):
...     result = rules.score({"game": "skat", "players": ["Ana", "Ben", "Cyril"],
...                           "hand": {"declarer": "Ana", "contract": "grand", "hand": True, "matadors": 2,
...                                    "declarer_points": 95}})
>>> result.label, result.lines[0].label
('Grand Hand Schneider mit 2', 'Grand mit 2, Spiel 3, Hand 4, Schneider 5 × 24 = 120')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from rules.base import (
    Dealt,
    Game,
    HandReader,
    Line,
    NextHand,
    Option,
    Played,
    RulesError,
    Score,
    Settings,
    Table,
    bock_queue,
    currency_option,
    format_money,
    format_number,
    next_dealer,
    pairwise_differences,
    seated,
    shown,
    stake_option,
    to_int,
)
from rules.i18n import N_, _, concat, joined, ngettext, pgettext

SUIT_BASE = {"clubs": 12, "spades": 11, "hearts": 10, "diamonds": 9}
BASE = SUIT_BASE | {"grand": 24}
TRUMP_GAMES = tuple(BASE)
CONTRACTS = (*TRUMP_GAMES, "null", "ramsch", "passed")
# (hand, ouvert) -> value, cheapest first, so the first one covering a bid is the lowest legal Null.
NULL_VALUES = {(False, False): 23, (True, False): 35, (False, True): 46, (True, True): 59}
CARD_POINTS = 120
WIN_POINTS = 61
SCHNEIDER_POINTS = 90
# The 32 cards' points (ace 11, ten 10, king 4, queen 3, jack 2, nine to seven 0), four suits of each.
DECK = (11, 10, 4, 3, 2, 0, 0, 0) * 4
# What the Skat's two cards can hold: all a declarer who took no trick has (he still owns the Skat).
SKAT_HOLDS = frozenset(DECK[i] + DECK[j] for i in range(len(DECK)) for j in range(i + 1, len(DECK)))


def _sums(cards: Sequence[int]) -> frozenset[int]:
    """Every total some of the cards add up to.

    >>> sorted(_sums((11, 2, 0)))
    [0, 2, 11, 13]
    """
    totals = {0}
    for card in cards:
        totals |= {total + card for total in totals}
    return frozenset(totals)


# What one side (or one Ramsch player) can take: anything but 1, and so anything but 119 (the rest would be 1).
HOLDABLE = _sums(DECK)
DURCHMARSCH_POINTS = 120
LOST_FACTOR = 2
# The most Bocks a hand is played under: 2**8 already multiplies a game by 256. Triggers can queue more rounds
# than that (one per trigger, three big hands in a row); the queue stops here (``next_hand``), so the hand form,
# the API and the engine, which take at most this many, always take the next hand.
MOST_BOCKS = 8
# Matadors (with or without) run down the trumps from the club jack: eleven trumps in a suit game, the four
# jacks in a grand. The hand form offers these counts.
MOST_MATADORS = 11
MOST_GRAND_MATADORS = 4
# Seeger-Fabian bonuses: the tournament list gives 50, 40 and 30; a house may change them, within reason.
MOST_SEEGER_POINTS = 1000
# The highest multiplier: 11 matadors, game, hand, Schneider, Schwarz (both announced) and ouvert.
MOST_SUIT_MULTIPLIER = 18
MOST_GRAND_MULTIPLIER = 11
LEGAL_BIDS = frozenset(
    [base * m for base in SUIT_BASE.values() for m in range(2, MOST_SUIT_MULTIPLIER + 1)]
    + [BASE["grand"] * m for m in range(2, MOST_GRAND_MULTIPLIER + 1)]
    + list(NULL_VALUES.values())
)
LOWEST_BID = min(LEGAL_BIDS)
HIGHEST_BID = max(LEGAL_BIDS)

FIELDS = (
    "declarer",
    "dealer",
    "contract",
    "matadors",
    "without",
    "hand",
    "ouvert",
    "schneider_announced",
    "schwarz_announced",
    "bid",
    "declarer_points",
    "schwarz",
    "won",
    "kontra",
    "bock",
    "ramsch_points",
    "ramsch_loser",
    "jungfrau",
    "durchmarsch",
)
_TRUMP_ONLY = ("matadors", "without", "schneider_announced", "schwarz_announced", "declarer_points", "schwarz")
_RAMSCH_ONLY = ("ramsch_points", "ramsch_loser", "jungfrau", "durchmarsch")

OPTIONS: dict[str, Option] = {
    "stake": stake_option(Decimal("0.01"), N_("Money per list point; everybody pays everybody the difference.")),
    "currency": currency_option("EUR", N_("Currency of the stake.")),
    "scoring": Option(
        "classic",
        N_("The list the games are written on."),
        choices=("classic", "seeger-fabian"),
    ),
    "seeger_won_bonus": Option(
        50, N_("Seeger-Fabian: points the declarer gets on top of a won game."), min=0, max=MOST_SEEGER_POINTS
    ),
    "seeger_lost_penalty": Option(
        50, N_("Seeger-Fabian: points the declarer loses on top of a lost game."), min=0, max=MOST_SEEGER_POINTS
    ),
    "seeger_others_bonus_3": Option(
        40, N_("Seeger-Fabian, 3 seats: each other player's points for a lost game."), min=0, max=MOST_SEEGER_POINTS
    ),
    "seeger_others_bonus_4": Option(
        30,
        N_("Seeger-Fabian, 4 seats: each other player's points for a lost game (the sitting dealer too)."),
        min=0,
        max=MOST_SEEGER_POINTS,
    ),
    "kontra": Option(False, N_("Kontra (×2) and Re (×4) on the game value, won or lost.")),
    "bock": Option(
        False,
        N_("Bock rounds: a hand scores ×2 per pending Bock; a hand that fires a trigger below starts a new round."),
    ),
    "bock_lost_60": Option(True, N_("Bock trigger: a game lost 60:60.")),
    "bock_lost_kontra": Option(True, N_("Bock trigger: a game lost after Kontra.")),
    "bock_re": Option(True, N_("Bock trigger: Re given.")),
    "bock_grand_hand": Option(True, N_("Bock trigger: a Grand Hand won.")),
    "bock_big_game": Option(True, N_("Bock trigger: a game worth at least the value below (before Kontra and Bock).")),
    # No game is worth more than the highest bid (a Grand with 4, every extra and ouvert: 11 × 24 = 264).
    "bock_big_game_value": Option(
        72, N_("The game value from which a game triggers a Bock round."), min=1, max=max(LEGAL_BIDS)
    ),
    # RULES.md: a hand that fires several triggers (a Grand Hand won worth 72 fires two) adds one round.
    "bock_per_trigger": Option(
        False,
        N_("Bock: each trigger a hand fires starts its own round (off: one round per hand, however many it fires)."),
    ),
    "ramsch": Option(False, N_("When all pass, play Ramsch: the player with the most card points scores minus them.")),
    "jungfrau": Option(True, N_("Ramsch: the loser's points double for each player who took no trick.")),
    "durchmarsch": Option(True, N_("Ramsch: a player who takes every trick scores +120.")),
}

PRESETS: dict[str, dict[str, Any]] = {
    "isko": {},
    "seeger-fabian": {"scoring": "seeger-fabian"},
    "pub": {"kontra": True, "bock": True, "ramsch": True},
}
# What a player reads for a preset and for an option's values (rules.labels says them in the active language).
PRESET_LABELS = {
    "isko": N_("International Skat Order"),
    "seeger-fabian": N_("Seeger-Fabian list (tournaments)"),
    "pub": N_("Pub rules: Kontra, Bock and Ramsch"),
}
VALUE_LABELS = {
    "scoring": {
        "classic": N_("classic: won +value, lost −2 × value"),
        "seeger-fabian": N_("Seeger-Fabian: the tournament list with fixed bonuses"),
    },
}
# A stake that means something in another currency than the presets' (per list point; about one euro cent).
CURRENCY_STAKES = {"CZK": Decimal("0.25")}


@dataclass(frozen=True)
class SkatHand:
    """One validated Skat hand. Implied flags are already filled in (ouvert → hand and both announcements)."""

    contract: str
    active: tuple[str, ...]
    declarer: str | None = None
    dealer: str | None = None
    matadors: int = 0
    without: bool = False
    hand: bool = False
    ouvert: bool = False
    schneider_announced: bool = False
    schwarz_announced: bool = False
    bid: int = LOWEST_BID
    declarer_points: int = 0
    schwarz: bool = False
    won: bool = False
    kontra: int = 0
    bock: int = 0
    ramsch_points: tuple[tuple[str, int], ...] = ()
    ramsch_loser: str | None = None
    jungfrau: tuple[str, ...] = ()
    durchmarsch: str | None = None


def overbid_value(bid: int, base: int) -> int:
    """What an overbid game is charged at: the smallest multiple of the base value that covers the bid.

    >>> overbid_value(22, 9)
    27
    >>> overbid_value(48, 24)
    48
    """
    return -(-bid // base) * base


def null_value(hand: bool, ouvert: bool) -> int:
    """The fixed value of a Null game.

    >>> null_value(hand=True, ouvert=True)
    59
    """
    return NULL_VALUES[(hand, ouvert)]


_NULL_NAMES = {
    (False, False): N_("Null"),
    (True, False): N_("Null Hand"),
    (False, True): N_("Null Ouvert"),
    (True, True): N_("Null Ouvert Hand"),
}
_CONTRACT_NAMES = {
    "clubs": N_("Clubs"),
    "spades": N_("Spades"),
    "hearts": N_("Hearts"),
    "diamonds": N_("Diamonds"),
    "grand": N_("Grand"),
}


def null_name(hand: bool, ouvert: bool) -> str:
    """The Null game's name in the active language.

    >>> null_name(hand=True, ouvert=False), null_name(hand=True, ouvert=True)
    ('Null Hand', 'Null Ouvert Hand')
    """
    return _(_NULL_NAMES[(hand, ouvert)])


def contract_name(contract: str) -> str:
    """A suit or grand game's name in the active language (German: Kreuz, Pik, Herz, Karo, Grand).

    >>> contract_name("diamonds")
    'Diamonds'
    """
    return _(_CONTRACT_NAMES[contract])


def _card_points(points: int) -> str:
    return ngettext("%(points)s card point", "%(points)s card points", points) % {"points": points}


def _and(players: Sequence[str]) -> str:
    return joined(concat(" ", _("and"), " "), players)


# --------------------------------------------------------------------------------------------------------------
# Reading the hand document


def _setting(settings: Settings, name: str) -> Any:
    return settings[name]


def _refuse(reader: HandReader, names: Sequence[str], what: str) -> None:
    """Fields that mean nothing for this contract must be left out: a stray value is a mistake, not a detail.

    ``what`` is the kind of game as the object of "does not apply to", a msgid marked with ``N_`` and translated
    only when there is an error to say (this runs for every hand).
    """
    for name in names:
        if reader.data.get(name) not in (None, False, 0, [], {}):
            raise RulesError(reader.path(name), _("does not apply to %(what)s; leave it out") % {"what": _(what)})


def _read_dealer(reader: HandReader, table: Table) -> str | None:
    if len(table.players) == 4 and not reader.has("dealer"):
        raise RulesError(
            "dealer",
            _("is required at a 4-seat table, where the dealer sits out; players: %(players)s")
            % {"players": ", ".join(table.players)},
        )
    return reader.player("dealer", table.players, required=False)


def _active_players(table: Table, dealer: str | None) -> tuple[str, ...]:
    """The three who play the hand: at a 4-seat table the dealer sits out (but still settles)."""
    if len(table.players) == 4:
        return table.others(dealer) if dealer else table.players
    return table.players


def _read_seated(reader: HandReader, name: str, table: Table, active: Sequence[str], required: bool) -> str | None:
    player = reader.player(name, table.players, required=required)
    if player is not None and player not in active:
        raise RulesError(
            reader.path(name),
            _("%(player)s deals and sits out this hand; choose one of: %(players)s")
            % {"player": player, "players": ", ".join(active)},
        )
    return player


def _read_bid(reader: HandReader) -> int:
    bid = reader.integer("bid", LOWEST_BID, HIGHEST_BID, default=LOWEST_BID)
    if bid not in LEGAL_BIDS:
        lower = max(b for b in LEGAL_BIDS if b < bid)
        higher = min(b for b in LEGAL_BIDS if b > bid)
        raise RulesError(
            "bid",
            _("%(bid)s is not a game value anyone can bid; the nearest bids are %(lower)s and %(higher)s")
            % {"bid": bid, "lower": lower, "higher": higher},
        )
    return bid


def _read_matadors(reader: HandReader, contract: str) -> int:
    most = MOST_GRAND_MATADORS if contract == "grand" else MOST_MATADORS
    value = reader.raw("matadors")
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= most:
        return value
    names = {"contract": contract_name(contract), "most": most, "value": shown(value)}
    if value is None:
        raise RulesError(
            "matadors", _("is required; %(contract)s counts 1 to %(most)s matadors (with or without)") % names
        )
    raise RulesError(
        "matadors", _("%(contract)s counts 1 to %(most)s matadors (with or without); not %(value)s") % names
    )


def _read_announcements(reader: HandReader) -> tuple[bool, bool, bool, bool]:
    """(hand, ouvert, schneider announced, schwarz announced), with the announcements each one implies filled in.

    An ouvert suit or grand game is always a hand game: ``hand`` must say so (a flag left out is false, and a
    declarer who picked up the Skat cannot play ouvert). Announcing Schwarz announces Schneider too, and ouvert
    announces both, so those two may be left out.
    """
    ouvert = reader.flag("ouvert")
    hand = reader.flag("hand")
    if ouvert and not hand:
        raise RulesError(
            reader.path("hand"), _("must be true (hand: true): an ouvert suit or grand game is always a hand game")
        )
    if not hand:
        for name in ("schneider_announced", "schwarz_announced"):
            if reader.flag(name):
                raise RulesError(
                    name, _("needs a hand game (hand: true): only a declarer who skips the Skat announces")
                )
    schwarz_announced = reader.flag("schwarz_announced") or ouvert
    schneider_announced = reader.flag("schneider_announced") or schwarz_announced
    return hand, ouvert, schneider_announced, schwarz_announced


def _read_card_points(points: int, field: str) -> int:
    """Card points one side (or one Ramsch player) took: no cards add up to 1, so neither 1 nor 119 is possible."""
    if points not in HOLDABLE:
        raise RulesError(
            field,
            _("cannot be %(points)s: no cards add up to exactly 1; allowed: %(allowed)s")
            % {"points": points, "allowed": _spans(HOLDABLE)},
        )
    return points


def _spans(values: Iterable[int]) -> str:
    """Numbers as runs, the way a person lists them.

    >>> _spans(SKAT_HOLDS), _spans(HOLDABLE)
    ('0, 2–8, 10–15, 20–22', '0, 2–118, 120')
    """
    runs: list[list[int]] = []
    for value in sorted(values):
        if runs and value == runs[-1][-1] + 1:
            runs[-1].append(value)
        else:
            runs.append([value])
    return ", ".join(str(run[0]) if len(run) == 1 else f"{run[0]}–{run[-1]}" for run in runs)


def _read_kontra(reader: HandReader, settings: Settings) -> int:
    kontra = reader.integer("kontra", 0, 2, default=0)
    if kontra and not _setting(settings, "kontra"):
        raise RulesError("kontra", _("Kontra is off in this ruleset (turn on rules.kontra); must be 0"))
    return kontra


def _read_bock(reader: HandReader, settings: Settings) -> int:
    bock = reader.integer("bock", 0, MOST_BOCKS, default=0)
    if bock and not _setting(settings, "bock"):
        raise RulesError("bock", _("Bock rounds are off in this ruleset (turn on rules.bock); must be 0"))
    return bock


def _parse_trump(reader: HandReader, table: Table, contract: str, active: tuple[str, ...]) -> dict[str, Any]:
    _refuse(reader, ("won",), N_("a suit or grand game: it is won or lost by its declarer_points"))
    _refuse(reader, _RAMSCH_ONLY, N_("a suit or grand game"))
    declarer = _read_seated(reader, "declarer", table, active, required=True)
    matadors = _read_matadors(reader, contract)
    hand, ouvert, schneider_announced, schwarz_announced = _read_announcements(reader)
    points = _read_card_points(reader.integer("declarer_points", 0, CARD_POINTS), reader.path("declarer_points"))
    schwarz = reader.flag("schwarz")
    if schwarz and not (points == CARD_POINTS or points in SKAT_HOLDS):
        raise RulesError(
            "schwarz",
            _(
                "means one side took no trick: the declarer holds all %(all)s card points or only the Skat's two "
                "cards (%(skat)s), not %(points)s"
            )
            % {"all": CARD_POINTS, "skat": _spans(SKAT_HOLDS), "points": points},
        )
    return {
        "declarer": declarer,
        "matadors": matadors,
        "without": reader.flag("without"),
        "hand": hand,
        "ouvert": ouvert,
        "schneider_announced": schneider_announced,
        "schwarz_announced": schwarz_announced,
        "bid": _read_bid(reader),
        "declarer_points": points,
        "schwarz": schwarz,
    }


def _parse_null(reader: HandReader, table: Table, active: tuple[str, ...]) -> dict[str, Any]:
    _refuse(reader, _TRUMP_ONLY, N_("a Null game"))
    _refuse(reader, _RAMSCH_ONLY, N_("a Null game"))
    declarer = _read_seated(reader, "declarer", table, active, required=True)
    hand, ouvert = reader.flag("hand"), reader.flag("ouvert")
    won = reader.data.get("won")
    if not isinstance(won, bool):
        if won is None:
            raise RulesError("won", _("is required for a Null game: true when the declarer took no trick, else false"))
        raise RulesError("won", _("must be true or false: true when the declarer took no trick, else false"))
    bid = _read_bid(reader)
    value = null_value(hand, ouvert)
    if value < bid:
        legal = [(v, null_name(*key)) for key, v in NULL_VALUES.items() if v >= bid]
        if not legal:
            highest = max(NULL_VALUES.values())
            raise RulesError(
                "contract",
                _("no Null covers a bid of %(bid)s: %(name)s, the highest, is worth %(value)s")
                % {"bid": bid, "name": null_name(True, True), "value": highest},
            )
        lowest_value, lowest_name = min(legal)
        raise RulesError(
            "contract",
            _("%(name)s is worth %(value)s, below the bid of %(bid)s; the lowest legal Null is %(lowest)s (%(points)s)")
            % {
                "name": null_name(hand, ouvert),
                "value": value,
                "bid": bid,
                "lowest": lowest_name,
                "points": lowest_value,
            },
        )
    return {"declarer": declarer, "hand": hand, "ouvert": ouvert, "won": won, "bid": bid}


def _parse_ramsch(reader: HandReader, table: Table, active: tuple[str, ...]) -> dict[str, Any]:
    settings = table.settings
    if not _setting(settings, "ramsch"):
        allowed = ", ".join(c for c in CONTRACTS if c != "ramsch")
        raise RulesError(
            "contract",
            _("Ramsch is off in this ruleset (turn on rules.ramsch); allowed: %(allowed)s") % {"allowed": allowed},
        )
    _refuse(reader, ("declarer", "hand", "ouvert", "won", "kontra", *_TRUMP_ONLY), N_("Ramsch, where nobody declares"))
    if reader.has("durchmarsch"):
        if not _setting(settings, "durchmarsch"):
            raise RulesError("durchmarsch", _("Durchmarsch is off in this ruleset (turn on rules.durchmarsch)"))
        _refuse(reader, ("ramsch_points", "ramsch_loser", "jungfrau"), N_("a Durchmarsch"))
        return {"durchmarsch": _read_seated(reader, "durchmarsch", table, active, required=True)}
    points = _read_ramsch_points(reader, table, active)
    jungfrau = _read_jungfrau(reader, table, active, points)
    return {
        "ramsch_points": tuple((p, points[p]) for p in active),
        "jungfrau": jungfrau,
        "ramsch_loser": _read_ramsch_loser(reader, table, active, points),
    }


def _read_ramsch_points(reader: HandReader, table: Table, active: tuple[str, ...]) -> dict[str, int]:
    raw = reader.raw("ramsch_points")
    if not isinstance(raw, Mapping):
        raise RulesError(
            "ramsch_points",
            _("is required for Ramsch: an object with the card points of %(players)s") % {"players": ", ".join(active)},
        )
    for name in raw:
        if name not in active:
            players = {"players": ", ".join(active)}
            if name in table.players:
                message = _("deals and sits out this hand; points are for %(players)s") % players
            else:
                message = _("is not at this table; points are for %(players)s") % players
            raise RulesError(f"ramsch_points.{name}", message)
    points = {p: to_int(raw.get(p), f"ramsch_points.{p}", 0, CARD_POINTS) for p in active}
    for player, taken in points.items():
        _read_card_points(taken, f"ramsch_points.{player}")
    total = sum(points.values())
    if total != CARD_POINTS:
        raise RulesError(
            "ramsch_points",
            _("add up to %(total)s, not %(all)s: every card point goes to one of the players, the Skat's too")
            % {"total": total, "all": CARD_POINTS},
        )
    return points


def _read_jungfrau(
    reader: HandReader, table: Table, active: tuple[str, ...], points: Mapping[str, int]
) -> tuple[str, ...]:
    raw = reader.raw("jungfrau", [])
    if raw and not _setting(table.settings, "jungfrau"):
        raise RulesError("jungfrau", _("Jungfrau is off in this ruleset (turn on rules.jungfrau); leave it out"))
    if not isinstance(raw, list) or any(p not in active for p in raw) or len(set(raw)) != len(raw):
        raise RulesError(
            "jungfrau",
            _("must be a list of players who took no trick, from: %(players)s") % {"players": ", ".join(active)},
        )
    for player in raw:
        if points[player]:
            message = ngettext(
                "%(player)s has %(points)s card point, so took a trick",
                "%(player)s has %(points)s card points, so took a trick",
                points[player],
            )
            raise RulesError("jungfrau", message % {"player": player, "points": points[player]})
    if len(raw) == len(active):
        raise RulesError("jungfrau", _("somebody took the tricks: at most two players can be Jungfrau"))
    if len(raw) == len(active) - 1 and _setting(table.settings, "durchmarsch"):
        (taker,) = (p for p in active if p not in raw)
        raise RulesError(
            "jungfrau",
            _("two players without a trick means %(player)s took every trick: enter durchmarsch") % {"player": taker},
        )
    return tuple(raw)


def _read_ramsch_loser(reader: HandReader, table: Table, active: tuple[str, ...], points: Mapping[str, int]) -> str:
    most = max(points.values())
    tied = [p for p in active if points[p] == most]
    loser = reader.player("ramsch_loser", table.players, required=False)
    if loser is None:
        if len(tied) > 1:
            raise RulesError(
                "ramsch_loser",
                _("is required: %(players)s tie with %(points)s card points; name the loser")
                % {"players": _and(tied), "points": most},
            )
        return tied[0]
    if loser not in tied:
        raise RulesError(
            "ramsch_loser",
            _("%(player)s does not have the most card points (%(points)s); the loser is one of: %(players)s")
            % {"player": loser, "points": most, "players": ", ".join(tied)},
        )
    return loser


def _parse_passed(reader: HandReader) -> dict[str, Any]:
    _refuse(
        reader,
        ("declarer", "hand", "ouvert", "won", "kontra", *_TRUMP_ONLY, *_RAMSCH_ONLY),
        N_("a passed-in hand"),
    )
    return {}


# --------------------------------------------------------------------------------------------------------------
# Pricing


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


def _signed(amount: int | Decimal) -> str:
    text = format_number(Decimal(amount), places=0)
    return concat("+", text) if amount > 0 else text


def _multiplier_steps(h: SkatHand, schneider: bool, schwarz: bool) -> list[tuple[str, int]]:
    """The levels as players count them out: "with 2, game 3, hand 4, Schneider 5" ("mit 2, Spiel 3, Hand 4 …").

    An announcement follows the level it promises, as players say it: "Schneider 5, announced 6" ("angesagt").
    """
    matadors = pgettext("skat count", "without") if h.without else pgettext("skat count", "with")
    steps: list[tuple[str, int]] = [(matadors, h.matadors), (pgettext("skat count", "game"), 1)]
    if h.hand:
        steps.append((pgettext("skat count", "hand"), 1))
    if schneider:
        steps.append((pgettext("skat count", "Schneider"), 1))
    if h.schneider_announced:
        steps.append((pgettext("skat count", "announced"), 1))
    if schwarz:
        steps.append((pgettext("skat count", "Schwarz"), 1))
    if h.schwarz_announced:
        steps.append((pgettext("skat count", "announced"), 1))
    if h.ouvert:
        steps.append((pgettext("skat count", "ouvert"), 1))
    return steps


def _count_out(contract: str, steps: Sequence[tuple[str, int]], base: int) -> str:
    """
    >>> _count_out("Grand", [("with", 2), ("game", 1), ("Schneider", 1)], 24)
    'Grand with 2, game 3, Schneider 4 × 24 = 96'
    """
    total = 0
    said = []
    for name, levels in steps:
        total += levels
        said.append(concat(name, f" {total}"))
    return concat(contract, " ", joined(", ", said), f" × {base} = {total * base}")


def _trump_label(h: SkatHand) -> str:
    """The game as players call it. Schneider and Schwarz are named for the side that made them: a declarer who is
    himself Schneider or Schwarz on a loss is "Hearts with 1, declarer Schneider", never "Hearts Schneider with 1".

    >>> _trump_label(SkatHand("hearts", ("Ana", "Ben", "Cyril"), "Ana", matadors=1, declarer_points=25))
    'Hearts with 1, declarer Schneider'
    """
    points = h.declarer_points
    made_schwarz = h.schwarz and points == CARD_POINTS
    words = [contract_name(h.contract)]
    if h.ouvert:
        # ouvert promises hand, Schneider and Schwarz: saying it says all of them
        words.append(pgettext("skat label", "Ouvert"))
    else:
        words += [pgettext("skat label", "Hand")] if h.hand else []
        if h.schwarz_announced:
            words.append(pgettext("skat label", "Schwarz announced"))
        else:
            words += [pgettext("skat label", "Schneider announced")] if h.schneider_announced else []
            if made_schwarz:
                words.append(pgettext("skat label", "Schwarz"))
            elif points >= SCHNEIDER_POINTS and not h.schneider_announced:
                words.append(pgettext("skat label", "Schneider"))
    count = {"count": h.matadors}
    words.append(pgettext("skat label", "without %(count)s") % count if h.without else _with(count))
    game = {"game": joined(" ", words)}
    if h.schwarz and not made_schwarz:
        return pgettext("skat label", "%(game)s, declarer Schwarz") % game
    if points <= CARD_POINTS - SCHNEIDER_POINTS:
        return pgettext("skat label", "%(game)s, declarer Schneider") % game
    return game["game"]


def _with(count: dict[str, int]) -> str:
    return pgettext("skat label", "with %(count)s") % count


def _trump_failure(h: SkatHand) -> str | None:
    """Why the declarer's play lost the game, or None: the first condition missed (the later ones follow from it).

    An overbid is not among them: its own line says so.
    """
    points = h.declarer_points
    if points < WIN_POINTS:
        return _("%(needed)s needed") % {"needed": WIN_POINTS}
    if h.schneider_announced and points < SCHNEIDER_POINTS:
        return _("Schneider announced, %(needed)s needed") % {"needed": SCHNEIDER_POINTS}
    if h.schwarz_announced and not (h.schwarz and points == CARD_POINTS):
        return _("Schwarz announced, the defenders took a trick")
    return None


def _factor_lines(h: SkatHand, value: int) -> tuple[int, list[Line]]:
    """Kontra/Re and pending Bocks multiply the game value, won or lost."""
    lines = []
    if h.kontra:
        value *= 2**h.kontra
        name = _("Kontra") if h.kontra == 1 else _("Kontra and Re")
        lines.append(Line(concat(name, f" × {2**h.kontra}"), _game_value(value), _points(value)))
    if h.bock:
        value *= 2**h.bock
        lines.append(Line(_bock_factor(h.bock), _game_value(value), _points(value)))
    return value, lines


def _bock_factor(bock: int) -> str:
    name = _("Bock") if bock == 1 else ngettext("%(count)s Bock", "%(count)s Bocks", bock) % {"count": bock}
    return concat(name, f" × {2**bock}")


def _game_value(value: int) -> str:
    return _("game value %(value)s") % {"value": value}


def _outcome(declarer: str, won: bool, value: int, why: str) -> tuple[int, Line]:
    if won:
        label = _("Won: %(player)s %(score)s") % {"player": declarer, "score": _signed(value)}
        return value, Line(label, why, _points(value))
    score = -LOST_FACTOR * value
    label = _("Lost: −%(factor)s × %(value)s = %(score)s") % {
        "factor": LOST_FACTOR,
        "value": value,
        "score": _signed(score),
    }
    return score, Line(label, why, _points(score))


def _bock_rounds(settings: Settings, h: SkatHand, won: bool, value: int) -> int:
    """The Bock rounds this hand starts: one when it fires any trigger the ruleset switches on, however many it fires
    (RULES.md §1); with ``bock_per_trigger``, one per trigger."""
    if not _setting(settings, "bock"):
        return 0
    triggers = {
        "bock_lost_60": h.contract in TRUMP_GAMES and h.declarer_points == CARD_POINTS // 2,
        "bock_lost_kontra": h.kontra >= 1 and not won,
        "bock_re": h.kontra == 2,
        "bock_grand_hand": h.contract == "grand" and h.hand and won,
        # The value before Kontra and Bock: otherwise a doubled Bock hand would keep restarting the Bock.
        "bock_big_game": value >= _setting(settings, "bock_big_game_value"),
    }
    fired = sum(1 for name, fired in triggers.items() if fired and _setting(settings, name))
    return fired if _setting(settings, "bock_per_trigger") else min(fired, 1)


def _price_trump(table: Table, h: SkatHand) -> _Priced:
    assert h.declarer is not None
    base = BASE[h.contract]
    points = h.declarer_points
    schwarz = h.schwarz or h.schwarz_announced
    # A made Schneider counts either way (declarer ≥ 90, or ≤ 30 when losing); an announcement counts made or not.
    schneider = points >= SCHNEIDER_POINTS or points <= CARD_POINTS - SCHNEIDER_POINTS or schwarz
    schneider = schneider or h.schneider_announced
    steps = _multiplier_steps(h, schneider, schwarz)
    value = base * sum(levels for _, levels in steps)
    lines = [Line(_count_out(contract_name(h.contract), steps, base), _card_points(points), _points(value))]
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
    failure = _trump_failure(h)
    won = failure is None and value >= h.bid
    final, factor_lines = _factor_lines(h, charged)
    # The card points are on the first line already: the outcome says only what was missed.
    score, outcome = _outcome(h.declarer, won, final, failure or "")
    return _Priced(
        label=_trump_label(h),
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
        bonus = _setting(settings, "seeger_won_bonus")
        line = Line(_("Seeger-Fabian: won game"), concat(declarer, " ", _signed(bonus)), _points(bonus))
        return {declarer: bonus}, [line]
    penalty = _setting(settings, "seeger_lost_penalty")
    each = _setting(settings, f"seeger_others_bonus_{len(table.players)}")
    others = table.others(declarer)
    extra = {declarer: -penalty} | {p: each for p in others}
    to_others = _("+%(points)s to each of %(players)s") % {"points": each, "players": ", ".join(others)}
    return extra, [
        Line(
            _("Seeger-Fabian: lost game"),
            concat(declarer, " ", _signed(-penalty), "; ", to_others),
            _points(-penalty),
        )
    ]


def _each(amounts: Mapping[str, int | Decimal], places: int = 0) -> str:
    """Every player's number, signed: "Ana +0.96 · Ben −0.48 · Cyril −0.48"."""
    said = [concat(p, " ", "+" if a > 0 else "", format_number(Decimal(a), places)) for p, a in amounts.items()]
    return joined(" · ", said)


def _money_line(table: Table, amounts: Mapping[str, Decimal]) -> Line:
    currency = _setting(table.settings, "currency")
    places = max(2, -min(int(a.as_tuple().exponent) for a in [table.stake, *amounts.values()]))
    return Line(
        _("Money at %(stake)s a point") % {"stake": format_money(table.stake, currency)}, _each(amounts, places)
    )


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
        lines=(*lines, _money_line(table, amounts)),
        score=score,
        bock_rounds=bock_rounds,
    )


def _price_declared(table: Table, h: SkatHand) -> Score:
    assert h.declarer is not None
    priced = _price_null(table, h) if h.contract == "null" else _price_trump(table, h)
    score = {p: 0 for p in table.players}
    score[h.declarer] = priced.declarer_score
    lines = list(priced.lines)
    if _setting(table.settings, "scoring") == "seeger-fabian":
        extra, bonus_lines = _seeger_fabian(table, h.declarer, priced.won)
        score = {p: s + extra.get(p, 0) for p, s in score.items()}
        lines += [*bonus_lines, Line(_("List"), _each(score))]
    return _score(table, priced.label, priced.won, priced.value, score, lines, priced.bock_rounds)


def _price_ramsch(table: Table, h: SkatHand) -> Score:
    """Ramsch lines carry the running score of the one player it is about, signed: "Jungfrau × 2: … Ana −200"."""
    score = {p: 0 for p in table.players}
    bock = 2**h.bock
    if h.durchmarsch is not None:
        value = DURCHMARSCH_POINTS * bock
        score[h.durchmarsch] = value
        label = _("Durchmarsch: %(player)s took every trick") % {"player": h.durchmarsch}
        lines = [Line(label, _signed(DURCHMARSCH_POINTS), _points(DURCHMARSCH_POINTS))]
        if h.bock:
            lines.append(Line(_bock_factor(h.bock), concat(h.durchmarsch, " ", _signed(value)), _points(value)))
        return _score(table, _("Durchmarsch"), None, value, score, lines)
    assert h.ramsch_loser is not None
    points = dict(h.ramsch_points)[h.ramsch_loser]
    jungfrau = 2 ** len(h.jungfrau)
    value = points * jungfrau * bock
    score[h.ramsch_loser] = -value
    loser = _("Ramsch: %(player)s has the most card points") % {"player": h.ramsch_loser}
    lines = [Line(loser, _signed(-points), _points(-points))]
    if h.jungfrau:
        took_none = _("%(players)s took no trick") % {"players": _and(h.jungfrau)}
        detail = concat(took_none, "; ", h.ramsch_loser, " ", _signed(-points * jungfrau))
        lines.append(Line(concat(_("Jungfrau"), f" × {jungfrau}"), detail, _points(-points * jungfrau)))
    if h.bock:
        lines.append(Line(_bock_factor(h.bock), concat(h.ramsch_loser, " ", _signed(-value)), _points(-value)))
    label = _("Ramsch Jungfrau") if h.jungfrau else _("Ramsch")
    return _score(table, label, None, value, score, lines)


# --------------------------------------------------------------------------------------------------------------
# The game object


class Skat:
    """Skat for 3 seats, or 4 with the dealer sitting out; see the module docstring."""

    name: str = "skat"
    title: str = "Skat"
    seats: tuple[int, ...] = (3, 4)
    options: Mapping[str, Option] = OPTIONS
    presets: Mapping[str, Mapping[str, Any]] = PRESETS
    default_preset: str = "isko"

    def parse(self, table: Table, hand: Mapping[str, Any]) -> SkatHand:
        """Validate the hand part of a document; RulesError names the first bad field and what is allowed.

        >>> from rules.base import resolve_settings
        >>> table = Table(("Ana", "Ben", "Cyril", "Dora"), resolve_settings(OPTIONS, PRESETS, "isko", {}))
        >>> GAME.parse(table, {"dealer": "Dora", "declarer": "Dora", "contract": "null", "won": True})
        Traceback (most recent call last):
        ...
        rules.errors.RulesError: declarer: Dora deals and sits out this hand; choose one of: Ana, Ben, Cyril
        """
        reader = HandReader(hand, allowed=FIELDS)
        contract = reader.choice("contract", CONTRACTS)
        dealer = _read_dealer(reader, table)
        active = _active_players(table, dealer)
        if contract in TRUMP_GAMES:
            fields = _parse_trump(reader, table, contract, active)
        elif contract == "null":
            fields = _parse_null(reader, table, active)
        elif contract == "ramsch":
            fields = _parse_ramsch(reader, table, active)
        else:
            fields = _parse_passed(reader)
        if contract in ("ramsch", "passed") and reader.raw("bid", LOWEST_BID) != LOWEST_BID:
            # Ramsch and a passed-in hand both mean that everybody passed: nobody bid, not even 18 (the default).
            what = N_("Ramsch, where nobody declares") if contract == "ramsch" else N_("a passed-in hand")
            raise RulesError("bid", _("does not apply to %(what)s; leave it out") % {"what": _(what)})
        return SkatHand(
            contract=contract,
            active=active,
            dealer=dealer,
            kontra=_read_kontra(reader, table.settings),
            bock=_read_bock(reader, table.settings),
            **fields,
        )

    def price(self, table: Table, hand: SkatHand) -> Score:
        """Price a parsed hand: list points per player, the game value, money, and how it was counted."""
        if hand.contract == "passed":
            score = {p: 0 for p in table.players}
            lines = [Line(_("Nobody bid: everybody scores 0"), "", _points(0))]
            return _score(table, _("Passed in"), None, 0, score, lines)
        if hand.contract == "ramsch":
            return _price_ramsch(table, hand)
        return _price_declared(table, hand)

    def hand_schema(self) -> dict[str, Any]:
        """A JSON Schema (draft 2020-12) of a Skat hand: the shapes, and what no deal produces as far as a schema can
        say it; `parse` checks the rest (what depends on the table, Ramsch points adding up to 120 …)."""
        flag = {"type": "boolean"}
        player = {"type": ["string", "null"], "minLength": 1}
        unholdable = sorted(set(range(CARD_POINTS + 1)) - HOLDABLE)
        hand_game = {"required": ["hand"], "properties": {"hand": {"const": True}}}
        return {
            "type": "object",
            "additionalProperties": False,
            "required": ["contract"],
            "properties": {
                "declarer": player,
                "dealer": player,
                "contract": {"enum": list(CONTRACTS)},
                "matadors": {"type": "integer", "minimum": 1, "maximum": MOST_MATADORS},
                "without": flag,
                "hand": flag,
                "ouvert": flag,
                "schneider_announced": flag,
                "schwarz_announced": flag,
                "bid": {"enum": sorted(LEGAL_BIDS)},
                "declarer_points": {"type": "integer", "minimum": 0, "maximum": CARD_POINTS},
                "schwarz": flag,
                "won": flag,
                "kontra": {"type": "integer", "minimum": 0, "maximum": 2},
                "bock": {"type": "integer", "minimum": 0, "maximum": MOST_BOCKS},
                "ramsch_points": {
                    "type": "object",
                    "additionalProperties": {
                        "type": "integer",
                        "minimum": 0,
                        "maximum": CARD_POINTS,
                        "not": {"enum": unholdable},
                    },
                },
                "ramsch_loser": player,
                "jungfrau": {"type": "array", "items": {"type": "string"}, "uniqueItems": True, "maxItems": 2},
                "durchmarsch": player,
            },
            # What no deal produces, as far as a schema can say it; parse refuses the rest (RULES.md §1).
            "allOf": [
                _when(
                    {"enum": list(TRUMP_GAMES)},
                    ["declarer", "matadors", "declarer_points"],
                    {"declarer_points": {"not": {"enum": unholdable}}},
                    # ouvert suit and grand games are hand games
                    {"if": {"required": ["ouvert"], "properties": {"ouvert": {"const": True}}}, "then": hand_game},
                ),
                _when({"const": "grand"}, [], {"matadors": {"maximum": MOST_GRAND_MATADORS}}),
                _when({"const": "null"}, ["declarer", "won"]),
                _when(
                    {"const": "ramsch"},
                    [],
                    {},
                    {"anyOf": [{"required": ["ramsch_points"]}, {"required": ["durchmarsch"]}]},
                ),
                # everybody passed: nobody bid
                _when({"enum": ["ramsch", "passed"]}, [], {"bid": {"const": LOWEST_BID}}),
            ],
        }

    def next_hand(self, seats: int, settings: Settings, previous: Sequence[Dealt], first_dealer: int = 0) -> NextHand:
        """The deal moves clockwise; at four seats the dealer sits out; Bock rounds (pub rules) queue up.

        Each Bock round covers the next hand of every seat, starting with the hand after its trigger; rounds
        triggered while others run stack (:func:`rules.base.bock_queue`), up to :data:`MOST_BOCKS`.

        >>> GAME.next_hand(4, {"bock": True}, [Dealt(dealer=3, bock_rounds=1)])
        NextHand(dealer=0, sits_out=0, bock=1)
        >>> GAME.next_hand(3, {"bock": True}, [Dealt(0, 3), Dealt(1, 3), Dealt(2, 3)]).bock
        8
        >>> GAME.next_hand(3, {"bock": False}, [], first_dealer=1)
        NextHand(dealer=1, sits_out=None, bock=None)
        """
        dealer = next_dealer(seats, previous, first_dealer)
        bock = None
        if settings.get("bock"):
            bock = min(bock_queue(seats, (hand.bock_rounds for hand in previous)), MOST_BOCKS)
        return NextHand(dealer=dealer, sits_out=dealer if seats == 4 else None, bock=bock)

    def hand_dealer(self, players: Sequence[str], hand: Mapping[str, Any]) -> int | None:
        """The dealer the hand names (required at four seats, where the dealer sits out), as a seat position.

        >>> GAME.hand_dealer(["Ana", "Ben", "Cyril", "Dora"], {"dealer": "Cyril"})
        2
        """
        named = hand.get("dealer")
        return players.index(named) if isinstance(named, str) and named in players else None

    def played(self, players: Sequence[str], hand: Mapping[str, Any]) -> Played:
        """The declarer (nobody when all passed: Ramsch, passed in), who always plays alone against the others,
        and the Bock rounds the hand was played under.

        >>> GAME.played(["Ana", "Ben", "Cyril"], {"declarer": "Ben", "contract": "grand", "bock": 1})
        Played(declarer='Ben', role='declared', partner=None, alone=False, flekked_by=None, bock=1)
        >>> GAME.played(["Ana", "Ben", "Cyril"], {"declarer": None, "contract": "ramsch"}).declarer is None
        True
        """
        bock = hand.get("bock")
        return Played(
            declarer=seated(hand.get("declarer"), players),
            role="declared",
            bock=bock if isinstance(bock, int) and not isinstance(bock, bool) and bock > 0 else 0,
        )

    def list_scoring(self, settings: Settings) -> str | None:
        """The classic list or Seeger-Fabian's, as the ruleset's ``scoring`` says.

        >>> GAME.list_scoring({"scoring": "seeger-fabian"}), GAME.list_scoring({})
        ('seeger-fabian', 'classic')
        """
        return str(settings.get("scoring") or OPTIONS["scoring"].default)


def _when(
    contract: dict[str, Any],
    required: list[str],
    properties: dict[str, Any] | None = None,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    then: dict[str, Any] = {"required": required} if required else {}
    if properties:
        then["properties"] = properties
    return {"if": {"properties": {"contract": contract}, "required": ["contract"]}, "then": then | (extra or {})}


GAME = Skat()
# mypy checks here, once, that the object satisfies the interface every game is written against.
_CHECK: Game[SkatHand] = GAME
