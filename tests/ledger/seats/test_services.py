"""Seats taken and let go (ledger/seats/services.py): one phone per seat, one seat per phone, a second claim waits
for the scorekeeper, every answer repeated is the first one, a closed evening lets every seat go.

Personas: Alice keeps score; Ben's and Cyril's phones (no account), Bob's phone (an account that claimed Ben).
"""

from __future__ import annotations

import pytest
from django.contrib.auth import authenticate
from django.db import IntegrityError, transaction

from ledger import hooks, services
from ledger.errors import EveningClosed, LedgerError
from ledger.seats import selectors
from ledger.seats import services as seats
from ledger.seats.models import SeatClaim, StandIn
from tests import factories
from tests.ledger.seats.support import claim, new_device

HELD, PENDING, RELEASED, REFUSED = "held", "pending", "released", "refused"


def test_a_free_seat_is_held_at_once_and_a_repeat_finds_the_same_claim(snapser_table):
    ben = new_device()
    first = claim(snapser_table, 1, ben)
    again = claim(snapser_table, 1, ben)
    assert (first.status, first.player.name, again.pk) == (HELD, "Ben", first.pk)
    assert SeatClaim.objects.count() == 1


def test_a_phone_without_an_account_acts_through_a_stand_in_nobody_logs_in_as(snapser_table):
    held = claim(snapser_table, 1, new_device())
    stand_in = held.acting
    assert held.user is None and stand_in.first_name == "Ben" and stand_in.username.startswith("seat-")
    assert not stand_in.has_usable_password() and not stand_in.is_active
    assert authenticate(username=stand_in.username, password="") is None
    assert StandIn.objects.get(user=stand_in).player.name == "Ben"


def test_stand_ins_are_never_offered_as_scorekeepers(snapser_table, alice):
    held = claim(snapser_table, 1, new_device())
    from django.contrib.auth import get_user_model

    listed = hooks.accounts_listed(get_user_model().objects.all())
    assert alice in listed and held.acting not in listed


def test_a_phone_that_comes_back_keeps_its_stand_in(snapser_table, alice):
    ben = new_device()
    first = claim(snapser_table, 1, ben)
    seats.seat_release(claim=first, by=alice)
    second = claim(snapser_table, 1, ben)
    assert second.pk != first.pk and second.acting == first.acting and second.status == HELD


def test_a_phone_with_an_account_acts_as_itself(snapser_table):
    bob = factories.make_user("bob")
    held = claim(snapser_table, 1, new_device(), user=bob)
    assert held.user == bob and held.acting == bob
    assert not StandIn.objects.exists()


def test_a_second_phone_waits_and_allowing_it_lets_the_first_go(snapser_table, alice):
    first = claim(snapser_table, 1, new_device())
    second = claim(snapser_table, 1, new_device())
    assert second.status == PENDING

    allowed = seats.seat_allow(claim=second, by=alice)
    assert allowed.status == HELD
    first.refresh_from_db()
    assert (first.status, first.ended_by) == (RELEASED, alice) and first.ended_at is not None
    # A double tap of Allow answers with the claim as it is; the first phone stays let go.
    assert seats.seat_allow(claim=second, by=alice).status == HELD
    assert list(SeatClaim.objects.held().values_list("pk", flat=True)) == [second.pk]


def test_refusing_keeps_the_seat_with_its_phone_and_a_late_allow_changes_nothing(snapser_table, alice):
    first = claim(snapser_table, 1, new_device())
    second = claim(snapser_table, 1, new_device())
    refused = seats.seat_refuse(claim=second, by=alice)
    assert refused.status == REFUSED
    assert seats.seat_allow(claim=second, by=alice).status == REFUSED  # a retry of an older tap
    first.refresh_from_db()
    assert first.status == HELD


def test_claiming_another_seat_lets_go_of_the_first(snapser_table):
    phone = new_device()
    ana = claim(snapser_table, 0, phone)
    ben = claim(snapser_table, 1, phone)
    ana.refresh_from_db()
    assert (ana.status, ben.status) == (RELEASED, HELD)


def test_releasing_twice_is_one_release(snapser_table, alice):
    held = claim(snapser_table, 2, new_device())
    once = seats.seat_release(claim=held, by=alice)
    twice = seats.seat_release(claim=held, by=alice)
    assert once.status == twice.status == RELEASED and once.ended_at == twice.ended_at


def test_a_seat_that_does_not_exist_is_refused_on_its_field(snapser_table):
    with pytest.raises(LedgerError) as refused:
        claim(snapser_table, 7, new_device())
    assert refused.value.field == "position"
    assert not SeatClaim.objects.exists()


def test_a_closed_evening_takes_no_claim_and_its_seats_count_as_let_go(snapser_table, alice):
    factories.record(snapser_table)
    device = new_device()
    claim(snapser_table, 0, device)
    services.evening_close(evening=snapser_table.evening, by=alice)
    snapser_table.evening.refresh_from_db()
    # Ended for every reader at once, before (or without) the close's listeners ran.
    assert selectors.held_claims(snapser_table) == [] and selectors.claims_for_players(snapser_table) == {}
    assert SeatClaim.objects.live().count() == 0
    with pytest.raises(EveningClosed):
        claim(snapser_table, 1, new_device())


def test_the_close_lets_every_seat_go_and_ends_every_waiting_claim(
    snapser_table, alice, django_capture_on_commit_callbacks
):
    held = claim(snapser_table, 0, new_device())
    waiting = claim(snapser_table, 0, new_device())
    other_evening = factories.make_table(factories.make_evening(alice), "snapser")
    elsewhere = claim(other_evening, 0, new_device())
    with django_capture_on_commit_callbacks(execute=True):
        hooks.evening_closed.send(hooks.ClosedEvening(evening_id=snapser_table.evening_id, by_id=alice.pk))
    for stored in (held, waiting, elsewhere):
        stored.refresh_from_db()
    assert (held.status, waiting.status, elsewhere.status) == (RELEASED, REFUSED, HELD)
    assert held.ended_by == alice and held.ended_at is not None


def test_the_database_holds_one_phone_per_seat(snapser_table):
    held = claim(snapser_table, 1, new_device())
    with pytest.raises(IntegrityError), transaction.atomic():
        SeatClaim.objects.create(
            table=snapser_table, position=1, player=held.player, device="x" * 64, acting=held.acting, status=HELD
        )


def test_each_change_tells_the_evening_s_live_lines(
    snapser_table, alice, monkeypatch, django_capture_on_commit_callbacks
):
    from ledger.live import fanout

    told: list[tuple[str, dict]] = []
    monkeypatch.setattr(fanout, "publish", lambda topic, data: told.append((topic, data)))
    with django_capture_on_commit_callbacks(execute=True):
        first = claim(snapser_table, 1, new_device())
    with django_capture_on_commit_callbacks(execute=True):
        seats.seat_release(claim=first, by=alice)
    topic = f"evening:{snapser_table.evening_id}"
    assert told == [(topic, {"table": snapser_table.pk, "seats": True})] * 2


def test_closing_the_evening_lets_its_seats_go(snapser_table, alice, django_capture_on_commit_callbacks):
    factories.record(snapser_table)
    held = claim(snapser_table, 0, new_device())
    with django_capture_on_commit_callbacks(execute=True):
        services.evening_close(evening=snapser_table.evening, by=alice)
    held.refresh_from_db()
    assert (held.status, held.ended_by) == (RELEASED, alice)
