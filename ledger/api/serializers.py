"""Output serializers shared by several operations (an evening, a table, a hand look the same everywhere)."""

from __future__ import annotations

from typing import Any

from django.db.models.manager import BaseManager
from rest_framework import serializers

from ledger import selectors
from ledger.api.fields import AmountsField, MoneyField
from ledger.models import Evening, Hand, Table


class LineSerializer(serializers.Serializer[dict[str, Any]]):
    """One step of a hand's explanation; ``amount`` in the game's unit (list points for Skat, money otherwise)."""

    # A stub gap (here and in HandSerializer): the stubs take a field called "label" for Field.label (its title),
    # but DRF's metaclass moves declared fields out of the class attributes, so nothing is shadowed.
    label = serializers.CharField()  # type: ignore[assignment]
    detail = serializers.CharField()
    amount = serializers.CharField(allow_null=True)


class HandMarkSerializer(serializers.Serializer[Any]):
    """What a feature says of a hand (``hooks.HandMark``): confirmed, disputed, awaiting an OK."""

    code = serializers.CharField(help_text='for machines: "confirmed", "disputed", "awaiting", …')
    label = serializers.CharField(help_text="in the request's language")  # type: ignore[assignment]
    title = serializers.CharField(help_text="more of it (who confirmed and when, a dispute's reason); may be empty")


class HandListSerializer(serializers.ListSerializer[Hand]):
    """A list of hands, their marks asked once for the whole list (never once per hand)."""

    def to_representation(self, data: Any) -> list[Any]:
        hands = list(data.all() if isinstance(data, BaseManager) else data)
        selectors.hands_marked([hand for hand in hands if not hasattr(hand, "marks")])
        return [self.child.to_representation(hand) for hand in hands]  # type: ignore[union-attr]


class HandSerializer(serializers.Serializer[Hand]):
    class Meta:
        list_serializer_class = HandListSerializer

    id = serializers.IntegerField()
    table = serializers.IntegerField(source="table_id")
    number = serializers.IntegerField()
    version = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Hand.Status.choices)
    dealer = serializers.IntegerField(help_text="seat position (0-based) of the dealer")
    hand = serializers.DictField(source="document", help_text="the hand part of the hand document")
    label = serializers.CharField(help_text="in the request's language (Accept-Language)")  # type: ignore[assignment]
    won = serializers.BooleanField(source="result.won", allow_null=True)
    value = serializers.CharField(source="result.value", help_text="in the game's unit: list points for Skat")
    score = serializers.DictField(child=serializers.IntegerField(), source="result.score", allow_null=True)
    amounts = AmountsField(source="result.amounts", help_text="money per player, exact, summing to zero")
    lines = LineSerializer(many=True, help_text="the explanation, in the request's language (Accept-Language)")
    entered_at = serializers.DateTimeField()
    changed_at = serializers.DateTimeField()
    marks = HandMarkSerializer(many=True, help_text="what features say of the hand: confirmed, disputed, …")

    def to_representation(self, instance: Hand) -> dict[str, Any]:
        if not hasattr(instance, "marks"):  # one hand alone (a list marks all its hands at once)
            selectors.hands_marked([instance])
        return super().to_representation(instance)


class TableSerializer(serializers.Serializer[Table]):
    id = serializers.IntegerField()
    evening = serializers.IntegerField(source="evening_id")
    game = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField(), source="seat_names", help_text="seat order")
    rules = serializers.DictField(source="ruleset", help_text="the resolved ruleset, frozen on the table")
    first_dealer = serializers.IntegerField()
    hand_count = serializers.IntegerField(help_text="hands recorded so far, voided included")
    recording = serializers.ChoiceField(
        choices=Table.Recording.choices, help_text="who records hands; chosen at the start, frozen with the rules"
    )
    recording_label = serializers.CharField(source="get_recording_display", help_text="in the request's language")
    confirmation = serializers.ChoiceField(
        choices=Table.Confirmation.choices,
        help_text="whose OK a recorded hand needs; chosen at the start, frozen with the rules",
    )
    confirmation_label = serializers.CharField(source="get_confirmation_display", help_text="in the request's language")


class TableWithBalancesSerializer(TableSerializer):
    balances = AmountsField(source="balance_of")


class TableWithHandsSerializer(TableWithBalancesSerializer):
    hands = HandSerializer(many=True, source="hands.all")


class EveningSerializer(serializers.Serializer[Evening]):
    id = serializers.IntegerField()
    date = serializers.DateField()
    place = serializers.CharField()
    currency = serializers.CharField()
    coin = MoneyField()
    status = serializers.ChoiceField(choices=Evening.Status.choices)
