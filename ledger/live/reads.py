"""The database behind the live lines: a few reads at a time per process, none per viewer.

A live line costs no database connection of its own: every read it needs (the first state, the link it was opened
through) goes through a gate of ``DATABASE_READS`` at a time per process (per event loop), on a connection closed
at once. However many viewers arrive together, their lines hold that many database connections at most.
"""

from __future__ import annotations

import asyncio
import threading
import weakref
from collections.abc import Callable
from typing import Any, TypeVar

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.db import connection

DATABASE_READS = 4  # first states and link look-ups read at once per process, each on a connection closed after it

T = TypeVar("T")


class Reads:
    """One event loop's gate on the database, and the link look-ups under way in it (``links.looked_up``)."""

    def __init__(self) -> None:
        self.gate = asyncio.Semaphore(DATABASE_READS)
        self.pending: dict[str, asyncio.Task[Any]] = {}


_reads_lock = threading.Lock()
_reads: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Reads] = weakref.WeakKeyDictionary()


def reads_here() -> Reads:
    """The running event loop's gate."""
    loop = asyncio.get_running_loop()
    with _reads_lock:
        found = _reads.get(loop)
        if found is None:
            found = _reads[loop] = Reads()
        return found


async def read_database(read: Callable[[], T]) -> T:
    """``read()`` (sync: the ORM) among at most ``DATABASE_READS`` at once in this process, on a thread of its own
    whose connection is closed when it is done. However many viewers arrive at once, their lines hold that many
    database connections at most, and only while reading; the others wait here, holding no thread."""
    # Not the request's thread: under ASGI a thread for this read alone (it ends after it), in tests and under WSGI
    # the calling thread (its transaction, its connection: left open, see _read_and_close).
    async with reads_here().gate, ThreadSensitiveContext():
        return await sync_to_async(_read_and_close)(read)


def _read_and_close(read: Callable[[], T]) -> T:
    opened_here = connection.connection is None
    try:
        return read()
    finally:
        if opened_here:
            release_database()


def release_database() -> None:
    """Close this thread's database connection, unless it is inside a transaction (a test's), which is not ours."""
    if not connection.in_atomic_block:
        connection.close()
