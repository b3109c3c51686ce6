"""The signatures' personas: Alice keeps score of a Šnapser evening of Ana, Ben and Cyril; Ana's phone holds her
seat (its device cookie); Charlie is a stranger.

Prices (tests/factories.py, RULES.md): each plain hand of Ana's is +0.40 to her, −0.20 to Ben and to Cyril.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from ledger.devices.phone import COOKIE, device_hash
from ledger.models import Player, Table
from ledger.seats.models import SeatClaim
from tests import factories

ANA_PHONE = "a" * 43  # a well-formed device id (secrets.token_urlsafe(32))
BEN_PHONE = "b" * 43
HX = {"HX-Request": "true"}


def seat(table: Table, name: str, device: str) -> SeatClaim:
    """The phone ``device`` holds ``name``'s seat, acting through a stand-in account named after the player."""
    position = table.seat_names.index(name)
    player = Player.objects.get(owner=table.evening.owner, name=name)
    acting = get_user_model().objects.create_user(username=f"seat-{table.pk}-{position}", first_name=name)
    return SeatClaim.objects.create(
        table=table, position=position, player=player, device=device_hash(device), acting=acting
    )


def phone(device: str) -> Client:
    client = Client()
    client.cookies[COOKIE] = device
    return client


@pytest.fixture
def table(alice):
    """Two hands of Ana's recorded: Ana +0.80, Ben −0.40, Cyril −0.40."""
    table = factories.make_table(factories.make_evening(alice), "snapser")
    factories.record(table, times=2)
    table.refresh_from_db()
    return table


@pytest.fixture
def evening(table):
    return table.evening


@pytest.fixture
def players(alice, table):
    return {player.name: player for player in Player.objects.filter(owner=alice)}


@pytest.fixture
def ana_claim(table):
    return seat(table, "Ana", ANA_PHONE)


@pytest.fixture
def ana_phone(ana_claim):
    return phone(ANA_PHONE)
