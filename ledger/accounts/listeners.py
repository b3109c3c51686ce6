"""What accounts tell the books through their hooks."""

from __future__ import annotations

from django.db.models import Q

from ledger import hooks


def accounts_unlisted(_event: None) -> Q:
    """Accounts nobody can log in to are nobody to offer as a scorekeeper: a deleted account (kept, anonymized, as
    its evenings' owner) and one whose passkey sign-up is not finished."""
    return Q(is_active=False)


def connect() -> None:
    hooks.accounts_unlisted.connect(accounts_unlisted)
