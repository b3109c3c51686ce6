"""Reading a Šnapser hand document: who chose, the announcement, raises, the winner, the result and how the hand
ended, refused (RulesError naming the field) when no deal produces it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.errors import RulesError
from rules.i18n import _
from rules.reading import HandReader
from rules.seating import Table
from rules.snapser.contracts import (
    ANNOUNCEMENTS,
    ENDS,
    MAX_RAISES,
    RESULTS,
    SEATS,
    TRUMPS,
    WINNERS,
    SnapserHand,
    category_name,
)

FIELDS = ("declarer", "partner", "trump", "announcement", "raises", "winner", "result", "end")


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
