"""Statistics and spreadsheets: a player's statistics, an evening's hands as CSV (a circle's statistics are
``ledger.stats.circle_api``)."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledger import export, games
from ledger.access import evening_for_scorekeeper
from ledger.api.errors import ErrorSerializer
from ledger.api.fields import MoneyField
from ledger.api.json_bodies import JSONRenderer
from ledger.stats import selectors
from ledger.stats.access import player_for_reader
from ledger.stats.scope import FilterError, Filters, filters_from

FILTERS = [
    OpenApiParameter("game", str, enum=list(games.GAMES), description="only this game's hands"),
    OpenApiParameter("from", OpenApiTypes.DATE, description="only evenings on or after this date"),
    OpenApiParameter("to", OpenApiTypes.DATE, description="only evenings on or before this date"),
]
ERRORS = {400: ErrorSerializer, 404: ErrorSerializer}


def read_filters(request: Request) -> Filters:
    """The game and dates asked for; 400 naming the parameter that cannot be read."""
    try:
        return filters_from(request.query_params)
    except FilterError as error:
        raise exceptions.ValidationError({error.field: [error.message]}) from None


class ContractSerializer(serializers.Serializer[dict[str, int]]):
    played = serializers.IntegerField()
    won = serializers.IntegerField(help_text="the declarer's amount was above zero")


class PairSerializer(serializers.Serializer[dict[str, Any]]):
    hands = serializers.IntegerField()
    net = MoneyField(help_text="the player's own net over these hands")
    won = serializers.IntegerField(help_text="of these hands, the ones the player won")


class RaisesSerializer(serializers.Serializer[dict[str, int]]):
    given = serializers.IntegerField(help_text="hands raised by the player's side (flek, kontra; re by the declarer)")
    won = serializers.IntegerField()


class StreaksSerializer(serializers.Serializer[dict[str, int]]):
    hands = serializers.IntegerField(help_text="most hands won in a row")
    evenings = serializers.IntegerField(help_text="most evenings in a row with a net above zero")


class SeriesPointSerializer(serializers.Serializer[dict[str, Any]]):
    date = serializers.DateField()
    evening = serializers.IntegerField()
    net = MoneyField()
    cumulative = MoneyField()


class HandRecordSerializer(serializers.Serializer[dict[str, Any]]):
    amount = MoneyField()
    date = serializers.DateField()
    evening = serializers.IntegerField()
    game = serializers.CharField()
    # A stub gap, as in ledger.api.serializers: a serializer field named "label".
    label = serializers.CharField()  # type: ignore[assignment]


class EveningRecordSerializer(serializers.Serializer[dict[str, Any]]):
    date = serializers.DateField()
    evening = serializers.IntegerField()
    net = MoneyField()


class PlayerRecordsSerializer(serializers.Serializer[dict[str, Any]]):
    highest_hand = HandRecordSerializer(allow_null=True)
    best_evening = EveningRecordSerializer(allow_null=True)
    worst_evening = EveningRecordSerializer(allow_null=True)


class PlayerStatsSerializer(serializers.Serializer[dict[str, Any]]):
    player = serializers.CharField()
    hidden = serializers.BooleanField(help_text="the player hides from statistics: left out of every other table")
    evenings = serializers.IntegerField()
    hands = serializers.IntegerField()
    net = MoneyField()
    net_series = SeriesPointSerializer(many=True, help_text="per evening, oldest first")
    declared = serializers.DictField(child=ContractSerializer(), help_text="{contract: {played, won}} as declarer")
    declared_by_game = serializers.DictField(child=serializers.DictField(child=ContractSerializer()))
    flek = RaisesSerializer()
    partners = serializers.DictField(child=PairSerializer(), help_text="{name: …} on the same side, best net first")
    opponents = serializers.DictField(child=PairSerializer(), help_text="{name: …} on the other side")
    biggest_win = MoneyField(allow_null=True)
    biggest_loss = MoneyField(allow_null=True)
    records = PlayerRecordsSerializer()
    streaks = StreaksSerializer()


class PlayerStatsApi(APIView):
    @extend_schema(
        operation_id="player_stats",
        parameters=FILTERS,
        responses={200: PlayerStatsSerializer, **ERRORS},
        summary="A player's statistics (counted hands of counted evenings)",
    )
    def get(self, request: Request, player_id: int) -> Response:
        player = player_for_reader(request.user, player_id)
        found = selectors.player_stats(player, **read_filters(request).as_kwargs())
        return Response(PlayerStatsSerializer(found).data)


class CSVRenderer(BaseRenderer):
    """Errors of a CSV operation asked for as ``text/csv``: the error body as two CSV rows."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None) -> bytes:
        rows: list[list[export.Cell]] = [[str(data)]]
        if isinstance(data, dict):
            rows = [[str(key) for key in data], [str(value) for value in data.values()]]
        return export.csv_text(iter(rows)).encode()


class EveningHandsCsvApi(APIView):
    renderer_classes = [JSONRenderer, CSVRenderer]

    @extend_schema(
        operation_id="evening_hands_csv",
        responses={
            (200, "text/csv"): OpenApiResponse(
                OpenApiTypes.STR,
                description="one row per hand (voided ones marked), one column per player: exact decimal strings",
            ),
            404: ErrorSerializer,
        },
        summary="An evening's hands as CSV",
    )
    def get(self, request: Request, evening_id: int) -> HttpResponse:
        evening = evening_for_scorekeeper(request.user, evening_id)
        scope = export.Scope.of_evening(evening)
        response = HttpResponse(export.csv_text(export.hand_rows(scope)), content_type=export.CSV_TYPE)
        response["Content-Disposition"] = f'attachment; filename="{scope.filename("hands", "csv")}"'
        return response
