"""Phones for the seats' tests: a device id in the cookie a browser would send, its hash as the books keep it."""

from __future__ import annotations

import secrets
from typing import Any

from django.test import Client

from ledger.devices.phone import COOKIE, device_hash
from ledger.seats import codes, services
from ledger.seats.models import SeatClaim


def new_device() -> str:
    return secrets.token_urlsafe(32)


def phone(device: str | None = None, user: Any = None) -> services.Phone:
    return services.Phone(device_hash(device or new_device()), user)


def phone_client(device: str | None = None) -> tuple[Client, str]:
    """A browser of a phone with a device id of its own (no account)."""
    device = device or new_device()
    client = Client()
    client.cookies[COOKIE] = device
    return client, device


def claim(table: Any, position: int, device: str, user: Any = None) -> SeatClaim:
    return services.seat_claim(table=table, position=position, phone=services.Phone(device_hash(device), user))


def code(table: Any) -> str:
    return codes.code_of(table.pk)
