"""The account pages of Talon's own: the account page (e-mail, password, passkeys, API token, language, deletion),
the passkey sign-up and the deletion. allauth draws the rest (log-in, sign-up, password change and reset, e-mail,
passkeys) with the templates in templates/account/ and templates/mfa/."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from allauth.account.adapter import get_adapter
from allauth.account.decorators import reauthentication_required
from allauth.account.models import EmailAddress
from allauth.account.utils import get_next_redirect_url
from allauth.core import ratelimit
from allauth.core.exceptions import ImmediateHttpResponse
from allauth.mfa.models import Authenticator
from allauth.mfa.webauthn import views as webauthn_views
from allauth.mfa.webauthn.forms import SignupWebAuthnForm
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from rest_framework.authtoken.models import Token

from ledger.accounts import services, signup
from ledger.accounts.forms import AccountDeleteForm, PasskeySignupForm

# The key of a token just made, shown on the next page drawn and then never again.
NEW_TOKEN = "talon_new_token"  # noqa: S105 - the session key's name, not a secret


def _reauthenticated(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """allauth's reauthentication_required (untyped): a password or passkey check within the last minutes."""
    checked: Callable[..., HttpResponse] = reauthentication_required(view)
    return checked


@login_required
def account_home(request: HttpRequest) -> HttpResponse:
    """The account page: what the account is and holds, each with where to change it."""
    user: Any = request.user
    token = Token.objects.filter(user=user).first()
    context = {
        "emails": EmailAddress.objects.filter(user=user).order_by("-primary", "email"),
        "has_password": user.has_usable_password(),
        "passkeys": Authenticator.objects.filter(user=user, type=Authenticator.Type.WEBAUTHN).order_by("created_at"),
        "token": token,
        "new_token": request.session.pop(NEW_TOKEN, None),
        "language": dict(settings.LANGUAGES).get(get_language() or "", ""),
    }
    return render(request, "ledger/accounts/account_home.html", context)


@login_required
@require_POST
@_reauthenticated
def token_create(request: HttpRequest) -> HttpResponse:
    """A new API token (the old one, if any, stops working), shown once on the account page; after a fresh password
    or passkey check, as a token acts as the account on the API (allauth replays the request once checked)."""
    user: Any = request.user
    current = Token.objects.filter(user=user).first()
    replaces = request.POST.get("replaces")  # the token the page showed ("": none); a double tap names the same
    if replaces is not None and replaces != (current.created.isoformat() if current else ""):
        return redirect("account_home")  # already replaced by the first tap: its key is the one shown
    request.session[NEW_TOKEN] = services.token_issue(user=request.user)
    made = _("New API token made: the old one no longer works.") if current else _("API token made.")
    messages.success(request, made)
    return redirect("account_home")


@login_required
@require_POST
def token_revoke(request: HttpRequest) -> HttpResponse:
    request.session.pop(NEW_TOKEN, None)  # a key made but not yet shown is not shown after it was revoked
    if services.token_revoke(user=request.user):
        messages.success(request, _("API token revoked: scripts using it are refused from now on."))
    return redirect("account_home")


@login_required
@_reauthenticated
def account_delete(request: HttpRequest) -> HttpResponse:
    """Delete the account (anonymize it: services.account_delete), after a fresh password or passkey check and the
    user name typed."""
    username = request.user.get_username()
    form = AccountDeleteForm(request.POST or None, username=username)
    if request.method == "POST" and form.is_valid():
        services.account_delete(user=request.user)
        logout(request)
        messages.success(request, _("Your account is deleted. The evenings you kept stay with the other players."))
        return redirect("home")
    return render(request, "ledger/accounts/account_delete.html", {"form": form}, status=400 if form.errors else 200)


def _closed(request: HttpRequest) -> HttpResponse | None:
    """allauth's answer when the site takes no sign-ups (ACCOUNT_ADAPTER's is_open_for_signup), as its own sign-up
    page gives it; None when open."""
    try:
        if get_adapter(request).is_open_for_signup(request):
            return None
    except ImmediateHttpResponse as answer:
        response: HttpResponse = answer.response
        return response
    return render(request, "account/signup_closed.html")


def passkey_signup(request: HttpRequest) -> HttpResponse:
    """Step one of a passkey sign-up: the user name (and where to land once signed up: ``next``, on this site)."""
    if request.user.is_authenticated:
        return redirect(settings.LOGIN_REDIRECT_URL)
    closed = _closed(request)
    if closed is not None:
        return closed
    # allauth's sign-up limit, shared with its password sign-up: every name tried counts (a POST), as there.
    if not ratelimit.consume(request, action="signup"):
        too_many: HttpResponse = ratelimit.respond_429(request)
        return too_many
    next_url = get_next_redirect_url(request)
    form = PasskeySignupForm(request.POST or None)
    # The name's check (ACCOUNT_ADAPTER's clean_username) first removes every sign-up left half-way an hour ago.
    if request.method == "POST" and form.is_valid():
        try:
            signup.started(request, form.cleaned_data["username"], next_url)
        except IntegrityError:  # taken since the form checked it: another start of the same name at once
            form.add_error("username", get_adapter(request).validation_error("username_taken"))
        else:
            return redirect("account_signup_passkey_create")
    context = {"form": form, "next": next_url}
    return render(request, "ledger/accounts/passkey_signup.html", context, status=400 if form.errors else 200)


def passkey_signup_create(request: HttpRequest) -> HttpResponse:
    """Step two: the browser makes the passkey; once it is checked the account is active and logged in."""
    closed = _closed(request)
    if closed is not None:
        return closed
    user = signup.pending(request)
    if user is None:
        return redirect("account_signup_passkey")
    form = SignupWebAuthnForm(request.POST or None, user=user)
    if request.method == "POST" and form.is_valid():
        return signup.finished(request, user, form.cleaned_data["name"], form.cleaned_data["credential"])
    context: dict[str, Any] = {
        "form": form,
        "username": user.get_username(),
        "js_data": {"creation_options": signup.creation_options(user)},
    }
    return render(request, "ledger/accounts/passkey_signup_create.html", context, status=400 if form.errors else 200)


@login_required
def passkey_remove(request: HttpRequest, pk: int) -> HttpResponse:
    """allauth's removal of a passkey, except the last one of an account without a password: that passkey is its
    only way in (no e-mail is needed to sign up, so a password reset may not exist either)."""
    user: Any = request.user
    if request.method != "POST" or user.has_usable_password():
        return _allauth_passkey_remove(request, pk)
    with transaction.atomic():
        # The account's passkeys locked until this removal is done: two removals at once (of two passkeys) would
        # otherwise both see the other passkey still there, and remove both.
        passkeys = Authenticator.objects.select_for_update().filter(user=user, type=Authenticator.Type.WEBAUTHN)
        if not [other for other in passkeys.values_list("pk", flat=True) if other != pk]:
            messages.error(
                request, _("This passkey is your only way to log in: set a password or add another passkey first.")
            )
            return redirect("mfa_list_webauthn")
        return _allauth_passkey_remove(request, pk)


def _allauth_passkey_remove(request: HttpRequest, pk: int) -> HttpResponse:
    response: HttpResponse = webauthn_views.remove_webauthn(request, pk=pk)
    return response
