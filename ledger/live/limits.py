"""How many live lines: per client address and per process.

``limited`` wraps a live line's (async) view: past ``STREAM_LIMIT_PER_CLIENT`` lines open from one client address,
or ``STREAM_LIMIT_TOTAL`` in this process, the answer is 429 with Retry-After, before any database work.
"""

from __future__ import annotations

import functools
import threading
import weakref
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase, StreamingHttpResponse

from ledger.auth import client_address

_open_lock = threading.Lock()
_open: dict[str, int] = {}  # client address -> live lines open in this process (only addresses with one)
RETRY_AFTER_SECONDS = 30


def open_lines() -> int:
    with _open_lock:
        return sum(_open.values())


def limited(view: Callable[..., Coroutine[Any, Any, HttpResponseBase]]) -> Callable[..., Awaitable[HttpResponseBase]]:
    """For a live line's (async) view: past ``STREAM_LIMIT_PER_CLIENT`` lines open from one client address, or
    ``STREAM_LIMIT_TOTAL`` in this process, the answer is 429 with Retry-After, before any database work. The
    address is the log-in limiter's (``ledger.auth.client_address``: behind trusted proxies, the one they saw).
    A line counts from admission until its answer is closed (the viewer left); an answer that does not stream (a
    404) gives its place back at once."""

    @functools.wraps(view)
    async def limited_view(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        address = client_address(request)
        if not _admit(address):
            return _too_many()
        give_back = _once(functools.partial(_leave, address))
        try:
            response = await view(request, *args, **kwargs)
        except BaseException:  # a 404, an error, the viewer gone before the answer (cancelled)
            give_back()
            raise
        if isinstance(response, StreamingHttpResponse):
            # Django closes every answer once sent, a viewer's leaving included (ASGIHandler); an answer dropped
            # before it was sent is given back when collected.
            response._resource_closers.append(give_back)  # type: ignore[attr-defined]  # as FileResponse does
            weakref.finalize(response, give_back)
        else:
            give_back()
        return response

    return limited_view


def _admit(address: str) -> bool:
    per_client = int(getattr(settings, "STREAM_LIMIT_PER_CLIENT", 600))
    total = int(getattr(settings, "STREAM_LIMIT_TOTAL", 3000))
    with _open_lock:
        mine = _open.get(address, 0)
        if mine >= per_client or sum(_open.values()) >= total:
            return False
        _open[address] = mine + 1
        return True


def _leave(address: str) -> None:
    with _open_lock:
        left = _open.get(address, 0) - 1
        if left > 0:
            _open[address] = left
        else:
            _open.pop(address, None)


def _once(action: Callable[[], None]) -> Callable[[], None]:
    done = threading.Lock()

    def run_once() -> None:
        if done.acquire(blocking=False):
            action()

    return run_once


def _too_many() -> HttpResponse:
    # Read by no page (EventSource shows nothing of an answer that is not a stream): the page's fallback asks
    # for the state every few seconds meanwhile. Hence not translated.
    response = HttpResponse("Too many live lines open; try again later.\n", status=429, content_type="text/plain")
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response
