"""A phone's Web Push subscription: where its browser's push service takes the notifications Talon sends it.

A subscription belongs to a phone (its device id's hash, ``ledger.devices.phone``) and, when somebody was logged in
as it opted in, to that account too: a notification for the account reaches every phone it opted in on. The
``endpoint`` (the push service's address for this browser) is what a subscription is: the browser hands the same one
again until it changes it, so subscribing twice finds the first.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class PushSubscriptionQuerySet(models.QuerySet["PushSubscription"]):
    def active(self) -> PushSubscriptionQuerySet:
        return self.filter(active=True)

    def of(self, *, device: str | None, user: object = None) -> PushSubscriptionQuerySet:
        """The subscriptions a reader may see and switch off: this phone's, and their account's on any phone."""
        mine = Q(device=device) if device else Q(pk__in=[])
        if getattr(user, "is_authenticated", False):
            mine |= Q(user=user)
        return self.filter(mine)


class PushSubscription(models.Model):
    device = models.CharField(_("phone"), max_length=64, db_index=True, help_text="SHA-256 of the device id")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="push_subscriptions"
    )
    endpoint = models.CharField(_("push service address"), max_length=1000, unique=True)
    p256dh = models.CharField(max_length=100)
    auth = models.CharField(max_length=50)
    label = models.CharField(_("browser"), max_length=60)
    created_at = models.DateTimeField(_("switched on"), default=timezone.now)
    last_sent_at = models.DateTimeField(_("last notification"), null=True, blank=True)
    last_error = models.CharField(_("last failure"), max_length=200, blank=True)
    active = models.BooleanField(default=True)

    objects = PushSubscriptionQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["user", "active"], name="push_subscription_user")]

    def __str__(self) -> str:
        return f"{self.label} ({'on' if self.active else 'off'})"

    def as_webpush(self) -> dict[str, object]:
        """What pywebpush takes: the browser's PushSubscription as it serialised it."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}
