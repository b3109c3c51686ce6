"""Fixtures of the devices' tests: the server's VAPID keys, the loopback push service, phones with device ids."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

import pytest

from ledger.devices import keys, push
from ledger.devices.phone import COOKIE, device_hash
from tests.ledger.devices.push_service import FakeBrowser, PushService, start

SUBJECT = "mailto:push@example.org"


@pytest.fixture
def vapid(settings: Any) -> str:
    """Push on: a key pair of the test's own; answers the public key."""
    public, private = keys.new_pair()
    settings.WEBPUSH_VAPID_PUBLIC_KEY = public
    settings.WEBPUSH_VAPID_PRIVATE_KEY = private
    settings.WEBPUSH_SUBJECT = SUBJECT
    settings.WEBPUSH_ALLOW_LOOPBACK = True
    return public


@pytest.fixture
def push_service() -> Iterator[PushService]:
    service = start()
    yield service
    push.wait_for_sends()  # nothing of this test's still talking to the server as it stops
    service.server.shutdown()
    service.server.server_close()


@pytest.fixture
def fake_browser(push_service: PushService) -> FakeBrowser:
    return FakeBrowser(push_service.endpoint("phone"))


class Phone:
    """A device id as a phone's cookie holds it, and its hash as the database does."""

    def __init__(self) -> None:
        self.device = secrets.token_urlsafe(32)
        self.hash = device_hash(self.device)

    def hold(self, client: Any) -> Any:
        client.cookies[COOKIE] = self.device
        return client


@pytest.fixture
def phone() -> Phone:
    return Phone()
