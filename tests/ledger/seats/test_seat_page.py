"""The seated phone's page (ledger/seats/seat_views.py): the books' scoreboard and log from a seat, its live part
for htmx, recording where the table lets seated players record, Leave.

Personas: Alice keeps score; Ben's phone holds Ben's seat (no account); Cyril's phone waits for a seat; a stranger's
phone (or one seated at another table) gets 404.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from ledger import services
from ledger.models import Hand, Table
from ledger.seats.models import SeatClaim
from tests import factories
from tests.ledger.seats.support import claim, phone_client

HTMX = {"HX-Request": "true"}
N1 = {
    "declarer": "Ana",
    "trump": "leaves",
    "announcement": "hram",
    "winner": "declarer",
    "result": "s_vodou",
    "raises": "0",
    "dealer": "2",
}


def _balances_shown(html: str) -> dict[str, str]:
    seats = re.findall(
        r'data-player="([^"]+)">\s*<div class="name">[^<]*</div>\s*<div class="balance[^"]*">([^<]+)</div>', html
    )
    return dict(seats)


@pytest.fixture
def seated(snapser_table):
    """Ben's phone, holding Ben's seat."""
    client, device = phone_client()
    claim(snapser_table, 1, device)
    return client


def _seated_table(table: Table) -> Table:
    Table.objects.filter(pk=table.pk).update(recording=Table.Recording.SEATED)
    table.refresh_from_db()
    return table


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_the_seated_phone_sees_the_scoreboard_and_the_log(seated, snapser_table, htmx):
    factories.record(snapser_table, times=2)
    response = seated.get(reverse("seats:seat_page", args=[snapser_table.pk]), headers=HTMX if htmx else {})
    html = response.content.decode()
    assert response.status_code == 200 and ("<html" in html) != htmx
    assert "You sit as Ben." in html
    assert _balances_shown(html) == {"Ana": "+0.80", "Ben": "−0.40", "Cyril": "−0.40"}
    assert 'id="hand-2"' in html and 'id="hand-1"' in html
    # The scorekeeper's buttons are not the phone's: no Edit, Void or Undo, and no form at a scorekeeper's table.
    assert "Void" not in html and "Undo the last hand" not in html and 'id="hand-form"' not in html
    assert "The scorekeeper records the hands at this table." in html
    if not htmx:
        assert reverse("seats:seat_stream", args=[snapser_table.pk]) in html


def test_a_stranger_and_a_phone_seated_elsewhere_get_404(client, snapser_table, evening):
    url = reverse("seats:seat_page", args=[snapser_table.pk])
    assert client.get(url).status_code == 404  # no device at all
    other_phone, device = phone_client()
    claim(factories.make_table(evening, "skat"), 0, device)
    assert other_phone.get(url).status_code == 404
    assert other_phone.get(reverse("seats:seat_stream", args=[snapser_table.pk])).status_code == 404
    assert other_phone.post(reverse("seats:seat_record", args=[snapser_table.pk]), N1).status_code == 404


def test_the_scorekeeper_s_table_page_is_not_a_seat(alice_client, snapser_table):
    assert alice_client.get(reverse("seats:seat_page", args=[snapser_table.pk])).status_code == 404


def test_a_waiting_phone_is_let_in_by_the_scorekeeper(seated, snapser_table, alice):
    cyril, device = phone_client()
    waiting = claim(snapser_table, 1, device)
    url = reverse("seats:seat_page", args=[snapser_table.pk])
    assert 'data-claim-status="pending"' in cyril.get(url, headers=HTMX).content.decode()
    from ledger.seats import services as seats

    seats.seat_allow(claim=waiting, by=alice)
    now = cyril.get(url, headers=HTMX).content.decode()
    assert 'data-claim-status="held"' in now and "You sit as Ben." in now
    before = seated.get(url, headers=HTMX).content.decode()
    assert "This phone no longer holds Ben" in before and reverse("seats:join", args=[_code(snapser_table)]) in before


def _code(table):
    from ledger.seats.codes import code_of

    return code_of(table.pk)


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_leaving_lets_the_seat_go_and_a_repeat_changes_nothing(seated, snapser_table, htmx):
    url = reverse("seats:seat_leave", args=[snapser_table.pk])
    answers = [seated.post(url, headers=HTMX if htmx else {}) for _ in range(2)]
    held = SeatClaim.objects.get()
    assert held.status == "released" and held.ended_by == held.acting
    if htmx:
        assert "This phone no longer holds Ben" in answers[1].content.decode()
    else:
        assert answers[1].status_code == 302


def test_only_the_scorekeeper_records_where_the_table_says_so(seated, snapser_table):
    response = seated.post(reverse("seats:seat_record", args=[snapser_table.pk]), N1 | {"key": "k1"})
    assert response.status_code == 403
    assert "Only the scorekeeper records hands at this table." in response.content.decode()
    assert not Hand.objects.exists()


def test_a_seated_table_shows_the_books_form_posted_to_the_seat(seated, snapser_table):
    table = _seated_table(snapser_table)
    factories.record(table)
    html = seated.get(reverse("seats:seat_page", args=[table.pk])).content.decode()
    form = re.search(r'<form id="hand-form"[^>]*>', html).group(0)
    assert f'action="{reverse("seats:seat_record", args=[table.pk])}"' in form
    assert reverse("ledger:hand_create", args=[table.pk]) not in html
    assert '<input type="hidden" name="after" value="1">' in html


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_a_seated_phone_records_a_hand_named_for_its_player_and_a_retry_stores_one(seated, snapser_table, htmx):
    table = _seated_table(snapser_table)
    url = reverse("seats:seat_record", args=[table.pk])
    headers = HTMX if htmx else {}
    answers = [seated.post(url, N1 | {"key": "seat-k1", "after": "0"}, headers=headers) for _ in range(2)]
    hand = Hand.objects.get(table=table)
    assert hand.entered_by == SeatClaim.objects.get().acting and hand.entered_by.first_name == "Ben"
    assert hand.amounts == {
        "Ana": factories.money("0.40"),
        "Ben": factories.money("-0.20"),
        "Cyril": factories.money("-0.20"),
    }
    if htmx:
        assert [a.status_code for a in answers] == [200, 200]
        assert _balances_shown(answers[1].content.decode()) == {"Ana": "+0.40", "Ben": "−0.20", "Cyril": "−0.20"}
        assert answers[0]["X-Talon-Recorded"] == "seat-k1"
    else:
        assert answers[0].status_code == 302


def test_a_hand_recorded_meanwhile_by_another_phone_is_a_conflict_not_a_second_hand(seated, snapser_table):
    table = _seated_table(snapser_table)
    factories.record(table)  # Alice's, which Ben's phone had not seen
    url = reverse("seats:seat_record", args=[table.pk])
    response = seated.post(url, N1 | {"key": "late", "after": "0"}, headers=HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert "Hand #1 was just recorded by alice." in html
    assert Hand.objects.filter(table=table).count() == 1
    # Both versions, and "mine is another hand" posts the tapped hand here again, after the hand that won.
    panel = html[html.index('id="hand-conflict"') :]
    assert "Hand #1, recorded by alice" in panel and "Yours, not stored" in panel
    assert f'hx-post="{url}"' in panel and '<input type="hidden" name="after" value="1">' in panel
    again = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', panel.split("<form", 1)[1]))
    assert again["key"] == "late"
    del again["csrfmiddlewaretoken"]
    seated.post(url, again, headers=HTMX)
    second = Hand.objects.get(table=table, number=2)
    assert second.key == "late" and second.entered_by.first_name == "Ben"


def test_without_javascript_the_conflict_is_a_409_page(seated, snapser_table):
    table = _seated_table(snapser_table)
    factories.record(table)
    response = seated.post(reverse("seats:seat_record", args=[table.pk]), N1 | {"key": "late", "after": "0"})
    assert response.status_code == 409 and "Hand #1 was just recorded by alice." in response.content.decode()


def test_a_refused_hand_is_shown_beside_its_field(seated, snapser_table):
    table = _seated_table(snapser_table)
    posted = {key: value for key, value in N1.items() if key != "winner"} | {"key": "k", "after": "0"}
    response = seated.post(reverse("seats:seat_record", args=[table.pk]), posted)
    assert response.status_code == 400
    assert 'class="errorlist"' in response.content.decode()
    assert not Hand.objects.exists()


def test_a_closed_evening_s_seat_page_says_the_seat_is_gone(seated, snapser_table, alice):
    factories.record(snapser_table)
    services.evening_close(evening=snapser_table.evening, by=alice)
    html = seated.get(reverse("seats:seat_page", args=[snapser_table.pk])).content.decode()
    assert "The evening is closed: this phone holds no seat any more." in html


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_the_seat_page_costs_the_same_at_10_and_40_hands(snapser_table, evening, htmx, django_assert_max_num_queries):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for size in (10, 40):
        table = _seated_table(factories.make_table(factories.make_evening(evening.owner), "snapser"))
        factories.record(table, times=size)
        client, device = phone_client()
        claim(table, 1, device)
        client.get(reverse("seats:seat_page", args=[table.pk]))  # warm: the fresh form is drawn once per process
        with CaptureQueriesContext(connection) as captured:
            response = client.get(reverse("seats:seat_page", args=[table.pk]), headers=HTMX if htmx else {})
        assert response.status_code == 200
        counts.append(len(captured))
    assert counts[0] == counts[1]
