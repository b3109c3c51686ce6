"""The Skat game object (:data:`GAME`, a :class:`rules.base.Game`) and the JSON Schema of its hand."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.base import Game
from rules.options import Option, Settings
from rules.results import Score
from rules.seating import Dealt, NextHand, Played, Table, bock_queue, next_dealer, seated
from rules.skat.contracts import (
    CARD_POINTS,
    CONTRACTS,
    HOLDABLE,
    LEGAL_BIDS,
    LOWEST_BID,
    MOST_BOCKS,
    MOST_GRAND_MATADORS,
    MOST_MATADORS,
    TRUMP_GAMES,
    SkatHand,
)
from rules.skat.options import OPTIONS, PRESETS
from rules.skat.pricing import price_hand
from rules.skat.reading import parse_hand


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
        return parse_hand(table, hand)

    def price(self, table: Table, hand: SkatHand) -> Score:
        """Price a parsed hand: list points per player, the game value, money, and how it was counted."""
        return price_hand(table, hand)

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
