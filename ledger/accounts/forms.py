"""The accounts' forms: allauth's log-in form saying when the log-in limit refused, a passkey sign-up's name, and
the typed confirmation of a deletion."""

from __future__ import annotations

from typing import Any

from allauth.account import app_settings as account_settings
from allauth.account.adapter import get_adapter
from allauth.account.forms import LoginForm as AllauthLoginForm
from allauth.account.forms import SignupForm as AllauthSignupForm
from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from ledger.auth import refused, too_many


def _labelled(field: forms.Field, label: StrOrPromise, autocomplete: str) -> None:
    """Talon's words for a field of allauth's, and no placeholder repeating the label."""
    field.label = label
    field.widget.attrs.pop("placeholder", None)
    field.widget.attrs.update({"autocomplete": autocomplete})


class LoginForm(AllauthLoginForm):  # type: ignore[misc]
    """allauth's log-in form (a user name or an e-mail address, and a password); an attempt the log-in limit
    refused says so instead of "wrong password": its password was not even checked (ledger/auth.py)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _labelled(self.fields["login"], _("User name or e-mail"), "username")
        self.fields["login"].widget.attrs.update({"autocapitalize": "none", "spellcheck": "false"})
        _labelled(self.fields["password"], _("Password"), "current-password")
        self.fields["password"].help_text = ""  # the page links the password reset itself
        if "remember" in self.fields:
            self.fields["remember"].label = _("Stay logged in on this device")

    def clean(self) -> Any:
        try:
            return super().clean()
        except ValidationError:
            if refused(self.request):
                raise ValidationError(too_many(self.request)) from None
            raise


class SignupForm(AllauthSignupForm):  # type: ignore[misc]
    """allauth's sign-up form in Talon's words: a user name, an optional e-mail address, the password twice."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _labelled(self.fields["username"], _("User name"), "username")
        self.fields["username"].widget.attrs.update({"autocapitalize": "none", "spellcheck": "false"})
        _labelled(self.fields["email"], _("E-mail (optional)"), "email")
        _labelled(self.fields["password1"], _("Password"), "new-password")
        _labelled(self.fields["password2"], _("Password (again)"), "new-password")


class PasskeySignupForm(forms.Form):
    """The one thing a passkey sign-up asks: a user name (checked as allauth's sign-up checks it)."""

    username = forms.CharField(
        label=_("User name"),
        max_length=150,
        widget=forms.TextInput(attrs={"autocomplete": "username", "autocapitalize": "none", "spellcheck": "false"}),
    )

    def clean_username(self) -> str:
        # The adapter checks the name normalized as Django stores it (NFKC), so the check sees the stored name.
        name: str = get_adapter().clean_username(self.cleaned_data["username"])
        # Stored as allauth's own sign-up stores it (ACCOUNT_PRESERVE_USERNAME_CASING off: in lower case).
        return name if account_settings.PRESERVE_USERNAME_CASING else name.lower()


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
