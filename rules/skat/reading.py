"""Reading a Skat hand document: every field checked against the contract, the table and the ruleset, and refused
(RulesError naming the field) when no deal produces it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rules.errors import RulesError, shown
from rules.i18n import N_, _, ngettext
from rules.options import Settings
from rules.reading import HandReader, to_int
from rules.seating import Table
from rules.skat.contracts import (
    CARD_POINTS,
    CONTRACTS,
    HIGHEST_BID,
    HOLDABLE,
    LEGAL_BIDS,
    LOWEST_BID,
    MOST_BOCKS,
    MOST_GRAND_MATADORS,
    MOST_MATADORS,
    NULL_VALUES,
    SKAT_HOLDS,
    TRUMP_GAMES,
    SkatHand,
    contract_name,
    null_name,
    null_value,
)
from rules.skat.explaining import and_joined
from rules.skat.options import setting

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


def parse_hand(table: Table, hand: Mapping[str, Any]) -> SkatHand:
    """Validate the hand part of a Skat document; RulesError names the first bad field and what is allowed."""
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
    if kontra and not setting(settings, "kontra"):
        raise RulesError("kontra", _("Kontra is off in this ruleset (turn on rules.kontra); must be 0"))
    return kontra


def _read_bock(reader: HandReader, settings: Settings) -> int:
    bock = reader.integer("bock", 0, MOST_BOCKS, default=0)
    if bock and not setting(settings, "bock"):
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
    if not setting(settings, "ramsch"):
        allowed = ", ".join(c for c in CONTRACTS if c != "ramsch")
        raise RulesError(
            "contract",
            _("Ramsch is off in this ruleset (turn on rules.ramsch); allowed: %(allowed)s") % {"allowed": allowed},
        )
    _refuse(reader, ("declarer", "hand", "ouvert", "won", "kontra", *_TRUMP_ONLY), N_("Ramsch, where nobody declares"))
    if reader.has("durchmarsch"):
        if not setting(settings, "durchmarsch"):
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
    if raw and not setting(table.settings, "jungfrau"):
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
    if len(raw) == len(active) - 1 and setting(table.settings, "durchmarsch"):
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
                % {"players": and_joined(tied), "points": most},
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
