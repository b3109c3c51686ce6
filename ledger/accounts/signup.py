"""Signing up with a passkey and a user name alone.

allauth's own passkey sign-up demands an e-mail address, confirmed by a code, before the passkey is made; Talon
asks only for a name. Two steps: the name (an inactive account with no password is made for it, as the passkey's
user handle is the account's id), then the passkey, made by the browser and checked by allauth's WebAuthn code;
only then is the account active and logged in. A sign-up left half-way leaves an account nobody can log in to; once
``ABANDONED``, it is removed at the next passkey sign-up's start, or when its name is asked for by the password
sign-up (ledger.accounts.adapter). A ``next`` page given at the start is where the finished sign-up lands.
"""

from __future__ import annotations

import datetime
from typing import Any

from allauth.account.models import Login
from allauth.mfa.models import Authenticator
from allauth.mfa.webauthn.internal import auth as webauthn
from allauth.mfa.webauthn.internal import flows as webauthn_flows
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from ledger.accounts.models import PasskeySignup

ABANDONED = datetime.timedelta(hours=1)
SESSION_KEY = "talon_passkey_signup"


NEXT_KEY = "talon_passkey_signup_next"


def abandoned_removed() -> None:
    """Every account left half-way through a passkey sign-up long enough ago goes, freeing its name. One that was
    ever used (logged in to, or given a passkey, say by an administrator's activating it) is an account, not a
    sign-up, and stays even if made inactive again."""
    stale = timezone.now() - ABANDONED
    get_user_model().objects.filter(
        passkey_signup__started__lt=stale, is_active=False, last_login__isnull=True
    ).exclude(Exists(Authenticator.objects.filter(user=OuterRef("pk")))).delete()


def started(request: HttpRequest, username: str, next_url: str | None = None) -> Any:
    """The account for ``username``, inactive until its passkey is made; remembered in the session (instead of one
    this session started before under another name, which goes), with the page to land on once it is made.

    IntegrityError when somebody else took the name since the form checked it (two starts of one name at once)."""
    with transaction.atomic():
        earlier = pending(request)
        if earlier is not None:
            earlier.delete()
        user = get_user_model().objects.create_user(username=username, password=None, is_active=False)
        PasskeySignup.objects.create(user=user)
    request.session[SESSION_KEY] = user.pk
    if next_url:
        request.session[NEXT_KEY] = next_url
    else:
        request.session.pop(NEXT_KEY, None)
    return user


def pending(request: HttpRequest) -> Any | None:
    """The account this session is signing up with a passkey, if any."""
    user_id = request.session.get(SESSION_KEY)
    if user_id is None:
        return None
    return get_user_model().objects.filter(pk=user_id, is_active=False, passkey_signup__isnull=False).first()


def creation_options(user: Any) -> dict[str, Any]:
    """What the browser needs to make a passkey (resident, user-verified) for ``user``; the challenge stays in the
    session."""
    options: dict[str, Any] = webauthn.begin_registration(user, True)
    return options


def finished(request: HttpRequest, user: Any, name: str, credential: dict[str, Any]) -> HttpResponse:
    """The passkey (already checked against the session's challenge) is stored, the account becomes active and is
    logged in as by a passkey log-in (so a later re-authentication can ask for the passkey)."""
    with transaction.atomic():
        authenticator = webauthn_flows.signup_authenticator(request, user=user, name=name, credential=credential)
        user.is_active = True
        user.save(update_fields=["is_active"])
        PasskeySignup.objects.filter(user=user).delete()
    request.session.pop(SESSION_KEY, None)
    login = Login(user=user, redirect_url=request.session.pop(NEXT_KEY, None))
    response: HttpResponse = webauthn_flows.perform_passwordless_login(request, authenticator, login)
    return response
