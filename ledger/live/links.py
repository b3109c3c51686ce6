"""The links a live line is opened through (an evening's share link, a tournament's standings link).

``looked_up`` finds what a link shows once for the viewers arriving together and keeps it a few seconds for the
next; ``forget_lookups`` drops everything kept when a link changes. ``link_message`` is what a topic's lines hear
when their link changes: a line opened through another link then ends (``streams.event_stream``).
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

from ledger.live.reads import Reads, read_database, reads_here

LOOKUP_SECONDS = 3.0  # a link found (token -> what it shows) serves the viewers arriving this long after
_LOOKUPS_KEPT = 1000

T = TypeVar("T")

_lookups_lock = threading.Lock()
_lookups: OrderedDict[str, tuple[float, Any]] = OrderedDict()  # key -> (kept until, what was found)


def forget_lookups() -> None:
    """Drop every link looked up: a share link changed, and one kept may no longer open anything."""
    with _lookups_lock:
        _lookups.clear()


def link_message(token: str | None) -> dict[str, Any]:
    """What a topic's lines hear when its share link changes: a digest of the link that works now (None: none),
    never the token itself, which would reach every process's hub through Redis."""
    return {"link": None if token is None else hashlib.sha256(token.encode()).hexdigest()[:24]}


async def looked_up(key: str, read: Callable[[], T | None]) -> T | None:
    """What a link shows (``read()``: a share token's evening or tournament), read once for the viewers arriving
    together and kept ``LOOKUP_SECONDS`` for the next; a link not found is not kept (nothing to keep for guesses),
    and a link switched off meanwhile stops opening lines within those seconds."""
    with _lookups_lock:
        found = _lookups.get(key)
        if found is not None and found[0] > time.monotonic():
            return found[1]  # type: ignore[no-any-return]
    reads = reads_here()
    task = reads.pending.get(key)
    if task is None:
        task = asyncio.get_running_loop().create_task(read_database(read))
        reads.pending[key] = task
        task.add_done_callback(functools.partial(_looked, reads, key))
    return await asyncio.shield(task)


def _looked(reads: Reads, key: str, task: asyncio.Task[Any]) -> None:
    if reads.pending.get(key) is task:
        del reads.pending[key]
    if task.cancelled() or task.exception() is not None or task.result() is None:
        return
    with _lookups_lock:
        _lookups[key] = (time.monotonic() + LOOKUP_SECONDS, task.result())
        _lookups.move_to_end(key)
        while len(_lookups) > _LOOKUPS_KEPT:
            _lookups.popitem(last=False)
