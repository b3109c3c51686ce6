"""The confirmations' pages, in the ``confirmations:`` namespace (included by ``config/urls.py``)."""

from django.urls import path

from ledger.confirmations import views

app_name = "confirmations"

# Under the table's and the hands' paths: a tournament table's phone is confined to those (tournaments.table_guest).
urlpatterns = [
    path("tables/<int:table_id>/confirmations/", views.table_confirmations, name="table"),
    path("hands/<int:hand_id>/confirm/", views.hand_answer, name="answer"),
]
