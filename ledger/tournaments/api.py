"""Tournaments: register and draw, the current round's tables, the next round, the standings.

Only the organiser (the tournament's owner) sees a tournament; anybody else gets 404, as for an evening. A table's
phone (the guest account its score-sheet link logs in) records hands at its own table through
``/api/tables/<id>/hands/`` and sees nothing of the tournament API, not even an empty list.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledger.api.errors import ErrorSerializer
from ledger.api.fields import AmountsField, DocumentField, ExactDecimalField, MoneyField
from ledger.models import Currency, Game
from ledger.tournaments import formats, selectors
from ledger.tournaments import services as tournaments
from ledger.tournaments.models import Round, Tournament, TournamentTable

NOT_FOUND = {404: ErrorSerializer}
POINTS_SCHEMA_HELP = "exact decimal string: Seeger-Fabian list points (Skat) or placement points (Mariáš, Šnapser)"


class SeatedTableSerializer(serializers.Serializer[dict[str, Any]]):
    number = serializers.IntegerField(help_text="the table's number in its round, from 1")
    players = serializers.ListField(child=serializers.CharField(), help_text="seat order, clockwise")
    sheet = serializers.URLField(help_text="the score-sheet link for the table's phone (its QR code)")


class DrawTableSerializer(SeatedTableSerializer):
    table = serializers.IntegerField(help_text="the table's id: its hands go to POST /api/tables/<id>/hands/")


class TournamentSerializer(serializers.Serializer[Tournament]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    game = serializers.ChoiceField(choices=Game.choices)
    date = serializers.DateField()
    place = serializers.CharField()
    currency = serializers.CharField()
    coin = MoneyField()
    status = serializers.ChoiceField(choices=Tournament.Status.choices)
    rounds = serializers.IntegerField(help_text="series (Skat) or rounds (Mariáš, Šnapser) to play")
    round = serializers.IntegerField(source="round_number", help_text="the round being played, 0 before the first")


class TournamentDetailSerializer(TournamentSerializer):
    options = serializers.DictField(help_text="the format, every option filled in (money as exact strings)")
    players = serializers.ListField(child=serializers.CharField(), source="player_names", help_text="by start number")
    share_token = serializers.CharField(allow_null=True, help_text="the players' read-only standings: /r/<token>/")
    draw = DrawTableSerializer(many=True, help_text="the current round's tables")


class StandingSerializer(serializers.Serializer[dict[str, Any]]):
    rank = serializers.IntegerField(help_text="shared by equal rows: 1, 2, 2, 4 …")
    player = serializers.CharField()
    points = serializers.CharField(help_text=POINTS_SCHEMA_HELP)
    won = serializers.IntegerField(help_text="games won as declarer")
    lost = serializers.IntegerField(help_text="games lost as declarer")
    money = MoneyField(help_text="the money won or lost at the tables, exact")
    fees = MoneyField(help_text="the lost-game fees due (Skat), exact")
    rounds = serializers.IntegerField(help_text="series or rounds played")


class StandingsSerializer(serializers.Serializer[dict[str, Any]]):
    round = serializers.IntegerField(help_text="rounds played or being played")
    status = serializers.ChoiceField(choices=Tournament.Status.choices)
    rows = StandingSerializer(many=True, help_text="best first")
    prizes = AmountsField(help_text="each player's prize by these standings (the pool of the fees, by the scheme)")


def _not_a_table_phone(user: Any) -> None:
    """A table's guest account keeps score of its table and of nothing else: the tournament API is not there."""
    if TournamentTable.objects.filter(guest_id=user.pk).exists():
        raise Http404


def tournament_for_organiser(user: Any, tournament_id: int) -> Tournament:
    _not_a_table_phone(user)
    return get_object_or_404(Tournament.objects.filter(owner=user), pk=tournament_id)


def _sheet_url(request: Request, token: str) -> str:
    return request.build_absolute_uri(reverse("ledger:tournament_sheet", args=[token]))


def _draw(request: Request, tournament: Tournament) -> list[dict[str, Any]]:
    """The current round's tables, by number."""
    return [
        {
            "table": seated.table_id,
            "number": seated.number,
            "players": list(seated.table.seat_names),
            "sheet": _sheet_url(request, seated.token),
        }
        for seated in selectors.round_tables(selectors.current_round(tournament))
    ]


def _detail(request: Request, tournament: Tournament) -> Tournament:
    tournament.round_number = selectors.rounds_played(tournament)  # type: ignore[attr-defined]
    tournament.player_names = selectors.player_names(tournament)  # type: ignore[attr-defined]
    tournament.draw = _draw(request, tournament)  # type: ignore[attr-defined]
    return tournament


class TournamentListApi(APIView):
    @extend_schema(operation_id="tournament_list", responses=TournamentSerializer(many=True), summary="My tournaments")
    def get(self, request: Request) -> Response:
        _not_a_table_phone(request.user)
        # IsAuthenticated let only a logged-in user this far.
        found = list(Tournament.objects.filter(owner_id=request.user.pk).order_by("-date", "-id"))
        played = Round.objects.filter(tournament__in=found).values_list("tournament_id", flat=True)
        counts: dict[int, int] = {}
        for tournament_id in played:
            counts[tournament_id] = counts.get(tournament_id, 0) + 1
        for tournament in found:
            tournament.round_number = counts.get(tournament.pk, 0)  # type: ignore[attr-defined]
        # A stub gap: many=True takes a list (typeddjango/djangorestframework-stubs#260).
        return Response(TournamentSerializer(found, many=True).data)  # type: ignore[arg-type]


