"""A person's own summaries and their claims ("this is me") over the API: GET /api/me/, POST /api/me/claims/."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledger.api.errors import ErrorSerializer
from ledger.api.fields import MoneyField
from ledger.people import access, selectors, services
from ledger.people.models import PlayerClaim


class ClaimSerializer(serializers.Serializer[PlayerClaim]):
    id = serializers.IntegerField()
    player = serializers.CharField(source="player.name")
    player_id = serializers.IntegerField()
    scorekeeper = serializers.CharField(source="player.owner.username", help_text="who keeps this player")
    status = serializers.ChoiceField(
        choices=PlayerClaim.Status.choices, help_text="requested: waiting for the scorekeeper"
    )
    how = serializers.ChoiceField(choices=PlayerClaim.How.choices)
    requested_at = serializers.DateTimeField()
    decided_at = serializers.DateTimeField(allow_null=True)


class MyEveningSerializer(serializers.Serializer[Any]):
    evening_id = serializers.IntegerField()
    date = serializers.DateField()
    place = serializers.CharField()
    currency = serializers.CharField()
    status = serializers.CharField()
    scorekeeper = serializers.CharField()
    games = serializers.ListField(child=serializers.CharField())
    players = serializers.ListField(child=serializers.CharField(), help_text="the person's players there")
    net = MoneyField(help_text="their players' net over the counted hands, exact")


class TotalsSerializer(serializers.Serializer[Any]):
    currency = serializers.CharField()
    net = MoneyField(help_text="net over the evenings, exact")
    to_pay = MoneyField(help_text="unpaid transfers and pot pay-ins the person's players owe")
    to_receive = MoneyField(help_text="unpaid transfers owed to them")
    in_tabs = MoneyField(help_text="carried into circles' tabs, due when a tab is settled")


class OwedSerializer(serializers.Serializer[Any]):
    where = serializers.CharField(help_text="the evening, or the circle")
    kind = serializers.ChoiceField(choices=["evening", "tab", "pot"])
    payer = serializers.CharField()
    payee = serializers.CharField()
    amount = MoneyField()
    currency = serializers.CharField()
    mine_pays = serializers.BooleanField(help_text="true: one of the person's players pays")


class TabSerializer(serializers.Serializer[Any]):
    circle = serializers.CharField()
    player = serializers.CharField()
    currency = serializers.CharField()
    balance = MoneyField(help_text="what the circle owes the player (negative: the player owes)")


class MoneySerializer(serializers.Serializer[Any]):
    totals = TotalsSerializer(many=True)
    owed = OwedSerializer(many=True)
    tabs = TabSerializer(many=True)


class StatsRowSerializer(serializers.Serializer[Any]):
    game = serializers.CharField()
    currency = serializers.CharField()
    evenings = serializers.IntegerField()
    hands = serializers.IntegerField()
    won = serializers.IntegerField()
    net = MoneyField()
    biggest_win = MoneyField(allow_null=True)
    biggest_loss = MoneyField(allow_null=True)
    declared = serializers.IntegerField()
    declared_won = serializers.IntegerField()


class MeSerializer(serializers.Serializer[Any]):
    username = serializers.CharField()
    claims = ClaimSerializer(many=True)
    evenings = MyEveningSerializer(many=True)
    money = MoneySerializer()
    stats = StatsRowSerializer(many=True, help_text="per game and currency: counted hands of counted evenings")


class MeApi(APIView):
    @extend_schema(
        operation_id="me", responses=MeSerializer, summary="My players, evenings, money and statistics everywhere"
    )
    def get(self, request: Request) -> Response:
        players = selectors.my_players(request.user)
        evenings = selectors.my_evenings(players)
        me = {
            "username": request.user.get_username(),
            "claims": list(selectors.claims_of(request.user)),
            "evenings": evenings,
            "money": selectors.my_money(players, evenings),
            "stats": selectors.my_stats(players),
        }
        return Response(MeSerializer(me).data)


class ClaimRequestApi(APIView):
    class Input(serializers.Serializer[Any]):
        player = serializers.IntegerField(help_text="the id of the player the caller says they are")
        share_token = serializers.CharField(required=False, help_text="the evening's share link token")
        member_token = serializers.CharField(required=False, help_text="a circle member link's token")
        table = serializers.IntegerField(required=False, help_text="a table the caller keeps score of")

        def validate(self, data: dict[str, Any]) -> dict[str, Any]:
            given = [key for key in ("share_token", "member_token", "table") if key in data]
            if len(given) != 1:
                raise serializers.ValidationError(
                    {"non_field_errors": ["Give one of share_token, member_token or table: where the player is."]}
                )
            return data

    @extend_schema(
        operation_id="me_claim_request",
        request=Input,
        responses={201: ClaimSerializer, 200: ClaimSerializer, 400: ErrorSerializer, 404: ErrorSerializer},
        summary='Say "this is me" for a player reached through a link or a table',
        description=(
            "The player's scorekeeper approves or declines the claim (status requested until then); the scorekeeper "
            "claiming their own player is approved at once. Asking again answers 200 with the claim made before."
        ),
        examples=[OpenApiExample("From a share link", value={"player": 7, "share_token": "Xo3…"}, request_only=True)],
    )
    def post(self, request: Request) -> Response:
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        reached = _reached(request, data.validated_data)
        player = reached.player(data.validated_data["player"])
        if player is None:
            raise exceptions.NotFound("No such player there.")
        user: Any = request.user  # authenticated: the API's default permission
        before = PlayerClaim.objects.filter(user=user, player=player).exists()
        claim = services.player_claim_request(user=user, player=player, how=reached.how)
        answer = status.HTTP_200_OK if before else status.HTTP_201_CREATED
        return Response(ClaimSerializer(claim).data, status=answer)


def _reached(request: Request, data: dict[str, Any]) -> access.Reached:
    if "share_token" in data:
        return access.through_share_link(data["share_token"])
    if "member_token" in data:
        return access.through_member_link(data["member_token"])
    return access.through_table(request.user, data["table"])
