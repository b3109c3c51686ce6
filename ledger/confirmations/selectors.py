"""What the table has said of its hands: each hand version's state (confirmed, awaiting whom, disputed by whom), read
for any number of hands in a fixed number of queries."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ledger.confirmations.models import Confirmation
from ledger.confirmations.needed import NOBODY, Needed, needed_names
from ledger.models import Evening, Hand, Seat, Table
from ledger.people.models import PlayerClaim
from ledger.seats.models import SeatClaim

CONFIRMED = "confirmed"
AWAITING = "awaiting"
DISPUTED = "disputed"
# The newest hands a phone is asked about (its cards, the scorekeeper's named OK buttons): older ones are on the
# close page's list of unconfirmed hands.
RECENT = 20


@dataclass(frozen=True)
class SeatedPlayer:
    id: int
    name: str

    def __str__(self) -> str:
        return self.name


@dataclass
class HandState:
    """One hand's current version as the table has answered it. ``needed``: whose word counts (``every``: each of
    them, else one will do); ``given``: the verdicts on this version, oldest first; ``history``: those on older
    versions."""

    hand: Hand
    needed: list[SeatedPlayer]
    every: bool
    given: list[Confirmation] = field(default_factory=list)
    history: list[Confirmation] = field(default_factory=list)

    @property
    def disputes(self) -> list[Confirmation]:
        return [given for given in self.given if not given.is_ok]

    @property
    def oks(self) -> list[Confirmation]:
        return [given for given in self.given if given.is_ok]

    @property
    def awaiting(self) -> list[SeatedPlayer]:
        """Who has not answered this version yet (with "one opponent", anyone of them can still answer)."""
        answered = {given.player_id for given in self.given}
        return [player for player in self.needed if player.id not in answered]

    @property
    def code(self) -> str:
        if self.disputes:
            return DISPUTED
        oks = {given.player_id for given in self.oks}
        needed = {player.id for player in self.needed}
        done = needed <= oks if self.every else bool(needed & oks)
        return CONFIRMED if done else AWAITING

    def needs(self, player_id: int) -> bool:
        return any(player.id == player_id for player in self.needed)


def hand_states(hands: Sequence[Hand]) -> dict[int, HandState]:
    """The state of each counted hand at a table that asks for confirmation (the others are left out), in at most
    five queries whatever the number of hands."""
    tables = _asking_tables(hands)
    asked = [hand for hand in hands if hand.table_id in tables and hand.status == Hand.Status.COUNTED]
    if not asked:
        return {}
    seats = _seats(tables)
    recorders = _recorders(asked, seats)
    given = _given([hand.pk for hand in asked])
    states = {}
    for hand in asked:
        table = tables[hand.table_id]
        hand.table = table  # read once for all: the marks and the cards reach for it
        needed = _needed(table, hand, recorders.get((hand.table_id, hand.changed_by_id), set()))
        players = [player for player in seats[hand.table_id] if player.name in needed.players]
        state = HandState(hand, players, needed.every)
        for verdict in given.get(hand.pk, []):
            (state.given if verdict.version == hand.version else state.history).append(verdict)
        states[hand.pk] = state
    return states


def state_of(hand: Hand) -> HandState | None:
    return hand_states([hand]).get(hand.pk)


def open_hands(evening: Evening) -> list[HandState]:
    """The evening's hands still awaiting an OK or disputed (at tables that ask), by table and number."""
    hands = list(
        Hand.objects.filter(table__evening=evening, status=Hand.Status.COUNTED)
        .exclude(table__confirmation=Table.Confirmation.NONE)
        .order_by("table_id", "number")
    )
    return [state for state in hand_states(hands).values() if state.code != CONFIRMED]


def recent_states(table: Table) -> list[HandState]:
    """The states of the table's newest counted hands, newest first."""
    if table.confirmation == Table.Confirmation.NONE:
        return []
    hands = list(table.hands.filter(status=Hand.Status.COUNTED).order_by("-number")[:RECENT])
    for hand in hands:
        hand.table = table  # read once: the states and the cards reach for it
    states = hand_states(hands)
    return [states[hand.pk] for hand in hands if hand.pk in states]


