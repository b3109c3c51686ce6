"""Web Push: a notification to the phones that opted in, also when Talon's page is not open on them.

``notify`` is what other features call ("Hand #9 needs your OK"): it finds the opted-in subscriptions of the
phones and accounts named, and after the caller's commit hands one send per subscription to a small pool of
threads, so neither the caller's transaction nor the answer to its request waits for a push service. Each send is
encrypted for the browser (RFC 8291, aes128gcm) and signed with the server's VAPID key (RFC 8292) by pywebpush,
with a short timeout; a push service answering 404 or 410 says the browser dropped the subscription, which is then
switched off. Failures are logged and written on the subscription (its ``last_error``), never raised.
"""

from __future__ import annotations

import functools
import json
import logging
import os
import queue
import re
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import requests
from django.conf import settings
from django.db import connections, transaction
from django.db.models import Q
from django.utils import timezone
from py_vapid import Vapid  # type: ignore[import-untyped]
from pywebpush import WebPushException, webpush  # type: ignore[import-untyped]

from ledger.devices.models import PushSubscription

log = logging.getLogger(__name__)

TIMEOUT = 5.0  # seconds for one push service to answer; a slow one holds one of the pool's threads that long
WORKERS = 2  # sends at once, per process
MAX_WAITING = 500  # sends queued in a process at once; past it new ones are dropped (and logged), not queued
TTL = 12 * 3600  # how long a push service keeps a message for a phone that is off or asleep: an evening
GONE = {404, 410}  # the push service no longer knows the subscription (the browser dropped it)
_TOPIC = re.compile(r"^[A-Za-z0-9_-]{1,32}$")  # RFC 8030 Topic: a newer message with it replaces one undelivered


@dataclass(frozen=True)
class Message:
    title: str
    body: str
    url: str
    tag: str

    def payload(self) -> str:
        """What the service worker's push handler reads (static/js/sw.js)."""
        message = {"title": self.title[:120], "body": self.body[:1000], "url": self.url, "tag": self.tag[:64]}
        return json.dumps(message, ensure_ascii=False)


@dataclass(frozen=True)
class _Target:
    subscription_id: int
    endpoint: str
    p256dh: str
    auth: str


def enabled() -> bool:
    """Push is on when the server has its VAPID key pair (config/settings.py)."""
    return bool(settings.WEBPUSH_VAPID_PUBLIC_KEY and settings.WEBPUSH_VAPID_PRIVATE_KEY)


def notify(*, devices: Iterable[str] = (), users: Iterable[int] = (), title: str, body: str, url: str, tag: str) -> int:
    """Send ``title`` and ``body`` to every opted-in subscription of the phones ``devices`` (device hashes) and the
    accounts ``users`` (ids), after the caller's commit (never for work rolled back); tapping it opens ``url`` (a
    path on this site); ``tag`` names what it is about, so a newer notification with the same tag replaces the
    older on the phone. Answers how many subscriptions it queued: 0 with push off or nobody opted in."""
    devices, users = [device for device in devices if device], [user for user in users if user]
    if not enabled() or not (devices or users):
        return 0
    rows = (
        PushSubscription.objects.active()
        .filter(Q(device__in=devices) | Q(user_id__in=users))
        .values_list("pk", "endpoint", "p256dh", "auth")
    )
    targets = [_Target(*row) for row in rows]
    if targets:
        message = Message(title=title, body=body, url=url, tag=tag)
        transaction.on_commit(functools.partial(_queue, targets, message), robust=True)
    return len(targets)


def wait_for_sends(timeout: float = 30.0) -> None:
    """Wait until every send queued so far is done (its outcome written): for tests and ``manage.py`` commands,
    which would otherwise end before the pool's threads."""
    deadline = time.monotonic() + timeout
    with _sends.all_tasks_done:
        while _sends.unfinished_tasks:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{_sends.unfinished_tasks} Web Push sends still running after {timeout} s")
            _sends.all_tasks_done.wait(left)


