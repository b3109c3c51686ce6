from django.urls import include, path

from ledger import views

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
    # The offline entry: the door for queued hands, the pricing worker and its bundle
    path("", include("ledger.offline.urls")),
    path("hands/<int:hand_id>/edit/", views.hand_edit, name="hand_edit"),
    path("hands/<int:hand_id>/void/", views.hand_void, name="hand_void"),
    path("hands/<int:hand_id>/restore/", views.hand_restore, name="hand_restore"),
    path("s/<str:token>/", views.shared_evening, name="shared_evening"),
    path("", include("ledger.live.urls")),  # the share link's live line
    path("evenings/<int:evening_id>/settlement/", views.evening_settlement, name="evening_settlement"),
    path("evenings/<int:evening_id>/reopen/", views.evening_reopen, name="evening_reopen"),
    path("evenings/<int:evening_id>/summary.pdf", views.evening_summary_pdf, name="evening_summary_pdf"),
    path("transfers/<int:transfer_id>/paid/", views.transfer_mark_paid, name="transfer_mark_paid"),
    path("transfers/<int:transfer_id>/unpaid/", views.transfer_mark_unpaid, name="transfer_mark_unpaid"),
    path("players/<int:player_id>/", views.player_edit, name="player_edit"),
    path("games/<str:game>/rules/", views.game_rules, name="game_rules"),
    path("tables/<int:table_id>/rules/", views.table_rules, name="table_rules"),
    path("", include("ledger.circles.urls")),  # circles of regulars
    path("", include("ledger.stats.urls")),  # statistics and spreadsheet downloads
    # Tournaments: the organiser's pages, the door's check-in, the table phone's link, the live standings, the
    # projector and the printouts
    path("", include("ledger.tournaments.urls")),
]
