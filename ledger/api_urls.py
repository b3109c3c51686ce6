"""The JSON API under /api/ (docs/api.md); one view per operation, ``by_method`` when two share a path."""

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from ledger.api.evenings import EveningCreateApi, EveningDetailApi, EveningListApi, SharedEveningApi
from ledger.api.games import GameListApi
from ledger.api.method_routes import by_method
from ledger.api.settlement import (
    EveningCloseApi,
    EveningReopenApi,
    EveningSettlementApi,
    TransferMarkPaidApi,
    TransferMarkUnpaidApi,
)
from ledger.api.tables import (
    HandCreateApi,
    HandDetailApi,
    HandListApi,
    HandUpdateApi,
    HandVoidApi,
    TableCreateApi,
    TableDetailApi,
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
    path("", include("ledger.circles.api_urls")),  # circles of regulars
    path("", include("ledger.stats.api_urls")),  # statistics and spreadsheets
    path("games/", GameListApi.as_view(), name="game_list"),
    path("", include("ledger.tournaments.api_urls")),  # tournaments
    path("", include("ledger.invitations.api_urls")),  # invitation links
    path("", include("ledger.people.api_urls")),  # a person's own summaries and claims
    path("", include("ledger.devices.api_urls")),  # a user's devices and their push subscriptions
    path("", include("ledger.seats.api_urls")),  # seats held by phones
    path("", include("ledger.confirmations.api_urls")),  # confirmations and disputes of hands
    path("", include("ledger.signatures.api_urls")),  # signatures of the list
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves its start-up script as a file: the Content-Security-Policy allows no inline script.
    path(
        "docs/",
        SpectacularSwaggerSplitView.as_view(url_name="api:schema", template_name="api/swagger_ui.html"),
        name="docs",
    ),
]
