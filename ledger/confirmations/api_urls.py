"""The confirmations' API routes, in the ``api:`` namespace (``ledger/api_urls.py`` includes them)."""

from django.urls import path

from ledger.confirmations.api import ConfirmApi, ConfirmationsApi, DisputeApi

urlpatterns = [
    path("hands/<int:hand_id>/confirmations/", ConfirmationsApi.as_view(), name="hand_confirmations"),
    path("hands/<int:hand_id>/confirm/", ConfirmApi.as_view(), name="hand_confirm"),
    path("hands/<int:hand_id>/dispute/", DisputeApi.as_view(), name="hand_dispute"),
]
