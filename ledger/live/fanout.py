"""The push fan-out: a service publishes a small message on a topic, every viewer listening to that topic gets it.

``publish(topic, data)`` is plain sync code, meant for ``transaction.on_commit`` (the books' hooks, the live lines'
listeners in ``ledger/live/listeners.py``): a viewer never hears of a hand that was rolled back.
``subscription(topic)`` (or ``listen(topic)``) is the async side, used by the Server-Sent Events views under the
ASGI server (``ledger/live/streams.py``, ``docs/deploy.md``).

With ``PUSH_URL`` set (Redis), a message goes through Redis pub/sub, so it reaches viewers connected to any app
process. Each process (each event loop) holds **one** Redis pub/sub connection for all its viewers of all topics;
a single reader task hands each message to the viewers' asyncio queues. 300 viewers cost 300 small queues, not 300
Redis connections. Without Redis, or while Redis does not answer, messages reach the viewers of the publishing
process only (one app process serves both the hands and the viewers: ``make run``, or uvicorn alone).

A viewer's queue is bounded: a viewer that does not keep up keeps only the newest message. Every message says
"something changed, here is the new state's summary", so the newest one is all a late reader needs.

The state a viewer is sent first (``first_state``) is read once per topic and kept on the hub until the next
message on that topic (a message that *is* the whole state replaces it); the read goes through the live lines'
database gate (``ledger/live/reads.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import os
import threading
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import redis
import redis.asyncio
from django.conf import settings
from django.db import transaction

from ledger.live.links import forget_lookups, link_message
from ledger.live.reads import read_database

logger = logging.getLogger(__name__)

# Redis pub/sub ignores the database number of PUSH_URL: channels are global to the server, hence a prefix.
CHANNEL_PREFIX = "talon:push:"
QUEUE_SIZE = 16  # per viewer; past it the viewer keeps only the newest message
_READER_WAIT_SECONDS = 15.0  # the reader's wait for a message before it asks Redis again
_REDIS_PAUSE = 5.0  # after a failed publish, seconds during which publish goes straight to this process's viewers
_RECONNECT_SECONDS = (0.5, 1.0, 2.0, 5.0)  # the reader's waits between attempts to reach Redis again
STATE_SECONDS = 30.0  # a kept first state is read again after this long even without a message (a missed one)

Message = dict[str, Any]


def evening_topic(evening_id: int) -> str:
    """The topic of one evening's live viewers (its share link): every stored, corrected or voided hand."""
    return f"evening:{evening_id}"


def push_url() -> str:
    return str(getattr(settings, "PUSH_URL", "") or "")


# --------------------------------------------------------------------------------------------------------------
# Publishing (sync, from any thread)

_publisher_lock = threading.Lock()
_publishers: dict[str, redis.Redis] = {}
_redis_paused_until = 0.0


def publish(topic: str, data: Message) -> None:
    """Send ``data`` (JSON-able) to every viewer of ``topic``; never raises for a Redis outage.

    Called after the commit, so an exception here would turn a stored hand into an error page: Redis trouble is
    logged and the message goes to this process's viewers instead.
    """
    payload = json.dumps(data, separators=(",", ":"))
    if "link" in data:
        forget_lookups()  # here at once, and in every process that hears it (``_Hub.dispatch``)
    url = push_url()
    if url and not _redis_paused():
        try:
            _publisher(url).publish(CHANNEL_PREFIX + topic, payload)
            return
        except (redis.RedisError, OSError) as error:
            _pause_redis()
            logger.warning("push: Redis did not take a message for %s (%s); this process's viewers only", topic, error)
    _deliver_here(topic, payload)


def _publisher(url: str) -> redis.Redis:
    # Short timeouts: publishing runs in the request that stored the hand; a dead Redis must not hold it up.
    with _publisher_lock:
        client = _publishers.get(url)
        if client is None:
            client = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)
            _publishers[url] = client
        return client


def _redis_paused() -> bool:
    return time.monotonic() < _redis_paused_until


def _pause_redis() -> None:
    global _redis_paused_until
    _redis_paused_until = time.monotonic() + _REDIS_PAUSE


def _deliver_here(topic: str, payload: str) -> None:
    """To the viewers of ``topic`` in this process, whichever thread publishes and whichever loop they wait in."""
    for hub in _hubs_listening():
        with contextlib.suppress(RuntimeError):  # that loop has just closed: nobody left to tell
            hub.loop.call_soon_threadsafe(hub.dispatch, topic, payload)


# --------------------------------------------------------------------------------------------------------------
# Listening (async): one hub per event loop, one Redis connection per hub


