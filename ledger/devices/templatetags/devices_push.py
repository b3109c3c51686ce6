"""``{% webpush_public_key as key %}``: the server's VAPID public key, "" with push off. The opt-in button
(``ledger/devices/_push_optin.html``) reads it itself, so any page can include the button without adding to its
view's context."""

from __future__ import annotations

from django import template
from django.conf import settings

from ledger.devices import push

register = template.Library()


@register.simple_tag
def webpush_public_key() -> str:
    return str(settings.WEBPUSH_VAPID_PUBLIC_KEY) if push.enabled() else ""
