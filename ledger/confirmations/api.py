"""Confirmations in the API: a hand's state and every word given on it, and a player's OK or dispute.

The same services and access as the pages: a scorekeeper of the evening (the table's shared phone, by token or
session) gives the word of any player the hand needs; a seated phone (its device cookie) gives its own player's;
anybody else gets 404. A repeated POST answers 200 with the word given first.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledger.api.errors import ConflictSerializer, ErrorSerializer
from ledger.confirmations import services
from ledger.confirmations.access import Giver, giver_for, player_for
from ledger.confirmations.models import REASON_LENGTH, Confirmation
from ledger.confirmations.selectors import AWAITING, CONFIRMED, DISPUTED, HandState, state_of
from ledger.models import Hand

ERRORS = {400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer, 409: ConflictSerializer}


class NamedSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()


class ConfirmationSerializer(serializers.Serializer[Confirmation]):
    version = serializers.IntegerField(help_text="the version of the hand the word speaks of")
    player = NamedSerializer()
    verdict = serializers.ChoiceField(choices=Confirmation.Verdict.choices)
    reason = serializers.CharField(allow_blank=True)
    by = serializers.CharField(source="by.get_username", help_text="the account the books name for the tap")
    own_phone = serializers.BooleanField(
        source="on_own_phone", help_text="true: on the player's own seated phone; false: on the table's phone"
    )
    at = serializers.DateTimeField()


class StateSerializer(serializers.Serializer[HandState]):
    hand = serializers.IntegerField(source="hand.pk")
    number = serializers.IntegerField(source="hand.number")
    version = serializers.IntegerField(source="hand.version", help_text="the current version, the one asked about")
    state = serializers.ChoiceField(
        source="code", choices=[CONFIRMED, AWAITING, DISPUTED], allow_null=True, help_text="null: nobody is asked"
    )
    every = serializers.BooleanField(help_text="true: every needed player says OK; false: one of them will do")
    needed = NamedSerializer(many=True)
    awaiting = NamedSerializer(many=True, help_text="needed players who have not answered this version")
    confirmations = ConfirmationSerializer(source="given", many=True, help_text="the words on this version")
    history = ConfirmationSerializer(many=True, help_text="the words on older versions, kept")


class ConfirmationsApi(APIView):
    permission_classes = [AllowAny]  # a seated phone has no account: access is checked below (404 otherwise)

    @extend_schema(
        operation_id="hand_confirmations",
        responses={200: StateSerializer, 404: ErrorSerializer},
        summary="Whose OK a hand needs, and the words given on it",
    )
    def get(self, request: Request, hand_id: int) -> Response:
        hand = _hand(hand_id)
        giver_for(request, hand.table)
        return Response(StateSerializer(_state(hand)).data)


class _AnswerApi(APIView):
    permission_classes = [AllowAny]
    verdict = Confirmation.Verdict.OK

    class InputSerializer(serializers.Serializer[None]):
        version = serializers.IntegerField(min_value=1, max_value=2**31 - 1, help_text="the version the player saw")
        player = serializers.IntegerField(min_value=1, max_value=2**63 - 1, help_text="the seated player's id")
        reason = serializers.CharField(
            max_length=REASON_LENGTH, required=False, default="", allow_blank=True, help_text="a dispute's reason"
        )

    def answer(self, request: Request, hand_id: int) -> Response:
        hand = _hand(hand_id)
        giver = giver_for(request, hand.table)
        if giver.claim is not None and request.successful_authenticator is None:
            SessionAuthentication().enforce_csrf(request)  # the device cookie alone: a browser's, so CSRF applies
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        player, giver = player_for(giver, hand.table, data["player"])
        before = Confirmation.objects.filter(hand=hand, version=data["version"], player=player).exists()
        given = self._give(hand, data, player, giver)
        answer = {"confirmation": ConfirmationSerializer(given).data, "hand": StateSerializer(_state(hand)).data}
        return Response(answer, status=status.HTTP_200_OK if before else status.HTTP_201_CREATED)

    def _give(self, hand: Hand, data: dict[str, Any], player: Any, giver: Giver) -> Confirmation:
        if self.verdict == Confirmation.Verdict.DISPUTED:
            return services.dispute(
                hand=hand, version=data["version"], player=player, by=giver.by, claim=giver.claim, reason=data["reason"]
            )
        return services.confirm(hand=hand, version=data["version"], player=player, by=giver.by, claim=giver.claim)


class AnswerSerializer(serializers.Serializer[Any]):
    confirmation = ConfirmationSerializer(help_text="the word given (the first one, on a repeated request)")
    hand = StateSerializer()


class ConfirmApi(_AnswerApi):
    @extend_schema(
        operation_id="hand_confirm",
        request=_AnswerApi.InputSerializer,
        responses={201: AnswerSerializer, 200: AnswerSerializer, **ERRORS},
        summary="A player says OK to a hand's version (200 with the word given before, on a repeat)",
        examples=[OpenApiExample("Ben's OK", request_only=True, value={"version": 1, "player": 7})],
    )
    def post(self, request: Request, hand_id: int) -> Response:
        return self.answer(request, hand_id)


class DisputeApi(_AnswerApi):
    verdict = Confirmation.Verdict.DISPUTED

    @extend_schema(
        operation_id="hand_dispute",
        request=_AnswerApi.InputSerializer,
        responses={201: AnswerSerializer, 200: AnswerSerializer, **ERRORS},
        summary="A player says a hand's version is not what happened (the scorekeepers are told)",
        examples=[
            OpenApiExample(
                "Ben disputes", request_only=True, value={"version": 1, "player": 7, "reason": "It was a seven"}
            )
        ],
    )
    def post(self, request: Request, hand_id: int) -> Response:
        return self.answer(request, hand_id)


def _hand(hand_id: int) -> Hand:
    return get_object_or_404(Hand.objects.select_related("table__evening"), pk=hand_id)


def _state(hand: Hand) -> Any:
    """The state, or an empty one where nobody is asked (a table without confirmation, a voided hand)."""
    fresh = Hand.objects.select_related("table").get(pk=hand.pk)
    state = state_of(fresh)
    if state is None:
        return {"hand": fresh, "code": None, "every": False, "needed": [], "awaiting": [], "given": [], "history": []}
    return state
