"""What a new user name may be (ACCOUNT_USERNAME_VALIDATORS): Django's own rules, and no name a deleted account
takes (``deleted-<id>``, ledger.accounts.services), which would collide with it or pass for it."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator
from django.utils.translation import gettext as _

from ledger.accounts.services import DELETED_NAME

DELETED_PREFIX = DELETED_NAME.split("{", 1)[0]


def not_a_deleted_accounts_name(value: str) -> None:
    # Normalized as Django stores a name (NFKC): "ｄeleted-1" (a full-width letter) is stored as "deleted-1".
    name: str = get_user_model().normalize_username(value)
    if name.strip().casefold().startswith(DELETED_PREFIX):
        raise ValidationError(
            _("Names starting with “%(prefix)s” are kept for deleted accounts.") % {"prefix": DELETED_PREFIX}
        )


username_validators = [UnicodeUsernameValidator(), MaxLengthValidator(150), not_a_deleted_accounts_name]
