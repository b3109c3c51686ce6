"""Django's system checks for Web Push's settings: a key pair that does not belong together would let phones
subscribe with a public key the server cannot sign for, and every push service would refuse every send."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Error, register

from ledger.devices.keys import public_key_of


@register()
def vapid_settings(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    private, public = settings.WEBPUSH_VAPID_PRIVATE_KEY, settings.WEBPUSH_VAPID_PUBLIC_KEY
    if not private:
        return []
    errors: list[CheckMessage] = []
    try:
        matches = public_key_of(private) == public.rstrip("=")
    except ValueError:
        errors.append(Error("WEBPUSH_VAPID_PRIVATE_KEY is not a P-256 key (32 bytes, base64url)", id="devices.E001"))
    else:
        if not matches:
            hint = "Make a new pair with `manage.py vapid_keys` and set both."
            errors.append(Error("WEBPUSH_VAPID_PUBLIC_KEY is not the private key's", hint=hint, id="devices.E002"))
    if not settings.WEBPUSH_SUBJECT.startswith(("mailto:", "https://")):
        errors.append(Error("WEBPUSH_SUBJECT must start with mailto: or https://", id="devices.E003"))
    return errors
