"""Races on PostgreSQL: work run on a thread of its own (its own connection), and a wait that proves another
connection is blocked on a row lock (not merely slow) before the test goes on."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from django.db import connection

TIMEOUT = 20


class Background:
    """``work()`` running on a thread with its own database connection; ``finish()`` waits for it and re-raises."""

    def __init__(self, work: Callable[[], Any]) -> None:
        self.failures: list[BaseException] = []
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(work,))
        self.thread.start()

    def _run(self, work: Callable[[], Any]) -> None:
        try:
            work()
        except BaseException as error:
            self.failures.append(error)
        finally:
            connection.close()
            self.done.set()

    def finish(self) -> None:
        assert self.done.wait(TIMEOUT), "the work on the other connection never ended"
        self.thread.join(TIMEOUT)
        if self.failures:
            raise self.failures[0]


def waiting_for_a_lock() -> int:
    """How many other connections to the test database wait for a row lock right now."""
    with connection.cursor() as cursor:
        # Inside a transaction PostgreSQL keeps the first snapshot of its statistics: ask for a fresh one.
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
        )
        return int(cursor.fetchone()[0])


def until_waiting_for_a_lock(count: int = 1) -> None:
    """Wait until ``count`` other connections wait for a row lock; fail at the deadline."""
    deadline = time.monotonic() + TIMEOUT
    while waiting_for_a_lock() < count:
        assert time.monotonic() < deadline, f"fewer than {count} connection(s) ever waited for a lock"
        time.sleep(0.02)
