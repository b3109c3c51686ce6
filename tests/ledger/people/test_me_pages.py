"""A person's own page as the three personas: Bob (the claiming user), Alice (the scorekeeper who owns his player)
and Charlie (a stranger), plus anonymous."""

from __future__ import annotations

import datetime
from decimal import Decimal as D

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ledger import services
from ledger.circles import services as circles
from ledger.models import Player
from ledger.people import selectors
from ledger.people import services as people
from tests import factories
from tests.ledger.people.worlds import DAY, alice_evening, bobs_world, won_by

ME = reverse("people:me")


@pytest.fixture
def world(alice, bob):
    return bobs_world(alice, bob)


@pytest.fixture
def bob_client(client, bob):
    client.force_login(bob)
    return client


def test_money_across_scorekeepers_and_circles(world, bob):
    players = selectors.my_players(bob)
    money = selectors.my_money(players, selectors.my_evenings(players))

    totals = {row.currency: (row.net, row.to_pay, row.to_receive, row.in_tabs) for row in money["totals"]}
    # EUR: −0.20 + 0.40 net; Ben owes Ana 0.20, Cyril owes Ben 0.20 (Ana's 0.20 is paid).
    # CZK: −6.20 + 12.40 net; Bobby owes Eva 6 from the settled tab; +12 waits in the tab.
    assert totals == {
        "EUR": (D("0.20"), D("0.20"), D("0.20"), D(0)),
        "CZK": (D("6.20"), D(6), D(0), D(12)),
    }
    assert sorted((o.where, o.payer, o.payee, o.amount, o.kind) for o in money["owed"]) == [
        ("2026-11-06 U Fleků", "Ben", "Ana", D("0.20"), "evening"),
        ("2026-11-13 U Fleků", "Cyril", "Ben", D("0.20"), "evening"),
        ("Friday Šnapser", "Bobby", "Eva", D(6), "tab"),
    ]


def test_my_evenings_list_every_scorekeeper_with_the_result(world, bob):
    rows = selectors.my_evenings(selectors.my_players(bob))

    assert [(r.date.isoformat(), r.scorekeeper, r.players, r.games, r.net, r.currency) for r in rows] == [
        ("2026-11-14", "dana", ["Bobby"], ["Šnapser"], D("12.40"), "CZK"),
        ("2026-11-13", "alice", ["Ben"], ["Šnapser"], D("0.40"), "EUR"),
        ("2026-11-07", "dana", ["Bobby"], ["Šnapser"], D("-6.20"), "CZK"),
        ("2026-11-06", "alice", ["Ben"], ["Šnapser"], D("-0.20"), "EUR"),
    ]


def test_my_statistics_per_game_and_currency(world, bob):
    rows = selectors.my_stats(selectors.my_players(bob))

    assert [(r["game"], r["currency"], r["evenings"], r["hands"], r["won"], r["net"]) for r in rows] == [
        ("snapser", "CZK", 2, 2, 1, D("6.20")),
        ("snapser", "EUR", 2, 2, 1, D("0.20")),
    ]


def test_an_uncounted_evening_stays_out_of_the_statistics_not_out_of_the_evenings(world, alice, bob):
    circle = circles.circle_create(owner=alice, name="Tuesday")
    third = alice_evening(alice, "Ben", DAY + datetime.timedelta(days=20))
    circles.circle_evening_attach(circle=circle, evening=third)
    circles.evening_counted_set(evening=third, counted=False)
    players = selectors.my_players(bob)

    eur = next(r for r in selectors.my_stats(players) if r["currency"] == "EUR")
    assert (eur["evenings"], eur["hands"], eur["net"]) == (2, 2, D("0.20"))
    assert len(selectors.my_evenings(players)) == 5


def test_bob_sees_his_page(world, bob_client):
    page = bob_client.get(ME).content.decode()

    assert "12.40\u00a0Kč" in page  # his result at Dana's second evening
    assert "−€0.20" in page  # at Alice's first
    assert "Friday Šnapser" in page
    assert "Bobby → Eva" in page
    assert "kept by alice" in page and "kept by dana" in page


