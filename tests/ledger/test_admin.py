"""The admin shows the ledger to a superuser, read-only where services own the writes."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from ledger import services
from tests import factories


@pytest.fixture
def admin_client(client, db):
    boss = get_user_model().objects.create_superuser("boss", "boss@example.com", "pw")
    client.force_login(boss)
    return client


def test_the_admin_lists_hands_settlements_and_history(admin_client, snapser_table, alice):
    factories.record(snapser_table)
    services.evening_close(evening=snapser_table.evening, by=alice)
    hands = admin_client.get("/admin/ledger/hand/").content.decode()
    assert "s vodou" in hands
    settlements = admin_client.get("/admin/ledger/settlement/").content.decode()
    assert "fewest" in settlements
    events = admin_client.get("/admin/ledger/eveningevent/").content.decode()
    assert "closed" in events
    assert admin_client.get("/admin/ledger/hand/add/").status_code == 403
