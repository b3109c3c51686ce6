"""The demo's tournaments for `make run`, made through ``ledger.tournaments.services`` as a real club night's:

- a Skat club night of twelve players at three tables, the first series under way with some games on each list
  and the second series seated by the standings (so the standings, the draw and a table's sheet have something
  to show, and the next series is open for hands);
- a small Mariáš tournament of eight players over two rounds, finished (standings by placement points, prizes).

Every hand is priced by the engines, drawn from a few everyday ones by a fixed seed: the same tournaments on every
load. ``load_demo`` deletes the demo user's tournaments with its evenings before loading them again.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Callable
from typing import Any

from ledger import services
from ledger.management.demo_hands import marias_hands
from ledger.tournaments import services as tournaments
from ledger.tournaments.models import Tournament, TournamentTable

SEED = 20
SKAT_NAME, MARIAS_NAME = "Skat club night", "Mariáš cup"
SKAT_PLAYERS = ["Anke", "Bernd", "Carsten", "Dieter", "Elke", "Frank", "Gerd", "Heike", "Ingo", "Jens", "Karin", "Lutz"]
MARIAS_PLAYERS = ["Alena", "Bohouš", "Cyril", "Dana", "Emil", "Franta", "Hana", "Igor"]
SKAT_GAMES = 8  # games on each list of the first series so far (a series is 48 at four seats)
MARIAS_HANDS = 6  # hands per round at each Mariáš table


def load_tournaments(user: Any, date: datetime.date) -> int:
    """Both demo tournaments, organised by ``user`` on ``date``: returns the hands recorded."""
    draw = random.Random(SEED)  # noqa: S311 - demo data, not a secret
    return _skat_club_night(user, date, draw) + _marias_cup(user, date - datetime.timedelta(weeks=1), draw)


def _skat_club_night(user: Any, date: datetime.date, draw: random.Random) -> int:
    tournament = tournaments.tournament_create(
        owner=user,
        game="skat",
        name=SKAT_NAME,
        players=SKAT_PLAYERS,
        rounds=2,
        # The usual club fees: 10 € entry, 1 € table money per series, lost-game money by table size.
        options={"fees": {"entry": "10", "table": "1", "lost": {"4": "1", "3": "0.50"}}},
        date=date,
        place="Skatclub Herz Dame",
        currency="EUR",
        start=True,
    )
    hands = _play_round(tournament, 1, SKAT_GAMES, lambda seats, number: _skat_hand(seats, number, draw), user)
    # The demo's first series is shorter than a real one: its second starts with the tables unfinished.
    tournaments.round_start(tournament=tournament, number=2, confirm_unfinished=True)
    return hands


def _marias_cup(user: Any, date: datetime.date, draw: random.Random) -> int:
    tournament = tournaments.tournament_create(
        owner=user,
        game="marias",
        name=MARIAS_NAME,
        players=MARIAS_PLAYERS,
        rounds=2,
        options={"hands": MARIAS_HANDS, "fees": {"entry": "100"}, "prizes": "top3"},
        date=date,
        place="U Zlatého tygra",
        currency="CZK",
        start=True,
    )

    def hand(seats: list[str], number: int) -> dict[str, Any]:
        declarer, partner = draw.sample(seats, 2)
        return draw.choice(marias_hands(declarer, partner))

    hands = _play_round(tournament, 1, MARIAS_HANDS, hand, user)
    tournaments.round_start(tournament=tournament, number=2)
    hands += _play_round(tournament, 2, MARIAS_HANDS, hand, user)
    tournaments.tournament_finish(tournament=tournament)
    return hands


def _play_round(
    tournament: Tournament, number: int, count: int, hand: Callable[[list[str], int], dict[str, Any]], user: Any
) -> int:
    """``count`` hands at every table of round ``number``, entered by the organiser."""
    tables = TournamentTable.objects.filter(round__tournament=tournament, round__number=number).select_related("table")
    recorded = 0
    for seated in tables.order_by("number"):
        seats = list(seated.table.seat_names)
        for index in range(count):
            services.hand_record(table=seated.table, hand=hand(seats, index), by=user)
            recorded += 1
    return recorded


def _skat_hand(seats: list[str], number: int, draw: random.Random) -> dict[str, Any]:
    """An everyday Skat game; at four seats the dealer (in turn) sits out and never declares."""
    dealer = seats[number % len(seats)] if len(seats) == 4 else None
    declarer = draw.choice([seat for seat in seats if seat != dealer])
    game = draw.choice(
        [
            {"contract": "grand", "matadors": 1, "declarer_points": 75},
            {"contract": "grand", "matadors": 2, "declarer_points": 52},
            {"contract": "clubs", "matadors": 2, "declarer_points": 68},
            {"contract": "spades", "matadors": 1, "declarer_points": 61},
            {"contract": "hearts", "matadors": 1, "declarer_points": 44},
            {"contract": "diamonds", "matadors": 3, "declarer_points": 90},
            {"contract": "null", "won": True},
            {"contract": "null", "won": False},
        ]
    )
    return {**({"dealer": dealer} if dealer else {}), "declarer": declarer, **game}
