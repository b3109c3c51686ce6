"""The devices' API routes, in the ``api:`` namespace (``ledger/api_urls.py`` includes them)."""

from django.urls import URLPattern, URLResolver

urlpatterns: list[URLPattern | URLResolver] = []
