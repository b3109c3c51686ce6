"""What every page's shell (templates/base.html, which the books' pages extend) shows of accounts: the books name no
URL of this app, so the link to the account page comes in the context."""

from __future__ import annotations

from django.http import HttpRequest
from django.urls import reverse


def account_link(request: HttpRequest) -> dict[str, str]:
    """``account_link``: the account page, linked from the logged-in user's name in the top bar."""
    return {"account_link": reverse("account_home")}
