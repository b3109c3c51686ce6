from django.urls import path

from ledger import views

app_name = "ledger"

urlpatterns = [
    path("evenings/", views.evening_list, name="evening_list"),
    path("evenings/new/", views.evening_create, name="evening_create"),
    path("evenings/<int:evening_id>/", views.evening_detail, name="evening_detail"),
    path("evenings/<int:evening_id>/share/", views.evening_share, name="evening_share"),
    path("evenings/<int:evening_id>/scorekeepers/", views.evening_scorekeeper_add, name="evening_scorekeeper_add"),
    path("evenings/<int:evening_id>/tables/new/", views.table_create, name="table_create"),
    path("tables/<int:table_id>/", views.table_detail, name="table_detail"),
    path("tables/<int:table_id>/form/", views.hand_form, name="hand_form"),
    path("tables/<int:table_id>/hands/", views.hand_create, name="hand_create"),
    path("tables/<int:table_id>/undo/", views.hand_undo, name="hand_undo"),
    path("hands/<int:hand_id>/edit/", views.hand_edit, name="hand_edit"),
    path("hands/<int:hand_id>/void/", views.hand_void, name="hand_void"),
    path("s/<str:token>/", views.shared_evening, name="shared_evening"),
]
