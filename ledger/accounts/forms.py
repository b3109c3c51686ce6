"""The accounts' forms: allauth's log-in form saying when the log-in limit refused, a passkey sign-up's name, and
the typed confirmation of a deletion."""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import get_adapter
from allauth.account.forms import LoginForm as AllauthLoginForm
from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from ledger.auth import refused, too_many


class LoginForm(AllauthLoginForm):  # type: ignore[misc]
    """allauth's log-in form (a user name or an e-mail address, and a password); an attempt the log-in limit
    refused says so instead of "wrong password": its password was not even checked (ledger/auth.py)."""

    def clean(self) -> Any:
        try:
            return super().clean()
        except ValidationError:
            if refused(self.request):
                raise ValidationError(too_many(self.request)) from None
            raise


class PasskeySignupForm(forms.Form):
    """The one thing a passkey sign-up asks: a user name (checked as allauth's sign-up checks it)."""

    username = forms.CharField(
        label=_("User name"),
        max_length=150,
        widget=forms.TextInput(attrs={"autocomplete": "username", "autocapitalize": "none", "spellcheck": "false"}),
    )

    def clean_username(self) -> str:
        name: str = get_adapter().clean_username(self.cleaned_data["username"])
        return name


class AccountDeleteForm(forms.Form):
    """Deleting an account asks for its user name, typed: a tap by mistake deletes nothing."""

    confirmation = forms.CharField(
        label=_("Type your user name to confirm"),
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "none", "spellcheck": "false"}),
    )

    def __init__(self, *args: Any, username: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.username = username

    def clean_confirmation(self) -> str:
        typed: str = self.cleaned_data["confirmation"].strip()
        if typed.casefold() != self.username.casefold():
            raise ValidationError(_("That is not your user name: nothing was deleted."))
        return typed
