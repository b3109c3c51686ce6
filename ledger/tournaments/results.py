"""A tournament table's result: each seat's points, games won and lost, money and fees, from the table's counted
hands, as its game scores a tournament (``rules.tournament.play``: a list of points, or placement points of the
table's money).

Each ``TournamentTable`` keeps its result as of its table's revision (``result``, ``result_revision``). A table whose
revision moved on since is stale: ``with_results`` recomputes the stale ones (two queries for all of them) without
storing them, for the pages that only read; ``services.refresh_results`` stores them, after a change.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from ledger.models import Hand, Posting
from ledger.tournaments.formats import Format, tournament_format
from ledger.tournaments.models import Tournament, TournamentTable
from rules import tournament as rt


def table_result(
    table: TournamentTable, hands: Sequence[Hand], balances: Mapping[str, Decimal], chosen: Format
) -> dict[str, Any]:
    """One table's result so far, per seat (JSON): ``points`` (Skat: Seeger-Fabian list points; Mariáš and
    Šnapser: placement points of the money), ``won``/``lost`` (games as declarer), ``money`` (the table's balance)
    and ``fees`` (Skat: the lost-game fees)."""
    seats = list(table.table.seat_names)
    if rt.play(table.table.game).list_points:
        rows = rt.skat_series([_list_hand(hand) for hand in hands], seats, chosen.fees)
        return {
            name: {"points": str(row.points), "won": row.won, "lost": row.lost, "money": str(balances.get(name, 0)),
                   "fees": str(row.lost_fee)}
            for name, row in rows.items()
        }  # fmt: skip
    won: dict[str, int] = defaultdict(int)
    lost: dict[str, int] = defaultdict(int)
    for hand in hands:
        declarer = hand.document.get("declarer")
        if declarer in seats:
            (won if hand.result.get("won") else lost)[declarer] += 1
    money = {name: balances.get(name, Decimal(0)) for name in seats}
    placement = _placement(chosen.placement, len(seats))
    points = rt.placement_points(money, placement) if hands else dict.fromkeys(seats, Decimal(0))
    return {
        name: {
            "points": str(points[name]),
            "won": won[name],
            "lost": lost[name],
            "money": str(money[name]),
            "fees": "0",
        }
        for name in seats
    }


def _placement(scheme: list[Decimal] | None, seats: int) -> list[Decimal] | None:
    """The placement points for a table of ``seats``: the format's (given for four seats: a shorter table takes
    the same line from the best place to the worst), or None for ``rules.tournament.placement_scheme``."""
    if scheme is None:
        return None
    if len(scheme) == seats:
        return scheme
    return list(rt.placement_scheme(seats, top=scheme[0], bottom=scheme[-1]))


def _list_hand(hand: Hand) -> rt.SkatHandResult:
    declarer = hand.document.get("declarer")
    score = {name: int(points) for name, points in (hand.result.get("score") or {}).items()}
    if not declarer:
        return rt.SkatHandResult(score)
    return rt.SkatHandResult(score, declarer, bool(hand.result.get("won")))


def with_results(tournament: Tournament) -> tuple[list[TournamentTable], list[TournamentTable]]:
    """Every table of the tournament with its result as of its revision, and those of them that were stale: these
    are recomputed here from their counted hands (two queries for all of them), not stored. One query when none
    is stale, three otherwise."""
    # Only what the results need: after every hand this reads all the tables, and their rules, the tournament's
    # plan and the hands' explanations are large JSON that nothing here reads.
    tables = list(
        TournamentTable.objects.filter(round__tournament=tournament)
        .select_related("table")
        .only("round_id", "number", "result", "result_revision", "table__revision", "table__seat_names", "table__game")
        .order_by("round__number", "number")
    )
    stale = [table for table in tables if table.result_revision != table.table.revision]
    if not stale:
        return tables, []
    chosen = tournament_format(tournament)
    ids = [table.table_id for table in stale]
    hands: dict[int, list[Hand]] = defaultdict(list)
    counted = Hand.objects.filter(table_id__in=ids, status=Hand.Status.COUNTED).only("table_id", "document", "result")
    for hand in counted.order_by("table_id", "number"):
        hands[hand.table_id].append(hand)
    balances: dict[int, dict[str, Decimal]] = defaultdict(dict)
    rows = Posting.objects.filter(hand__table_id__in=ids).counted().totals("hand__table_id", "player__name")
    for (table_id, name), amount in rows.items():
        balances[table_id][name] = amount
    for table in stale:
        table.result = table_result(table, hands[table.table_id], balances[table.table_id], chosen)
        table.result_revision = table.table.revision
    return tables, stale
