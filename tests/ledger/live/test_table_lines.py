"""The live lines of a table's phones (ledger/seats/streams.py): the seated phone's and the scorekeeper's table
page's, on the evening's topic. They start with the table's state and carry each change of the evening: a hand
another phone recorded, a seat taken.

Personas: Alice keeps score (her table page's line); Ben's phone holds Ben's seat; a stranger's phone and Charlie
get 404.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.conf import settings
from django.test import AsyncClient, Client, override_settings
from django.urls import reverse

from ledger.devices.phone import COOKIE
from ledger.live import fanout
from ledger.seats import selectors
from tests import factories
from tests.ledger.seats.support import claim, new_device

WAIT = 5.0


@pytest.fixture(autouse=True)
def _no_redis():
    with override_settings(PUSH_URL=""):
        yield
    assert not fanout._hubs, "a subscription was left open"


def _seat_line(table_id: int) -> str:
    return reverse("seats:seat_stream", args=[table_id])


def _table_line(table_id: int) -> str:
    return reverse("seats:table_stream", args=[table_id])


def _session_of(user: Any) -> dict[str, str]:
    client = Client()
    client.force_login(user)
    return {settings.SESSION_COOKIE_NAME: client.cookies[settings.SESSION_COOKIE_NAME].value}


def _events(url: str, cookies: dict[str, str], then: Any = None, count: int = 2) -> tuple[int, list[dict[str, Any]]]:
    """Open the line with ``cookies``, read its first event, run ``then`` (sync), read the next ``count - 1``."""

    async def scenario() -> tuple[int, list[dict[str, Any]]]:
        client = AsyncClient()
        for name, value in cookies.items():
            client.cookies[name] = value
        response = await client.get(url)
        if response.status_code != 200:
            return response.status_code, []
        stream = response.streaming_content
        read: list[dict[str, Any]] = []
        try:
            for number in range(count):
                if number == 1 and then is not None:
                    await sync_to_async(then)()
                chunk = (await asyncio.wait_for(anext(stream), WAIT)).decode()
                read.append(json.loads(chunk.split("data: ", 1)[1]))
        finally:
            await stream.aclose()
        return response.status_code, read

    return async_to_sync(scenario)()


def test_the_seated_phone_s_line_starts_with_the_table_state_and_hears_a_hand(
    snapser_table, django_capture_on_commit_callbacks
):
    device = new_device()
    claim(snapser_table, 1, device)

    def record() -> None:
        with django_capture_on_commit_callbacks(execute=True):
            factories.record(snapser_table)

    status, (first, heard) = _events(_seat_line(snapser_table.pk), {COOKIE: device}, then=record)
    assert status == 200
    # The revision, the seats' stamp, and after "|" the features' (the newest confirmation and signature: none yet).
    assert first == {"table": snapser_table.pk, "state": f"0:{selectors.seats_stamp(snapser_table.pk)}|None.None"}
    assert heard == {"table": snapser_table.pk, "revision": 1, "hands": 1}


def test_the_scorekeeper_s_line_hears_a_phone_taking_a_seat(snapser_table, alice, django_capture_on_commit_callbacks):
    def ben_sits() -> None:
        with django_capture_on_commit_callbacks(execute=True):
            claim(snapser_table, 1, new_device())

    status, (first, heard) = _events(_table_line(snapser_table.pk), _session_of(alice), then=ben_sits)
    assert status == 200 and first["state"] == "0:0.0.0|None.None"
    assert heard == {"table": snapser_table.pk, "seats": True}
    assert selectors.seats_stamp(snapser_table.pk) == "1.0.1"


def test_strangers_have_no_line(snapser_table, charlie):
    claim(snapser_table, 1, new_device())
    assert _events(_seat_line(snapser_table.pk), {COOKIE: new_device()})[0] == 404
    assert _events(_seat_line(snapser_table.pk), {})[0] == 404
    assert _events(_table_line(snapser_table.pk), _session_of(charlie))[0] == 404
    assert _events(_table_line(snapser_table.pk), {})[0] == 404


def test_a_waiting_phone_has_a_line_to_hear_that_it_may_sit(snapser_table, alice, django_capture_on_commit_callbacks):
    from ledger.seats import services as seats

    claim(snapser_table, 1, new_device())
    device = new_device()
    waiting = claim(snapser_table, 1, device)

    def allow() -> None:
        with django_capture_on_commit_callbacks(execute=True):
            seats.seat_allow(claim=waiting, by=alice)

    status, (_first, heard) = _events(_seat_line(snapser_table.pk), {COOKIE: device}, then=allow)
    assert status == 200 and heard == {"table": snapser_table.pk, "seats": True}


def test_under_wsgi_a_line_is_its_first_state_alone(snapser_table):
    device = new_device()
    claim(snapser_table, 1, device)
    client = Client()
    client.cookies[COOKIE] = device
    response = client.get(_seat_line(snapser_table.pk))
    body = b"".join(response.streaming_content).decode()
    assert response["Content-Type"] == "text/event-stream" and body.count("data:") == 1
    assert body.startswith(f'retry: 3000\nid: 0\ndata: {{"table":{snapser_table.pk},"state":"0:1.0.1|None.None"}}')


def test_a_confirmation_given_while_a_line_was_away_moves_its_first_state(alice):
    """A confirmation changes neither the revision nor the seats: the features' part of the state says it, so a
    page whose line comes back fetches the dispute it missed."""
    from ledger.confirmations import services as confirmations
    from ledger.seats.streams import table_state
    from tests.ledger.confirmations.support import asking_table, player

    table = asking_table(factories.make_evening(alice), "snapser", "opponent")
    hand = factories.record(table)[0]
    before = table_state(table.pk)["state"]
    confirmations.dispute(hand=hand, version=1, player=player(table, "Ben"), by=alice, reason="bez vody")
    after = table_state(table.pk)["state"]
    assert before.split("|")[0] == after.split("|")[0] == f"1:{selectors.seats_stamp(table.pk)}"
    assert before.split("|")[1] != after.split("|")[1]
