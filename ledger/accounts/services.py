"""What changes an account: its API token, and its deletion.

Deletion anonymizes instead of removing the row. The books hang on the user: the evenings and players they own go
with them (CASCADE), and the hands they entered forbid it (PROTECT). Removing the row would take evenings away from
their co-scorekeepers and share links, or fail. So the row stays as an account nobody can use or recognise: named
``deleted-<id>``, inactive, with no e-mail, no password, no passkeys and no token; what it owns stays
readable to whoever could read it. Features drop their own links to the person (``hooks.account_deleting``).
Its sessions on other devices end at their next request: Django's ModelBackend refuses an inactive user, and the
new (unusable) password no longer matches the hash each session keeps.
"""

from __future__ import annotations

from typing import Any

from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from django.contrib.auth import get_user_model
from django.db import transaction
from rest_framework.authtoken.models import Token

from ledger import hooks
from ledger.models import Evening, Invitation, UserPreference

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


def account_delete(*, user: Any) -> None:
    """Anonymize ``user``'s account (see the module's docstring); their evenings, players and hands stay."""
    with transaction.atomic():
        hooks.account_deleting.send(hooks.AccountDeleting(user=user))
        Token.objects.filter(user=user).delete()
        Authenticator.objects.filter(user=user).delete()
        EmailAddress.objects.filter(user=user).delete()
        UserPreference.objects.filter(user=user).delete()
        # Invitations are addressed to a name, which is free again: whoever takes it next gets none of these.
        Invitation.objects.filter(username__iexact=user.get_username()).delete()
        # Nobody keeps score as a deleted account; the evenings it owns stay (see above).
        Evening.scorekeepers.through.objects.filter(user=user).delete()
        user.username = _deleted_name(user)
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


def _deleted_name(user: Any) -> str:
    """``deleted-<id>``, or ``deleted-<id>-<n>`` should another account hold it (in any case): sign-ups refuse such
    names, but one made before they did, or by an administrator, must not make the deletion fail."""
    taken = get_user_model().objects.exclude(pk=user.pk)
    base = name = DELETED_NAME.format(id=user.pk)
    n = 1
    while taken.filter(username__iexact=name).exists():
        n += 1
        name = f"{base}-{n}"
    return name
