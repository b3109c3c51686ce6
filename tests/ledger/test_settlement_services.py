"""The close-out services: balances frozen and rounded to the coin, transfers planned, paid, reopened, re-planned."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ledger import selectors, services
from ledger.models import Evening, EveningEvent, Hand, Posting, Settlement
from tests import factories
from tests.ledger.closeout_data import evening_owing, transfers

D = Decimal


@pytest.fixture
def owing(alice):
    return evening_owing(alice)


def test_the_evening_balances_sum_every_table_in_one_query(owing):
    with CaptureQueriesContext(connection) as captured:
        balances = selectors.evening_balances(owing)
    assert len(captured) == 1
    assert balances == {"Ana": D("12.40"), "Cyril": D("-5.10"), "Ben": D("-7.30")}
    assert list(balances) == ["Ana", "Cyril", "Ben"]  # largest gain first


def test_the_evening_balances_leave_out_voided_hands_but_keep_their_players(evening, alice):
    table = factories.make_table(evening, "snapser", players=["Dora", "Emil"])
    factories.record(table, factories.SNAPSER_N1 | {"declarer": "Dora"})
    services.hand_undo_last(table=table, by=alice)
    assert selectors.evening_balances(evening) == {"Dora": D(0), "Emil": D(0)}


def test_closing_rounds_to_the_coin_and_plans_the_fewest_transfers(owing, alice):
    settlement = services.evening_close(evening=owing, by=alice)
    owing.refresh_from_db()
    assert owing.status == "closed"
    assert settlement.exact == {"Ana": "12.4000", "Cyril": "-5.1000", "Ben": "-7.3000"}
    assert {row["player"]: (row["adjustment"], row["rounded"]) for row in settlement.rows()} == {
        "Ana": (D("-0.40"), D(12)),
        "Cyril": (D("0.10"), D(-5)),
        "Ben": (D("0.30"), D(-7)),
    }
    assert transfers(settlement) == [("Ben", "Ana", D(7), False), ("Cyril", "Ana", D(5), False)]
    event = EveningEvent.objects.get()
    assert (event.kind, event.by, event.note, event.description) == ("closed", alice, "fewest", "fewest transfers")


def test_closing_with_a_banker_settles_everybody_with_the_banker(owing, alice):
    settlement = services.evening_close(evening=owing, by=alice, mode="banker", banker="Cyril")
    assert (settlement.mode, settlement.banker.name) == ("banker", "Cyril")
    assert transfers(settlement) == [("Cyril", "Ana", D(12), False), ("Ben", "Cyril", D(7), False)]


def test_pairwise_settles_everybody_with_everybody(owing, alice):
    settlement = services.evening_close(evening=owing, by=alice, mode="pairwise")
    paid = {(payer, payee): amount for payer, payee, amount, _ in transfers(settlement)}
    # Shares of the rounded differences, (b_j − b_i) / 3: 19/3 → 6, 17/3 → 6, 2/3 → 1.
    assert paid == {("Ben", "Ana"): D(6), ("Cyril", "Ana"): D(6), ("Ben", "Cyril"): D(1)}


@pytest.mark.parametrize(
    ("mode", "banker", "field"),
    [("banker", None, "banker"), ("banker", "Zoe", "banker"), ("everyone", None, "mode")],
)
def test_a_bad_mode_or_banker_is_refused_and_nothing_is_stored(owing, alice, mode, banker, field):
    with pytest.raises(services.LedgerError) as caught:
        services.evening_close(evening=owing, by=alice, mode=mode, banker=banker)
    assert caught.value.field == field
    owing.refresh_from_db()
    assert owing.status == "open"
    assert (Settlement.objects.count(), EveningEvent.objects.count()) == (0, 0)


def test_closing_a_closed_evening_is_refused(owing, alice):
    services.evening_close(evening=owing, by=alice)
    with pytest.raises(services.EveningClosed):
        services.evening_close(evening=Evening.objects.get(pk=owing.pk), by=alice)
    assert Settlement.objects.get().transfers.count() == 2


def test_a_closed_evening_takes_no_hand_changes_at_all(owing, alice):
    table = owing.tables.first()
    hand = table.hands.get()
    services.evening_close(evening=owing, by=alice)
    table.refresh_from_db()
    attempts = [
        lambda: services.hand_record(table=table, hand=factories.SNAPSER_N1, by=alice),
        lambda: services.hand_correct(
            hand=hand, document=factories.SNAPSER_N1 | {"result": "za_6"}, by=alice, version=1
        ),
        lambda: services.hand_void(hand=hand, by=alice),
        lambda: services.hand_undo_last(table=table, by=alice),
    ]
    for attempt in attempts:
        with pytest.raises(services.EveningClosed):
            attempt()
    hand.refresh_from_db()
    assert (Hand.objects.count(), hand.version, hand.status, Posting.objects.count()) == (2, 1, "counted", 5)


def test_marking_a_transfer_paid_records_who_and_when_once(owing, alice, charlie):
    transfer = services.evening_close(evening=owing, by=alice).transfers.first()
    paid = services.transfer_mark_paid(transfer=transfer, by=alice)
    first_paid_at = paid.paid_at
    again = services.transfer_mark_paid(transfer=transfer, by=charlie)
    assert (again.paid_by, again.paid_at) == (alice, first_paid_at)
    assert [(e.kind, e.note) for e in EveningEvent.objects.filter(kind="transfer_paid")] == [
        ("transfer_paid", "Ben → Ana 7.00")
    ]


def test_reopening_drops_the_plan_when_nothing_was_paid(owing, alice):
    services.evening_close(evening=owing, by=alice)
    reopened = services.evening_reopen(evening=owing, by=alice)
    assert reopened.status == "open"
    assert Settlement.objects.count() == 0
    assert [e.kind for e in EveningEvent.objects.order_by("id")] == ["closed", "reopened"]
    factories.record(owing.tables.first())  # hands can be added again


def test_reopening_keeps_paid_transfers_and_the_next_plan_counts_them(owing, alice):
    settlement = services.evening_close(evening=owing, by=alice)
    services.transfer_mark_paid(transfer=settlement.transfers.get(payer__name="Ben"), by=alice)
    services.evening_reopen(evening=owing, by=alice)
    assert transfers(Settlement.objects.get()) == [("Ben", "Ana", D(7), True)]
    reopened = EveningEvent.objects.get(kind="reopened")
    assert (reopened.note, reopened.description) == ("1", "1 unpaid transfer dropped")
    # Cyril wins another 1.10 from Ben at the two-player table: Ben −8.40, Cyril −4.00.
    factories.record(owing.tables.last(), factories.SNAPSER_N1 | {"declarer": "Cyril"})
    settlement = services.evening_close(evening=owing, by=alice)
    assert settlement.rounded == {"Ana": "12.0000", "Cyril": "-4.0000", "Ben": "-8.0000"}
    assert transfers(settlement) == [
        ("Ben", "Ana", D(7), True),
        ("Cyril", "Ana", D(4), False),
        ("Ben", "Ana", D(1), False),
    ]


def test_reopening_an_open_evening_is_refused(owing, alice):
    with pytest.raises(services.LedgerError) as caught:
        services.evening_reopen(evening=owing, by=alice)
    assert caught.value.field == "evening"
    assert EveningEvent.objects.count() == 0


@pytest.mark.parametrize(
    ("typed", "stored"),
    [("cz65 0800 0000 1920 0014 5399", "CZ6508000000192000145399"), ("  ", ""), ("", "")],
)
def test_a_players_iban_is_stored_normalized(owing, alice, typed, stored):
    player = owing.owner.players.get(name="Ana")
    services.player_iban_set(player=player, iban=typed)
    player.refresh_from_db()
    assert player.iban == stored


def test_an_iban_with_a_wrong_check_digit_is_refused(owing):
    player = owing.owner.players.get(name="Ana")
    with pytest.raises(services.LedgerError) as caught:
        services.player_iban_set(player=player, iban="CZ65 0800 0000 1920 0014 5398")
    assert caught.value.field == "iban"
    player.refresh_from_db()
    assert player.iban == ""
