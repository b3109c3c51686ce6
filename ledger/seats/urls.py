"""The seats' pages, in the ``seats:`` namespace (included by ``config/urls.py``)."""

from django.urls import URLPattern, URLResolver, path

from ledger.seats import seat_views, streams, views

app_name = "seats"

urlpatterns: list[URLPattern | URLResolver] = [
    path("j/", views.join_code, name="join_code"),
    path("j/<str:code>/", views.join, name="join"),
    path("seat/<int:table_id>/", seat_views.seat_page, name="seat_page"),
    path("seat/<int:table_id>/hands/", seat_views.seat_record, name="seat_record"),
    path("seat/<int:table_id>/leave/", seat_views.seat_leave, name="seat_leave"),
    path("tables/<int:table_id>/seats/", views.table_seats, name="table_seats"),
    path(
        "tables/<int:table_id>/seats/<int:claim_id>/<str:decision>/",
        views.seat_decide,
        name="seat_decide",
    ),
    # Push connections: every path ending in /stream/ goes to the ASGI server (docs/deploy.md).
    # Async views: django-stubs types path() for synchronous views only.
    path("seat/<int:table_id>/stream/", streams.seat_stream, name="seat_stream"),  # type: ignore[arg-type]
    path("tables/<int:table_id>/stream/", streams.table_stream, name="table_stream"),  # type: ignore[arg-type]
]
