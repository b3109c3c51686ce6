"""Request-wide middleware: the Content-Security-Policy header, no stored copies of private answers, and the
language the pages and the rules speak."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import add_never_cache_headers

import rules.i18n

# The language a logged-in user chose (UserPreference), cached in their session at login and when they switch,
# so a request never asks the database for it; "" when they never chose one.
SESSION_LANGUAGE = "talon_language"


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", settings.CONTENT_SECURITY_POLICY)
        return response


class PrivateNoStoreMiddleware:
    """``Cache-Control: no-store`` (Django's never-cache headers) on every private answer: pages for a logged-in
    user, the API and PDFs, so neither a shared computer's browser nor a proxy keeps a copy of somebody's money.

    The pages of a private link are private too, without a log-in: a circle member's page (``/m/``, their money)
    and a tournament's standings (``/r/``), so a shared or lost phone keeps no copy that outlives the link.

    An answer that says how to cache it keeps its own header (the admin's, static files, a live line's), and so
    does one with an ETag: the share links' phones keep their copy of the live part and ask whether it changed
    (304), which is the point of it.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.has_header("Cache-Control") or response.has_header("ETag"):
            return response
        user = getattr(request, "user", None)
        if (
            request.path_info.startswith(("/api/", "/m/", "/r/"))
            or response.get("Content-Type", "").startswith("application/pdf")
            or (user is not None and user.is_authenticated)
        ):
            add_never_cache_headers(response)
        return response


class LanguageMiddleware:
    """After LocaleMiddleware: the user's remembered language, and the rules engine speaking the same language.

    Who decides, first to last: a choice made in this browser (the language cookie that ``set_language`` sets),
    the language the logged-in user chose on any device (from the session, put there at login), the browser's
    Accept-Language (LocaleMiddleware). The whole request then runs inside ``rules.i18n.override``, so labels,
    explanation lines and RulesError messages from forms, pages and the API come in the page's language.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        chosen = _remembered(request)
        if chosen and chosen != translation.get_language():
            translation.activate(chosen)
            request.LANGUAGE_CODE = chosen
        with rules.i18n.override(translation.get_language()):
            return self.get_response(request)


def _remembered(request: HttpRequest) -> str | None:
    if settings.LANGUAGE_COOKIE_NAME in request.COOKIES:
        return None  # chosen in this browser: LocaleMiddleware has applied it
    if settings.SESSION_COOKIE_NAME not in request.COOKIES:
        return None  # no session, no user: never touch the session store
    session: Any = getattr(request, "session", None)
    language = session.get(SESSION_LANGUAGE) if session is not None else None
    return language if language in dict(settings.LANGUAGES) else None


@receiver(user_logged_in)
def remember_language_at_login(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """One query per login: the user's language goes into the new session, and applies from the next request."""
    if request is None or not hasattr(request, "session"):
        return
    from ledger.models import UserPreference

    language = UserPreference.objects.filter(user=user).values_list("language", flat=True).first()
    request.session[SESSION_LANGUAGE] = language or ""
