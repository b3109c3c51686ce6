"""Revoking a share link ends the live lines opened through it (``services.evening_share_reset``, ``ledger.live``).

Personas: Alice keeps score and switches the link off or makes a new one; Bob's phone had the old link open.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.test import AsyncClient, override_settings
from django.urls import reverse

from ledger import services
from ledger.live import fanout, links

WAIT = 5.0


def _stream_url(token: str) -> str:
    return reverse("ledger:shared_stream", args=[token])


@pytest.mark.parametrize("enabled", [True, False], ids=["renewed", "switched-off"])
def test_a_revoked_link_ends_its_open_live_line(snapser_table, django_capture_on_commit_callbacks, enabled):
    evening = snapser_table.evening
    old = evening.share_token

    def revoke() -> None:
        with django_capture_on_commit_callbacks(execute=True):
            services.evening_share_reset(evening=evening, enabled=enabled)

    async def scenario() -> tuple[bytes, bytes, bool]:
        response = await AsyncClient().get(_stream_url(old))
        assert response.status_code == 200
        stream = response.streaming_content
        try:
            await asyncio.wait_for(anext(stream), WAIT)  # the page's state
            await sync_to_async(revoke)()
            told = await asyncio.wait_for(anext(stream), WAIT)
            # A hand stored afterwards never reaches the old link: the line has ended.
            fanout.publish(fanout.evening_topic(evening.pk), {"table": snapser_table.pk, "revision": 9, "hands": 2})
            try:
                after = await asyncio.wait_for(anext(stream), WAIT)
            except StopAsyncIteration:
                return told, b"", True
            return told, after, False
        finally:
            await stream.aclose()

    with override_settings(PUSH_URL=""):
        told, after, ended = async_to_sync(scenario)()
    assert told == b'id: 1\ndata: {"gone":true}\n\n'
    assert ended and after == b""


def test_the_line_of_the_link_that_works_hears_on(snapser_table):
    """A link message naming the line's own link (another process renewed nothing, or a retry) is not passed on
    and does not end the line."""
    evening = snapser_table.evening
    token = evening.share_token

    async def scenario() -> bytes:
        response = await AsyncClient().get(_stream_url(token))
        stream = response.streaming_content
        try:
            await asyncio.wait_for(anext(stream), WAIT)
            fanout.publish(fanout.evening_topic(evening.pk), links.link_message(token))
            fanout.publish(fanout.evening_topic(evening.pk), {"table": snapser_table.pk, "revision": 9, "hands": 2})
            return await asyncio.wait_for(anext(stream), WAIT)  # type: ignore[no-any-return]
        finally:
            await stream.aclose()

    with override_settings(PUSH_URL=""):
        heard = async_to_sync(scenario)()
    assert heard == f'id: 1\ndata: {{"table":{snapser_table.pk},"revision":9,"hands":2}}\n\n'.encode()


def test_the_message_names_no_token(snapser_table, monkeypatch, django_capture_on_commit_callbacks):
    sent: list[tuple[str, dict[str, Any]]] = []
    monkeypatch.setattr(fanout, "publish", lambda topic, data: sent.append((topic, data)))
    evening = snapser_table.evening
    with django_capture_on_commit_callbacks(execute=True):
        services.evening_share_reset(evening=evening)
    ((topic, data),) = sent
    assert topic == f"evening:{evening.pk}" and data == links.link_message(evening.share_token)
    assert evening.share_token not in str(data) and data["link"]
    assert links.link_message(None) == {"link": None}


def test_a_link_revoked_while_its_line_opens_ends_it(snapser_table, monkeypatch, django_capture_on_commit_callbacks):
    """Revoked after the view found the link but before the line listened: the link's message came too early for
    it, so the line finds the link gone when it reads its first state, and ends."""
    evening = snapser_table.evening
    token = evening.share_token
    looked_up = links.looked_up

    def revoke() -> None:
        with django_capture_on_commit_callbacks(execute=True):
            services.evening_share_reset(evening=evening, enabled=False)

    async def found_then_revoked(key: str, read: Any) -> Any:
        found = await looked_up(key, read)
        await sync_to_async(revoke)()
        return found

    monkeypatch.setattr(links, "looked_up", found_then_revoked)

    async def scenario() -> list[bytes]:
        response = await AsyncClient().get(_stream_url(token))
        assert response.status_code == 200
        stream = response.streaming_content
        try:
            return [chunk async for chunk in stream]
        finally:
            await stream.aclose()

    with override_settings(PUSH_URL=""):
        chunks = async_to_sync(asyncio.wait_for)(scenario(), WAIT)
    assert chunks == [b'retry: 3000\nid: 0\ndata: {"gone":true}\n\n']
