"""The offline entry's routes in the ``ledger:`` namespace (included by ``ledger/urls.py``): the door for queued
hands, the pricing worker and the bundle it runs."""

from django.urls import path

from ledger.offline import views

urlpatterns = [
    path("tables/<int:table_id>/hands/queued/", views.hand_queued, name="hand_queued"),
    path("offline/<str:name>.js", views.pricing_worker, name="pricing_worker"),
    path("offline/<str:name>", views.pricing_bundle, name="pricing_bundle"),
]
