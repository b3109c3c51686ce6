"""Opting a phone in and out of Web Push.

Subscribing names what it means by the push service's ``endpoint``: the browser hands the same one again until it
changes it, so a second tap (or a retry) finds the subscription the first made and switches it on again. A browser
holds one subscription for this site, so a phone's new one replaces its old (the browser dropped that one).
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from ledger.devices.labels import browser_label
from ledger.devices.models import PushSubscription
from ledger.errors import LedgerError

_BASE64URL = re.compile(r"^[A-Za-z0-9_-]{1,200}={0,2}$")
ENDPOINT_MAX = PushSubscription._meta.get_field("endpoint").max_length or 1000


def push_subscribe(
    *, device: str, user: Any, subscription: Mapping[str, Any], user_agent: str
) -> tuple[PushSubscription, bool]:
    """Store (or switch on again) the browser's PushSubscription as JSON (``PushSubscription.toJSON()``) for the
    phone ``device`` (a device hash) and the account logged in (None: none); True when it is new."""
    endpoint, p256dh, auth = _checked(subscription)
    fields = {
        "device": device,
        "user": user if getattr(user, "is_authenticated", False) else None,
        "p256dh": p256dh,
        "auth": auth,
        "label": browser_label(user_agent)[:60],
        "active": True,
        "last_error": "",
    }
    with transaction.atomic():
        stored, created = PushSubscription.objects.select_for_update().get_or_create(endpoint=endpoint, defaults=fields)
        if not created:
            for name, value in fields.items():
                setattr(stored, name, value)
            stored.save(update_fields=[*fields])
        PushSubscription.objects.filter(device=device, active=True).exclude(pk=stored.pk).update(active=False)
    return stored, created


def push_switch_off(*, subscription: PushSubscription) -> bool:
    """No more notifications through ``subscription``; False when it was off already (a second tap)."""
    return bool(PushSubscription.objects.filter(pk=subscription.pk, active=True).update(active=False))


def push_switch_off_account(*, user: Any) -> int:
    """Every phone of ``user``'s account stops hearing from it (the account goes)."""
    return PushSubscription.objects.filter(user=user).update(active=False, user=None)


def _checked(subscription: Mapping[str, Any]) -> tuple[str, str, str]:
    endpoint = subscription.get("endpoint")
    if not isinstance(endpoint, str) or not endpoint_allowed(endpoint):
        raise LedgerError(_("Not a push service's address."), field="endpoint")
    keys = subscription.get("keys")
    keys = keys if isinstance(keys, Mapping) else {}
    p256dh, auth = keys.get("p256dh"), keys.get("auth")
    point = _decoded(p256dh)
    if point is None or len(point) != 65 or point[0] != 4:
        raise LedgerError(_("Not the browser's public key (65 bytes, base64url)."), field="keys.p256dh")
    secret = _decoded(auth)
    if secret is None or len(secret) != 16:
        raise LedgerError(_("Not the browser's authentication secret (16 bytes, base64url)."), field="keys.auth")
    return endpoint, str(p256dh).rstrip("="), str(auth).rstrip("=")


def endpoint_allowed(endpoint: str) -> bool:
    """An https address of a push service out on the internet: the server POSTs to it, so an address on this
    machine or its network (a forged subscription naming an internal service) is refused. The tests' push
    service on loopback is let in by ``WEBPUSH_ALLOW_LOOPBACK`` (tests only; no environment variable sets it).

    >>> endpoint_allowed("https://fcm.googleapis.com/fcm/send/abc")
    True
    >>> endpoint_allowed("http://updates.push.services.mozilla.com/wpush/v2/x"), endpoint_allowed("https://10.0.0.1/x")
    (False, False)
    """
    if len(endpoint) > ENDPOINT_MAX:
        return False
    try:
        parts = urlsplit(endpoint)
        host = parts.hostname or ""
        parts.port  # noqa: B018 - a port that is not a number raises here
    except ValueError:
        return False
    if getattr(settings, "WEBPUSH_ALLOW_LOOPBACK", False) and host in {"127.0.0.1", "localhost"}:
        return parts.scheme in {"http", "https"}
    if parts.scheme != "https" or not host or host == "localhost" or host.endswith((".localhost", ".local")):
        return False
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return "." in host  # a name, not an address typed in
    return False


def _decoded(value: object) -> bytes | None:
    if not isinstance(value, str) or not _BASE64URL.match(value):
        return None
    try:
        return base64.urlsafe_b64decode(value.rstrip("=") + "=" * (-len(value.rstrip("=")) % 4))
    except (binascii.Error, ValueError):
        return None
