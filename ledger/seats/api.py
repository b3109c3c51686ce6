"""Seats in the API: the scorekeeper reads a table's seats and allows, refuses or releases them; a phone claims a
seat by the table's code.

The same services and access as the pages: who does not keep score of the table gets 404. A phone is known by its
device cookie (``talon_device``, set by the answer to its first claim; a client keeps and sends it like a browser):
the claim names the seat, so claiming it again answers with the claim made the first time (200, not 201).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import Throttled
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledger.access import table_for_scorekeeper
from ledger.api.errors import ConflictSerializer, ErrorSerializer
from ledger.devices.phone import device_for, device_hash, remember_device
from ledger.models import Table
from ledger.seats import codes, guesses, selectors, services
from ledger.seats.access import claim_for_scorekeeper
from ledger.seats.models import SeatClaim

REFUSED = {400: ErrorSerializer, 404: ErrorSerializer, 409: ConflictSerializer}


class SeatClaimSerializer(serializers.Serializer[SeatClaim]):
    id = serializers.IntegerField()
    table = serializers.IntegerField(source="table_id")
    position = serializers.IntegerField(help_text="the seat, 0 for the first in the table's seat order")
    player = serializers.CharField(source="player.name", help_text="the seat's player")
    status = serializers.ChoiceField(
        choices=SeatClaim.Status.choices,
        help_text="held; pending: waiting for the scorekeeper (another phone holds the seat); released; refused",
    )
    account = serializers.CharField(
        source="user.username", allow_null=True, default=None, help_text="the phone's account, null without one"
    )
    claimed_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)


def _claims(table: Table) -> list[SeatClaim]:
    if not table.evening.is_open:
        return []
    return list(
        SeatClaim.objects.live().filter(table=table).select_related("player", "user").order_by("position", "claimed_at")
    )


class TableSeatsApi(APIView):
    @extend_schema(
        operation_id="table_seats",
        responses={200: SeatClaimSerializer(many=True), 404: ErrorSerializer},
        summary="The seats phones hold at a table, and the claims waiting for the scorekeeper",
    )
    def get(self, request: Request, table_id: int) -> Response:
        table = table_for_scorekeeper(request.user, table_id)
        return Response(SeatClaimSerializer(_claims(table), many=True).data)  # type: ignore[arg-type]


class DecisionSerializer(serializers.Serializer[None]):
    claim = serializers.IntegerField(min_value=1, max_value=2**63 - 1, help_text="the claim's id (GET …/seats/)")


def _decision(action: Any, operation: str, summary: str) -> type[APIView]:
    class SeatDecisionApi(APIView):
        @extend_schema(
            operation_id=operation,
            request=DecisionSerializer,
            responses={200: SeatClaimSerializer, **REFUSED},
            summary=summary,
        )
        def post(self, request: Request, table_id: int) -> Response:
            serializer = DecisionSerializer(data=request.data)
            serializer.is_valid(raise_exception=True)
            claim = claim_for_scorekeeper(request.user, table_id, serializer.validated_data["claim"])
            decided = action(claim=claim, by=request.user)
            return Response(SeatClaimSerializer(decided).data)

    SeatDecisionApi.__name__ = SeatDecisionApi.__qualname__ = f"{operation.title().replace('_', '')}Api"
    return SeatDecisionApi


SeatAllowApi = _decision(
    services.seat_allow,
    "seat_allow",
    "Let a waiting phone take its seat (the phone holding it is let go); again: the claim as it is",
)
SeatRefuseApi = _decision(services.seat_refuse, "seat_refuse", "Refuse a waiting claim; again: the claim as it is")
SeatReleaseApi = _decision(
    services.seat_release, "seat_release", "Let a held seat go (or end a waiting claim); again: the claim as it is"
)


class SeatClaimApi(APIView):
    """A phone claims a seat by the table's code: no account needed."""

    permission_classes = [AllowAny]

    class InputSerializer(serializers.Serializer[None]):
        code = serializers.CharField(max_length=20, help_text="the table's join code, as shown on its page")
        position = serializers.IntegerField(min_value=0, max_value=9, help_text="the seat, 0 for the first")

    @extend_schema(
        operation_id="seat_claim",
        request=InputSerializer,
        responses={201: SeatClaimSerializer, 200: SeatClaimSerializer, 429: ErrorSerializer, **REFUSED},
        summary="Claim a seat from a phone by the table's code (200: the claim made before)",
        description=(
            "The phone is known by its device cookie `talon_device`, set by the answer when it has none: send it "
            "back with every later request. A free seat is held at once (status `held`); a seat another phone holds "
            "makes a `pending` claim that the scorekeeper allows or refuses. Claiming the seat again answers with the "
            "same claim; claiming another seat of the table lets go of the first. Logged in, the claim names the "
            "account; without one, a stand-in named after the player acts for the phone."
        ),
        examples=[OpenApiExample("Ben's seat", request_only=True, value={"code": "5HK CAS", "position": 1})],
    )
    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        if guesses.too_many(request):
            raise Throttled(detail="Too many wrong codes from this network: try again in a few minutes.")
        table_id = codes.table_of(data["code"])
        table = Table.objects.select_related("evening").filter(pk=table_id).first() if table_id else None
        if table is None:
            guesses.missed(request)
            raise Http404
        phone = services.Phone(device_hash(device_for(request)), request.user)
        before = selectors.phone_claims(table, phone.device)
        claim = services.seat_claim(table=table, position=data["position"], phone=phone)
        made = status.HTTP_200_OK if claim.pk in before else status.HTTP_201_CREATED
        response = Response(SeatClaimSerializer(claim).data, status=made)
        remember_device(request, response)
        return response
