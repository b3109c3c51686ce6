"""The statistics sheet of the books' spreadsheets (``ledger.export``: an evening's, a circle's, a scorekeeper's
evenings): one row per player who does not hide, over the scope's counted evenings. Added after the books' own
sheets through ``ledger.hooks.spreadsheet_sheets``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.db.models import Count, F, Max, Min, Q, QuerySet
from django.utils.translation import gettext as _

from ledger.export import Cell, Scope
from ledger.models import Posting, amount_sum, exact_total
from ledger.stats.documents import with_sides
from ledger.stats.scope import counted_postings


def statistics_rows(scope: Scope) -> Iterator[list[Cell]]:
    """The statistics sheet: per player who does not hide, over the scope's counted evenings."""
    yield [
        _("player"),
        _("evenings"),
        _("hands"),
        _("net"),
        _("hands declared"),
        _("declared and won"),
        _("biggest win"),
        _("biggest loss"),
    ]
    postings = counted_postings().filter(hand__table__evening__in=scope.evenings, player__hide_stats=False)
    for row in season_rows(postings):
        yield [
            row["player"],
            row["evenings"],
            row["hands"],
            row["net"],
            row["declared"],
            row["declared_won"],
            row["biggest_win"],
            row["biggest_loss"],
        ]


def sheets(_event: None) -> dict[str, Any]:
    """The sheets the statistics add to the books' spreadsheets (``hooks.spreadsheet_sheets``)."""
    return {"statistics": statistics_rows}


def season_rows(postings: QuerySet[Posting]) -> list[dict[str, Any]]:
    """Per player with postings among ``postings`` (counted ones, filtered by the caller), best net first: evenings,
    hands, net, hands declared and won, biggest win and loss. One grouped query (the export's statistics sheet)."""
    declared = Q(declarer_name=F("player__name"))
    rows = (
        with_sides(postings)
        .order_by()
        .values("player__name")
        .annotate(
            evening_count=Count("hand__table__evening", distinct=True),
            hand_count=Count("pk"),
            total=amount_sum(),
            declared_count=Count("pk", filter=declared),
            declared_won=Count("pk", filter=declared & Q(amount__gt=0)),
            most=Max("amount"),
            least=Min("amount"),
        )
    )
    table = [
        {
            "player": row["player__name"],
            "evenings": row["evening_count"],
            "hands": row["hand_count"],
            "net": exact_total(row["total"]),
            "declared": row["declared_count"],
            "declared_won": row["declared_won"],
            "biggest_win": exact_total(row["most"]),
            "biggest_loss": exact_total(row["least"]),
        }
        for row in rows
    ]
    return sorted(table, key=lambda row: (-row["net"], row["player"]))
