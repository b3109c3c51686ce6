"""Log-in with a limit on failed attempts, so a password cannot be guessed by brute force."""

from __future__ import annotations

import hashlib
from typing import Any

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _


def _key(request: HttpRequest) -> str:
    who = f"{request.META.get('REMOTE_ADDR', '')}|{request.POST.get('username', '').strip().lower()}"
    return "login-failures:" + hashlib.sha256(who.encode()).hexdigest()


class RateLimitedLoginView(auth_views.LoginView):
    """Django's log-in view; after LOGIN_RATE_LIMIT failures per address and name it answers 429 for a while."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        key = _key(request)
        if cache.get(key, 0) >= settings.LOGIN_RATE_LIMIT:
            form = self.get_form()
            form.add_error(None, _("Too many failed log-ins. Wait a few minutes and try again."))
            return self.render_to_response(self.get_context_data(form=form), status=429)
        response = super().post(request, *args, **kwargs)
        if response.status_code != 302:
            cache.add(key, 0, settings.LOGIN_RATE_WINDOW)
            cache.incr(key)
        return response