class _Hub:
    """The viewers waiting in one event loop, by topic, and (with Redis) the one reader feeding them."""

    def __init__(self, loop: asyncio.AbstractEventLoop, url: str) -> None:
        self.loop = loop
        self.url = url
        self.queues: dict[str, set[asyncio.Queue[Message]]] = {}
        self.reader: asyncio.Task[None] | None = None
        self.ready = asyncio.Event()  # the reader is subscribed (or has given up for now): joining may go on
        # Per topic with viewers: the first state kept for the next viewer (until when), the messages heard (a read
        # begun before one is not kept), the read under way, whether each message is the whole state.
        self.states: dict[str, tuple[float, Message | None]] = {}
        self.heard: dict[str, int] = {}
        self.reading: dict[str, tuple[int, asyncio.Task[Message | None]]] = {}
        self.whole: set[str] = set()

    def dispatch(self, topic: str, payload: str) -> None:
        if '"link"' in payload:
            # A share link changed (switched off, made anew): links looked up before may no longer work, also in a
            # process with no viewer of this topic yet. (A false match only costs the next look-ups a read.)
            forget_lookups()
        queues = self.queues.get(topic)
        if not queues:
            return
        # Decoded once, and kept as received: each viewer's event carries the same text, not encoded again.
        message = Received(json.loads(payload))
        message.raw = payload
        self._changed(topic, message)
        for queue in queues:
            _offer(queue, message)

    def resync(self) -> None:
        """After Redis was out of reach, messages may have been lost: every viewer is told to look again."""
        for topic in list(self.queues):
            self._changed(topic, None)
        for queues in self.queues.values():
            for queue in queues:
                _offer(queue, {"resync": True})

    def _changed(self, topic: str, message: Message | None) -> None:
        self.heard[topic] = self.heard.get(topic, 0) + 1
        kept = self.states.pop(topic, None)
        whole = message is not None and topic in self.whole and "version" in message
        if whole and message is not None and not _older(message, kept[1] if kept else None):
            self.states[topic] = (time.monotonic() + STATE_SECONDS, message)

    async def first_state(self, topic: str, read: Callable[[], Message | None], whole: bool) -> Message | None:
        """The state kept for ``topic``'s viewers, or one read for all who ask before the next message."""
        if whole:
            self.whole.add(topic)
        kept = self.states.get(topic)
        if kept is not None and kept[0] > time.monotonic():
            return kept[1]
        heard = self.heard.get(topic, 0)
        under_way = self.reading.get(topic)
        if under_way is None or under_way[0] != heard:  # none, or begun before a message: it may be older
            under_way = (heard, self.loop.create_task(self._read_state(topic, read, heard)))
            self.reading[topic] = under_way
        # Shielded: a viewer who leaves meanwhile does not cancel the read the others wait for.
        return await asyncio.shield(under_way[1])

    async def _read_state(self, topic: str, read: Callable[[], Message | None], heard: int) -> Message | None:
        try:
            state = await read_database(read)
        finally:
            if self.reading.get(topic, (None,))[0] == heard:
                del self.reading[topic]
        # Nothing kept for a read that found nothing (a link revoked meanwhile): the next viewer reads again.
        if state is not None and topic in self.queues and self.heard.get(topic, 0) == heard:
            kept = self.states.get(topic)
            if kept is None or not _older(state, kept[1]):
                self.states[topic] = (time.monotonic() + STATE_SECONDS, state)
        return state

    async def join(self, topic: str, queue: asyncio.Queue[Message]) -> None:
        self.queues.setdefault(topic, set()).add(queue)
        if self.url and self.reader is None:
            self.reader = self.loop.create_task(self._read(), name="push-reader")
        if self.url:
            await self.ready.wait()

    async def leave(self, topic: str, queue: asyncio.Queue[Message]) -> None:
        queues = self.queues.get(topic, set())
        queues.discard(queue)
        if not queues:
            self.queues.pop(topic, None)
            for kept in (self.states, self.heard, self.reading):
                kept.pop(topic, None)
            self.whole.discard(topic)
        if self.queues:
            return
        # The last viewer of this loop has gone: close the Redis connection, forget the hub.
        _forget(self)
        reader, self.reader = self.reader, None
        if reader is not None:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reader

    async def _read(self) -> None:
        """Subscribe to every push channel once and dispatch what comes; reconnect (and resync) after an outage."""
        failures = 0
        while True:
            client = redis.asyncio.Redis.from_url(
                self.url, socket_connect_timeout=2, health_check_interval=30, client_name=f"talon-push-{os.getpid()}"
            )
            pubsub = client.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.psubscribe(CHANNEL_PREFIX + "*")
                if failures:
                    logger.warning("push: Redis reached again after %s failed attempts", failures)
                    self.resync()
                failures = 0
                self.ready.set()
                while True:
                    message = await pubsub.get_message(timeout=_READER_WAIT_SECONDS)
                    # Everything already waiting is read at once and only the newest of each topic handed on (as
                    # a viewer's queue keeps the newest): one message a loop fell behind a busy club night.
                    newest: dict[str, str] = {}
                    while message is not None:
                        if message["type"] == "pmessage":
                            newest[message["channel"].decode()[len(CHANNEL_PREFIX) :]] = message["data"].decode()
                        message = await pubsub.get_message(timeout=0)
                    for topic_name, payload in newest.items():
                        self.dispatch(topic_name, payload)
            except (redis.RedisError, OSError) as error:
                # Viewers keep listening meanwhile: they get this process's messages (publish falls back to them).
                self.ready.set()
                wait = _RECONNECT_SECONDS[min(failures, len(_RECONNECT_SECONDS) - 1)]
                failures += 1
                logger.warning("push: Redis out of reach (%s); trying again in %s s", error, wait)
                await asyncio.sleep(wait)
            finally:
                with contextlib.suppress(redis.RedisError, OSError):  # a broken connection may fail to close too
                    await pubsub.aclose()  # type: ignore[no-untyped-call]  # redis-py leaves it unannotated
                    await client.aclose()


