"""A circle's statistics: its season page and its spreadsheet downloads, the statistics of ``ledger.stats`` over
the circle's evenings (the filters and the downloads are the statistics' own views)."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language

from ledger import export
from ledger.circles.access import circle_for_scorekeeper
from ledger.stats import selectors
from ledger.stats.views import dated, download, filter_context, read_filters


@login_required
def circle_stats(request: HttpRequest, circle_id: int) -> HttpResponse:
    circle = circle_for_scorekeeper(request.user, circle_id)
    filters, error = read_filters(request)
    context = filter_context(request, filters, error)
    context.update(
        {
            "circle": circle,
            "season": selectors.circle_stats(circle, **filters.as_kwargs()),
            "sheets": export.sheets(),
            "csv_format": export.csv_format(get_language()),
            "plain_query": f"?{urlencode({**filters.as_query(), 'csv': export.PLAIN.name})}",
        }
    )
    return render(request, "ledger/circles/circle_stats.html", context, status=400 if error else 200)


@login_required
def circle_export(request: HttpRequest, circle_id: int, sheet: str = "all", extension: str = "xlsx") -> HttpResponse:
    circle = circle_for_scorekeeper(request.user, circle_id)
    filters = dated(request)
    return download(request, export.Scope.of_circle(circle, filters.since, filters.until), sheet, extension)
