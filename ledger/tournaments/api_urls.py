"""The tournaments' API routes, under the ``api:`` namespace (``ledger/api_urls.py`` includes them)."""

from django.urls import path

from ledger.api.method_routes import by_method
from ledger.tournaments.api import (
    TournamentCreateApi,
    TournamentDetailApi,
    TournamentListApi,
    TournamentNextRoundApi,
    TournamentStandingsApi,
    TournamentTablesApi,
)

urlpatterns = [
    path("tournaments/", by_method(get=TournamentListApi, post=TournamentCreateApi), name="tournaments"),
    path("tournaments/<int:tournament_id>/", TournamentDetailApi.as_view(), name="tournament_detail"),
    path("tournaments/<int:tournament_id>/tables/", TournamentTablesApi.as_view(), name="tournament_tables"),
    path("tournaments/<int:tournament_id>/next-round/", TournamentNextRoundApi.as_view(), name="tournament_next_round"),
    path("tournaments/<int:tournament_id>/standings/", TournamentStandingsApi.as_view(), name="tournament_standings"),
]