class TournamentCreateApi(APIView):
    class InputSerializer(serializers.Serializer[None]):
        game = serializers.ChoiceField(choices=Game.choices)
        name = serializers.CharField(max_length=80)
        players = serializers.ListField(
            child=serializers.CharField(max_length=40),
            max_length=formats.MOST_PLAYERS,
            help_text="names, in start-number order; all checked in, the first round drawn",
        )
        rounds = serializers.IntegerField(min_value=1, max_value=formats.MOST_ROUNDS)
        options = DocumentField(
            required=False,
            help_text='the format: {"rules", "games": {"4": 48, "3": 36}, "hands", "fees": {"entry", "table", '
            '"lost": {"3": "0.50", "4": "1.00"}, "table_to_prizes", "lost_to_prizes"}, "prizes": "top3" | '
            '"winner" | "third" | [shares], "placement": [points], "for_money", "minutes"}',
        )
        date = serializers.DateField(required=False, help_text="default: today")
        place = serializers.CharField(max_length=80, allow_blank=True, default="")
        currency = serializers.ChoiceField(choices=Currency.choices, default=Currency.EUR)
        coin = ExactDecimalField(
            max_digits=14, decimal_places=4, required=False, help_text='the coin prizes are paid in, e.g. "1"'
        )

    @extend_schema(
        operation_id="tournament_create",
        request=InputSerializer,
        responses={201: TournamentDetailSerializer, 400: ErrorSerializer},
        summary="Register a tournament and draw its first round",
        examples=[
            OpenApiExample(
                "A Skat club night",
                request_only=True,
                value={
                    "game": "skat",
                    "name": "Club night",
                    "players": ["Ana", "Ben", "Cyril", "Dora", "Emil", "Fany", "Gustav"],
                    "rounds": 2,
                    "options": {"fees": {"entry": "10", "lost": {"3": "0.50", "4": "1.00"}}, "prizes": "top3"},
                },
            )
        ],
    )
    def post(self, request: Request) -> Response:
        _not_a_table_phone(request.user)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        tournament = tournaments.tournament_create(owner=request.user, start=True, **serializer.validated_data)
        data = TournamentDetailSerializer(_detail(request, tournament)).data
        return Response(data, status=status.HTTP_201_CREATED)


class TournamentDetailApi(APIView):
    @extend_schema(
        operation_id="tournament_detail",
        responses={200: TournamentDetailSerializer, **NOT_FOUND},
        summary="A tournament: its format, players and the current round's draw",
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = tournament_for_organiser(request.user, tournament_id)
        return Response(TournamentDetailSerializer(_detail(request, tournament)).data)


class TournamentTablesApi(APIView):
    class OutputSerializer(SeatedTableSerializer):
        id = serializers.IntegerField(help_text="the table's id: its hands go to POST /api/tables/<id>/hands/")
        round = serializers.IntegerField()

    @extend_schema(
        operation_id="tournament_tables",
        responses={200: OutputSerializer(many=True), **NOT_FOUND},
        summary="The current round's tables: ids for the hands and the score-sheet links",
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = tournament_for_organiser(request.user, tournament_id)
        played = selectors.rounds_played(tournament)
        rows = [{"id": row["table"], "round": played, **row} for row in _draw(request, tournament)]
        # A stub gap: many=True takes a list (typeddjango/djangorestframework-stubs#260).
        return Response(self.OutputSerializer(rows, many=True).data)  # type: ignore[arg-type]


class TournamentNextRoundApi(APIView):
    class InputSerializer(serializers.Serializer[None]):
        round = serializers.IntegerField(
            min_value=1,
            max_value=formats.MOST_ROUNDS,
            help_text="the round this request starts (the current one + 1); asking again for a round that has "
            "started answers it (200), nothing changed",
        )
        confirm_unfinished = serializers.BooleanField(
            default=False,
            help_text="start it although tables of the running round have fewer hands than planned (without it: "
            "409 naming them)",
        )

    class UnfinishedSerializer(ErrorSerializer):
        tables = serializers.ListField(
            child=serializers.DictField(), help_text='[{"number", "played", "planned"}]: the tables still playing'
        )

    @extend_schema(
        operation_id="tournament_next_round",
        request=InputSerializer,
        responses={
            201: TournamentDetailSerializer,
            200: TournamentDetailSerializer,
            400: ErrorSerializer,
            409: UnfinishedSerializer,
            **NOT_FOUND,
        },
        summary="Seat the next series or round (Skat: by the standings; Mariáš, Šnapser: by the movement)",
        examples=[OpenApiExample("Series 2", request_only=True, value={"round": 2})],
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = tournament_for_organiser(request.user, tournament_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            started = tournaments.round_start(
                tournament=tournament,
                number=serializer.validated_data["round"],
                confirm_unfinished=serializer.validated_data["confirm_unfinished"],
            )
        except tournaments.TablesUnfinished as unfinished:
            answer = {
                "field": unfinished.field,
                "error": unfinished.message,
                "tables": [dataclasses.asdict(table) for table in unfinished.tables],
            }
            return Response(answer, status=status.HTTP_409_CONFLICT)
        data = TournamentDetailSerializer(_detail(request, tournament)).data
        return Response(data, status=status.HTTP_201_CREATED if started.created else status.HTTP_200_OK)


class TournamentStandingsApi(APIView):
    @extend_schema(
        operation_id="tournament_standings",
        responses={200: StandingsSerializer, **NOT_FOUND},
        summary="The standings over the rounds played so far, and the prizes they pay",
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = tournament_for_organiser(request.user, tournament_id)
        table = selectors.standings(tournament)
        answer = {
            "round": selectors.rounds_played(tournament),
            "status": tournament.status,
            "rows": [row.as_dict() for row in table],
            "prizes": selectors.prize_list(tournament, table),
        }
        return Response(StandingsSerializer(answer).data)