@pytest.mark.parametrize("persona", ["alice", "charlie"])
def test_another_account_sees_only_its_own_page(world, client, request, persona):
    client.force_login(request.getfixturevalue(persona))

    page = client.get(ME).content.decode()

    assert "Bobby" not in page
    assert "Friday Šnapser" not in page
    assert "No players linked to your account yet." in page


def test_anonymous_is_sent_to_log_in(world, client):
    for url in (ME, reverse("people:me_data"), reverse("people:me_evenings_csv"), reverse("people:claims")):
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))


def _evenings_for_bob(alice, count: int, start: int) -> None:
    for index in range(count):
        evening = alice_evening(alice, "Ben" if index % 2 else "Ana", DAY + datetime.timedelta(days=start + index))
        factories.record(evening.tables.get(), times=3)
        services.evening_close(evening=evening, by=alice)


def _queries(client, url) -> int:
    client.get(url)  # the statistics' summaries of new tables made once, as any later reader finds them
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_my_page_costs_the_same_at_two_and_eight_evenings(world, alice, bob_client, django_assert_num_queries):
    small = _queries(bob_client, ME)
    _evenings_for_bob(alice, 6, start=30)
    large = _queries(bob_client, ME)

    assert large == small
    # Session, user, claims, players' claims, seats, nets, evening transfers, tab transfers, pot pay-ins, tab
    # balances, stale summaries, statistics.
    with django_assert_num_queries(12):
        bob_client.get(ME)


def test_a_pot_circle_pay_in_is_owed_and_the_evenings_transfers_received(alice, bob):
    dana = factories.make_user("dana")
    circle = circles.circle_create(owner=dana, name="Pot night", members=["Bobby", "Eva", "Fred"], settle="pot")
    evening = circles.circle_evening_create(circle=circle, by=dana, date=DAY)
    won_by(evening, "Bobby", ["Bobby", "Eva", "Fred"], stake="3.10")
    services.evening_close(evening=evening, by=dana)  # Bobby +12.40 → 12 (Eva and Fred pay 6 each); a tenth: 1.20 → 1
    people.player_claim_grant(
        user=bob, player=Player.objects.get(owner=dana, name="Bobby"), granted_by=dana, how="invitation"
    )
    players = selectors.my_players(bob)

    money = selectors.my_money(players, selectors.my_evenings(players))

    [czk] = money["totals"]
    assert (czk.currency, czk.net, czk.to_pay, czk.to_receive, czk.in_tabs) == ("CZK", D("12.40"), D(1), D(12), D(0))
    assert sorted((o.payer, o.amount, o.kind) for o in money["owed"]) == [
        ("Bobby", D(1), "pot"),
        ("Eva", D(6), "evening"),
        ("Fred", D(6), "evening"),
    ]


def test_the_json_download_costs_the_same_at_two_and_eight_evenings(world, alice, bob_client):
    url = reverse("people:me_data")
    small = _queries(bob_client, url)
    _evenings_for_bob(alice, 6, start=30)

    assert _queries(bob_client, url) == small


def test_my_statistics_agree_with_each_players_own_statistics(world, bob):
    from ledger.stats.selectors import player_stats

    rows = {row["currency"]: row for row in selectors.my_stats(selectors.my_players(bob))}

    for player, currency in ((world["ben"], "EUR"), (world["bobby"], "CZK")):
        own = player_stats(player)
        assert (rows[currency]["evenings"], rows[currency]["hands"], rows[currency]["net"]) == (
            own["evenings"],
            own["hands"],
            own["net"],
        )


def test_a_player_hiding_from_statistics_still_counts_on_their_own_page(world, alice, bob):
    # As ledger.stats computes a hidden player's own figures for their personal page: hiding is from the others.
    circles.player_hide_stats_set(player=world["ben"], hidden=True)

    rows = {row["currency"]: row for row in selectors.my_stats(selectors.my_players(bob))}

    assert (rows["EUR"]["hands"], rows["EUR"]["net"]) == (2, D("0.20"))
