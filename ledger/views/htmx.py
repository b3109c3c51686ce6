"""The request a page view gets, as mypy should read it: Django's, with ``request.htmx``.

django-htmx's ``HtmxMiddleware`` (config/settings.py) puts ``htmx`` on every request; Django's ``HttpRequest`` does
not declare it, so views that ask ``request.htmx`` take this subclass in their signature, as django-htmx's
documentation suggests. Nothing creates one: it only names the attribute for the type checker.
"""

from __future__ import annotations

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails
