"""The devices' pages, in the ``devices:`` namespace (included by ``config/urls.py``)."""

from django.urls import URLPattern, URLResolver

app_name = "devices"

urlpatterns: list[URLPattern | URLResolver] = []
