"""What changes an account: its API token, and its deletion.

Deletion anonymizes instead of removing the row. The books hang on the user: the evenings and players they own go
with them (CASCADE), and the hands they entered forbid it (PROTECT). Removing the row would take evenings away from
their co-scorekeepers and share links, or fail. So the row stays as an account nobody can use or recognise: named
``deleted-<id>``, inactive, with no e-mail, no password, no passkeys, no token and no session; what it owns stays
readable to whoever could read it. Features drop their own links to the person (``hooks.account_deleting``).
"""

from __future__ import annotations

from typing import Any

from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from django.contrib.sessions.models import Session
from django.db import transaction
from django.utils import timezone
from rest_framework.authtoken.models import Token

from ledger import hooks
from ledger.models import UserPreference

DELETED_NAME = "deleted-{id}"


def token_issue(*, user: Any) -> str:
    """A new API token for ``user``, replacing any they had (which stops working at once); the key is returned to
    be shown once."""
    with transaction.atomic():
        Token.objects.filter(user=user).delete()
        key: str = Token.objects.create(user=user).key
    return key


def token_revoke(*, user: Any) -> bool:
    """The user's API token stops working; whether they had one."""
    deleted, _kinds = Token.objects.filter(user=user).delete()
    return deleted > 0


def _sessions_end(user: Any) -> None:
    """Every session logged in as ``user`` ends (on every device), not only the one asking."""
    user_id = str(user.pk)
    ended = [
        session.pk
        for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator()
        if session.get_decoded().get("_auth_user_id") == user_id
    ]
    Session.objects.filter(pk__in=ended).delete()


def account_delete(*, user: Any) -> None:
    """Anonymize ``user``'s account (see the module's docstring); their evenings, players and hands stay."""
    with transaction.atomic():
        hooks.account_deleting.send(hooks.AccountDeleting(user=user))
        Token.objects.filter(user=user).delete()
        Authenticator.objects.filter(user=user).delete()
        EmailAddress.objects.filter(user=user).delete()
        UserPreference.objects.filter(user=user).delete()
        user.username = DELETED_NAME.format(id=user.pk)
        user.email = ""
        user.first_name = ""
        user.last_name = ""
        user.set_unusable_password()
        user.is_active = False
        user.is_staff = False
        user.is_superuser = False
        user.save()
        user.groups.clear()
        user.user_permissions.clear()
        _sessions_end(user)