def _older(state: Message | None, than: Message | None) -> bool:
    """Whether ``state`` was drawn from older books than ``than`` (both carrying a ``version``, which only grows)."""
    if not isinstance(state, dict) or not isinstance(than, dict):
        return False
    mine, theirs = state.get("version"), than.get("version")
    return isinstance(mine, list) and isinstance(theirs, list) and mine < theirs


def _offer(queue: asyncio.Queue[Message], message: Message) -> None:
    """Queue a message for one viewer; a full queue (a slow viewer) is emptied first, keeping the newest only."""
    if queue.full():
        while not queue.empty():
            queue.get_nowait()
    queue.put_nowait(message)


_hubs_lock = threading.Lock()
_hubs: dict[asyncio.AbstractEventLoop, _Hub] = {}


def _hub_here() -> _Hub:
    loop = asyncio.get_running_loop()
    with _hubs_lock:
        hub = _hubs.get(loop)
        if hub is None:
            hub = _hubs[loop] = _Hub(loop, push_url())
        return hub


def _forget(hub: _Hub) -> None:
    with _hubs_lock:
        if _hubs.get(hub.loop) is hub:
            del _hubs[hub.loop]


def _hubs_listening() -> list[_Hub]:
    with _hubs_lock:
        return list(_hubs.values())


class Subscription:
    """One viewer's messages on one topic: iterate it, or ``await next_message(timeout)``."""

    def __init__(self, queue: asyncio.Queue[Message]) -> None:
        self._queue = queue

    async def next_message(self, timeout: float | None = None) -> Message | None:
        """The next message, or None after ``timeout`` seconds without one."""
        try:
            async with asyncio.timeout(timeout):
                return await self._queue.get()
        except TimeoutError:
            return None

    def __aiter__(self) -> AsyncIterator[Message]:
        return self._messages()

    async def _messages(self) -> AsyncIterator[Message]:
        while True:
            yield await self._queue.get()


@contextlib.asynccontextmanager
async def subscription(topic: str) -> AsyncIterator[Subscription]:
    """Listen to ``topic`` from the moment this is entered: read the current state *inside* it, and no change
    made after that reading can be missed."""
    queue: asyncio.Queue[Message] = asyncio.Queue(maxsize=QUEUE_SIZE)
    hub = _hub_here()
    try:
        await hub.join(topic, queue)
        yield Subscription(queue)
    finally:
        await hub.leave(topic, queue)


async def listen(topic: str) -> AsyncIterator[Message]:
    """Every message on ``topic`` from the first iteration on (a shorthand for ``subscription``)."""
    async with subscription(topic) as messages:
        async for message in messages:
            yield message


class Received(dict[str, Any]):
    """A message as it came through Redis, with its JSON text (``raw``) to send on as it is."""

    raw: str = ""


# --------------------------------------------------------------------------------------------------------------
# What a viewer hears first, and a changed link


async def first_state(topic: str, read: Callable[[], Message | None], *, whole: bool = False) -> Message | None:
    """The state a viewer of ``topic`` is sent first; call it once subscribed. Read (``read()``) once for all the
    viewers who ask until the next message on the topic, which ends it (``whole``: a message on the topic that
    carries a ``version`` is the whole state, and becomes the next viewers' first state). Without a subscription
    here (WSGI), just read."""
    with _hubs_lock:
        hub = _hubs.get(asyncio.get_running_loop())
    if hub is None or topic not in hub.queues:
        return await read_database(read)
    return await hub.first_state(topic, read, whole)


def link_changed(topic: str, token: str | None) -> None:
    """After the commit, tell ``topic``'s lines that the link that works is now ``token`` (None: none): the lines
    opened through another link end (``streams.event_stream``)."""
    transaction.on_commit(functools.partial(publish, topic, link_message(token)), robust=True)
