"""The Mariáš game object (:data:`GAME`, a :class:`rules.base.Game`) and the JSON Schema of its hand."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.base import Game
from rules.marias.contracts import (
    CARD_POINTS,
    CONTRACTS,
    RENONC_KINDS,
    SIDES,
    TRUMPS,
    MariasHand,
)
from rules.marias.options import DEFAULT_PRESET, OPTIONS, PRESETS
from rules.marias.pricing import price_hand
from rules.marias.reading import parse_hand
from rules.options import Settings
from rules.results import Score
from rules.seating import DealsInTurn, Played, Table, seated


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
