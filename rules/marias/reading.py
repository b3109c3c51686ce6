"""Reading a Mariáš hand document: the contract, fleks, the play (card points, hlášky, the seven) or how it
stopped, refused (RulesError naming the field) when no deal produces it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from rules.errors import RulesError
from rules.i18n import N_, _
from rules.marias.contracts import (
    ALONE_CONTRACTS,
    CARD_POINTS,
    COMPONENTS,
    CONTRACTS,
    MOST_TWENTIES,
    RENONC_KINDS,
    SIDES,
    TRUMPS,
    WON_INSTEAD_OF_POINTS,
    MariasHand,
    Renonc,
    Seven,
    components,
    flek_name,
)
from rules.reading import HandReader
from rules.seating import Table

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
        "seven": None if seven is None else _read_seven(seven, announced="sedma" in COMPONENTS[contract]),
    }


def _read_points_or_won(reader: HandReader, contract: str, marriages: tuple[int, ...]) -> dict[str, Any]:
    """The card points, or only won/lost where no card points can change the price.

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
            reader.raw("flek", {}), components(contract, table.settings), contract, table.settings["flek_cap"]
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
    holds_seven = "sedma" in COMPONENTS[hand.contract] or (seven is not None and seven.side == "declarer")
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
