"""A phone's device id: a random value in a long-lived cookie, so Talon can tell one phone from another without an
account (the seat it holds, the push subscriptions it opted into).

The id is a bearer secret (whoever holds the cookie is that phone): stored only as its SHA-256 (``device_hash``),
sent HttpOnly and SameSite=Lax, Secure where the session cookie is.

>>> device_hash("abc")[:12]
'ba7816bf8f01'
"""

from __future__ import annotations

import hashlib
import re
import secrets

from django.conf import settings
from django.http import HttpRequest, HttpResponse

COOKIE = "talon_device"
MAX_AGE = 400 * 24 * 3600  # the longest a browser keeps a cookie (Chromium caps at 400 days)
_WELL_FORMED = re.compile(r"^[A-Za-z0-9_-]{43}$")  # secrets.token_urlsafe(32)
_NEW = "_talon_new_device"


def device_hash(device: str) -> str:
    return hashlib.sha256(device.encode()).hexdigest()


def device_of(request: HttpRequest) -> str | None:
    """The phone's device id, None when it has none (or a forged one that is not an id)."""
    value = getattr(request, _NEW, None) or request.COOKIES.get(COOKIE, "")
    return value if _WELL_FORMED.match(value) else None


def device_for(request: HttpRequest) -> str:
    """The phone's device id, made now when it has none; ``remember_device`` then sets it on the answer."""
    device = device_of(request)
    if device is None:
        device = secrets.token_urlsafe(32)
        setattr(request, _NEW, device)
    return device


def remember_device(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """Set the cookie of a device id made for this request (``device_for``); renew an old one's age."""
    device = device_of(request)
    if device is not None:
        response.set_cookie(
            COOKIE,
            device,
            max_age=MAX_AGE,
            httponly=True,
            samesite="Lax",
            secure=settings.SESSION_COOKIE_SECURE,
        )
    return response
