"""When the evening closes, each seated player's phones (and their accounts' devices) hear what they pay or
receive, as the settlement's transfers say it, in the evening's money."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.utils import timezone

from ledger import hooks
from ledger import services as books
from ledger.seats.models import SeatClaim
from ledger.signatures import listeners, notices
from tests import factories
from tests.ledger.signatures.conftest import ANA_PHONE, BEN_PHONE, seat


@pytest.fixture
def heard(monkeypatch):
    sent: list[dict] = []

    def notify(**message):
        sent.append(message)
        return len(message["devices"]) + len(message["users"])

    monkeypatch.setattr(notices, "_notify", notify)
    return sent


@pytest.fixture
def closed(alice):
    """Two hands of Ana's at €0.10: Ben and Cyril pay Ana €0.40 each. Ana's and Ben's phones held their seats;
    Ben's phone was logged in as his account."""
    table = factories.make_table(factories.make_evening(alice, coin=Decimal("0.10")), "snapser")
    factories.record(table, times=2)
    seat(table, "Ana", ANA_PHONE)
    ben = seat(table, "Ben", BEN_PHONE)
    ben.user = factories.make_user("ben")
    ben.save()
    books.evening_close(evening=table.evening, by=alice)
    return table.evening, ben


def test_each_seated_phone_hears_what_it_pays_or_receives(closed, heard):
    evening, ben = closed
    assert notices.evening_closed(evening.pk) == 3
    bodies = {message["body"]: message for message in heard}
    assert set(bodies) == {
        "The evening is closed: you receive €0.40 from Ben, you receive €0.40 from Cyril",
        "The evening is closed: you pay Ana €0.40",
    }
    to_ben = bodies["The evening is closed: you pay Ana €0.40"]
    assert (to_ben["devices"], to_ben["users"]) == ([ben.device], [ben.user_id])
    assert to_ben["title"] == str(evening) and to_ben["tag"] == f"closed-{evening.pk}"
    assert to_ben["url"] == f"/s/{evening.share_token}/"


def test_a_seat_the_close_let_go_still_hears_it(closed, heard, alice):
    evening, ben = closed
    SeatClaim.objects.filter(table__evening=evening).update(status=SeatClaim.Status.RELEASED, ended_at=ben.claimed_at)
    assert notices.evening_closed(evening.pk) == 0  # let go before the close: not seated at it
    SeatClaim.objects.filter(table__evening=evening).update(ended_at=timezone.now())
    assert notices.evening_closed(evening.pk) == 3


def test_a_paid_transfer_is_not_announced(closed, heard, alice):
    evening, _ben = closed
    transfer = evening.settlement.transfers.get(payer__name="Ben")
    books.transfer_mark_paid(transfer=transfer, by=alice)
    notices.evening_closed(evening.pk)
    assert "The evening is closed: you pay nothing and receive nothing" in {message["body"] for message in heard}


def test_an_open_evening_or_nobody_seated_hears_nothing(evening, heard):
    assert notices.evening_closed(evening.pk) == 0
    assert heard == []


def test_the_close_is_heard_through_the_books_hook():
    assert listeners.evening_closed in hooks.evening_closed._listeners


def test_closing_the_evening_pushes_after_the_commit(alice, heard, django_capture_on_commit_callbacks):
    table = factories.make_table(factories.make_evening(alice, coin=Decimal("0.10")), "snapser")
    factories.record(table, times=2)
    seat(table, "Cyril", BEN_PHONE)
    with django_capture_on_commit_callbacks(execute=True):
        books.evening_close(evening=table.evening, by=alice)
    assert [message["body"] for message in heard] == ["The evening is closed: you pay Ana €0.40"]
