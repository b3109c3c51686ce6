"""The confirmations' pages, in the ``confirmations:`` namespace (included by ``config/urls.py``)."""

from django.urls import URLPattern, URLResolver

app_name = "confirmations"

urlpatterns: list[URLPattern | URLResolver] = []
