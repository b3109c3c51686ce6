"""Circles of regulars, write side: members, evenings in one tap, the tab and the pot with real money.

The evenings are Šnapser hands s vodou (the chooser takes twice the stake from each of two opponents), so:
at a stake of 3.10 the chooser gets +12.40 and the others −6.20 each; at a two-player table at 0.55 the chooser
gets +1.10 and the other −1.10.
"""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest

from ledger import services
from ledger.circles import selectors as circle_selectors
from ledger.circles import services as circles
from ledger.circles import tab_and_pot
from ledger.circles.models import Circle, CircleEntry, CircleMember
from ledger.models import Evening, Player, Transfer
from tests import factories

D = Decimal
DAY = datetime.date(2026, 11, 27)


def circle_of(owner, settle="evening", **kwargs):
    return circles.circle_create(
        owner=owner, name="Friday Šnapser", members=["Ana", "Ben", "Cyril"], settle=settle, **kwargs
    )


def evening_won_by(circle, by, winner, losers, stake="3.10", date=DAY):
    """One circle evening: ``winner`` wins one hand s vodou against the two ``losers`` at ``stake``."""
    evening = circles.circle_evening_create(circle=circle, by=by, date=date)
    table = factories.make_table(evening, "snapser", players=[winner, *losers], stake=stake)
    factories.record(table, factories.SNAPSER_N1 | {"declarer": winner})
    return evening


def tab(circle):
    return circle_selectors.tab_balances(circle)


def test_a_circle_has_the_owners_players_as_members_known_names_reused(alice):
    ana = services.player_get_or_create(owner=alice, name="Ana")
    circle = circles.circle_create(owner=alice, name="  Friday   Mariáš ", members=["Ana", "Ben", " ", "Ben"])
    assert circle.name == "Friday Mariáš"
    assert [m.player.name for m in circle.memberships.all()] == ["Ana", "Ben"]
    assert circle.memberships.get(player__name="Ana").player == ana
    assert Player.objects.filter(owner=alice).count() == 2


def test_a_circle_needs_a_name_and_a_real_coin(alice):
    with pytest.raises(services.LedgerError) as error:
        circles.circle_create(owner=alice, name="  ")
    assert error.value.field == "name"
    with pytest.raises(services.LedgerError) as error:
        circles.circle_create(owner=alice, name="X", currency="EUR", coin=D("0.001"))
    assert error.value.field == "coin"
    assert circles.circle_create(owner=alice, name="Y", currency="EUR").coin == D("0.01")


def test_removing_a_member_keeps_their_player(alice):
    circle = circle_of(alice)
    ben = Player.objects.get(owner=alice, name="Ben")
    circles.circle_member_remove(circle=circle, player=ben)
    assert list(circle.members.values_list("name", flat=True)) == ["Ana", "Cyril"]
    assert Player.objects.filter(pk=ben.pk).exists()


def test_a_circle_evening_is_the_owners_in_the_circles_money_kept_by_its_scorekeepers(alice, charlie):
    bob = factories.make_user("bob")
    circle = circle_of(alice, currency="EUR", coin=D("0.50"))
    circle.scorekeepers.add(charlie)
    evening = circles.circle_evening_create(circle=circle, by=charlie, date=DAY)
    assert (evening.owner, evening.circle, evening.currency, evening.coin) == (alice, circle, "EUR", D("0.50"))
    assert set(evening.scorekeepers.all()) == {charlie}
    assert evening.can_keep_score(alice) and evening.can_keep_score(charlie) and not evening.can_keep_score(bob)
    # A second tap finds the same evening (no empty twin).
    assert circles.circle_evening_create(circle=circle, by=alice, date=DAY) == evening
    assert Evening.objects.count() == 1


def test_the_seats_offered_are_the_members(alice):
    circle = circle_of(alice)
    assert circles.circle_seating(circle) == {"player_0": "Ana", "player_1": "Ben", "player_2": "Cyril"}


def test_an_evening_circle_closes_as_any_evening(alice):
    circle = circle_of(alice)
    evening = evening_won_by(circle, alice, "Ana", ["Ben", "Cyril"])
    settlement = services.evening_close(evening=evening, by=alice)
    assert settlement.transfers.count() == 2
    assert not CircleEntry.objects.exists()


# --------------------------------------------------------------------------------------------------------------
# The tab


