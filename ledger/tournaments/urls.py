"""The tournaments' pages, under the ``ledger:`` namespace (``ledger/urls.py`` includes them)."""

from django.urls import path

from ledger.tournaments import live, pdf, views

urlpatterns = [
    # The organiser's pages, the door's check-in, the table phone's link
    path("tournaments/", views.tournament_list, name="tournament_list"),
    path("tournaments/new/", views.tournament_create, name="tournament_create"),
    path("tournaments/<int:tournament_id>/", views.tournament_detail, name="tournament_detail"),
    path(
        "tournaments/<int:tournament_id>/players/",
        views.tournament_entrant_add,
        name="tournament_entrant_add",
    ),
    path(
        "tournaments/<int:tournament_id>/players/<int:entrant_id>/check-in/",
        views.tournament_check_in,
        name="tournament_check_in",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/",
        views.tournament_round_start,
        name="tournament_round_start",
    ),
    path(
        "tournaments/<int:tournament_id>/tables/<int:table_id>/link/",
        views.tournament_table_link_renew,
        name="tournament_table_link_renew",
    ),
    path("tournaments/<int:tournament_id>/finish/", views.tournament_finish, name="tournament_finish"),
    path(
        "tournaments/<int:tournament_id>/standings-link/",
        views.tournament_standings_link,
        name="tournament_standings_link",
    ),
    path("tournaments/checkin/<str:token>/", views.tournament_checkin, name="tournament_checkin"),
    path(
        "tournaments/checkin/<str:token>/<int:entrant_id>/",
        views.tournament_checkin_entrant,
        name="tournament_checkin_entrant",
    ),
    path("t/<str:token>/", views.tournament_sheet, name="tournament_sheet"),
    # Live standings and the projector
    path("r/<str:share_token>/", live.tournament_live, name="tournament_live"),
    path("r/<str:share_token>/stream/", live.tournament_stream, name="tournament_stream"),  # type: ignore[arg-type]
    path(
        "tournaments/<int:tournament_id>/projector/",
        live.tournament_projector,
        name="tournament_projector",
    ),
    # The printouts
    path("tournaments/<int:tournament_id>/draw.pdf", pdf.tournament_draw_pdf, name="tournament_draw_pdf"),
    path(
        "tournaments/<int:tournament_id>/sheets.pdf",
        pdf.tournament_sheets_pdf,
        name="tournament_sheets_pdf",
    ),
    path(
        "tournaments/<int:tournament_id>/results.pdf",
        pdf.tournament_results_pdf,
        name="tournament_results_pdf",
    ),
]
