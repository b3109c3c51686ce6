"""What the tournament's pages, API and live lines read: the current round and its tables, the registered players,
the tables still playing, the standings and prizes, and the message the standings' viewers are sent.

Read only: a table whose result is stale is recomputed for the answer, not stored (``results.with_results``); the
stored results move on after each change (``services.refresh_results``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import Count, QuerySet, Sum
from django.utils.translation import ngettext

from ledger.models import Hand, Table
from ledger.tournaments.formats import planned_hands, tournament_format
from ledger.tournaments.models import Entrant, Round, Tournament, TournamentTable
from ledger.tournaments.results import with_results
from rules import tournament as rt

# --------------------------------------------------------------------------------------------------------------
# Rounds, tables and players


def rounds_played(tournament: Tournament) -> int:
    """Rounds started so far (the one being played among them)."""
    return Round.objects.filter(tournament=tournament).count()


def current_round(tournament: Tournament) -> Round | None:
    """The newest round (the one being played, or the last one), None before the first."""
    return Round.objects.filter(tournament=tournament).order_by("-number").first()


def round_tables(played: Round | None) -> list[TournamentTable]:
    """A round's tables by number, each with its books' table (seats, game); none without a round."""
    if played is None:
        return []
    return list(TournamentTable.objects.filter(round=played).select_related("table").order_by("number"))


def entrants(tournament: Tournament) -> QuerySet[Entrant]:
    """The registered players by start number, with their names."""
    return Entrant.objects.filter(tournament=tournament).select_related("player").order_by("number")


def player_names(tournament: Tournament, *, checked_in: bool | None = None) -> list[str]:
    """The registered players' names by start number (``checked_in``: only those who are, or are not, here)."""
    found = Entrant.objects.filter(tournament=tournament)
    if checked_in is not None:
        found = found.filter(checked_in=checked_in)
    return list(found.order_by("number").values_list("player__name", flat=True))


def tournament_of(table: Table) -> Tournament | None:
    """The tournament a table belongs to, if any."""
    found = TournamentTable.objects.filter(table=table).select_related("round__tournament").first()
    return None if found is None else found.round.tournament


def tournament_id_of(table_id: int) -> int | None:
    """The id of the tournament the books' table ``table_id`` belongs to, if any: one small query."""
    found: int | None = (
        TournamentTable.objects.filter(table_id=table_id).values_list("round__tournament_id", flat=True).first()
    )
    return found


def counted_hands(table_ids: Sequence[int]) -> dict[int, list[Hand]]:
    """The counted hands of these tables, in order: one query for a whole round."""
    found: dict[int, list[Hand]] = {}
    for hand in Hand.objects.filter(table_id__in=table_ids, status=Hand.Status.COUNTED).order_by("number"):
        found.setdefault(hand.table_id, []).append(hand)
    return found


@dataclass(frozen=True)
class Unfinished:
    """A table of the running round with fewer hands than planned (``planned_hands``)."""

    number: int
    played: int
    planned: int

    def __str__(self) -> str:
        text = ngettext(
            "table %(number)s (%(played)s of %(planned)s hand)",
            "table %(number)s (%(played)s of %(planned)s hands)",
            self.planned,
        )
        return text % {
            "number": self.number,
            "played": self.played,
            "planned": self.planned,
        }


def unfinished_tables(tournament: Tournament, played: Round | None = None) -> list[Unfinished]:
    """The tables of the tournament's newest round (or ``played``) with fewer counted hands than planned."""
    played = played or current_round(tournament)
    if played is None:
        return []
    tables = round_tables(played)
    counts = dict(
        Hand.objects.filter(table_id__in=[table.table_id for table in tables], status=Hand.Status.COUNTED)
        .values_list("table_id")
        .annotate(count=Count("id"))
        .values_list("table_id", "count")
    )
    chosen = tournament_format(tournament)
    found = []
    for table in tables:
        planned = planned_hands(tournament, len(table.table.seat_names), chosen)
        if counts.get(table.table_id, 0) < planned:
            found.append(Unfinished(table.number, counts.get(table.table_id, 0), planned))
    return found


# --------------------------------------------------------------------------------------------------------------
# Standings


def standings(tournament: Tournament) -> list[rt.Standing]:
    """The standings over every series or round played so far, best first (``rules.tournament.standings``)."""
    rounds: list[rt.PlayerRound] = []
    tables, _stale = with_results(tournament)
    for table in tables:
        for name, row in table.result.items():
            rounds.append(
                rt.PlayerRound(
                    player=name,
                    points=Decimal(row["points"]),
                    won=row["won"],
                    lost=row["lost"],
                    money=Decimal(row["money"]),
                    fees=Decimal(row["fees"]),
                )
            )
    registered = player_names(tournament)
    seen = {row.player for row in rounds}
    # A registered player without a table yet is listed at nothing, and with no round played (rt.standings
    # counts each row given as a round).
    unseated = {name for name in registered if name not in seen}
    rounds += [rt.PlayerRound(player=name, points=Decimal(0)) for name in sorted(unseated)]
    return [dataclasses.replace(row, rounds=0) if row.player in unseated else row for row in rt.standings(rounds)]


def prize_list(tournament: Tournament, table: Sequence[rt.Standing]) -> dict[str, Decimal]:
    """The prizes by the standings ``table``: the pool of the fees (``rules.tournament.prize_pool``) paid out by
    the format's scheme, each a whole number of the tournament's coin."""
    chosen = tournament_format(tournament)
    seatings = sum(row.rounds for row in table)
    lost_money = sum((row.fees for row in table), Decimal(0))
    pool = rt.prize_pool(chosen.fees, len(table), seatings=seatings, lost_money=lost_money)
    if not table or not pool:
        return {}
    return rt.prizes(
        [row.player for row in table],
        pool,
        chosen.prizes,
        tournament.coin,
        ranks={row.player: row.rank for row in table},
    )


def topic(tournament_id: int) -> str:
    """The push topic of a tournament's standings viewers (the projector, the players' phones)."""
    return f"tournament:{tournament_id}"


def standings_rows(tournament: Tournament) -> list[dict[str, object]]:
    return [row.as_dict() for row in standings(tournament)]


def standings_message(tournament: Tournament) -> dict[str, Any]:
    """What the standings' viewers are sent (pushed, and first on every live line): the rows, and the round the
    projector's clock counts down (None before the first), so that a new round reaches them as a hand does."""
    current = current_round(tournament)
    version = standings_version(tournament)  # read first: standings read after it are as new or newer
    return {
        "version": version,
        "standings": standings_rows(tournament),
        "round": None
        if current is None
        else {
            "number": current.number,
            "rounds": tournament.rounds,
            "ends_at": None if current.ends_at is None else current.ends_at.isoformat(timespec="seconds"),
        },
        "status": tournament.status,
    }


def standings_version(tournament: Tournament) -> list[int]:
    """The version of the books the standings are drawn from: rounds started, the tables' revisions summed (every
    change to a hand raises its table's), finished or not. It only grows, so a viewer keeps the newest message of
    two published in the other order (two tables storing a hand at once)."""
    books = TournamentTable.objects.filter(round__tournament=tournament).aggregate(
        rounds=Count("round", distinct=True), revisions=Sum("table__revision")
    )
    finished = int(tournament.status == Tournament.Status.FINISHED)
    return [int(books["rounds"] or 0), int(books["revisions"] or 0), finished]
