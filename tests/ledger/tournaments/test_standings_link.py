"""A tournament's standings link can be renewed (``tournaments.standings_link_renew``): passed on too far, the old one
opens nothing, and the live lines opened through it end.

Personas: Alice organises; a player's phone (no account) had the old link open; Charlie is a stranger.
"""

from __future__ import annotations

import asyncio
import datetime

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.test import AsyncClient, Client, override_settings
from django.urls import reverse

from ledger.live import fanout
from ledger.tournaments import selectors
from ledger.tournaments import services as tournaments
from ledger.tournaments.models import Tournament

WAIT = 5.0


@pytest.fixture
def night(alice) -> Tournament:
    return tournaments.tournament_create(
        owner=alice,
        game="skat",
        name="Skat night",
        players=["Ana", "Ben", "Cyril", "Dana", "Emil", "Fero"],
        rounds=2,
        options={"games": {"3": 2, "4": 2}},
        date=datetime.date(2026, 12, 4),
        start=True,
    )


def _renew(client: Client, night: Tournament, **confirm: str):
    return client.post(reverse("ledger:tournament_standings_link", args=[night.pk]), confirm)


def test_the_organiser_renews_the_link_once_ticked_and_the_old_one_opens_nothing(alice_client, night):
    old = night.share_token
    assert Client().get(f"/r/{old}/").status_code == 200
    refused = _renew(alice_client, night)  # one tap without the box: nothing changes
    assert refused.status_code == 302
    night.refresh_from_db()
    assert night.share_token == old
    _renew(alice_client, night, confirm="1")
    night.refresh_from_db()
    assert night.share_token and night.share_token != old
    assert Client().get(f"/r/{old}/").status_code == 404
    assert Client().get(f"/r/{night.share_token}/").status_code == 200
    page = alice_client.get(night.get_absolute_url()).content.decode()
    assert f"/r/{night.share_token}/" in page and f"/r/{old}/" not in page


def test_a_stranger_cannot_renew_it(charlie_client, night):
    old = night.share_token
    assert _renew(charlie_client, night, confirm="1").status_code == 404
    night.refresh_from_db()
    assert night.share_token == old


def test_an_open_line_on_the_old_link_ends(night, django_capture_on_commit_callbacks):
    old = night.share_token

    def renew() -> None:
        with django_capture_on_commit_callbacks(execute=True):
            tournaments.standings_link_renew(tournament=night)

    async def scenario() -> tuple[bytes, bool]:
        response = await AsyncClient().get(reverse("ledger:tournament_stream", args=[old]))
        assert response.status_code == 200
        stream = response.streaming_content
        try:
            await asyncio.wait_for(anext(stream), WAIT)  # the standings
            await sync_to_async(renew)()
            told = await asyncio.wait_for(anext(stream), WAIT)
            fanout.publish(selectors.topic(night.pk), {"version": 99, "rows": []})  # standings after: not heard
            try:
                await asyncio.wait_for(anext(stream), WAIT)
            except StopAsyncIteration:
                return told, True
            return told, False
        finally:
            await stream.aclose()

    with override_settings(PUSH_URL=""):
        told, ended = async_to_sync(scenario)()
    assert told == b'id: 1\ndata: {"gone":true}\n\n'
    assert ended
