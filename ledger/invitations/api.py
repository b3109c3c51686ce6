"""Invitation links in the API: list and make a page's links, read and revoke one, accept one.

The same services and the same access as the pages: who may not see the evening, circle or tournament gets 404, an
evening's co-scorekeeper (who sees it but may not invite) 403; a link that no longer works answers 410.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledger.api.errors import ErrorSerializer
from ledger.invitations import selectors, services
from ledger.invitations.access import link_for_holder, link_for_maker, subject_for_maker
from ledger.invitations.models import DEFAULT_DAYS, LIFETIMES, InviteLink
from ledger.invitations.services import Subject
from ledger.models import Player

REFUSED = {400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer}


class TargetSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField(help_text="the evening's date and place, the circle's or the tournament's name")


class NamedPlayerSerializer(serializers.Serializer[Player]):
    id = serializers.IntegerField()
    name = serializers.CharField()


class InviteLinkSerializer(serializers.Serializer[InviteLink]):
    """A link as its maker sees it."""

    token = serializers.CharField()
    url = serializers.SerializerMethodField(help_text="the link to send, which opens the invitation's page")
    kind = serializers.ChoiceField(choices=InviteLink.Kind.choices, help_text="what accepting grants")
    target = serializers.SerializerMethodField()
    player = NamedPlayerSerializer(allow_null=True, help_text="the one player the link is for, who is claimed")
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()
    revoked_at = serializers.DateTimeField(allow_null=True)
    accepted = serializers.SerializerMethodField(help_text="how many accounts accepted it")

    def get_url(self, link: InviteLink) -> str:
        return selectors.link_url(self.context["request"], link)

    @extend_schema_field(TargetSerializer)
    def get_target(self, link: InviteLink) -> dict[str, Any]:
        return {"id": link.subject.pk, "name": str(link.subject)}

    def get_accepted(self, link: InviteLink) -> int:
        return int(getattr(link, "accepted", None) or link.uses.count())


class InviteLinkGrantSerializer(serializers.Serializer[InviteLink]):
    """A link as whoever holds it sees it: what accepting grants, until when, and whether they accepted."""

    kind = serializers.ChoiceField(choices=InviteLink.Kind.choices, help_text="what accepting grants")
    target = serializers.SerializerMethodField()
    player = NamedPlayerSerializer(allow_null=True, help_text="the player the one who accepts becomes")
    invited_by = serializers.CharField(source="created_by.get_username")
    expires_at = serializers.DateTimeField()
    accepted_at = serializers.SerializerMethodField(help_text="when you accepted it, or null")

    @extend_schema_field(TargetSerializer)
    def get_target(self, link: InviteLink) -> dict[str, Any]:
        return {"id": link.subject.pk, "name": str(link.subject)}

    @extend_schema_field(serializers.DateTimeField(allow_null=True))
    def get_accepted_at(self, link: InviteLink) -> str | None:
        use = selectors.use_of(link, self.context["request"].user)
        return serializers.DateTimeField().to_representation(use.accepted_at) if use else None


class AcceptedSerializer(serializers.Serializer[Any]):
    granted = serializers.BooleanField(help_text="false: accepted before, nothing more granted")
    accepted_at = serializers.DateTimeField()
    landing = serializers.CharField(help_text="the page the invitation leads to")
    link = InviteLinkGrantSerializer()


KIND = OpenApiParameter("kind", str, enum=InviteLink.Kind.values, required=True, description="the page's kind")
TARGET = OpenApiParameter("target", int, required=True, description="the evening's, circle's or tournament's id")


def _subject_from(request: Request, data: Any) -> Subject:
    kind, target = str(data.get("kind", "")), str(data.get("target", ""))
    if not target.isdecimal() or len(target) > 18:
        raise serializers.ValidationError({"target": ["Name the evening, circle or tournament by its id."]})
    return subject_for_maker(request.user, kind, int(target))


class InviteLinkListApi(APIView):
    @extend_schema(
        operation_id="invite_link_list",
        parameters=[KIND, TARGET],
        responses={200: InviteLinkSerializer(many=True), **REFUSED},
        summary="The links into an evening, circle or tournament that still work",
    )
    def get(self, request: Request) -> Response:
        subject = _subject_from(request, request.query_params)
        links = selectors.live_links(subject)
        # A stub gap: many=True takes a list (typeddjango/djangorestframework-stubs#260).
        return Response(InviteLinkSerializer(links, many=True, context={"request": request}).data)  # type: ignore[arg-type]


class InviteLinkCreateApi(APIView):
    class InputSerializer(serializers.Serializer[None]):
        kind = serializers.ChoiceField(choices=InviteLink.Kind.choices)
        target = serializers.IntegerField(min_value=1, max_value=2**63 - 1)
        player = serializers.IntegerField(
            required=False, allow_null=True, help_text="a player of the page (seated, member, entrant); null: anybody"
        )
        days = serializers.ChoiceField(choices=LIFETIMES, default=DEFAULT_DAYS, help_text="how long the link works")
        key = serializers.CharField(
            max_length=43, required=False, default="", help_text="names the request: the same key makes one link"
        )

    @extend_schema(
        operation_id="invite_link_create",
        request=InputSerializer,
        responses={201: InviteLinkSerializer, 200: InviteLinkSerializer, **REFUSED},
        summary="Make an invitation link (200 with the link a repeated key made)",
        examples=[
            OpenApiExample(
                "An evening's co-scorekeeper", request_only=True, value={"kind": "evening", "target": 12, "key": "a1"}
            )
        ],
    )
    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        subject = subject_for_maker(request.user, data["kind"], data["target"])
        player = _player(subject, data.get("player"))
        made_before = (
            bool(data["key"]) and InviteLink.objects.filter(created_by_id=request.user.pk, key=data["key"]).exists()
        )
        link = services.invite_link_create(
            subject=subject, by=request.user, player=player, days=data["days"], key=data["key"]
        )
        answer = InviteLinkSerializer(link, context={"request": request}).data
        return Response(answer, status=status.HTTP_200_OK if made_before else status.HTTP_201_CREATED)


def _player(subject: Subject, player_id: int | None) -> Player | None:
    if player_id is None:
        return None
    player = selectors.invitable_player(subject, player_id)
    if player is None:
        raise services.NotInvitable
    return player


class InviteLinkDetailApi(APIView):
    @extend_schema(
        operation_id="invite_link_detail",
        responses={200: InviteLinkGrantSerializer, 404: ErrorSerializer, 410: ErrorSerializer},
        summary="What an invitation link grants, to whoever holds it",
    )
    def get(self, request: Request, token: str) -> Response:
        link = link_for_holder(token)
        gone = services.gone_reason(link)
        if gone and selectors.use_of(link, request.user) is None:
            return _gone(gone)
        return Response(InviteLinkGrantSerializer(link, context={"request": request}).data)


class InviteLinkRevokeApi(APIView):
    @extend_schema(
        operation_id="invite_link_revoke",
        request=None,
        responses={200: InviteLinkSerializer, 403: ErrorSerializer, 404: ErrorSerializer},
        summary="Revoke an invitation link (again: the same answer)",
    )
    def delete(self, request: Request, token: str) -> Response:
        link = services.invite_link_revoke(link=link_for_maker(request.user, token), by=request.user)
        return Response(InviteLinkSerializer(link, context={"request": request}).data)


class InviteLinkAcceptApi(APIView):
    @extend_schema(
        operation_id="invite_link_accept",
        request=None,
        responses={200: AcceptedSerializer, 400: ErrorSerializer, 404: ErrorSerializer, 410: ErrorSerializer},
        summary="Accept an invitation link: take the role it grants (again: the first acceptance, nothing more)",
    )
    def post(self, request: Request, token: str) -> Response:
        link = link_for_holder(token)
        try:
            accepted = services.invite_link_accept(link=link, user=request.user)
        except services.LinkGone as gone:
            return _gone(gone.message)
        answer = {
            "granted": accepted.granted,
            "accepted_at": accepted.use.accepted_at,
            "landing": selectors.landing(accepted.use, request.user),
            "link": accepted.link,
        }
        return Response(AcceptedSerializer(answer, context={"request": request}).data)


def _gone(message: str) -> Response:
    return Response({"field": "token", "error": message}, status=status.HTTP_410_GONE)
