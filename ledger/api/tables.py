"""Tables and hands: seat a table, record, list, correct and void hands."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledger import selectors, services
from ledger.access import evening_for_scorekeeper, hand_for_scorekeeper, table_for_scorekeeper
from ledger.api.errors import ConflictSerializer, ErrorSerializer
from ledger.api.fields import AmountsField, DocumentField
from ledger.api.serializers import HandSerializer, LineSerializer, TableSerializer
from ledger.models import Game, Hand, Table

HAND_HELP = "the hand part of the hand document; its JSON Schema per game is in GET /api/games/"
ERRORS = {400: ErrorSerializer, 404: ErrorSerializer, 409: ConflictSerializer}
SNAPSER_HAND = {"declarer": "Ana", "trump": "leaves", "announcement": "hram", "winner": "declarer", "result": "s_vodou"}


class TableCreateApi(APIView):
    class InputSerializer(serializers.Serializer[None]):
        game = serializers.ChoiceField(choices=Game.choices)
        players = serializers.ListField(child=serializers.CharField(), help_text="names in seat order, clockwise")
        rules = DocumentField(required=False, help_text='{"preset": …, overrides…}; see GET /api/games/')
        first_dealer = serializers.IntegerField(default=0, help_text="seat position (0-based) of the first dealer")
        recording = serializers.ChoiceField(
            choices=Table.Recording.choices, default=Table.Recording.SCOREKEEPER, help_text="who records hands"
        )
        confirmation = serializers.ChoiceField(
            choices=Table.Confirmation.choices,
            default=Table.Confirmation.NONE,
            help_text="whose OK a recorded hand needs",
        )

    OutputSerializer = TableSerializer

    @extend_schema(
        operation_id="table_create",
        request=InputSerializer,
        responses={201: OutputSerializer, **ERRORS},
        summary="Seat a table: game, players, house rules",
        examples=[
            OpenApiExample(
                "Šnapser",
                request_only=True,
                value={"game": "snapser", "players": ["Ana", "Ben", "Cyril"], "rules": {"preset": "seed"}},
            )
        ],
    )
    def post(self, request: Request, evening_id: int) -> Response:
        evening = evening_for_scorekeeper(request.user, evening_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        table = services.table_create(
            evening=evening,
            game=data["game"],
            players=data["players"],
            rules_override=data.get("rules"),
            first_dealer=data["first_dealer"],
            recording=data["recording"],
            confirmation=data["confirmation"],
        )
        return Response(self.OutputSerializer(table).data, status=status.HTTP_201_CREATED)


class TableDetailApi(APIView):
    class OutputSerializer(TableSerializer):
        balances = AmountsField(source="balance_of", help_text="each seated player's exact balance at this table")
        next_dealer = serializers.IntegerField(help_text="seat position of the next hand's dealer")

    @extend_schema(
        operation_id="table_detail",
        responses={200: OutputSerializer, 404: ErrorSerializer},
        summary="A table: seats, ruleset, balances, the next dealer",
    )
    def get(self, request: Request, table_id: int) -> Response:
        table = table_for_scorekeeper(request.user, table_id)
        table.balance_of = selectors.table_balances(table)  # type: ignore[attr-defined]
        table.next_dealer = selectors.next_dealer(table, selectors.last_counted(table))  # type: ignore[attr-defined]
        return Response(self.OutputSerializer(table).data)


class HandListApi(APIView):
    OutputSerializer = HandSerializer

    @extend_schema(
        operation_id="hand_list",
        responses={200: OutputSerializer(many=True), 404: ErrorSerializer},
        summary="The hand log of a table, oldest first, voided hands included",
    )
    def get(self, request: Request, table_id: int) -> Response:
        table = table_for_scorekeeper(request.user, table_id)
        hands = table.hands.order_by("number")
        # A stub gap: many=True takes a list (typeddjango/djangorestframework-stubs#260).
        return Response(self.OutputSerializer(hands, many=True).data)  # type: ignore[arg-type]


class PricedHandSerializer(serializers.Serializer[Hand]):
    """A hand priced as the ledger would store it, not stored (the client's side of a conflict)."""

    hand = serializers.DictField(source="document", help_text="the hand part of the hand document, as sent")
    label = serializers.CharField(help_text="in the request's language (Accept-Language)")  # type: ignore[assignment]
    won = serializers.BooleanField(source="result.won", allow_null=True)
    value = serializers.CharField(source="result.value", help_text="in the game's unit: list points for Skat")
    score = serializers.DictField(child=serializers.IntegerField(), source="result.score", allow_null=True)
    amounts = AmountsField(source="result.amounts", help_text="money per player, exact, summing to zero")
    lines = LineSerializer(many=True, help_text="the explanation, in the request's language (Accept-Language)")


class HandConflictSerializer(ConflictSerializer):
    """409: the evening is closed, a stale version, or (``field`` "after") another client recorded a hand after the
    ones this one had seen: ``stored`` is the first of them, ``yours`` the hand sent, priced and not stored. Send it
    again with ``after`` = ``stored.number`` to record it as the hand after that one; the same key then still counts
    once."""

    stored = HandSerializer(required=False, help_text="the first hand recorded after the ones the client had seen")
    yours = PricedHandSerializer(required=False, help_text="the hand sent, priced as it would be stored; not stored")


class HandCreateApi(APIView):
    class InputSerializer(serializers.Serializer[None]):
        hand = DocumentField(help_text=HAND_HELP)
        key = serializers.CharField(
            max_length=64,
            required=False,
            allow_blank=True,
            help_text="the client's token for this submission: a retry with the same key returns the first hand",
        )
        dealer = serializers.IntegerField(
            required=False, allow_null=True, help_text="seat position (0-based); default: the rotation's next"
        )
        after = serializers.IntegerField(
            required=False,
            allow_null=True,
            min_value=0,
            max_value=2_147_483_647,
            help_text="the table's hand_count the client showed when the hand was tapped: when another hand was "
            "recorded meanwhile, nothing is stored and 409 answers with both; absent or null: no check",
        )

    OutputSerializer = HandSerializer

    @extend_schema(
        operation_id="hand_create",
        request=InputSerializer,
        responses={201: OutputSerializer, **ERRORS, 409: HandConflictSerializer},
        summary="Record a hand (a retry with the same key answers 201 with the hand first recorded; 409 when another "
        "hand was recorded after the client's ``after``)",
        examples=[
            OpenApiExample(
                "Šnapser: hrám s vodou", request_only=True, value={"hand": SNAPSER_HAND, "key": "tap-1", "after": 0}
            )
        ],
    )
    def post(self, request: Request, table_id: int) -> Response:
        table = table_for_scorekeeper(request.user, table_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            hand = services.hand_record(
                table=table,
                hand=data["hand"],
                by=request.user,
                key=data.get("key") or None,
                dealer=data.get("dealer"),
                after=data.get("after"),
            )
        except services.HandConflict as conflict:
            return self._conflict(table, data["hand"], conflict)
        return Response(self.OutputSerializer(hand).data, status=status.HTTP_201_CREATED)

    @staticmethod
    def _conflict(table: Table, hand: dict[str, Any], conflict: services.HandConflict) -> Response:
        stored = conflict.stored
        yours = services.hand_preview(table=table, hand=hand, number=stored.number + 1)
        body = {
            "field": conflict.field,
            "error": conflict.message,
            "stored": HandSerializer(stored).data,
            "yours": PricedHandSerializer(yours).data,
        }
        return Response(body, status=status.HTTP_409_CONFLICT)


class HandDetailApi(APIView):
    OutputSerializer = HandSerializer

    @extend_schema(
        operation_id="hand_detail", responses={200: OutputSerializer, 404: ErrorSerializer}, summary="One hand"
    )
    def get(self, request: Request, hand_id: int) -> Response:
        return Response(self.OutputSerializer(hand_for_scorekeeper(request.user, hand_id)).data)


class HandUpdateApi(APIView):
    class InputSerializer(serializers.Serializer[None]):
        hand = DocumentField(help_text=HAND_HELP)
        version = serializers.IntegerField(help_text="the version the correction was made from")
        dealer = serializers.IntegerField(required=False, allow_null=True, help_text="seat position (0-based)")

    OutputSerializer = HandSerializer

    @extend_schema(
        operation_id="hand_update",
        request=InputSerializer,
        responses={200: OutputSerializer, **ERRORS},
        summary="Correct a hand (409 with the current version when somebody changed it meanwhile)",
        examples=[
            OpenApiExample(
                "Šnapser: za 6", request_only=True, value={"hand": SNAPSER_HAND | {"result": "za_6"}, "version": 1}
            )
        ],
    )
    def patch(self, request: Request, hand_id: int) -> Response:
        hand = hand_for_scorekeeper(request.user, hand_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        corrected = services.hand_correct(
            hand=hand, document=data["hand"], by=request.user, version=data["version"], dealer=data.get("dealer")
        )
        return Response(self.OutputSerializer(corrected).data)


class HandVoidApi(APIView):
    class FilterSerializer(serializers.Serializer[None]):
        version = serializers.IntegerField(required=False, help_text="refuse (409) if the hand is past this version")

    OutputSerializer = HandSerializer

    @extend_schema(
        operation_id="hand_void",
        parameters=[FilterSerializer],
        responses={200: OutputSerializer, **ERRORS},
        summary="Void a hand: out of the balances, kept in the log",
    )
    def delete(self, request: Request, hand_id: int) -> Response:
        hand = hand_for_scorekeeper(request.user, hand_id)
        serializer = self.FilterSerializer(data=request.query_params)
        serializer.is_valid(raise_exception=True)
        voided = services.hand_void(hand=hand, by=request.user, version=serializer.validated_data.get("version"))
        return Response(self.OutputSerializer(voided).data)
