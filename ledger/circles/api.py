"""Circles of regulars: list, create, detail, and their statistics."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledger.api.errors import ErrorSerializer
from ledger.api.fields import AmountsField, ExactDecimalField, MoneyField
from ledger.circles import selectors, services
from ledger.circles.access import circle_for_scorekeeper
from ledger.circles.models import Circle
from ledger.models import Currency, Evening

NOT_FOUND = {404: ErrorSerializer}


class MemberSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()


class CircleSerializer(serializers.Serializer[Circle]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    settle = serializers.ChoiceField(
        choices=Circle.Settle.choices, help_text="evening: pay each evening; tab: carry into the tab; pot: a pot"
    )
    currency = serializers.CharField()
    coin = MoneyField()
    pot_share = MoneyField(help_text="the part of each winner's rounded gain paid into the pot")
    members = MemberSerializer(many=True, source="member_list")


class CircleEveningSerializer(serializers.Serializer[Evening]):
    id = serializers.IntegerField()
    date = serializers.DateField()
    place = serializers.CharField()
    status = serializers.ChoiceField(choices=Evening.Status.choices)
    counted = serializers.BooleanField(help_text="false: left out of statistics")


class CircleDetailSerializer(CircleSerializer):
    tab = AmountsField(source="tab_of", help_text="settle=tab: what the circle owes each player (open tab)")
    pot = MoneyField(source="pot_of", allow_null=True, help_text="settle=pot: what the pot holds, else null")
    evenings = CircleEveningSerializer(many=True, source="evening_list", help_text="the latest evenings, newest first")
    pot_holder = MemberSerializer(
        source="pot_holder_of", allow_null=True, help_text="the member the winners pay their pot share to, or null"
    )


def _with_members(circle: Circle) -> Circle:
    circle.member_list = [  # type: ignore[attr-defined]
        {"id": membership.player_id, "name": membership.player.name} for membership in selectors.members(circle)
    ]
    return circle


def _detail(circle: Circle) -> Circle:
    circle = _with_members(circle)
    circle.tab_of = selectors.tab_balances(circle)  # type: ignore[attr-defined]
    circle.pot_of = selectors.pot_balance(circle) if circle.settle == Circle.Settle.POT else None  # type: ignore[attr-defined]
    circle.evening_list = selectors.evenings(circle)  # type: ignore[attr-defined]
    holder = circle.pot_holder
    circle.pot_holder_of = {"id": holder.pk, "name": holder.name} if holder else None  # type: ignore[attr-defined]
    return circle


class CircleListApi(APIView):
    @extend_schema(operation_id="circle_list", responses=CircleSerializer(many=True), summary="My circles")
    def get(self, request: Request) -> Response:
        found = Circle.objects.for_user(request.user).prefetch_related("memberships__player").order_by("name", "id")
        rows = []
        for circle in found:
            circle.member_list = [  # type: ignore[attr-defined]
                {"id": m.player_id, "name": m.player.name}
                for m in sorted(circle.memberships.all(), key=lambda m: m.player.name)
            ]
            rows.append(circle)
        # A stub gap: many=True takes a list (typeddjango/djangorestframework-stubs#260).
        return Response(CircleSerializer(rows, many=True).data)  # type: ignore[arg-type]


class CircleCreateApi(APIView):
    class InputSerializer(serializers.Serializer[None]):
        name = serializers.CharField(max_length=80)
        members = serializers.ListField(
            child=serializers.CharField(max_length=40), max_length=100, default=list, help_text="player names"
        )
        settle = serializers.ChoiceField(choices=Circle.Settle.choices, default=Circle.Settle.EVENING)
        currency = serializers.ChoiceField(choices=Currency.choices, default=Currency.CZK)
        coin = ExactDecimalField(max_digits=14, decimal_places=4, required=False, help_text='e.g. "1" or "0.50"')
        pot_share = ExactDecimalField(max_digits=14, decimal_places=4, required=False, help_text='e.g. "0.1"')

    @extend_schema(
        operation_id="circle_create",
        request=InputSerializer,
        responses={201: CircleSerializer, 400: ErrorSerializer},
        summary="Make a circle of regulars",
        examples=[
            OpenApiExample(
                "A Friday circle", request_only=True, value={"name": "Friday Mariáš", "members": ["Ana", "Ben"]}
            )
        ],
    )
    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        circle = services.circle_create(owner=request.user, **serializer.validated_data)
        return Response(CircleSerializer(_with_members(circle)).data, status=status.HTTP_201_CREATED)


class CircleDetailApi(APIView):
    @extend_schema(
        operation_id="circle_detail",
        responses={200: CircleDetailSerializer, **NOT_FOUND},
        summary="A circle: its members, tab or pot, latest evenings",
    )
    def get(self, request: Request, circle_id: int) -> Response:
        circle = circle_for_scorekeeper(request.user, circle_id)
        return Response(CircleDetailSerializer(_detail(circle)).data)
