"""ACCOUNT_ADAPTER: allauth's adapter, freeing the names of abandoned passkey sign-ups before a name is checked."""

from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter
from django.contrib.auth import get_user_model

from ledger.accounts import signup


class AccountAdapter(DefaultAccountAdapter):  # type: ignore[misc]  # allauth has no types
    def clean_username(self, username: str, shallow: bool = False) -> str:
        """allauth's check; a name held only by a passkey sign-up left half-way over an hour ago is free (else such
        a name stayed taken for ever for the password sign-up). The name is checked and kept as Django stores it
        (NFKC): "ｄeleted-1" is "deleted-1", which must not pass for another name on the way."""
        username = get_user_model().normalize_username(username)
        if not shallow:
            signup.abandoned_removed()
        name: str = super().clean_username(username, shallow=shallow)
        return name
