"""Server-Sent Events: a live line's answer, the current state first, then every message on its topic.

A live view (the share link's, ``ledger/live/views.py``; a tournament's standings) looks its link up
(``links.looked_up``), reads the first state once for the viewers arriving together (``fanout.first_state``) and
answers with ``event_stream``; ``limits.limited`` caps how many lines are open.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator

from asgiref.sync import SyncToAsync, sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, StreamingHttpResponse

from ledger.live.fanout import Message, Received, subscription
from ledger.live.links import link_message
from ledger.live.reads import release_database

HEARTBEAT_SECONDS = 15.0  # a comment line this often keeps proxies and phones from dropping an idle stream
RETRY_MS = 3000  # how long EventSource waits before reconnecting

FirstState = Message | Callable[[], Awaitable[Message | None]] | None


async def event_stream(
    request: HttpRequest, topic: str, first: FirstState, *, link: str | None = None
) -> StreamingHttpResponse:
    """A ``text/event-stream`` answer: the current state first, then every message on ``topic``, with a heartbeat.

    ``first`` is the state a viewer who connects now must see at once; pass an async callable to have it read
    after the subscription started (so no change falls between the two). Each event carries an ``id:``.

    ``link``: the share token the line was opened through. When the link is switched off or replaced (a
    ``link_message`` on the topic naming another link or none), the line sends ``{"gone": true}`` and ends: a
    revoked link hears nothing more, and the page asks once, gets the 404 and says the link no longer works.

    Under ASGI (uvicorn) the stream stays open. Under WSGI (gunicorn, runserver, the test client) a worker would
    be held for as long as the viewer stays, so the answer is the first state alone and ends; EventSource
    reconnects after ``retry`` and the page's fallback refresh does the rest. Push connections belong on the
    ASGI server (docs/deploy.md).
    """
    if isinstance(request, ASGIRequest):
        response = StreamingHttpResponse(_events(topic, first, link), content_type="text/event-stream")
    else:
        state = await first() if callable(first) else first
        response = StreamingHttpResponse(_first_only(state), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


def sse_event(event_id: int, data: Message) -> bytes:
    raw = data.raw if isinstance(data, Received) and data.raw else json.dumps(data, separators=(",", ":"))
    return f"id: {event_id}\ndata: {raw}\n\n".encode()


async def _events(topic: str, first: FirstState, link: str | None = None) -> AsyncIterator[bytes]:
    ids = itertools.count()
    async with subscription(topic) as messages:
        state = await first() if callable(first) else first
        # Nothing waits on the database from here on: an idle viewer must not hold a database connection, nor the
        # thread Django ran the request's sync code on.
        await sync_to_async(release_database)()
        _release_request_thread()
        if link is not None and state is None:
            # Revoked between the view's look-up and this subscription: its message came before the line listened.
            yield f"retry: {RETRY_MS}\n".encode() + sse_event(next(ids), {"gone": True})
            return
        opening = f"retry: {RETRY_MS}\n".encode() + (sse_event(next(ids), state) if state is not None else b"")
        del state  # not kept for the life of the connection: the first state is the largest thing a viewer holds
        yield opening
        del opening
        while True:
            message = await messages.next_message(HEARTBEAT_SECONDS)
            if message is not None and "link" in message:
                if link is not None and message != link_message(link):
                    yield sse_event(next(ids), {"gone": True})
                    return
                continue  # this line's link still works: nothing for the page to do
            yield b": heartbeat\n\n" if message is None else sse_event(next(ids), message)


def _first_only(state: Message | None) -> Iterator[bytes]:
    yield f"retry: {RETRY_MS}\n".encode() + (sse_event(0, state) if state is not None else b"")


def _release_request_thread() -> None:
    """Let the thread that Django's ASGI handler keeps for this request's sync code (middleware, database) end.

    Django runs each ASGI request in an asgiref ``ThreadSensitiveContext`` whose one-thread executor lives until the
    answer is complete, which for a live line is when the viewer leaves: one idle thread, with its stack and malloc
    arena, per viewer. Nothing sync runs in the stream any more; should Django need a thread again at the end
    (``response.close``), asgiref makes a new one for that moment.
    """
    context = SyncToAsync.thread_sensitive_context.get(None)
    executor = SyncToAsync.context_to_thread_executor.pop(context, None) if context is not None else None
    if executor is not None:
        executor.shutdown(wait=False)