def disputed_states(table: Table) -> list[HandState]:
    """Every disputed hand of the table, however old (a dispute waits for its correction), newest first."""
    if table.confirmation == Table.Confirmation.NONE:
        return []
    disputed = Confirmation.objects.filter(
        hand__table=table, hand__status=Hand.Status.COUNTED, verdict=Confirmation.Verdict.DISPUTED
    ).values_list("hand_id", "version")
    hands = [hand for hand in table.hands.filter(pk__in={hand for hand, _version in disputed}).order_by("-number")]
    for hand in hands:
        hand.table = table
    states = hand_states(hands)
    return [states[hand.pk] for hand in hands if hand.pk in states and states[hand.pk].code == DISPUTED]


# --------------------------------------------------------------------------------------------------------------


def _asking_tables(hands: Iterable[Hand]) -> dict[int, Table]:
    ids = {hand.table_id for hand in hands}
    known = {hand.table_id: hand.table for hand in hands if Hand.table.is_cached(hand)}
    missing = ids - set(known)
    if missing:
        known |= {table.pk: table for table in Table.objects.filter(pk__in=missing)}
    return {pk: table for pk, table in known.items() if table.confirmation != Table.Confirmation.NONE}


def _seats(tables: dict[int, Table]) -> dict[int, list[SeatedPlayer]]:
    seats: dict[int, list[SeatedPlayer]] = defaultdict(list)
    rows = Seat.objects.filter(table_id__in=tables).order_by("table_id", "position")
    for table_id, player_id, name in rows.values_list("table_id", "player_id", "player__name"):
        seats[table_id].append(SeatedPlayer(player_id, name))
    return seats


def _recorders(hands: list[Hand], seats: dict[int, list[SeatedPlayer]]) -> dict[tuple[int, int], set[str]]:
    """The players whose phone recorded each hand's version, by (table, the account the books name for it): the
    seats that account's phones held at the table, and the players it is by an approved claim."""
    users = {hand.changed_by_id for hand in hands}
    names = {(table_id, player.id): player.name for table_id, players in seats.items() for player in players}
    found: dict[tuple[int, int], set[str]] = defaultdict(set)
    claims = SeatClaim.objects.filter(table_id__in=seats, acting_id__in=users)
    for table_id, user_id, player_id in claims.values_list("table_id", "acting_id", "player_id"):
        if (table_id, player_id) in names:
            found[(table_id, user_id)].add(names[(table_id, player_id)])
    players = {player.id for table in seats.values() for player in table}
    mine = PlayerClaim.objects.approved().filter(user_id__in=users, player_id__in=players)
    for user_id, player_id in mine.values_list("user_id", "player_id"):
        for table_id in seats:
            if (table_id, player_id) in names:
                found[(table_id, user_id)].add(names[(table_id, player_id)])
    return found


def _given(hand_ids: list[int]) -> dict[int, list[Confirmation]]:
    given: dict[int, list[Confirmation]] = defaultdict(list)
    for verdict in Confirmation.objects.filter(hand_id__in=hand_ids).select_related("player", "by"):
        given[verdict.hand_id].append(verdict)
    return given


def _needed(table: Table, hand: Hand, recorders: set[str]) -> Needed:
    if not isinstance(hand.document, dict):
        return NOBODY
    return needed_names(table.confirmation, table.game, table.seat_names, hand.document, recorders=recorders)


def player_names(players: Iterable[SeatedPlayer]) -> list[str]:
    return [player.name for player in players]


def describe(state: HandState) -> dict[str, Any]:
    """The state as the API and the live messages say it."""
    return {
        "hand": state.hand.pk,
        "number": state.hand.number,
        "version": state.hand.version,
        "state": state.code,
        "every": state.every,
        "needed": [{"id": player.id, "name": player.name} for player in state.needed],
        "awaiting": [{"id": player.id, "name": player.name} for player in state.awaiting],
    }
