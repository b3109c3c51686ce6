"""The close-out: close and reopen an evening, read its settlement, mark a transfer paid or take the mark back."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledger import selectors, services
from ledger.access import evening_for_scorekeeper, transfer_for_scorekeeper
from ledger.api.errors import ConflictSerializer, ErrorSerializer
from ledger.api.fields import AmountsField, MoneyField
from ledger.models import Evening, Settlement, Transfer

ERRORS = {400: ErrorSerializer, 404: ErrorSerializer, 409: ConflictSerializer}


class TransferSerializer(serializers.Serializer[Transfer]):
    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:  # fields of different types
        # "from" is a Python keyword: the fields are listed here instead of as class attributes.
        return {
            "id": serializers.IntegerField(),
            "from": serializers.CharField(source="payer.name", help_text="who pays"),
            "to": serializers.CharField(source="payee.name", help_text="who is paid"),
            "amount": MoneyField(),
            "paid": serializers.BooleanField(source="is_paid"),
            "paid_at": serializers.DateTimeField(allow_null=True),
        }


class SettlementSerializer(serializers.Serializer[dict[str, Any]]):  # what selectors.settlement_summary gives
    status = serializers.ChoiceField(choices=Evening.Status.choices, help_text="the evening's")
    mode = serializers.ChoiceField(choices=Settlement.Mode.choices, allow_null=True)
    banker = serializers.CharField(allow_null=True)
    coin = MoneyField()
    balances = AmountsField(help_text="exact: frozen at the close, or so far while the evening is open")
    rounded = AmountsField(allow_null=True, help_text="rounded to the coin; null while the evening is open")
    transfers = TransferSerializer(many=True, help_text="who pays whom (while open: only those paid already)")
    closed_at = serializers.DateTimeField(allow_null=True)


class EveningCloseApi(APIView):
    class InputSerializer(serializers.Serializer[None]):
        mode = serializers.ChoiceField(choices=Settlement.Mode.choices, default=Settlement.Mode.FEWEST)
        banker = serializers.CharField(required=False, allow_blank=True, allow_null=True, help_text="mode banker")
        override = serializers.BooleanField(
            default=False,
            help_text="close although a check is still open (a hand not confirmed, a player who has not signed); "
            "the evening's history records what was open. Without it such a close is refused (400, field override, "
            "the error naming what is open)",
        )

    OutputSerializer = SettlementSerializer

    @extend_schema(
        operation_id="evening_close",
        request=InputSerializer,
        responses={200: OutputSerializer, **ERRORS},
        summary=(
            "Close the evening: round the balances and plan who pays whom (409 when closed already; 400 on field "
            "override while a check is open and override is not true)"
        ),
    )
    def post(self, request: Request, evening_id: int) -> Response:
        evening = evening_for_scorekeeper(request.user, evening_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        services.evening_close(
            evening=evening,
            by=request.user,
            mode=data["mode"],
            banker=data.get("banker") or None,
            override=data["override"],
        )
        return Response(self.OutputSerializer(selectors.settlement_summary(evening)).data)


class EveningReopenApi(APIView):
    OutputSerializer = SettlementSerializer

    @extend_schema(
        operation_id="evening_reopen",
        request=None,
        responses={200: OutputSerializer, 400: ErrorSerializer, 404: ErrorSerializer},
        summary="Open a closed evening again: unpaid transfers are dropped, paid ones kept",
    )
    def post(self, request: Request, evening_id: int) -> Response:
        evening = evening_for_scorekeeper(request.user, evening_id)
        services.evening_reopen(evening=evening, by=request.user)
        return Response(self.OutputSerializer(selectors.settlement_summary(evening)).data)


class EveningSettlementApi(APIView):
    OutputSerializer = SettlementSerializer

    @extend_schema(
        operation_id="evening_settlement",
        responses={200: OutputSerializer, 404: ErrorSerializer},
        summary="The settlement: balances, rounded balances, transfers",
    )
    def get(self, request: Request, evening_id: int) -> Response:
        evening = evening_for_scorekeeper(request.user, evening_id)
        return Response(self.OutputSerializer(selectors.settlement_summary(evening)).data)


class TransferMarkPaidApi(APIView):
    OutputSerializer = TransferSerializer

    @extend_schema(
        operation_id="transfer_mark_paid",
        request=None,
        responses={200: OutputSerializer, **ERRORS},
        summary="Mark a transfer paid (again: no change)",
    )
    def post(self, request: Request, transfer_id: int) -> Response:
        transfer = transfer_for_scorekeeper(request.user, transfer_id)
        return Response(self.OutputSerializer(services.transfer_mark_paid(transfer=transfer, by=request.user)).data)


class TransferMarkUnpaidApi(APIView):
    OutputSerializer = TransferSerializer

    @extend_schema(
        operation_id="transfer_mark_unpaid",
        request=None,
        responses={200: OutputSerializer, **ERRORS},
        summary=(
            "Take back a paid mark (again: no change). On a reopened evening the transfer is dropped, like the "
            "other unpaid ones: the next close plans it again"
        ),
    )
    def delete(self, request: Request, transfer_id: int) -> Response:
        transfer = transfer_for_scorekeeper(request.user, transfer_id)
        return Response(self.OutputSerializer(services.transfer_mark_unpaid(transfer=transfer, by=request.user)).data)
