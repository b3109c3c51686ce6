"""The seats' pages, in the ``seats:`` namespace (included by ``config/urls.py``)."""

from django.urls import URLPattern, URLResolver

app_name = "seats"

urlpatterns: list[URLPattern | URLResolver] = []
