"""The statistics' API operations (included by ``ledger/api_urls.py``; a circle's are ``ledger.circles``')."""

from django.urls import path

from ledger.stats.api import EveningHandsCsvApi, PlayerStatsApi

urlpatterns = [
    path("players/<int:player_id>/stats/", PlayerStatsApi.as_view(), name="player_stats"),
    path("evenings/<int:evening_id>/hands.csv", EveningHandsCsvApi.as_view(), name="evening_hands_csv"),
]
