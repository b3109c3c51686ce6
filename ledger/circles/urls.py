"""The circles' pages, in the ``ledger:`` namespace (``ledger/urls.py`` includes them)."""

from django.urls import path

from ledger.circles import stats_views, views

urlpatterns = [
    path("circles/", views.circle_list, name="circle_list"),
    path("circles/new/", views.circle_create, name="circle_create"),
    path("circles/<int:circle_id>/", views.circle_detail, name="circle_detail"),
    path("circles/<int:circle_id>/evening/", views.circle_evening, name="circle_evening"),
    path("circles/<int:circle_id>/members/", views.circle_member_add, name="circle_member_add"),
    path(
        "circles/<int:circle_id>/members/<int:player_id>/remove/",
        views.circle_member_remove,
        name="circle_member_remove",
    ),
    path("circles/<int:circle_id>/members/<int:player_id>/link/", views.circle_member_link, name="circle_member_link"),
    path("circles/<int:circle_id>/scorekeepers/", views.circle_scorekeeper_add, name="circle_scorekeeper_add"),
    path(
        "circles/<int:circle_id>/scorekeepers/remove/",
        views.circle_scorekeeper_remove,
        name="circle_scorekeeper_remove",
    ),
    path("circles/<int:circle_id>/tab/settle/", views.circle_tab_settle, name="circle_tab_settle"),
    path("circles/<int:circle_id>/tab.pdf", views.circle_tab_pdf, name="circle_tab_pdf"),
    path("circles/<int:circle_id>/pot/", views.circle_pot, name="circle_pot"),
    path("circles/<int:circle_id>/settings/", views.circle_settings, name="circle_settings"),
    path("circles/<int:circle_id>/pot/<int:entry_id>/paid/", views.circle_pot_paid, name="circle_pot_paid"),
    path("circle-transfers/<int:transfer_id>/paid/", views.circle_transfer_mark_paid, name="circle_transfer_mark_paid"),
    path(
        "circle-transfers/<int:transfer_id>/unpaid/",
        views.circle_transfer_mark_unpaid,
        name="circle_transfer_mark_unpaid",
    ),
    path("m/<str:token>/", views.circle_member_page, name="circle_member_page"),
    path("m/<str:token>/hide/", views.circle_member_hide, name="circle_member_hide"),
    path("evenings/<int:evening_id>/counted/", views.evening_counted, name="evening_counted"),
    # The circle's statistics and spreadsheets (ledger.stats over the circle's evenings)
    path("circles/<int:circle_id>/stats/", stats_views.circle_stats, name="circle_stats"),
    path("circles/<int:circle_id>/export.xlsx", stats_views.circle_export, name="circle_export_xlsx"),
    path(
        "circles/<int:circle_id>/export/<str:sheet>.csv",
        stats_views.circle_export,
        {"extension": "csv"},
        name="circle_export_csv",
    ),
]
