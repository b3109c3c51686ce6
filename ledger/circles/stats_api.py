"""A circle's statistics in the API: its season table and records, the statistics of ``ledger.stats`` over the
circle's evenings (the filters and the record serializers are the statistics' API's)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledger.api.fields import MoneyField
from ledger.circles.access import circle_for_scorekeeper
from ledger.stats import selectors
from ledger.stats.api import ERRORS, FILTERS, EveningRecordSerializer, HandRecordSerializer, read_filters


class SeasonRowSerializer(serializers.Serializer[dict[str, Any]]):
    rank = serializers.IntegerField()
    player = serializers.CharField()
    player_id = serializers.IntegerField()
    evenings = serializers.IntegerField()
    hands = serializers.IntegerField()
    net = MoneyField()


class PlayerHandRecordSerializer(HandRecordSerializer):
    player = serializers.CharField()


class PlayerEveningRecordSerializer(EveningRecordSerializer):
    player = serializers.CharField()


class CircleRecordsSerializer(serializers.Serializer[dict[str, Any]]):
    highest_hand = PlayerHandRecordSerializer(allow_null=True)
    biggest_loss = PlayerHandRecordSerializer(allow_null=True)
    best_evening = PlayerEveningRecordSerializer(allow_null=True)
    worst_evening = PlayerEveningRecordSerializer(allow_null=True)


class CircleStatsSerializer(serializers.Serializer[dict[str, Any]]):
    evenings = serializers.IntegerField()
    hands = serializers.IntegerField()
    table = SeasonRowSerializer(many=True, help_text="the season table: best net first, equal nets share a rank")
    records = CircleRecordsSerializer()


class CircleStatsApi(APIView):
    @extend_schema(
        operation_id="circle_stats",
        parameters=FILTERS,
        responses={200: CircleStatsSerializer, **ERRORS},
        summary="A circle's season table and records",
    )
    def get(self, request: Request, circle_id: int) -> Response:
        circle = circle_for_scorekeeper(request.user, circle_id)
        found = selectors.circle_stats(circle, **read_filters(request).as_kwargs())
        return Response(CircleStatsSerializer(found).data)
