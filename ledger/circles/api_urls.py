"""The circles' API routes, in the ``api:`` namespace (``ledger/api_urls.py`` includes them)."""

from django.urls import path

from ledger.api.method_routes import by_method
from ledger.circles.api import CircleCreateApi, CircleDetailApi, CircleListApi
from ledger.circles.stats_api import CircleStatsApi

urlpatterns = [
    path("circles/", by_method(get=CircleListApi, post=CircleCreateApi), name="circles"),
    path("circles/<int:circle_id>/", CircleDetailApi.as_view(), name="circle_detail"),
    path("circles/<int:circle_id>/stats/", CircleStatsApi.as_view(), name="circle_stats"),
]
