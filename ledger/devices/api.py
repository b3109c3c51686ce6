"""A user's devices over the API: GET /api/devices/ (the phones their account opted in on), DELETE
/api/devices/<id>/ (switch one off)."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledger.api.errors import ErrorSerializer
from ledger.devices import services
from ledger.devices.models import PushSubscription


class DeviceSerializer(serializers.Serializer[PushSubscription]):
    id = serializers.IntegerField()
    # A serializer is a field too, with a ``label`` of its own; the output's key is "label" all the same.
    label = serializers.CharField(  # type: ignore[assignment]
        help_text='the browser, as its User-Agent names it: "Chrome on Android"'
    )
    created_at = serializers.DateTimeField(help_text="when notifications were switched on")
    last_sent_at = serializers.DateTimeField(allow_null=True, help_text="the last notification its push service took")
    last_error = serializers.CharField(help_text="why the last one failed (empty: it did not)")


class DeviceListApi(APIView):
    @extend_schema(
        operation_id="device_list",
        responses=DeviceSerializer(many=True),
        summary="The phones that get my notifications",
        description="Web Push subscriptions switched on while logged in to this account, newest first.",
    )
    def get(self, request: Request) -> Response:
        user: Any = request.user  # authenticated: the API's default permission
        subscriptions = PushSubscription.objects.active().filter(user=user)
        return Response(DeviceSerializer(subscriptions, many=True).data)  # type: ignore[arg-type]


class DeviceSwitchOffApi(APIView):
    @extend_schema(
        operation_id="device_switch_off",
        request=None,
        responses={204: None, 404: ErrorSerializer},
        summary="Switch a phone's notifications off",
        description="Idempotent: a phone switched off already answers 204 too. Another account's phone: 404.",
    )
    def delete(self, request: Request, device_id: int) -> Response:
        user: Any = request.user
        subscription = get_object_or_404(PushSubscription, pk=device_id, user=user)
        services.push_switch_off(subscription=subscription)
        return Response(status=status.HTTP_204_NO_CONTENT)
