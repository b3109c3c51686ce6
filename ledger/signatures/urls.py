"""The signatures' pages, in the ``signatures:`` namespace (included by ``config/urls.py``).

Signing at a table lies under ``/tables/<id>/``, which a tournament table's phone may open (``table_guest``)."""

from django.urls import URLPattern, URLResolver, path

from ledger.signatures import views

app_name = "signatures"

urlpatterns: list[URLPattern | URLResolver] = [
    path("tables/<int:table_id>/sign/", views.table_sign, name="table_sign"),
    path("evenings/<int:evening_id>/signatures/", views.evening_sign, name="evening_sign"),
]
