"""Signatures of the list in the API: who has signed an evening (its scorekeepers), the scorekeeper signing for a
player (who left, or on the scorekeeper's phone), and a seated phone signing for its own player.

The same services and access as the pages: anybody who may not keep the evening's score gets 404, a phone holding
no seat at the table 404. Signing the same hands again answers 200 with the stored signature, a new one 201.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledger.access import evening_for_scorekeeper
from ledger.api.errors import ErrorSerializer
from ledger.errors import LedgerError
from ledger.models import Evening, Player
from ledger.signatures import selectors, services
from ledger.signatures.phones import claim_for_phone
from ledger.signatures.selectors import SignatureRow

REFUSED = {400: ErrorSerializer, 404: ErrorSerializer}


class SignatureSerializer(serializers.Serializer[SignatureRow]):
    """A seated player of the evening and their current signature."""

    player = serializers.IntegerField(source="player.pk")
    name = serializers.CharField(source="player.name")
    signed = serializers.BooleanField(help_text="signed the hands as they stand now")
    stale = serializers.BooleanField(help_text="signed, but hands changed since: asked to sign again")
    changed_from = serializers.IntegerField(
        allow_null=True, help_text="the first hand number changed since the signature"
    )
    at = serializers.DateTimeField(source="signature.at", allow_null=True, default=None)
    by = serializers.SerializerMethodField(help_text="who signed: the seated phone's player, or the scorekeeper")
    own_phone = serializers.SerializerMethodField(help_text="signed on the player's own phone (a seat it held)")
    for_absent = serializers.SerializerMethodField(help_text="the scorekeeper signed for a player who left")
    revision = serializers.IntegerField(source="signature.revision", allow_null=True, default=None)
    hands = serializers.IntegerField(source="signature.hands", allow_null=True, default=None)
    balance = serializers.DecimalField(
        source="signature.balance", max_digits=14, decimal_places=4, allow_null=True, default=None
    )

    def get_by(self, row: SignatureRow) -> str | None:
        return selectors.signer_name(row.signature.by) if row.signature else None

    def get_own_phone(self, row: SignatureRow) -> bool:
        return bool(row.signature and row.signature.on_own_phone)

    def get_for_absent(self, row: SignatureRow) -> bool:
        return bool(row.signature and row.signature.for_absent)


class EveningSignaturesSerializer(serializers.Serializer[Any]):
    revision = serializers.IntegerField(help_text="the evening's revision: what a signature now signs")
    hands = serializers.IntegerField(help_text="hands numbered across the evening's tables")
    complete = serializers.BooleanField(help_text="every seated player signed the hands as they stand")
    signatures = SignatureSerializer(many=True)


def _listed(evening: Evening) -> dict[str, Any]:
    listed = selectors.signatures(evening)
    return {
        "revision": listed.state.revision,
        "hands": listed.state.hands,
        "complete": listed.complete,
        "signatures": listed.rows,
    }


def _row(evening: Evening, player: Player) -> SignatureRow:
    return selectors.signatures(evening, [player]).rows[0]


def _answer(evening: Evening, signed: services.Signed) -> Response:
    row = _row(evening, signed.signature.player)
    code = status.HTTP_201_CREATED if signed.made else status.HTTP_200_OK
    return Response(SignatureSerializer(row).data, status=code)


REVISION = serializers.IntegerField(
    required=False, min_value=0, max_value=2**31 - 1, help_text="the evening's revision the phone showed"
)


class EveningSignatureListApi(APIView):
    @extend_schema(
        operation_id="evening_signature_list",
        responses={200: EveningSignaturesSerializer, 404: ErrorSerializer},
        summary="Who has signed the evening's list, who has not or must sign again",
    )
    def get(self, request: Request, evening_id: int) -> Response:
        evening = evening_for_scorekeeper(request.user, evening_id)
        return Response(EveningSignaturesSerializer(_listed(evening)).data)


class EveningSignatureCreateApi(APIView):
    class InputSerializer(serializers.Serializer[None]):
        player = serializers.IntegerField(min_value=1, max_value=2**63 - 1, help_text="a player seated this evening")
        for_absent = serializers.BooleanField(
            default=False, help_text="the player left: the scorekeeper signs for them (false: on this phone)"
        )
        revision = REVISION

    @extend_schema(
        operation_id="evening_signature_create",
        request=InputSerializer,
        responses={201: SignatureSerializer, 200: SignatureSerializer, **REFUSED},
        summary="Sign the list for a player (201; 200 with the stored signature when nothing changed since)",
        examples=[OpenApiExample("For Karel, who left", request_only=True, value={"player": 7, "for_absent": True})],
    )
    def post(self, request: Request, evening_id: int) -> Response:
        evening = evening_for_scorekeeper(request.user, evening_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        player = Player.objects.filter(pk=data["player"], seats__table__evening=evening).first()
        if player is None:
            raise LedgerError(_("Choose a player seated at a table of this evening."), field="player")
        signed = services.signature_sign(
            evening=evening,
            player=player,
            by=request.user,
            for_absent=data["for_absent"],
            revision=data.get("revision"),
        )
        return _answer(evening, signed)


class SeatSignatureApi(APIView):
    """A seated phone, known by its device cookie (no account needed)."""

    permission_classes = [AllowAny]

    class InputSerializer(serializers.Serializer[None]):
        revision = REVISION

    @extend_schema(
        operation_id="seat_signature_create",
        request=InputSerializer,
        responses={201: SignatureSerializer, 200: SignatureSerializer, **REFUSED},
        summary="Sign the list from a seated phone for its own player (200: the same hands signed before)",
    )
    def post(self, request: Request, table_id: int) -> Response:
        claim = claim_for_phone(request, table_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        evening = claim.table.evening
        signed = services.signature_sign(
            evening=evening,
            player=claim.player,
            by=claim.acting,
            claim=claim,
            revision=serializer.validated_data.get("revision"),
        )
        return _answer(evening, signed)
