"""The games the engine knows, their presets and house rules, and the JSON Schema of each game's hand."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

import rules


class GameListApi(APIView):
    permission_classes = [AllowAny]

    class OutputSerializer(serializers.Serializer[dict[str, Any]]):
        class OptionSerializer(serializers.Serializer[dict[str, Any]]):
            default = serializers.JSONField()
            help = serializers.CharField()
            choices = serializers.ListField(child=serializers.CharField())

        name = serializers.CharField()
        title = serializers.CharField()
        seats = serializers.ListField(child=serializers.IntegerField(), help_text="allowed numbers of players")
        default_preset = serializers.CharField()
        presets = serializers.DictField(
            child=serializers.DictField(), help_text="each preset resolved: every option with its value"
        )
        options = serializers.DictField(child=OptionSerializer(), help_text="the house rules one can override")
        hand_schema = serializers.DictField(help_text="JSON Schema (draft 2020-12) of the hand part")

    @extend_schema(
        operation_id="game_list", auth=[], responses=OutputSerializer(many=True), summary="Games, presets, hand schemas"
    )
    def get(self, request: Request) -> Response:
        games = [_game(name) for name in rules.GAME_NAMES]
        # A stub gap: many=True takes a list (typeddjango/djangorestframework-stubs#260).
        return Response(self.OutputSerializer(games, many=True).data)  # type: ignore[arg-type]


def _game(name: str) -> dict[str, Any]:
    game = rules.game(name)
    return {
        "name": game.name,
        "title": game.title,
        "seats": list(game.seats),
        "default_preset": game.default_preset,
        "presets": {preset: rules.resolve(name, {"preset": preset}) for preset in game.presets},
        "options": {
            option_name: {
                "default": str(option.default) if not isinstance(option.default, bool | int | str) else option.default,
                "help": option.help,
                "choices": list(option.choices),
            }
            for option_name, option in game.options.items()
        },
        "hand_schema": game.hand_schema(),
    }
