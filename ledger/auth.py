"""A limit on failed log-ins, so a password cannot be guessed by brute force.

The limit lives in the authentication layer, so every way in is covered: the accounts page, the admin's log-in,
and anything else that calls ``django.contrib.auth.authenticate`` (an API log-in, ``Client.login`` in tests).

- :func:`count_failure` listens to ``user_login_failed`` and counts failures per user name, and per client address
  when the request is known, each for LOGIN_RATE_WINDOW seconds from the first failure.
- :class:`RateLimitedBackend` (AUTHENTICATION_BACKENDS) refuses, without checking the password, while the name or
  the address has LOGIN_RATE_LIMIT failures or more; it marks the request so a log-in page can say why.
- :class:`RateLimitedLoginView` and :func:`admin_login` answer such an attempt with 429 and "Too many failed log-ins".

Rotating user names from one address hits the address counter; many addresses against one name hit the name
counter. The counters live in Django's cache: the default in-memory cache is per process, so with several app
servers or workers each counts on its own; point CACHE_URL at a shared Redis (``redis://…``, which needs the
``redis`` client package installed) to make the limit hold across them.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.conf import settings
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth import views as auth_views
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.signals import user_login_failed
from django.core.cache import cache
from django.dispatch import receiver
from django.forms import Form
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

# Set on a request whose log-in the backend refused because of the limit.
LIMITED = "login_rate_limited"


def client_address(request: HttpRequest | None) -> str:
    """The client's address: REMOTE_ADDR, or, behind LOGIN_RATE_PROXIES trusted proxies, the address the outermost
    of them saw (counted from the right of X-Forwarded-For, so a client cannot forge it)."""
    if request is None:
        return ""
    proxies = getattr(settings, "LOGIN_RATE_PROXIES", 0)
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
    if proxies and len(forwarded) >= proxies:
        return forwarded[-proxies]
    return str(request.META.get("REMOTE_ADDR", ""))


def _keys(username: str | None, request: HttpRequest | None) -> list[str]:
    keys = []
    if username:
        keys.append("login-failures:user:" + hashlib.sha256(username.strip().lower().encode()).hexdigest())
    address = client_address(request)
    if address:
        keys.append("login-failures:addr:" + hashlib.sha256(address.encode()).hexdigest())
    return keys


def _username(credentials: dict[str, Any]) -> str | None:
    name = credentials.get(get_user_model().USERNAME_FIELD, credentials.get("username"))
    return name if isinstance(name, str) else None


def is_limited(username: str | None, request: HttpRequest | None) -> bool:
    """Whether the name or the client address has used up its failed log-ins for now."""
    counts = cache.get_many(_keys(username, request))
    return any(count >= settings.LOGIN_RATE_LIMIT for count in counts.values())


@receiver(user_login_failed, dispatch_uid="ledger.auth.count_failure")
def count_failure(
    sender: object, credentials: dict[str, Any], request: HttpRequest | None = None, **kwargs: Any
) -> None:
    """One more failure for the user name and the client address (the window runs from the first failure)."""
    for key in _keys(_username(credentials), request):
        cache.add(key, 0, settings.LOGIN_RATE_WINDOW)
        try:
            cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, settings.LOGIN_RATE_WINDOW)


class RateLimitedBackend(ModelBackend):
    """Django's user-and-password backend, refusing while the name or the address is over the limit."""

    def authenticate(
        self, request: HttpRequest | None, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> AbstractBaseUser | None:
        name = username if username is not None else kwargs.get(get_user_model().USERNAME_FIELD)
        if is_limited(name if isinstance(name, str) else None, request):
            if request is not None:
                setattr(request, LIMITED, True)
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)


def _too_many() -> str:
    return _("Too many failed log-ins. Wait a few minutes and try again.")


class RateLimitedLoginView(auth_views.LoginView):
    """Django's log-in view; an attempt the backend refused for the limit gets 429 and says so."""

    def form_invalid(self, form: Form) -> HttpResponse:
        if not getattr(self.request, LIMITED, False):
            return super().form_invalid(form)
        form.errors.clear()  # not "wrong password": the password was not even checked
        form.add_error(None, _too_many())
        return self.render_to_response(self.get_context_data(form=form), status=429)


def admin_login(request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
    """The admin's own log-in page, answering 429 with "Too many failed log-ins" when the limit refused it."""
    response = admin.site.login(request, extra_context)
    if getattr(request, LIMITED, False):
        messages.error(request, _too_many())
        response.status_code = 429
    return response
