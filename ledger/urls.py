from django.urls import path

from ledger import views
from ledger.views import circles, tournament_live
from ledger.views import stats as stats_views
from ledger.views import tournaments as tournament_views

app_name = "ledger"

urlpatterns = [
    path("evenings/", views.evening_list, name="evening_list"),
    path("evenings/new/", views.evening_create, name="evening_create"),
    path("evenings/again/", views.evening_again, name="evening_again"),
    path("evenings/<int:evening_id>/", views.evening_detail, name="evening_detail"),
    path("evenings/<int:evening_id>/share/", views.evening_share, name="evening_share"),
    path(
        "evenings/<int:evening_id>/scorekeepers/", views.evening_scorekeeper_invite, name="evening_scorekeeper_invite"
    ),
    path(
        "evenings/<int:evening_id>/scorekeepers/remove/",
        views.evening_scorekeeper_remove,
        name="evening_scorekeeper_remove",
    ),
    path("invitations/<int:invitation_id>/accept/", views.invitation_accept, name="invitation_accept"),
    path("invitations/<int:invitation_id>/decline/", views.invitation_decline, name="invitation_decline"),
    path("evenings/<int:evening_id>/tables/new/", views.table_create, name="table_create"),
    path("tables/<int:table_id>/", views.table_detail, name="table_detail"),
    path("tables/<int:table_id>/form/", views.hand_form, name="hand_form"),
    path("tables/<int:table_id>/hands/", views.hand_create, name="hand_create"),
    path("tables/<int:table_id>/undo/", views.hand_undo, name="hand_undo"),
    path("tables/<int:table_id>/hands/queued/", views.hand_queued, name="hand_queued"),
    path("offline/<str:name>.js", views.pricing_worker, name="pricing_worker"),
    path("offline/<str:name>", views.pricing_bundle, name="pricing_bundle"),
    path("hands/<int:hand_id>/edit/", views.hand_edit, name="hand_edit"),
    path("hands/<int:hand_id>/void/", views.hand_void, name="hand_void"),
    path("hands/<int:hand_id>/restore/", views.hand_restore, name="hand_restore"),
    path("s/<str:token>/", views.shared_evening, name="shared_evening"),
    # Push connections (ledger/push.py): every path ending in /stream/ goes to the ASGI server (docs/deploy.md).
    # An async view: django-stubs types path() for synchronous views only.
    path("s/<str:token>/stream/", views.shared_stream, name="shared_stream"),  # type: ignore[arg-type]
    path("evenings/<int:evening_id>/settlement/", views.evening_settlement, name="evening_settlement"),
    path("evenings/<int:evening_id>/reopen/", views.evening_reopen, name="evening_reopen"),
    path("evenings/<int:evening_id>/summary.pdf", views.evening_summary_pdf, name="evening_summary_pdf"),
    path("transfers/<int:transfer_id>/paid/", views.transfer_mark_paid, name="transfer_mark_paid"),
    path("transfers/<int:transfer_id>/unpaid/", views.transfer_mark_unpaid, name="transfer_mark_unpaid"),
    path("players/<int:player_id>/", views.player_edit, name="player_edit"),
    path("games/<str:game>/rules/", views.game_rules, name="game_rules"),
    path("tables/<int:table_id>/rules/", views.table_rules, name="table_rules"),
    # Circles of regulars (issue 19)
    path("circles/", circles.circle_list, name="circle_list"),
    path("circles/new/", circles.circle_create, name="circle_create"),
    path("circles/<int:circle_id>/", circles.circle_detail, name="circle_detail"),
    path("circles/<int:circle_id>/evening/", circles.circle_evening, name="circle_evening"),
    path("circles/<int:circle_id>/members/", circles.circle_member_add, name="circle_member_add"),
    path(
        "circles/<int:circle_id>/members/<int:player_id>/remove/",
        circles.circle_member_remove,
        name="circle_member_remove",
    ),
    path(
        "circles/<int:circle_id>/members/<int:player_id>/link/", circles.circle_member_link, name="circle_member_link"
    ),
    path("circles/<int:circle_id>/scorekeepers/", circles.circle_scorekeeper_add, name="circle_scorekeeper_add"),
    path(
        "circles/<int:circle_id>/scorekeepers/remove/",
        circles.circle_scorekeeper_remove,
        name="circle_scorekeeper_remove",
    ),
    path("circles/<int:circle_id>/tab/settle/", circles.circle_tab_settle, name="circle_tab_settle"),
    path("circles/<int:circle_id>/tab.pdf", circles.circle_tab_pdf, name="circle_tab_pdf"),
    path("circles/<int:circle_id>/pot/", circles.circle_pot, name="circle_pot"),
    path("circles/<int:circle_id>/settings/", circles.circle_settings, name="circle_settings"),
    path("circles/<int:circle_id>/pot/<int:entry_id>/paid/", circles.circle_pot_paid, name="circle_pot_paid"),
    path(
        "circle-transfers/<int:transfer_id>/paid/", circles.circle_transfer_mark_paid, name="circle_transfer_mark_paid"
    ),
    path(
        "circle-transfers/<int:transfer_id>/unpaid/",
        circles.circle_transfer_mark_unpaid,
        name="circle_transfer_mark_unpaid",
    ),
    path("m/<str:token>/", circles.circle_member_page, name="circle_member_page"),
    path("m/<str:token>/hide/", circles.circle_member_hide, name="circle_member_hide"),
    path("evenings/<int:evening_id>/counted/", circles.evening_counted, name="evening_counted"),
    path("players/<int:player_id>/stats/", stats_views.player_stats, name="player_stats"),
    path("circles/<int:circle_id>/stats/", stats_views.circle_stats, name="circle_stats"),
    path("circles/<int:circle_id>/export.xlsx", stats_views.circle_export, name="circle_export_xlsx"),
    path(
        "circles/<int:circle_id>/export/<str:sheet>.csv",
        stats_views.circle_export,
        {"extension": "csv"},
        name="circle_export_csv",
    ),
    path("evenings/<int:evening_id>/export.xlsx", stats_views.evening_export, name="evening_export_xlsx"),
    path(
        "evenings/<int:evening_id>/export/<str:sheet>.csv",
        stats_views.evening_export,
        {"extension": "csv"},
        name="evening_export_csv",
    ),
    path("evenings/export.xlsx", stats_views.evenings_export, name="evenings_export_xlsx"),
    path(
        "evenings/export/<str:sheet>.csv", stats_views.evenings_export, {"extension": "csv"}, name="evenings_export_csv"
    ),
    # Tournaments (issue 20): the organiser's pages, the door's check-in, the table phone's link
    path("tournaments/", tournament_views.tournament_list, name="tournament_list"),
    path("tournaments/new/", tournament_views.tournament_create, name="tournament_create"),
    path("tournaments/<int:tournament_id>/", tournament_views.tournament_detail, name="tournament_detail"),
    path(
        "tournaments/<int:tournament_id>/players/",
        tournament_views.tournament_entrant_add,
        name="tournament_entrant_add",
    ),
    path(
        "tournaments/<int:tournament_id>/players/<int:entrant_id>/check-in/",
        tournament_views.tournament_check_in,
        name="tournament_check_in",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/",
        tournament_views.tournament_round_start,
        name="tournament_round_start",
    ),
    path(
        "tournaments/<int:tournament_id>/tables/<int:table_id>/link/",
        tournament_views.tournament_table_link_renew,
        name="tournament_table_link_renew",
    ),
    path("tournaments/<int:tournament_id>/finish/", tournament_views.tournament_finish, name="tournament_finish"),
    path(
        "tournaments/<int:tournament_id>/standings-link/",
        tournament_views.tournament_standings_link,
        name="tournament_standings_link",
    ),
    path("tournaments/checkin/<str:token>/", tournament_views.tournament_checkin, name="tournament_checkin"),
    path(
        "tournaments/checkin/<str:token>/<int:entrant_id>/",
        tournament_views.tournament_checkin_entrant,
        name="tournament_checkin_entrant",
    ),
    path("t/<str:token>/", tournament_views.tournament_sheet, name="tournament_sheet"),
    # Live standings, the projector and the printouts (issue 20)
    path("r/<str:share_token>/", tournament_live.tournament_live, name="tournament_live"),
    path("r/<str:share_token>/stream/", tournament_live.tournament_stream, name="tournament_stream"),  # type: ignore[arg-type]
    path(
        "tournaments/<int:tournament_id>/projector/",
        tournament_live.tournament_projector,
        name="tournament_projector",
    ),
    path("tournaments/<int:tournament_id>/draw.pdf", tournament_live.tournament_draw_pdf, name="tournament_draw_pdf"),
    path(
        "tournaments/<int:tournament_id>/sheets.pdf",
        tournament_live.tournament_sheets_pdf,
        name="tournament_sheets_pdf",
    ),
    path(
        "tournaments/<int:tournament_id>/results.pdf",
        tournament_live.tournament_results_pdf,
        name="tournament_results_pdf",
    ),
]
