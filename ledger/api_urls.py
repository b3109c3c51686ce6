"""The JSON API under /api/ (docs/api.md); one view per operation, ``by_method`` when two share a path."""

from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from ledger.api.circles import CircleCreateApi, CircleDetailApi, CircleListApi
from ledger.api.evenings import EveningCreateApi, EveningDetailApi, EveningListApi, SharedEveningApi
from ledger.api.games import GameListApi
from ledger.api.routing import by_method
from ledger.api.settlement import (
    EveningCloseApi,
    EveningReopenApi,
    EveningSettlementApi,
    TransferMarkPaidApi,
    TransferMarkUnpaidApi,
)
from ledger.api.stats import CircleStatsApi, EveningHandsCsvApi, PlayerStatsApi
from ledger.api.tables import (
    HandCreateApi,
    HandDetailApi,
    HandListApi,
    HandUpdateApi,
    HandVoidApi,
    TableCreateApi,
    TableDetailApi,
)
from ledger.api.tournaments import (
    TournamentCreateApi,
    TournamentDetailApi,
    TournamentListApi,
    TournamentNextRoundApi,
    TournamentStandingsApi,
    TournamentTablesApi,
)

app_name = "api"

urlpatterns = [
    path("evenings/", by_method(get=EveningListApi, post=EveningCreateApi), name="evenings"),
    path("evenings/<int:evening_id>/", EveningDetailApi.as_view(), name="evening_detail"),
    path("evenings/<int:evening_id>/tables/", TableCreateApi.as_view(), name="table_create"),
    path("evenings/<int:evening_id>/close/", EveningCloseApi.as_view(), name="evening_close"),
    path("evenings/<int:evening_id>/reopen/", EveningReopenApi.as_view(), name="evening_reopen"),
    path("evenings/<int:evening_id>/settlement/", EveningSettlementApi.as_view(), name="evening_settlement"),
    path(
        "transfers/<int:transfer_id>/paid/",
        by_method(post=TransferMarkPaidApi, delete=TransferMarkUnpaidApi),
        name="transfer_mark_paid",
    ),
    path("tables/<int:table_id>/", TableDetailApi.as_view(), name="table_detail"),
    path("tables/<int:table_id>/hands/", by_method(get=HandListApi, post=HandCreateApi), name="hands"),
    path(
        "hands/<int:hand_id>/",
        by_method(get=HandDetailApi, patch=HandUpdateApi, delete=HandVoidApi),
        name="hand",
    ),
    path("shared/<str:token>/", SharedEveningApi.as_view(), name="shared_evening"),
    path("circles/", by_method(get=CircleListApi, post=CircleCreateApi), name="circles"),
    path("circles/<int:circle_id>/", CircleDetailApi.as_view(), name="circle_detail"),
    path("circles/<int:circle_id>/stats/", CircleStatsApi.as_view(), name="circle_stats"),
    path("players/<int:player_id>/stats/", PlayerStatsApi.as_view(), name="player_stats"),
    path("evenings/<int:evening_id>/hands.csv", EveningHandsCsvApi.as_view(), name="evening_hands_csv"),
    path("games/", GameListApi.as_view(), name="game_list"),
    path("tournaments/", by_method(get=TournamentListApi, post=TournamentCreateApi), name="tournaments"),
    path("tournaments/<int:tournament_id>/", TournamentDetailApi.as_view(), name="tournament_detail"),
    path("tournaments/<int:tournament_id>/tables/", TournamentTablesApi.as_view(), name="tournament_tables"),
    path("tournaments/<int:tournament_id>/next-round/", TournamentNextRoundApi.as_view(), name="tournament_next_round"),
    path("tournaments/<int:tournament_id>/standings/", TournamentStandingsApi.as_view(), name="tournament_standings"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves its start-up script as a file: the Content-Security-Policy allows no inline script.
    path(
        "docs/",
        SpectacularSwaggerSplitView.as_view(url_name="api:schema", template_name="api/swagger_ui.html"),
        name="docs",
    ),
]
