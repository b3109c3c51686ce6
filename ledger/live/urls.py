"""The live lines' URLs, included by ``ledger/urls.py`` in the ``ledger:`` namespace."""

from django.urls import path

from ledger.live import views

urlpatterns = [
    # Push connections: every path ending in /stream/ goes to the ASGI server (docs/deploy.md).
    # An async view: django-stubs types path() for synchronous views only.
    path("s/<str:token>/stream/", views.shared_stream, name="shared_stream"),  # type: ignore[arg-type]
]
