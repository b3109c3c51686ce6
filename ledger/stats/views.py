"""Statistics pages and spreadsheet downloads: a player's statistics, an evening's and a scorekeeper's evenings'
CSV and XLSX exports (a circle's are ``ledger.stats.circle_views``).

Access as everywhere (``ledger.access``, ``ledger.stats.access``): a player's statistics for their owner and the
scorekeepers of a circle they belong to; an evening's export for its scorekeepers; anybody else 404.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language

from ledger import export
from ledger.access import evening_for_scorekeeper
from ledger.models import Game
from ledger.stats import selectors
from ledger.stats.access import player_for_reader
from ledger.stats.scope import FilterError, Filters, filters_from


def read_filters(request: HttpRequest) -> tuple[Filters, FilterError | None]:
    """The game and dates the page asks for; on a parameter it cannot read, no filters and the error to show."""
    try:
        return filters_from(request.GET), None
    except FilterError as error:
        return Filters(), error


def filter_context(request: HttpRequest, filters: Filters, error: FilterError | None) -> dict[str, Any]:
    """What ``_stats_filters.html`` shows: the games, what was asked, the error beside its field."""
    return {
        "games": Game.choices,
        "filters": filters,
        "asked": {key: request.GET.get(key, "") for key in ("game", "from", "to")},
        "filter_error": error,
        "query": f"?{urlencode(filters.as_query())}" if filters.as_query() else "",
    }


@login_required
def player_stats(request: HttpRequest, player_id: int) -> HttpResponse:
    player = player_for_reader(request.user, player_id)
    filters, error = read_filters(request)
    context = filter_context(request, filters, error)
    context.update({"player": player, "stats": selectors.player_stats(player, **filters.as_kwargs())})
    return render(request, "ledger/stats/player_stats.html", context, status=400 if error else 200)


# --------------------------------------------------------------------------------------------------------------
# Downloads


def download(request: HttpRequest, scope: export.Scope, sheet: str, extension: str) -> HttpResponse:
    """The scope's workbook, or one of its sheets as CSV in the reader's CSV format (``?csv=`` another)."""
    rows = export.sheet_rows()
    if extension == "xlsx":
        response = HttpResponse(export.xlsx_bytes(scope), content_type=export.XLSX_TYPE)
    elif sheet in rows:
        form = export.csv_format(get_language(), request.GET.get("csv"))
        response = HttpResponse(export.csv_text(rows[sheet](scope), form), content_type=export.CSV_TYPE)
    else:
        raise Http404
    response["Content-Disposition"] = f'attachment; filename="{scope.filename(sheet, extension)}"'
    return response


def dated(request: HttpRequest) -> Filters:
    """The dates a download asks for (404 on dates the page could not have made)."""
    filters, error = read_filters(request)
    if error is not None:
        raise Http404  # a download link is made by the page, with dates it could read
    return filters


@login_required
def evening_export(request: HttpRequest, evening_id: int, sheet: str = "all", extension: str = "xlsx") -> HttpResponse:
    evening = evening_for_scorekeeper(request.user, evening_id)
    return download(request, export.Scope.of_evening(evening), sheet, extension)


@login_required
def evenings_export(request: HttpRequest, sheet: str = "all", extension: str = "xlsx") -> HttpResponse:
    """Every evening the user keeps score of, within the dates asked (all of them without)."""
    filters = dated(request)
    return download(request, export.Scope.of_user(request.user, filters.since, filters.until), sheet, extension)
