"""Personas of a person's own pages: Alice keeps score and owns the players, Bob has an account and is Alice's
"Ben", Charlie is a stranger with an account of his own."""

from __future__ import annotations

import pytest

from ledger.models import Player
from tests import factories


@pytest.fixture
def bob(db):
    return factories.make_user("bob")


@pytest.fixture
def ben(snapser_table):
    """Alice's player Ben, seated at her Šnapser table."""
    return Player.objects.get(owner=snapser_table.evening.owner, name="Ben")
