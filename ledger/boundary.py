"""The edge of every request: a request id for the log, and NUL characters kept away from the views.

**Request id.** The proxy's ``X-Request-ID`` when it sends a sane one, otherwise one made here; it is on every log
line of the request and goes back in the answer's ``X-Request-ID`` header, so "it failed at 21:14" leads to the
traceback in the log (docs/development.md).

**NUL.** PostgreSQL refuses a NUL character in any text it is asked about, so a NUL in a share token, a session
cookie or an API token became a 500 there. No path, cookie or header of this app holds one: a path with a NUL is
not found (404), a header with a raw NUL is a bad request (400, as RFC 9110 allows), and a cookie that holds one
(``"\\000"`` is a NUL escaped in a quoted cookie) is ignored, as if the browser had sent none.

Imported by the logging configuration before Django's apps are loaded: nothing here may import models.
"""

from __future__ import annotations

import logging
import re
import uuid
from collections.abc import Callable
from contextvars import ContextVar

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest

HEADER = "X-Request-ID"
_SANE = re.compile(r"[A-Za-z0-9._:-]{1,100}")  # what nginx's $request_id and the usual tracers send
_current: ContextVar[str | None] = ContextVar("request_id", default=None)


class RequestIdMiddleware:
    """First in MIDDLEWARE: the id is known to everything the request runs, and to its log lines."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        sent = request.headers.get(HEADER, "")
        # A client's id is taken only in a harmless shape: a newline in it could forge log lines.
        request_id = sent if _SANE.fullmatch(sent) else uuid.uuid4().hex
        request.request_id = request_id  # type: ignore[attr-defined]
        token = _current.set(request_id)
        try:
            response = self.get_response(request)
        finally:
            _current.reset(token)
        response[HEADER] = request_id
        return response


class RequestIdFilter(logging.Filter):
    """Adds ``request_id`` to every record: the request's, or "-" outside a request."""

    def filter(self, record: logging.LogRecord) -> bool:
        # django.request logs a 4xx answer after the middleware returned; the record carries the request itself.
        request = getattr(record, "request", None)
        record.request_id = getattr(request, "request_id", None) or _current.get() or "-"
        return True


class FormCharsetMiddleware:
    """A form body (``application/x-www-form-urlencoded``) in another charset than UTF-8 is a bad request (400).

    Django refuses to read one, raising BadRequest wherever ``request.POST`` is first read. The CSRF check reads it,
    and the 400 page's own CSRF check (``requires_csrf_token``) reads it again, and so on: an anonymous 500 and some
    77 KB of tracebacks in the log per request. Answered here, before anything reads the body, in one log line.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if (
            request.content_type == "application/x-www-form-urlencoded"
            and (request.encoding or "utf-8").lower() != "utf-8"
        ):
            return HttpResponseBadRequest("A form must be sent in UTF-8.", content_type="text/plain; charset=utf-8")
        return self.get_response(request)


class NulMiddleware:
    """Before anything reads the path, the cookies (sessions, CSRF, language) or the headers (API tokens)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if "\x00" in request.path:
            raise Http404
        if any(key.startswith("HTTP_") and "\x00" in str(value) for key, value in request.META.items()):
            return HttpResponseBadRequest()
        for name in [name for name, value in request.COOKIES.items() if "\x00" in name + value]:
            del request.COOKIES[name]
        return self.get_response(request)
