"""A tournament's printouts (WeasyPrint, as ``ledger.pdf``), for the organiser only (anybody else gets 404):

- ``draw.pdf``: the seating of the current round with each table's score-sheet QR code;
- ``sheets.pdf``: a paper score sheet per table, for when a phone fails;
- ``results.pdf``: the standings with points, games won and lost, fees (and money), and the prizes.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from weasyprint import HTML

from ledger.qr import qr_svg
from ledger.tournaments import formats, selectors
from ledger.tournaments.access import tournament_for_owner
from ledger.tournaments.live import shown_row
from ledger.tournaments.models import Tournament
from rules import tournament as rt


def _pdf(request: HttpRequest, template: str, context: dict[str, Any], filename: str) -> HttpResponse:
    html = render_to_string(template, {**context, "printed_at": timezone.now()}, request=request)
    response = HttpResponse(HTML(string=html).write_pdf(), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


@login_required
def tournament_draw_pdf(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Who sits where in the current round: each table's number, its seats, the QR code of its score sheet."""
    tournament = tournament_for_owner(request.user, tournament_id)
    played = selectors.current_round(tournament)
    tables = []
    for table in selectors.round_tables(played):
        link = request.build_absolute_uri(reverse("ledger:tournament_sheet", args=[table.token]))
        label = f"{table.number}"
        tables.append({"number": table.number, "seats": table.table.seat_names, "link": link,
                       "qr": qr_svg(link, label=label, scale=3)})  # fmt: skip
    context = {"tournament": tournament, "round": played, "tables": tables}
    return _pdf(request, "ledger/tournaments/tournament_draw_pdf.html", context, f"talon-draw-{tournament.pk}.pdf")


@login_required
def tournament_sheets_pdf(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """A paper score sheet per table of the current round, for when a phone fails: the players as columns, a
    numbered row for each game of the series (Skat, by the table's size) or hand of the round."""
    tournament = tournament_for_owner(request.user, tournament_id)
    played = selectors.current_round(tournament)
    chosen = formats.tournament_format(tournament)
    sheets = []
    for table in selectors.round_tables(played):
        seats = table.table.seat_names
        count = formats.planned_hands(tournament, len(seats), chosen)
        sheets.append({"number": table.number, "seats": seats, "rows": range(1, count + 1)})
    context = {"tournament": tournament, "round": played, "sheets": sheets}
    return _pdf(request, "ledger/tournaments/tournament_sheets_pdf.html", context, f"talon-sheets-{tournament.pk}.pdf")


@login_required
def tournament_results_pdf(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The results list: the standings with points, games won and lost, fees (and money), and the prizes."""
    tournament = tournament_for_owner(request.user, tournament_id)
    table = selectors.standings(tournament)
    prizes = selectors.prize_list(tournament, table)
    chosen = formats.tournament_format(tournament)
    rows = [
        {
            **shown_row(row),
            "fees": row.fees,
            "dues": rt.player_dues(chosen.fees, seatings=row.rounds, lost_money=row.fees),
            "prize": prizes.get(row.player),
        }
        for row in table
    ]
    context = {
        "tournament": tournament,
        "round": selectors.current_round(tournament),
        "rows": rows,
        "for_money": chosen.for_money,
        "lost_fees": tournament.play.list_points,
        "fees": chosen.fees,
        "prize_total": sum(prizes.values(), Decimal(0)),
        "dues_total": sum((row["dues"] for row in rows), Decimal(0)),
        "finished": tournament.status == Tournament.Status.FINISHED,
    }
    return _pdf(
        request, "ledger/tournaments/tournament_results_pdf.html", context, f"talon-results-{tournament.pk}.pdf"
    )