def test_closing_a_tab_circles_evening_carries_the_rounded_balances_into_the_tab(alice):
    circle = circle_of(alice, settle="tab")  # CZK, coin 1
    evening = evening_won_by(circle, alice, "Ana", ["Ben", "Cyril"])  # Ana +12.40, Ben −6.20, Cyril −6.20
    settlement = services.evening_close(evening=evening, by=alice)
    # The evening reads as settled, with its rounded balances, and nobody pays tonight.
    assert settlement.rounded == {"Ana": "12.0000", "Ben": "-6.0000", "Cyril": "-6.0000"}
    assert not Transfer.objects.exists()
    assert tab(circle) == {"Ana": D(12), "Ben": D(-6), "Cyril": D(-6)}
    # A second evening adds up: Cyril wins 12.40 at 3.10, Ben +1.10 against Ana at 0.55.
    second = evening_won_by(circle, alice, "Cyril", ["Ana", "Ben"], date=DAY + datetime.timedelta(days=7))
    duel = factories.make_table(second, "snapser", players=["Ben", "Ana"], stake="0.55")
    factories.record(duel, factories.SNAPSER_N1 | {"declarer": "Ben"})
    # Exact: Cyril +12.40, Ana −6.20 −1.10 = −7.30, Ben −6.20 +1.10 = −5.10; rounded to the crown: 12, −7, −5.
    services.evening_close(evening=second, by=alice)
    assert tab(circle) == {"Ana": D(5), "Ben": D(-11), "Cyril": D(6)}
    assert sum(tab(circle).values()) == 0
    assert CircleEntry.objects.filter(kind="carried").count() == 6


def test_reopening_a_tab_evening_takes_its_balances_back_out(alice):
    circle = circle_of(alice, settle="tab")
    evening = evening_won_by(circle, alice, "Ana", ["Ben", "Cyril"])
    services.evening_close(evening=evening, by=alice)
    services.evening_reopen(evening=evening, by=alice)
    assert tab(circle) == {}
    # Ben wins the same back: Ana +12.40 −6.20, Ben −6.20 +12.40, Cyril −12.40; the tab holds the new close only.
    factories.record(evening.tables.get(), factories.SNAPSER_N1 | {"declarer": "Ben"})
    services.evening_close(evening=evening, by=alice)
    assert tab(circle) == {"Ana": D(6), "Ben": D(6), "Cyril": D(-12)}
    assert CircleEntry.objects.count() == 3


def test_settling_the_tab_plans_transfers_and_zeroes_it(alice):
    circle = circle_of(alice, settle="tab")
    services.evening_close(evening=evening_won_by(circle, alice, "Ana", ["Ben", "Cyril"]), by=alice)
    second = evening_won_by(circle, alice, "Ben", ["Ana", "Cyril"], stake="0.55", date=DAY + datetime.timedelta(7))
    services.evening_close(evening=second, by=alice)  # Ben +2.20 → 2, Ana −1.10 → −1, Cyril −1.10 → −1
    assert tab(circle) == {"Ana": D(11), "Ben": D(-4), "Cyril": D(-7)}
    settlement = tab_and_pot.tab_settle(circle=circle, by=alice)
    assert settlement.rounded == {"Ana": "11.0000", "Ben": "-4.0000", "Cyril": "-7.0000"}
    assert [(t.payer.name, t.payee.name, t.amount) for t in settlement.transfers.all()] == [
        ("Cyril", "Ana", D(7)),
        ("Ben", "Ana", D(4)),
    ]
    assert tab(circle) == {}
    assert CircleEntry.objects.filter(kind="carried", settlement__isnull=True).count() == 0
    # Its evenings' balances are settled now: reopening one would change a settled tab.
    with pytest.raises(services.LedgerError):
        services.evening_reopen(evening=second, by=alice)
    with pytest.raises(services.LedgerError):
        tab_and_pot.tab_settle(circle=circle, by=alice)


def test_the_tab_settles_to_the_circles_coin_with_a_banker(alice):
    circle = circle_of(alice, settle="tab", currency="EUR", coin=D("0.01"))
    services.evening_close(evening=evening_won_by(circle, alice, "Ana", ["Ben", "Cyril"], stake="0.55"), by=alice)
    circle.coin = D("0.50")
    circle.save()
    # Tab: Ana +2.20, Ben −1.10, Cyril −1.10; to 50 cents: Ana 2.00, Ben −1.00, Cyril −1.00 (the largest remainders
    # go first, names sorting first among equals).
    settlement = tab_and_pot.tab_settle(circle=circle, by=alice, mode="banker", banker="Ben")
    rows = {row["player"]: (row["exact"], row["rounded"]) for row in settlement.rows()}
    assert rows == {"Ana": (D("2.20"), D("2.00")), "Ben": (D("-1.10"), D("-1.00")), "Cyril": (D("-1.10"), D("-1.00"))}
    assert [(t.payer.name, t.payee.name, t.amount) for t in settlement.transfers.all()] == [
        ("Ben", "Ana", D(2)),
        ("Cyril", "Ben", D(1)),
    ]
    assert tab(circle) == {}


