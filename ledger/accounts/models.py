"""What accounts keep of their own: a passkey sign-up under way."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class PasskeySignup(models.Model):
    """An account created for a passkey sign-up whose passkey is not made yet: inactive, with no password.

    The passkey's user handle is the account's id, so the row must exist before the browser makes the passkey. If
    the sign-up is left half-way, the account (which nobody can log in to) is removed after
    :data:`ledger.accounts.signup.ABANDONED`, at the next passkey sign-up's start or when its name is asked for.
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="passkey_signup")
    started = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.user}: passkey sign-up since {self.started:%Y-%m-%d %H:%M}"
