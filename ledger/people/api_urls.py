"""A person's API operations (included by ``ledger/api_urls.py``)."""

from django.urls import path

from ledger.people.api import ClaimRequestApi, MeApi

urlpatterns = [
    path("me/", MeApi.as_view(), name="me"),
    path("me/claims/", ClaimRequestApi.as_view(), name="me_claim_request"),
]
