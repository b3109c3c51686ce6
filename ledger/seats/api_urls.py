"""The seats' API routes, in the ``api:`` namespace (``ledger/api_urls.py`` includes them)."""

from django.urls import URLPattern, URLResolver, path

from ledger.seats.api import SeatAllowApi, SeatClaimApi, SeatRefuseApi, SeatReleaseApi, TableSeatsApi

urlpatterns: list[URLPattern | URLResolver] = [
    path("tables/<int:table_id>/seats/", TableSeatsApi.as_view(), name="table_seats"),
    path("tables/<int:table_id>/seats/allow/", SeatAllowApi.as_view(), name="seat_allow"),
    path("tables/<int:table_id>/seats/refuse/", SeatRefuseApi.as_view(), name="seat_refuse"),
    path("tables/<int:table_id>/seats/release/", SeatReleaseApi.as_view(), name="seat_release"),
    path("seats/claim/", SeatClaimApi.as_view(), name="seat_claim"),
]
