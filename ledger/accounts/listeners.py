"""What accounts tell the books through their hooks."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models import Q
from django.db.models.signals import post_save

from ledger import hooks
from ledger.accounts.models import PasskeySignup


def accounts_unlisted(_event: None) -> Q:
    """Accounts nobody can log in to are nobody to offer as a scorekeeper: a deleted account (kept, anonymized, as
    its evenings' owner) and one whose passkey sign-up is not finished."""
    return Q(is_active=False)


def user_saved(sender: Any, instance: Any, created: bool = False, update_fields: Any = None, **_kwargs: Any) -> None:
    """An account made active (its passkey sign-up finished, or an administrator's doing) is a sign-up no more:
    it is never removed as one left half-way. (A new account has no sign-up record yet; a save naming its fields
    without is_active, such as a log-in's, changes nothing here.)"""
    if created or not instance.is_active:
        return
    if update_fields is None or "is_active" in update_fields:
        PasskeySignup.objects.filter(user=instance).delete()


def connect() -> None:
    hooks.accounts_unlisted.connect(accounts_unlisted)
    post_save.connect(user_saved, sender=settings.AUTH_USER_MODEL, dispatch_uid="talon_accounts_user_saved")
