"""The confirmations' pages, in the ``confirmations:`` namespace (included by ``config/urls.py``)."""

from django.urls import path

from ledger.confirmations import views

app_name = "confirmations"

urlpatterns = [
    path("confirm/tables/<int:table_id>/", views.table_confirmations, name="table"),
    path("confirm/hands/<int:hand_id>/", views.hand_answer, name="answer"),
]
