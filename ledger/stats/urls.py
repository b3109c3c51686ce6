"""The statistics' pages and the spreadsheet downloads (names in the ``ledger:`` namespace, included by
``ledger/urls.py``; a circle's are ``ledger.circles``')."""

from django.urls import path

from ledger.stats import views

urlpatterns = [
    path("players/<int:player_id>/stats/", views.player_stats, name="player_stats"),
    path("evenings/<int:evening_id>/export.xlsx", views.evening_export, name="evening_export_xlsx"),
    path(
        "evenings/<int:evening_id>/export/<str:sheet>.csv",
        views.evening_export,
        {"extension": "csv"},
        name="evening_export_csv",
    ),
    path("evenings/export.xlsx", views.evenings_export, name="evenings_export_xlsx"),
    path("evenings/export/<str:sheet>.csv", views.evenings_export, {"extension": "csv"}, name="evenings_export_csv"),
]
