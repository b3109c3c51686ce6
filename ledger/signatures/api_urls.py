"""The signatures' API routes, in the ``api:`` namespace (``ledger/api_urls.py`` includes them)."""

from django.urls import URLPattern, URLResolver, path

from ledger.api.method_routes import by_method
from ledger.signatures.api import EveningSignatureCreateApi, EveningSignatureListApi, SeatSignatureApi

urlpatterns: list[URLPattern | URLResolver] = [
    path(
        "evenings/<int:evening_id>/signatures/",
        by_method(get=EveningSignatureListApi, post=EveningSignatureCreateApi),
        name="evening_signatures",
    ),
    path("tables/<int:table_id>/signature/", SeatSignatureApi.as_view(), name="seat_signature"),
]
