"""The opt-in's JSON endpoints (static/js/push.js) and the devices page.

Every answer is about the reader's own phones: this phone (its device id cookie) and, logged in, the phones their
account opted in on. Somebody else's subscription is a 404 like anywhere else.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe

from ledger.devices import push, services
from ledger.devices.models import PushSubscription, PushSubscriptionQuerySet
from ledger.devices.phone import device_for, device_hash, device_of, remember_device
from ledger.errors import LedgerError
from ledger.views.htmx import HtmxHttpRequest

# --------------------------------------------------------------------------------------------------------------
# The opt-in button's endpoints (JSON, CSRF-protected like every POST)


@require_POST
def push_subscribe(request: HttpRequest) -> HttpResponse:
    """This phone opts in: the body is the browser's PushSubscription as JSON. 201 when new, 200 when the same
    subscription was stored before (a second tap, a retry): switched on again."""
    if not push.enabled():
        raise Http404
    body = _json_body(request)
    if body is None:
        return _refused(LedgerError(_("Expected the browser's subscription as a JSON object."), field="body"))
    device = device_hash(device_for(request))
    try:
        stored, created = services.push_subscribe(
            device=device, user=request.user, subscription=body, user_agent=request.headers.get("User-Agent", "")
        )
    except LedgerError as error:
        return _refused(error)
    answer = JsonResponse({"on": True, "label": stored.label}, status=201 if created else 200)
    return remember_device(request, answer)


@require_POST
def push_unsubscribe(request: HttpRequest) -> HttpResponse:
    """This phone opts out (body: {"endpoint": …}). Off already, or not the reader's: the same answer, off."""
    body = _json_body(request) or {}
    endpoint = body.get("endpoint")
    if isinstance(endpoint, str):
        for subscription in _mine(request).filter(endpoint=endpoint):
            services.push_switch_off(subscription=subscription)
    return JsonResponse({"on": False})


@never_cache
@require_safe
def push_state(request: HttpRequest) -> HttpResponse:
    """Whether this phone is opted in, and with which subscription (the button compares it with its browser's:
    one switched off on the devices page is off here too)."""
    device = device_of(request)
    found = PushSubscription.objects.active().filter(device=device_hash(device)).first() if device else None
    return JsonResponse({"on": found is not None, "endpoint": found.endpoint if found else None})


def _json_body(request: HttpRequest) -> dict[str, Any] | None:
    try:
        body = json.loads(request.body or b"null")
    except (ValueError, UnicodeDecodeError):
        return None
    return body if isinstance(body, dict) else None


def _refused(error: LedgerError) -> JsonResponse:
    return JsonResponse({"field": error.field, "error": error.message}, status=400)


# --------------------------------------------------------------------------------------------------------------
# The devices page


@never_cache
@require_safe
def device_list(request: HtmxHttpRequest) -> HttpResponse:
    """The phones that get the reader's notifications, each with "Switch off"; htmx asks for the list alone."""
    template = "ledger/devices/_device_list.html" if request.htmx else "ledger/devices/devices.html"
    return render(request, template, _list_context(request))


@require_POST
def device_switch_off(request: HtmxHttpRequest, subscription_id: int) -> HttpResponse:
    """No more notifications to that phone. A second tap finds it off already and says so."""
    subscription = _mine(request).filter(pk=subscription_id).first()
    if subscription is None:
        raise Http404
    switched = services.push_switch_off(subscription=subscription)
    if switched:
        notice = _("Notifications switched off for %(label)s.") % {"label": subscription.label}
    else:
        notice = _("Notifications were already off for %(label)s.") % {"label": subscription.label}
    if request.htmx:
        return render(request, "ledger/devices/_device_list.html", {**_list_context(request), "notice": notice})
    messages.success(request, notice)
    return redirect("devices:device_list")


def _mine(request: HttpRequest) -> PushSubscriptionQuerySet:
    device = device_of(request)
    return PushSubscription.objects.of(device=device_hash(device) if device else None, user=request.user)


def _list_context(request: HttpRequest) -> dict[str, Any]:
    device = device_of(request)
    return {
        "subscriptions": list(_mine(request).active()),
        "this_device": device_hash(device) if device else None,
        "push_on": push.enabled(),
    }
