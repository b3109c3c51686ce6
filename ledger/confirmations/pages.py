"""The confirmations' parts of other pages: the seated phone's cards, the scorekeeper's table page, the conflict
page; each is also drawn alone (``views.table_part``) when a push says the table changed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest

from ledger import hooks
from ledger.confirmations.access import phone_claim
from ledger.confirmations.marks import given_text
from ledger.confirmations.models import REASON_LENGTH
from ledger.confirmations.selectors import (
    AWAITING,
    HandState,
    SeatedPlayer,
    disputed_states,
    recent_states,
    state_of,
)
from ledger.models import Hand, Table
from ledger.seats.models import SeatClaim
from ledger.seats.selectors import claims_for_players

SEAT_PART = "ledger/confirmations/_seat_cards.html"
TABLE_PART = "ledger/confirmations/_table_part.html"
CONFLICT_PART = "ledger/confirmations/_conflict_dispute.html"


@dataclass(frozen=True)
class Offered:
    """An awaiting hand on the table's shared phone: the players who tap there (``offered``: no phone of their
    own holds their seat) and those whose own phone is asked."""

    state: HandState
    offered: list[SeatedPlayer]
    phones: list[SeatedPlayer]


def seat_cards(table: Table, claim: SeatClaim) -> dict[str, Any]:
    """The hands the seated phone's player is asked to confirm, newest first."""
    states = recent_states(table)
    cards = [state for state in states if state.code == AWAITING and claim.player_id in _ids(state.awaiting)]
    return {
        "confirmation_cards": cards,
        "confirmation_player": claim.player,
        "confirmation_table": table,
        "reason_length": REASON_LENGTH,
        "seat_page_parts": [SEAT_PART],
    }


def table_part(table: Table) -> dict[str, Any]:
    """What the scorekeeper's table page shows: disputed hands to correct, and the hands awaiting an OK, with named
    OK buttons for the players without a phone of their own at the table."""
    if table.confirmation == Table.Confirmation.NONE:
        return {}
    seated = claims_for_players(table)
    awaiting = []
    for state in recent_states(table):
        if state.code == AWAITING:
            offered = [player for player in state.awaiting if player.id not in seated]
            phones = [player for player in state.awaiting if player.id in seated]
            awaiting.append(Offered(state, offered, phones))
    return {
        "confirmation_disputed": disputed_states(table),
        "confirmation_awaiting": awaiting,
        "confirmation_table": table,
        "reason_length": REASON_LENGTH,
        "table_live_parts": [TABLE_PART],
    }


def table_page(page: hooks.TablePage) -> dict[str, Any]:
    """``hooks.table_page_context``: the scorekeeper's (or the tournament table phone's) part of the live page."""
    return table_part(page.table)


def seat_page(page: Any) -> dict[str, Any]:
    """``ledger.seats.hooks.seat_page_context``: the cards of the hands this seat must confirm."""
    if page.table.confirmation == Table.Confirmation.NONE:
        return {}
    return seat_cards(page.table, page.claim)


def conflict_page(page: hooks.PageShown) -> dict[str, Any]:
    """``hooks.hand_conflict_context``: a phone that lost a race to the stored hand may dispute it at once, when
    its player is one whose OK the hand needs (a seated phone), or for such a player (the scorekeeper)."""
    hand = page.subject
    if not isinstance(hand, Hand):
        return {}
    state = state_of(hand)
    if state is None:
        return {}
    request: HttpRequest = page.request
    claim = phone_claim(request, hand.table)
    if claim is not None:
        players = [player for player in state.awaiting if player.id == claim.player_id]
    elif hand.table.evening.can_keep_score(request.user):
        players = state.awaiting
    else:
        players = []
    if not players:
        return {}
    return {
        "conflict_state": state,
        "conflict_players": players,
        "reason_length": REASON_LENGTH,
        "conflict_parts": [CONFLICT_PART],
    }


def _ids(players: list[SeatedPlayer]) -> set[int]:
    return {player.id for player in players}


def hand_history(page: hooks.PageShown) -> dict[str, Any]:
    """``hooks.hand_history_context``: every answer given to the hand, its older versions' included, newest first."""
    state = state_of(page.subject)
    if state is None:
        return {}
    answers = sorted([*state.given, *state.history], key=lambda given: (given.version, given.at), reverse=True)
    lines = [(given.version, given_text(given)) for given in answers]
    return {"confirmation_history": lines, "hand_history_parts": ["ledger/confirmations/_hand_history.html"]}