def test_a_tab_transfer_is_marked_paid_and_unpaid(alice):
    circle = circle_of(alice, settle="tab")
    services.evening_close(evening=evening_won_by(circle, alice, "Ana", ["Ben", "Cyril"]), by=alice)
    transfer = tab_and_pot.tab_settle(circle=circle, by=alice).transfers.first()
    tab_and_pot.tab_transfer_mark_paid(transfer=transfer, by=alice)
    first = transfer.paid_at
    tab_and_pot.tab_transfer_mark_paid(transfer=transfer, by=alice)
    transfer.refresh_from_db()
    assert transfer.paid_at == first and transfer.paid_by == alice
    tab_and_pot.tab_transfer_mark_unpaid(transfer=transfer, by=alice)
    transfer.refresh_from_db()
    assert transfer.paid_at is None


# --------------------------------------------------------------------------------------------------------------
# The pot


def test_winners_pay_their_share_into_the_pot_rounded_to_the_coin(alice):
    circle = circle_of(alice, settle="pot", currency="EUR", coin=D("0.10"), pot_share=D("0.15"))
    evening = evening_won_by(circle, alice, "Ana", ["Ben", "Cyril"])  # Ana +12.40
    services.evening_close(evening=evening, by=alice)
    # Tonight's transfers as usual, and Ana pays 15 % of 12.40 = 1.86 → 1.90 into the pot.
    assert Transfer.objects.count() == 2
    assert [(e.player.name, e.kind, e.amount) for e in CircleEntry.objects.all()] == [("Ana", "paid_in", D("1.90"))]
    assert circle_selectors.pot_balance(circle) == D("1.90")
    services.evening_reopen(evening=evening, by=alice)
    assert circle_selectors.pot_balance(circle) == D(0)


def test_deposits_and_withdrawals_are_booked_and_the_pot_never_goes_below_zero(alice):
    circle = circle_of(alice, settle="pot", currency="EUR")
    ben = Player.objects.get(owner=alice, name="Ben")
    tab_and_pot.pot_deposit(circle=circle, by=alice, amount=D("20.00"), player=ben, note="season fee")
    tab_and_pot.pot_deposit(circle=circle, by=alice, amount=D("5.50"))
    tab_and_pot.pot_withdraw(circle=circle, by=alice, amount=D("12.25"), note="beer")
    assert circle_selectors.pot_balance(circle) == D("13.25")
    with pytest.raises(services.LedgerError) as error:
        tab_and_pot.pot_withdraw(circle=circle, by=alice, amount=D("13.26"))
    assert error.value.field == "amount"
    with pytest.raises(services.LedgerError):
        tab_and_pot.pot_deposit(circle=circle, by=alice, amount=D("-1"))
    stranger = services.player_get_or_create(owner=alice, name="Zoe")
    with pytest.raises(services.LedgerError):
        tab_and_pot.pot_deposit(circle=circle, by=alice, amount=D("1"), player=stranger)
    assert circle_selectors.pot_balance(circle) == D("13.25")


# --------------------------------------------------------------------------------------------------------------
# Links and scorekeepers


def test_a_member_link_is_made_anew_and_revoked(alice):
    membership = circle_of(alice).memberships.get(player__name="Ana")
    first = circles.member_link_create(membership=membership).token
    second = circles.member_link_create(membership=membership).token
    assert first and second and first != second
    assert CircleMember.objects.get(pk=membership.pk).token == second
    circles.member_link_revoke(membership=membership)
    assert CircleMember.objects.get(pk=membership.pk).token is None


def test_only_a_coscorekeeper_of_the_owners_evenings_can_become_a_circle_scorekeeper(alice, charlie):
    circle = circle_of(alice)
    with pytest.raises(services.LedgerError):
        circles.circle_scorekeeper_add(circle=circle, user=charlie, by=alice)
    evening = factories.make_evening(alice)
    services.evening_add_scorekeeper(evening=evening, user=charlie)
    assert circles.circle_scorekeeper_candidates(circle) == [charlie]
    with pytest.raises(services.LedgerError):
        circles.circle_scorekeeper_add(circle=circle, user=charlie, by=charlie)
    circles.circle_scorekeeper_add(circle=circle, user=charlie, by=alice)
    assert list(Circle.objects.for_user(charlie)) == [circle]
    circles.circle_scorekeeper_remove(circle=circle, user=charlie, by=charlie)
    assert list(Circle.objects.for_user(charlie)) == []
