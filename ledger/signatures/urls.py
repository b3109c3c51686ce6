"""The signatures' pages, in the ``signatures:`` namespace (included by ``config/urls.py``)."""

from django.urls import URLPattern, URLResolver

app_name = "signatures"

urlpatterns: list[URLPattern | URLResolver] = []
