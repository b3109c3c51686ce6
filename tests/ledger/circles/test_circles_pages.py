"""Circle pages as the three personas: Alice keeps score of her circle, Bob holds his personal member
link (no account), Charlie is a stranger who gets 404 everywhere. Money with real numbers (see
test_circles_services for the Šnapser amounts)."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ledger import services
from ledger.circles import services as circles
from ledger.circles import tab_and_pot
from ledger.circles.models import Circle, CircleEntry, CircleMember, CircleSettlement
from ledger.models import Evening
from tests import factories
from tests.ledger.closeout_data import ANA_IBAN, set_iban

D = Decimal
HX = {"HX-Request": "true"}
DAY = datetime.date(2026, 11, 27)


@pytest.fixture
def circle(alice):
    return circles.circle_create(owner=alice, name="Friday Šnapser", members=["Ana", "Ben", "Cyril"], settle="tab")


def won_evening(circle, winner="Ana", losers=("Ben", "Cyril"), stake="3.10", date=DAY):
    evening = circles.circle_evening_create(circle=circle, by=circle.owner, date=date)
    table = factories.make_table(evening, "snapser", players=[winner, *losers], stake=stake)
    factories.record(table, factories.SNAPSER_N1 | {"declarer": winner})
    services.evening_close(evening=evening, by=circle.owner)
    return evening


def member_url(circle, name):
    membership = circle.memberships.get(player__name=name)
    circles.member_link_create(membership=membership)
    return reverse("ledger:circle_member_page", args=[membership.token])


def scorekeeper_urls(circle):
    """Every page and form of the circle, (method, url), for the access checks."""
    ben = circle.memberships.get(player__name="Ben").player_id
    return [
        ("get", reverse("ledger:circle_detail", args=[circle.pk])),
        ("post", reverse("ledger:circle_evening", args=[circle.pk])),
        ("post", reverse("ledger:circle_member_add", args=[circle.pk])),
        ("post", reverse("ledger:circle_member_remove", args=[circle.pk, ben])),
        ("post", reverse("ledger:circle_member_link", args=[circle.pk, ben])),
        ("post", reverse("ledger:circle_scorekeeper_add", args=[circle.pk])),
        ("post", reverse("ledger:circle_scorekeeper_remove", args=[circle.pk])),
        ("post", reverse("ledger:circle_tab_settle", args=[circle.pk])),
        ("get", reverse("ledger:circle_tab_pdf", args=[circle.pk])),
        ("post", reverse("ledger:circle_pot", args=[circle.pk])),
    ]


# --------------------------------------------------------------------------------------------------------------
# Alice, the scorekeeper


def test_the_circle_list_shows_my_circles_only(alice_client, circle, charlie):
    circles.circle_create(owner=charlie, name="Charlie's Skat", members=["Zed"])
    page = alice_client.get(reverse("ledger:circle_list")).content.decode()
    assert "Friday Šnapser" in page and "3 members" in page
    assert "Charlie&#x27;s Skat" not in page and "Charlie's Skat" not in page


def test_creating_a_circle_with_its_members(alice_client, alice):
    data = {
        "name": "Stammtisch",
        "members": "Ana\nBen, Cyril\n",
        "settle": "pot",
        "currency": "EUR",
        "pot_share": "0.2",
    }
    response = alice_client.post(reverse("ledger:circle_create"), data)
    circle = Circle.objects.get(name="Stammtisch")
    assert response.status_code == 302 and response["Location"] == circle.get_absolute_url()
    assert (circle.owner, circle.settle, circle.currency, circle.coin, circle.pot_share) == (
        alice,
        "pot",
        "EUR",
        D("0.01"),
        D("0.2"),
    )
    assert list(circle.members.values_list("name", flat=True)) == ["Ana", "Ben", "Cyril"]


def test_a_circle_without_a_name_is_refused_on_the_form(alice_client):
    response = alice_client.post(reverse("ledger:circle_create"), {"name": " ", "settle": "tab", "currency": "CZK"})
    assert response.status_code == 400
    assert not Circle.objects.exists()


def test_new_evening_with_the_circle_in_one_tap_seats_the_members(alice_client, circle):
    response = alice_client.post(reverse("ledger:circle_evening", args=[circle.pk]))
    evening = Evening.objects.get()
    assert evening.circle == circle
    assert response["Location"] == reverse("ledger:table_create", args=[evening.pk])
    form = alice_client.get(response["Location"]).content.decode()
    for seat, name in enumerate(["Ana", "Ben", "Cyril"]):
        assert f'name="player_{seat}"' in form and f'value="{name}"' in form


def test_the_next_circle_evening_starts_from_the_circles_last_table(alice_client, circle):
    first = won_evening(circle)
    table = first.tables.get()
    alice_client.post(reverse("ledger:circle_evening", args=[circle.pk]))  # today: another day than DAY
    evening = Evening.objects.exclude(pk=first.pk).get()
    response = alice_client.post(reverse("ledger:circle_evening", args=[circle.pk]))  # a second tap: same evening
    assert response["Location"] == f"{reverse('ledger:table_create', args=[evening.pk])}?again={table.pk}"
    assert Evening.objects.count() == 2


def test_the_circle_page_shows_the_tab_and_settles_it_with_qr_codes(alice_client, alice, circle):
    won_evening(circle)  # Ana +12, Ben −6, Cyril −6 (rounded to the crown)
    set_iban(alice, "Ana", ANA_IBAN)
    page = alice_client.get(circle.get_absolute_url()).content.decode()
    assert '<tr data-player="Ana"><td>Ana</td><td class="num plus">12.00\xa0Kč</td></tr>' in page
    assert '<tr data-player="Ben"><td>Ben</td><td class="num minus">−6.00\xa0Kč</td></tr>' in page
    response = alice_client.post(
        reverse("ledger:circle_tab_settle", args=[circle.pk]), {"mode": "fewest", "confirm": "on"}
    )
    assert response.status_code == 302
    page = alice_client.get(circle.get_absolute_url()).content.decode()
    assert "Ben → Ana" in page and "Cyril → Ana" in page
    assert page.count("QR Platba") == 2
    assert "The tab is even" in page


def test_settling_an_even_tab_is_refused(alice_client, circle):
    response = alice_client.post(reverse("ledger:circle_tab_settle", args=[circle.pk]), {"mode": "fewest"})
    assert response.status_code == 400
    assert "nobody owes anything" in response.content.decode()


def test_a_tab_transfer_is_marked_paid_with_htmx_and_without(alice_client, circle):
    won_evening(circle)
    settlement = tab_and_pot.tab_settle(circle=circle, by=circle.owner)
    transfer = settlement.transfers.first()
    url = reverse("ledger:circle_transfer_mark_paid", args=[transfer.pk])
    response = alice_client.post(url, headers=HX)
    body = response.content.decode()
    assert response.status_code == 200 and body.startswith("<li") and "paid" in body and "<html" not in body
    transfer.refresh_from_db()
    assert transfer.is_paid
    response = alice_client.post(reverse("ledger:circle_transfer_mark_unpaid", args=[transfer.pk]))
    assert response.status_code == 302
    transfer.refresh_from_db()
    assert not transfer.is_paid


def test_the_tab_pdf(alice_client, circle):
    won_evening(circle)
    tab_and_pot.tab_settle(circle=circle, by=circle.owner)
    response = alice_client.get(reverse("ledger:circle_tab_pdf", args=[circle.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")


def test_the_pot_takes_deposits_and_withdrawals(alice_client, alice):
    circle = circles.circle_create(owner=alice, name="Kasse", members=["Ana", "Ben"], settle="pot", currency="EUR")
    ana = circle.members.get(name="Ana")
    url = reverse("ledger:circle_pot", args=[circle.pk])
    assert alice_client.post(url, {"action": "deposit", "amount": "20.50", "player": ana.pk}).status_code == 302
    assert alice_client.post(url, {"action": "withdraw", "amount": "7.25", "note": "Pivo"}).status_code == 302
    response = alice_client.post(url, {"action": "withdraw", "amount": "100"})
    assert response.status_code == 400 and "does not hold that much" in response.content.decode()
    page = alice_client.get(circle.get_absolute_url()).content.decode()
    assert "13.25" in page and "Pivo" in page
    assert sorted(CircleEntry.objects.values_list("amount", flat=True)) == [D("-7.25"), D("20.50")]


def test_members_are_added_with_htmx_and_removed(alice_client, circle):
    url = reverse("ledger:circle_member_add", args=[circle.pk])
    response = alice_client.post(url, {"name": "Dana"}, headers=HX)
    body = response.content.decode()
    assert response.status_code == 200 and body.startswith('<section class="card" id="members">') and "Dana" in body
    response = alice_client.post(url, {"name": ""}, headers=HX)
    # Swapped in with the error beside the field (htmx swaps no 4xx answer), nothing added.
    assert response.status_code == 200 and 'id="members"' in response.content.decode()
    assert "This field is required." in response.content.decode()
    assert circle.members.count() == 4
    dana = circle.members.get(name="Dana")
    alice_client.post(reverse("ledger:circle_member_remove", args=[circle.pk, dana.pk]))
    assert list(circle.members.values_list("name", flat=True)) == ["Ana", "Ben", "Cyril"]


def test_a_members_link_is_made_with_its_qr_code_and_revoked(alice_client, circle, client):
    ben = circle.memberships.get(player__name="Ben")
    url = reverse("ledger:circle_member_link", args=[circle.pk, ben.player_id])
    response = alice_client.post(url, {"action": "reset"}, headers=HX)
    ben.refresh_from_db()
    assert ben.token and f"/m/{ben.token}/" in response.content.decode() and "<svg" in response.content.decode()
    token = ben.token
    alice_client.post(url, {"action": "revoke"})
    ben.refresh_from_db()
    assert ben.token is None
    client.logout()
    assert client.get(reverse("ledger:circle_member_page", args=[token])).status_code == 404


def test_a_coscorekeeper_of_the_circle_uses_it_and_the_owner_chooses_them(alice_client, alice, charlie, circle, client):
    evening = factories.make_evening(alice)
    services.evening_add_scorekeeper(evening=evening, user=charlie)
    alice_client.post(reverse("ledger:circle_scorekeeper_add", args=[circle.pk]), {"user": str(charlie.pk)})
    assert list(circle.scorekeepers.all()) == [charlie]
    client.force_login(charlie)
    assert client.get(circle.get_absolute_url()).status_code == 200
    response = client.post(reverse("ledger:circle_evening", args=[circle.pk]))
    circle_evening = Evening.objects.get(circle=circle)
    assert circle_evening.owner == alice and circle_evening.can_keep_score(charlie)
    assert response.status_code == 302
    # Only the owner chooses scorekeepers.
    assert client.post(reverse("ledger:circle_scorekeeper_add", args=[circle.pk]), {"user": "1"}).status_code == 404
    client.post(reverse("ledger:circle_scorekeeper_remove", args=[circle.pk]), {"user": str(charlie.pk)})
    assert client.get(circle.get_absolute_url()).status_code == 404


# --------------------------------------------------------------------------------------------------------------
# Bob, a member with his personal link


def test_a_member_sees_his_balance_what_he_pays_with_qr_codes_and_his_statistics(alice, circle, client):
    won_evening(circle)  # Ben −6 in the tab
    set_iban(alice, "Ana", ANA_IBAN)
    url = member_url(circle, "Ben")
    page = client.get(url).content.decode()
    assert "Ben" in page and "Your balance in the tab" in page
    assert "−6.00\xa0Kč" in page
    tab_and_pot.tab_settle(circle=circle, by=alice)
    response = client.get(url)
    page = response.content.decode()
    assert response["Referrer-Policy"] == "same-origin"
    assert "Ben → Ana" in page and "Cyril → Ana" not in page  # his transfers only
    assert "QR Platba" in page
    assert "Mark paid" not in page  # read only
    # His statistics in the circle: one evening, one hand, exact −6.20 (not the tab's rounded −6).
    stats = page[page.index('id="stats"') :]
    assert "Your statistics" in stats and "−6.20\xa0Kč" in stats


def test_a_member_hiding_from_statistics_sees_none(circle, client):
    won_evening(circle)
    ben = circle.members.get(name="Ben")
    ben.hide_stats = True
    ben.save()
    page = client.get(member_url(circle, "Ben")).content.decode()
    assert "No statistics shown." in page


def test_a_member_link_opens_no_scorekeepers_page(circle, client):
    member_url(circle, "Ben")
    for method, url in scorekeeper_urls(circle):
        response = getattr(client, method)(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"], url


def test_a_member_link_of_another_circle_never_shows_this_one(alice, circle, client):
    other = circles.circle_create(owner=alice, name="Sunday Skat", members=["Ben", "Dora"])
    won_evening(circle)
    page = client.get(member_url(other, "Ben")).content.decode()
    assert "Sunday Skat" in page and "Friday Šnapser" not in page
    assert "Your balance in the tab" not in page


def test_an_unknown_member_link_is_404(db, client):
    assert client.get(reverse("ledger:circle_member_page", args=["nope"])).status_code == 404


# --------------------------------------------------------------------------------------------------------------
# Charlie, a stranger


def test_a_stranger_gets_404_on_every_circle_page_and_form(charlie_client, circle):
    won_evening(circle)
    transfer = tab_and_pot.tab_settle(circle=circle, by=circle.owner).transfers.first()
    urls = [
        *scorekeeper_urls(circle),
        ("post", reverse("ledger:circle_transfer_mark_paid", args=[transfer.pk])),
        ("post", reverse("ledger:circle_transfer_mark_unpaid", args=[transfer.pk])),
    ]
    for method, url in urls:
        assert getattr(charlie_client, method)(url).status_code == 404, url
    transfer.refresh_from_db()
    assert not transfer.is_paid
    assert charlie_client.get(reverse("ledger:circle_list")).content.decode().count("Friday") == 0
    assert CircleMember.objects.filter(circle=circle).count() == 3


# --------------------------------------------------------------------------------------------------------------
# Cost


@pytest.mark.parametrize("htmx", [False, True])
def test_the_circle_page_costs_the_same_with_2_and_12_evenings(alice_client, circle, htmx):
    headers = HX if htmx else {}
    counts = []
    made = 0
    for size in (2, 12):
        while made < size:
            won_evening(circle, date=DAY - datetime.timedelta(days=7 * made))
            made += 1
        with CaptureQueriesContext(connection) as captured:
            response = alice_client.get(circle.get_absolute_url(), headers=headers)
        assert response.status_code == 200
        counts.append(len(captured))
    assert counts[0] == counts[1]
    assert counts[0] <= 15  # with the features' parts (the invitation links and whom a link may name)


def test_the_member_page_costs_the_same_with_2_and_12_evenings(circle, client):
    url = member_url(circle, "Ben")
    counts = []
    made = 0
    for size in (2, 12):
        while made < size:
            won_evening(circle, date=DAY - datetime.timedelta(days=7 * made))
            made += 1
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        counts.append(len(captured))
    assert counts[0] == counts[1]


def test_the_admin_shows_circles_read_only(client, circle):
    from django.contrib.auth import get_user_model

    won_evening(circle)
    client.force_login(get_user_model().objects.create_superuser("boss", "boss@example.com", "pw"))
    assert "Friday Šnapser" in client.get("/admin/ledger/circle/").content.decode()
    page = client.get(f"/admin/ledger/circle/{circle.pk}/change/").content.decode()
    assert "Ana" in page and "Ben" in page
    assert "carried" in client.get("/admin/ledger/circleentry/").content.decode()
    assert client.get("/admin/ledger/circle/add/").status_code == 403


def test_a_tab_evenings_pages_name_the_circle_and_say_nobody_pays_tonight(alice_client, circle):
    evening = won_evening(circle)
    page = alice_client.get(evening.get_absolute_url()).content.decode()
    assert f'<a href="{circle.get_absolute_url()}">Friday Šnapser</a>' in page
    page = alice_client.get(reverse("ledger:evening_settlement", args=[evening.pk])).content.decode()
    assert "Nobody pays tonight: the rounded balances went into the tab of Friday Šnapser." in page
    assert alice_client.get(reverse("home")).content.decode().count(reverse("ledger:circle_list")) == 1


def test_a_member_hides_himself_from_statistics_through_his_link(circle, client):
    won_evening(circle)
    url = member_url(circle, "Ben")
    token = url.split("/")[-2]
    response = client.post(reverse("ledger:circle_member_hide", args=[token]), {"hidden": "1"})
    assert response.status_code == 302
    assert circle.members.get(name="Ben").hide_stats
    assert "No statistics shown." in client.get(url).content.decode()
    client.post(reverse("ledger:circle_member_hide", args=[token]), {"hidden": "0"})
    assert not circle.members.get(name="Ben").hide_stats
    assert client.post(reverse("ledger:circle_member_hide", args=["nope"]), {"hidden": "1"}).status_code == 404


def test_a_scorekeeper_leaves_an_evening_out_of_statistics_a_stranger_cannot(alice_client, charlie, circle):
    from django.test import Client

    evening = won_evening(circle)
    url = reverse("ledger:evening_counted", args=[evening.pk])
    stranger = Client()
    stranger.force_login(charlie)
    assert stranger.post(url, {"counted": "0"}).status_code == 404
    evening.refresh_from_db()
    assert evening.counted
    assert alice_client.post(url, {"counted": "0"}).status_code == 302
    evening.refresh_from_db()
    assert not evening.counted
    assert "Not counted in statistics." in alice_client.get(evening.get_absolute_url()).content.decode()


def test_a_tab_evening_still_says_it_went_into_the_tab_after_the_circle_settles_otherwise(alice_client, circle):
    evening = won_evening(circle)
    Circle.objects.filter(pk=circle.pk).update(settle=Circle.Settle.EVENING)  # changed in the settings later
    page = alice_client.get(reverse("ledger:evening_settlement", args=[evening.pk])).content.decode()
    assert "Nobody pays tonight: the rounded balances went into the tab of Friday Šnapser." in page
    assert "Nobody owes anybody anything." not in page


def test_settling_the_tab_asks_once(alice_client, circle):
    won_evening(circle)
    page = alice_client.get(circle.get_absolute_url()).content.decode()
    assert 'name="confirm"' in page and "Yes, settle the tab now" in page
    url = reverse("ledger:circle_tab_settle", args=[circle.pk])
    one_tap = alice_client.post(url, {"mode": "fewest"})
    assert one_tap.status_code == 400 and "Tick the box to settle the tab" in one_tap.content.decode()
    assert not CircleSettlement.objects.filter(circle=circle).exists()
    assert alice_client.post(url, {"mode": "fewest", "confirm": "on"}).status_code == 302
    assert CircleSettlement.objects.filter(circle=circle).count() == 1
