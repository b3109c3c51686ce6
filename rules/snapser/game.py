"""The Šnapser game object (:data:`GAME`, a :class:`rules.base.Game`) and the JSON Schema of its hand."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.base import Game
from rules.options import Option, Settings
from rules.results import Score
from rules.seating import DealsInTurn, Played, Table, seated
from rules.snapser.contracts import (
    ANNOUNCEMENTS,
    ENDS,
    MAX_RAISES,
    PARTNER_SEATS,
    RESULTS,
    SEATS,
    TRUMPS,
    WINNERS,
    SnapserHand,
)
from rules.snapser.options import OPTIONS, PRESETS
from rules.snapser.pricing import price_hand
from rules.snapser.reading import parse_hand


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