# --------------------------------------------------------------------------------------------------------------
# The pool: WORKERS daemon threads taking sends from a bounded queue. Daemons, so that a server's restart is not
# held up by sends to a slow push service (those still waiting are dropped: a notification is not a record).

_sends: queue.Queue[tuple[_Target, Message]] = queue.Queue(maxsize=MAX_WAITING)
_lock = threading.Lock()
_workers: list[threading.Thread] = []
_workers_pid = 0
_local = threading.local()


def _queue(targets: list[_Target], message: Message) -> None:
    _start_workers()
    for target in targets:
        try:
            _sends.put_nowait((target, message))
        except queue.Full:
            log.warning("Web Push: %d sends waiting; subscription %s skipped", MAX_WAITING, target.subscription_id)


def _start_workers() -> None:
    """Started on first use, in the process that sends: threads do not survive a fork (a server's workers)."""
    global _workers_pid
    with _lock:
        if _workers_pid != os.getpid():
            _workers.clear()
            _workers_pid = os.getpid()
        _workers[:] = [worker for worker in _workers if worker.is_alive()]
        while len(_workers) < WORKERS:
            worker = threading.Thread(target=_work, name=f"webpush-{len(_workers)}", daemon=True)
            worker.start()
            _workers.append(worker)


def _work() -> None:
    while True:
        target, message = _sends.get()
        try:
            _send_logged(target, message)
        finally:
            _sends.task_done()


def _send(target: _Target, message: Message) -> None:
    try:
        _post(target, message)
    except WebPushException as error:
        status = error.status_code
        gone = status in GONE
        reason = f"{status}: the push service no longer knows this browser" if gone else str(error.message)
        log.warning("Web Push to subscription %s refused: %s", target.subscription_id, reason)
        _record(target, failed=reason, gone=gone)
    except (requests.RequestException, ValueError, TypeError) as error:
        log.warning("Web Push to subscription %s failed: %r", target.subscription_id, error)
        _record(target, failed=repr(error))
    else:
        _record(target)
    finally:
        connections.close_all()  # this thread's own connection: the pool does not keep one open per thread


def _send_logged(target: _Target, message: Message) -> None:
    """A send whose failure of any kind (the database gone too) is logged: nobody waits for the pool's answers."""
    try:
        _send(target, message)
    except Exception:
        log.exception("Web Push to subscription %s: the outcome was not recorded", target.subscription_id)


def _post(target: _Target, message: Message) -> None:
    headers: dict[str, Any] = {"Urgency": "high"}  # a hand waiting for a tap: woken now, not in a batch later
    if _TOPIC.match(message.tag):
        headers["Topic"] = message.tag
    webpush(
        {"endpoint": target.endpoint, "keys": {"p256dh": target.p256dh, "auth": target.auth}},
        data=message.payload(),
        vapid_private_key=_vapid(settings.WEBPUSH_VAPID_PRIVATE_KEY),
        vapid_claims={"sub": settings.WEBPUSH_SUBJECT},  # a new dict each time: pywebpush writes the audience in
        timeout=TIMEOUT,
        ttl=TTL,
        headers=headers,
        requests_session=_session(),
    )


def _record(target: _Target, *, failed: str = "", gone: bool = False) -> None:
    subscriptions = PushSubscription.objects.filter(pk=target.subscription_id)
    if not failed:
        subscriptions.update(last_sent_at=timezone.now(), last_error="")
    elif gone:
        subscriptions.update(active=False, last_error=failed[:200])
    else:
        subscriptions.update(last_error=failed[:200])


@functools.cache
def _vapid(private_key: str) -> Any:
    return Vapid.from_string(private_key=private_key)


def _session() -> requests.Session:
    """One HTTP session per pool thread (a Session is not shared between threads): the push service's connection
    is kept between sends."""
    session: requests.Session | None = getattr(_local, "session", None)
    if session is None:
        session = _local.session = requests.Session()
    return session
