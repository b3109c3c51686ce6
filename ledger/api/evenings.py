"""Evenings: list, create, detail; the read-only view through a share link."""

from __future__ import annotations

from typing import Any

from django.db.models import Count
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledger import hooks, selectors, services
from ledger.access import evening_for_scorekeeper
from ledger.api import reads
from ledger.api.errors import ErrorSerializer
from ledger.api.fields import AmountsField, ExactDecimalField
from ledger.api.serializers import EveningSerializer, TableWithBalancesSerializer, TableWithHandsSerializer
from ledger.api.settlement import SettlementSerializer
from ledger.models import Currency, Evening

NOT_FOUND = {404: ErrorSerializer}


class EveningDetailSerializer(EveningSerializer):
    share_token = serializers.CharField(allow_null=True, help_text="read-only access: /api/shared/<token>/")
    circle = serializers.IntegerField(source="circle_id", allow_null=True, help_text="the circle it belongs to, if any")
    tables = TableWithBalancesSerializer(many=True, source="table_list")
    balances = AmountsField(source="balance_of", help_text="each player's exact balance over all tables")


class EveningListApi(APIView):
    class OutputSerializer(EveningSerializer):
        table_count = serializers.IntegerField()
        circle = serializers.IntegerField(source="circle_id", allow_null=True, help_text="its circle, if any")

    @extend_schema(operation_id="evening_list", responses=OutputSerializer(many=True), summary="My evenings")
    def get(self, request: Request) -> Response:
        evenings = Evening.objects.for_user(request.user).annotate(table_count=Count("tables")).order_by("-date", "-id")
        # A stub gap: many=True takes a list (typeddjango/djangorestframework-stubs#260).
        return Response(self.OutputSerializer(evenings, many=True).data)  # type: ignore[arg-type]


class EveningCreateApi(APIView):
    class InputSerializer(serializers.Serializer[None]):
        date = serializers.DateField()
        place = serializers.CharField(max_length=80, allow_blank=True, default="")
        currency = serializers.ChoiceField(choices=Currency.choices, default=Currency.CZK)
        coin = ExactDecimalField(
            max_digits=14, decimal_places=4, required=False, help_text='coin to round to, e.g. "1" or "0.50"'
        )
        circle = serializers.IntegerField(
            required=False,
            min_value=1,
            max_value=2**31 - 1,
            help_text="a circle you keep score of: the evening is its (in its money unless told otherwise), owned by "
            "the circle's owner; a second one the same day, before a table is started, is the same evening",
        )

    @extend_schema(
        operation_id="evening_create",
        request=InputSerializer,
        responses={201: EveningDetailSerializer, 400: ErrorSerializer},
        summary="Start an evening",
        examples=[
            OpenApiExample(
                "An evening in euros",
                request_only=True,
                value={"date": "2026-11-27", "place": "U Fleků", "currency": "EUR", "coin": "0.01"},
            )
        ],
    )
    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        circle_id = data.pop("circle", None)
        if circle_id is None:
            evening = services.evening_create(owner=request.user, **data)
        else:
            evening = _evening_in_circle(request, circle_id, data)
        data = EveningDetailSerializer(reads.evening_detail(evening)).data
        return Response(data, status=status.HTTP_201_CREATED)


def _evening_in_circle(request: Request, circle_id: int, data: dict[str, Any]) -> Evening:
    """The new evening in a circle the user keeps score of (``hooks.evening_in_circle_started``); any other circle
    reads as not there."""
    fields = dict(data)
    if "currency" not in request.data:  # the serializer's default is not a choice: the circle's money is
        fields.pop("currency", None)
    event = hooks.EveningInCircle(circle_id=circle_id, by=request.user, fields=fields)
    evening = next((started for started in hooks.evening_in_circle_started.send(event) if started), None)
    if evening is None:
        raise services.LedgerError(_("No circle of yours has that id."), field="circle")
    return evening


class EveningDetailApi(APIView):
    @extend_schema(
        operation_id="evening_detail",
        responses={200: EveningDetailSerializer, **NOT_FOUND},
        summary="An evening: its tables and balances",
    )
    def get(self, request: Request, evening_id: int) -> Response:
        evening = evening_for_scorekeeper(request.user, evening_id)
        return Response(EveningDetailSerializer(reads.evening_detail(evening)).data)


class SharedEveningApi(APIView):
    """What a player with the share link sees: no account, read only."""

    authentication_classes: list[type] = []
    permission_classes = [AllowAny]

    class OutputSerializer(EveningSerializer):
        tables = TableWithHandsSerializer(many=True, source="table_list")
        balances = AmountsField(source="balance_of")
        settlement = SettlementSerializer(
            source="settlement_shown", allow_null=True, help_text="who pays whom, once the evening is closed"
        )

    @extend_schema(
        operation_id="shared_evening",
        auth=[],
        responses={200: OutputSerializer, **NOT_FOUND},
        summary="An evening through its share link: tables, balances and hands",
    )
    def get(self, request: Request, token: str) -> Response:
        evening = get_object_or_404(Evening, share_token=token)
        evening = reads.evening_detail(evening, with_hands=True)
        evening.settlement_shown = None if evening.is_open else selectors.settlement_summary(evening)  # type: ignore[attr-defined]
        return Response(self.OutputSerializer(evening).data)
