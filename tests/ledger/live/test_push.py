"""Server push (ledger/live: fanout.py, streams.py) and its first user, the share link's live line
(ledger/live/views.py).

Personas: Alice keeps score, Bob holds the share link, a stranger guesses one. The async parts run through
``async_to_sync`` from plain tests, so the view's database work comes back to the test's thread and transaction.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import threading
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
import redis
from asgiref.sync import ThreadSensitiveContext, async_to_sync, sync_to_async
from django.test import AsyncClient, override_settings
from django.urls import reverse

import rules
from ledger import hooks, services
from ledger.live import fanout, streams
from ledger.models import Table
from tests import factories
from tests.servers import need_redis

ROOT = Path(__file__).resolve().parents[3]
REDIS_URL = "redis://127.0.0.1:6379/1"
NOWHERE_URL = "redis://127.0.0.1:1/0"  # nothing listens there: Redis "down"
WAIT = 5.0  # seconds a message may take on a busy shared machine; a missing one fails after this


def _redis_or_skip() -> None:
    need_redis(REDIS_URL, "the fan-out across processes")


def _run(coroutine: Callable[[], Awaitable[Any]]) -> Any:
    return async_to_sync(coroutine)()


def _topic() -> str:
    return f"test:{uuid.uuid4().hex}"


@pytest.fixture(autouse=True)
def _fresh_push_state():
    fanout._redis_paused_until = 0.0  # a test of Redis being down leaves no pause behind
    yield
    assert not fanout._hubs, "a subscription was left open"


# --------------------------------------------------------------------------------------------------------------
# PUSH_URL and CONN_MAX_AGE (config/settings.py, config/asgi.py)


def _settings_say(expression: str, *, under_asgi: bool = False, **env: str) -> str:
    """What ``expression`` (on ``s``, the settings) is in a fresh process started with ``env``, or its last error."""
    clean = {k: v for k, v in os.environ.items() if k not in {"CACHE_URL", "PUSH_URL", "CONN_MAX_AGE"}}
    start = "import config.asgi; " if under_asgi else ""
    code = f"{start}from django.conf import settings as s; print({expression})"
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=clean | {"DJANGO_SETTINGS_MODULE": "config.settings", "SECRET_KEY": "k" * 50} | env,
        check=False,
    )
    return result.stdout.strip() or result.stderr.strip().splitlines()[-1]


@pytest.mark.parametrize(
    ("env", "push_url"),
    [
        ({}, ""),
        ({"CACHE_URL": "redis://10.0.0.5:6379/0"}, "redis://10.0.0.5:6379/0"),
        ({"CACHE_URL": "redis://10.0.0.5:6379/0", "PUSH_URL": ""}, ""),
        ({"PUSH_URL": "redis://10.0.0.6:6379/2"}, "redis://10.0.0.6:6379/2"),
    ],
)
def test_push_url_defaults_to_the_caches_redis(env, push_url):
    assert _settings_say("repr(s.PUSH_URL)", **env) == repr(push_url)


def test_a_push_url_that_is_not_redis_stops_the_start():
    said = _settings_say("s.PUSH_URL", PUSH_URL="amqp://10.0.0.5/")
    assert "PUSH_URL='amqp://10.0.0.5/': expected redis://host:port/db" in said


def test_the_asgi_server_keeps_no_database_connection_between_requests():
    postgres = {"DATABASE_URL": "postgres://u@db/talon"}  # SQLite never keeps one
    assert _settings_say("s.DATABASES['default']['CONN_MAX_AGE']", **postgres) == "60"
    assert _settings_say("s.DATABASES['default']['CONN_MAX_AGE']", under_asgi=True, **postgres) == "0"


# --------------------------------------------------------------------------------------------------------------
# publish / listen in one process


@override_settings(PUSH_URL="")
def test_a_viewer_hears_what_is_published_on_its_topic_only():
    topic, other = _topic(), _topic()

    async def scenario():
        async with fanout.subscription(topic) as messages:
            fanout.publish(other, {"hands": 99})
            fanout.publish(topic, {"hands": 1})
            return await messages.next_message(WAIT), await messages.next_message(0.2)

    assert _run(scenario) == ({"hands": 1}, None)


@override_settings(PUSH_URL="")
def test_sync_code_in_another_thread_publishes_into_the_viewers_loop():
    topic = _topic()

    async def scenario():
        async with fanout.subscription(topic) as first, fanout.subscription(topic) as second:
            await asyncio.to_thread(fanout.publish, topic, {"table": 7, "revision": 3})
            return await first.next_message(WAIT), await second.next_message(WAIT)

    assert _run(scenario) == ({"table": 7, "revision": 3}, {"table": 7, "revision": 3})


@override_settings(PUSH_URL="")
def test_listen_yields_the_messages_in_order():
    topic = _topic()

    async def scenario():
        stream = fanout.listen(topic)
        waiting = asyncio.ensure_future(anext(stream))
        await asyncio.sleep(0.05)  # the generator has subscribed and waits
        fanout.publish(topic, {"n": 1})
        fanout.publish(topic, {"n": 2})
        got = [await asyncio.wait_for(waiting, WAIT), await asyncio.wait_for(anext(stream), WAIT)]
        await stream.aclose()
        return got

    assert _run(scenario) == [{"n": 1}, {"n": 2}]


@override_settings(PUSH_URL="")
def test_a_slow_viewer_keeps_the_newest_messages_not_all_of_them():
    topic = _topic()

    async def scenario():
        async with fanout.subscription(topic) as messages:
            for n in range(3 * fanout.QUEUE_SIZE):
                fanout.publish(topic, {"n": n})
            await asyncio.sleep(0.05)  # every delivery has run; the viewer read nothing meanwhile
            got = []
            while (message := await messages.next_message(0.1)) is not None:
                got.append(message["n"])
            return got

    got = _run(scenario)
    assert 1 <= len(got) <= fanout.QUEUE_SIZE
    assert got[-1] == 3 * fanout.QUEUE_SIZE - 1 and got == sorted(got)


def test_data_that_is_not_json_is_refused_before_it_goes_anywhere():
    with pytest.raises(TypeError):
        fanout.publish(_topic(), {"amount": object()})


# --------------------------------------------------------------------------------------------------------------
# Through Redis: any number of processes


@override_settings(PUSH_URL=REDIS_URL)
def test_through_redis_every_viewer_of_the_topic_hears_it_on_one_connection():
    _redis_or_skip()
    topic, other = _topic(), _topic()
    name = f"talon-push-{os.getpid()}"

    async def scenario():
        async with (
            fanout.subscription(topic) as first,
            fanout.subscription(topic) as second,
            fanout.subscription(other) as third,
        ):
            # As another app process would: straight into Redis, not through this process's viewers.
            redis.Redis.from_url(REDIS_URL).publish(fanout.CHANNEL_PREFIX + topic, json.dumps({"hands": 4}))
            got = [await first.next_message(WAIT), await second.next_message(WAIT), await third.next_message(0.3)]
            clients = redis.Redis.from_url(REDIS_URL).client_list()
            return got, sum(1 for client in clients if client.get("name") == name)

    got, connections = _run(scenario)
    assert got == [{"hands": 4}, {"hands": 4}, None]
    assert connections == 1  # three viewers, two topics: one pub/sub connection


@override_settings(PUSH_URL=REDIS_URL)
def test_publish_goes_through_redis():
    _redis_or_skip()
    topic = _topic()
    outside = redis.Redis.from_url(REDIS_URL).pubsub()
    outside.subscribe(fanout.CHANNEL_PREFIX + topic)
    try:
        assert outside.get_message(timeout=WAIT)["type"] == "subscribe"  # listening before the publish
        fanout.publish(topic, {"revision": 12})
        message = outside.get_message(timeout=WAIT)
    finally:
        outside.close()
    assert message is not None and json.loads(message["data"]) == {"revision": 12}


@override_settings(PUSH_URL=REDIS_URL)
def test_after_losing_redis_a_viewer_is_told_to_look_again_and_hears_on(caplog):
    _redis_or_skip()
    topic = _topic()
    admin = redis.Redis.from_url(REDIS_URL)

    async def scenario():
        async with fanout.subscription(topic) as messages:
            (reader,) = [c for c in admin.client_list() if c.get("name") == f"talon-push-{os.getpid()}"]
            admin.client_kill_filter(_id=reader["id"])  # as when Redis restarts
            told = await messages.next_message(WAIT)  # after the reconnection (0.5 s)
            admin.publish(fanout.CHANNEL_PREFIX + topic, json.dumps({"hands": 5}))
            return told, await messages.next_message(WAIT)

    assert _run(scenario) == ({"resync": True}, {"hands": 5})
    assert "Redis reached again" in caplog.text


@override_settings(PUSH_URL=NOWHERE_URL)
def test_with_redis_down_the_viewers_of_this_process_still_hear_it(caplog):
    topic = _topic()

    async def scenario():
        async with fanout.subscription(topic) as messages:
            fanout.publish(topic, {"hands": 2})  # must not raise: it runs after a hand was committed
            return await messages.next_message(WAIT)

    assert _run(scenario) == {"hands": 2}
    assert "Redis did not take a message" in caplog.text


# --------------------------------------------------------------------------------------------------------------
# The share link's live line


def _stream_url(token: str) -> str:
    return reverse("ledger:shared_stream", args=[token])


async def _open(url: str) -> tuple[Any, Any]:
    response = await AsyncClient().get(url)
    return response, (response.streaming_content if response.status_code == 200 else None)


def test_the_live_line_starts_with_the_page_state_then_carries_each_message(snapser_table):
    factories.record(snapser_table)
    evening = snapser_table.evening

    async def scenario():
        response, stream = await _open(_stream_url(evening.share_token))
        try:
            first = await asyncio.wait_for(anext(stream), WAIT)
            fanout.publish(fanout.evening_topic(evening.pk), {"table": snapser_table.pk, "revision": 9, "hands": 2})
            second = await asyncio.wait_for(anext(stream), WAIT)
        finally:
            await stream.aclose()
        return response, first.decode(), second.decode()

    with override_settings(PUSH_URL=""):
        response, first, second = _run(scenario)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/event-stream"
    assert response["Cache-Control"] == "no-cache" and response["X-Accel-Buffering"] == "no"
    snapser_table.refresh_from_db()
    # The state: status, sum of the revisions, tables, last table, last history event, and what features add (the
    # newest confirmation and signature, hooks.evening_changes): the share page's ETag.
    state = f"open-{snapser_table.revision}-1-{snapser_table.pk}-None-None-None"
    assert first == f'retry: 3000\nid: 0\ndata: {{"state":"{state}"}}\n\n'
    assert second == f'id: 1\ndata: {{"table":{snapser_table.pk},"revision":9,"hands":2}}\n\n'


def test_an_idle_live_line_sends_a_heartbeat(snapser_table, monkeypatch):
    monkeypatch.setattr(streams, "HEARTBEAT_SECONDS", 0.05)

    async def scenario():
        _, stream = await _open(_stream_url(snapser_table.evening.share_token))
        try:
            await anext(stream)
            return await asyncio.wait_for(anext(stream), WAIT)
        finally:
            await stream.aclose()

    with override_settings(PUSH_URL=""):
        assert _run(scenario) == b": heartbeat\n\n"


def test_a_switched_off_or_guessed_link_has_no_live_line(snapser_table):
    evening = snapser_table.evening
    old = evening.share_token
    services.evening_share_reset(evening=evening)  # a new link: the old one stops working
    new = evening.share_token

    async def statuses():
        return [(await _open(_stream_url(token)))[0].status_code for token in (old, "x" * 22, new)]

    assert _run(statuses) == [404, 404, 200]  # the new one works (and its stream is closed by _open's caller: none)


def test_under_wsgi_the_live_line_is_the_first_state_alone(client, snapser_table):
    response = client.get(_stream_url(snapser_table.evening.share_token))
    assert response.status_code == 200 and response["Content-Type"] == "text/event-stream"
    body = b"".join(response.streaming_content).decode()  # ends: EventSource reconnects after "retry"
    assert body.startswith('retry: 3000\nid: 0\ndata: {"state":"open-') and body.count("data:") == 1


def test_the_share_page_names_its_live_line(client, snapser_table):
    token = snapser_table.evening.share_token
    html = client.get(reverse("ledger:shared_evening", args=[token])).content.decode()
    assert f'data-stream="{_stream_url(token)}"' in html


def test_an_idle_live_line_lets_the_request_thread_go():
    """Under ASGI Django runs a request's sync parts on a thread kept until the answer ends: for a live line, as
    long as the viewer stays (bench/push.py: about 100 KiB more per idle viewer with it)."""
    threads: list[threading.Thread] = []

    async def scenario():
        async with ThreadSensitiveContext():  # as Django's ASGIHandler runs each request
            await sync_to_async(lambda: threads.append(threading.current_thread()))()  # the middleware, the query
            streams._release_request_thread()
            await sync_to_async(lambda: threads.append(threading.current_thread()))()  # response.close() at the end

    asyncio.run(scenario())
    first, later = threads
    first.join(WAIT)
    assert not first.is_alive() and later is not first and later is not threading.main_thread()


# --------------------------------------------------------------------------------------------------------------
# Hands publish after the commit, once


@pytest.fixture
def published(monkeypatch):
    sent: list[tuple[str, dict[str, Any]]] = []
    monkeypatch.setattr(fanout, "publish", lambda topic, data: sent.append((topic, data)))
    return sent


def test_a_recorded_hand_is_published_once_after_the_commit(
    snapser_table, published, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        factories.record(snapser_table)
        assert published == []  # not before the commit
    for callback in callbacks:
        callback()
    table = Table.objects.get(pk=snapser_table.pk)
    assert published == [
        (f"evening:{table.evening_id}", {"table": table.pk, "revision": table.revision, "hands": 1}),
    ]


def test_a_corrected_voided_and_restored_hand_is_published_once_each(
    snapser_table, published, django_capture_on_commit_callbacks
):
    hand = factories.record(snapser_table)[0]
    published.clear()
    alice = snapser_table.evening.owner
    corrected = {**factories.SNAPSER_N1, "result": "bez_vody"}
    with django_capture_on_commit_callbacks(execute=True):
        hand = services.hand_correct(hand=hand, document=corrected, by=alice, version=hand.version)
    with django_capture_on_commit_callbacks(execute=True):
        hand = services.hand_void(hand=hand, by=alice, version=hand.version)
    with django_capture_on_commit_callbacks(execute=True):
        services.hand_restore(hand=hand, by=alice, version=hand.version)
    table = Table.objects.get(pk=snapser_table.pk)
    assert [data["revision"] for _, data in published] == [table.revision - 2, table.revision - 1, table.revision]
    assert {data["hands"] for _, data in published} == {1}


def test_a_refused_hand_publishes_nothing(snapser_table, published, django_capture_on_commit_callbacks):
    alice = snapser_table.evening.owner
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        with pytest.raises(rules.RulesError):
            services.hand_record(table=snapser_table, hand={"declarer": "Nobody"}, by=alice)
        services.evening_close(evening=snapser_table.evening, by=alice)
        with pytest.raises(services.EveningClosed):  # refused inside the transaction, after the table's lock
            factories.record(snapser_table)
    # Nothing for the live lines; what runs after the close is the features' hearing of it (hooks.evening_closed).
    assert published == []
    assert all(getattr(callback, "args", (None,))[0].__class__ is hooks.ClosedEvening for callback in callbacks)


@override_settings(PUSH_URL=REDIS_URL)
def test_a_hand_stored_reaches_a_viewer_through_redis(snapser_table, django_capture_on_commit_callbacks):
    _redis_or_skip()
    topic = fanout.evening_topic(snapser_table.evening_id)

    def record() -> None:
        with django_capture_on_commit_callbacks(execute=True):
            factories.record(snapser_table)

    async def scenario():
        async with fanout.subscription(topic) as messages:
            await sync_to_async(record)()
            return await messages.next_message(WAIT)

    message = _run(scenario)
    table = Table.objects.get(pk=snapser_table.pk)
    assert message == {"table": table.pk, "revision": table.revision, "hands": 1}
