"""Per-request SQL must not grow with the number of hands: the same count at 10 and at 500 hands."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ledger import services
from ledger.models import Hand, Table
from tests import factories


def _fill(table, count):
    hand = factories.SNAPSER_N1
    for number in range(count):
        services.hand_record(table=table, hand=dict(hand, raises=number % 3), by=table.evening.owner)


def _queries(client, method, url, data=None, **headers):
    with CaptureQueriesContext(connection) as captured:
        response = getattr(client, method)(url, data or {}, headers=headers)
    assert response.status_code in (200, 302), response.status_code
    return len(captured)


@pytest.mark.parametrize("htmx", [False, True])
def test_the_table_page_costs_the_same_at_10_and_500_hands(alice_client, evening, htmx):
    headers = {"HX-Request": "true"} if htmx else {}
    counts = []
    for size in (10, 500):
        table = factories.make_table(evening, "snapser")
        _fill(table, size)
        counts.append(_queries(alice_client, "get", table.get_absolute_url(), **headers))
    assert counts[0] == counts[1]
    # Session, user, table; the newest hands of the log and their count; the newest counted contracts for the
    # fresh form; the chart's sample of running balances (the balances are the newest hand's: no query).
    assert counts[0] <= 7


@pytest.mark.parametrize("answer", ["what changed", "the whole live part"])
def test_a_hand_submission_costs_the_same_at_10_and_500_hands(alice_client, evening, answer):
    counts = []
    for size in (10, 500):
        table = factories.make_table(evening, "snapser")
        _fill(table, size)
        url = reverse("ledger:hand_create", args=[table.pk])
        data = factories.SNAPSER_N1 | {"dealer": "0", "key": f"k{size}"}
        if answer == "what changed":  # the form was drawn on the table as it is: out-of-band swaps (issue 16.7)
            data["table_revision"] = Table.objects.get(pk=table.pk).revision
        counts.append(_queries(alice_client, "post", url, data, **{"HX-Request": "true"}))
        assert Hand.objects.filter(table=table).count() == size + 1
    assert counts[0] == counts[1]
    if answer == "what changed":
        # Recording (with its three for the running balances), then the revision with the hand count, the newest
        # counted contracts for the fresh form and the chart's sample, and whether the table plays in a tournament
        # (whose standings are pushed after the commit).
        assert counts[0] <= 19


def test_a_bock_table_page_costs_the_same_at_10_and_500_hands(alice_client, evening):
    counts = []
    for size in (10, 500):
        table = factories.make_table(evening, "skat", preset="pub")
        for number in range(size):
            declarer = table.seat_names[number % 3]
            hand = {"declarer": declarer, "contract": "grand", "matadors": 1, "declarer_points": 61}
            services.hand_record(table=table, hand=hand, by=evening.owner)
        counts.append(_queries(alice_client, "get", table.get_absolute_url()))
    assert counts[0] == counts[1]


def _fill_seeger(table, count):
    """Seeger-Fabian with Bock rounds: every third hand lost 60:60 (a Bock round), the others won inside it."""
    for number in range(count):
        declarer = table.seat_names[number % 3]
        points = 60 if number % 3 == 0 else 61
        hand = {"declarer": declarer, "contract": "grand", "matadors": 1, "declarer_points": points}
        services.hand_record(table=table, hand=hand, by=table.evening.owner)


@pytest.mark.parametrize("htmx", [False, True])
def test_a_seeger_fabian_table_page_costs_the_same_at_10_and_500_hands(alice_client, evening, htmx):
    """Its list points so far are the newest hand's (``Hand.list_points``), read with the log: no query of their own."""
    headers = {"HX-Request": "true"} if htmx else {}
    counts = []
    for size in (10, 500):
        table = factories.make_table(evening, "skat", preset="seeger-fabian", bock=True)
        _fill_seeger(table, size)
        page = alice_client.get(table.get_absolute_url(), headers=headers)
        assert "Seeger-Fabian points" in page.content.decode()
        counts.append(_queries(alice_client, "get", table.get_absolute_url(), **headers))
    assert counts[0] == counts[1]
    # The Šnapser page's 7 and the Bock queue's newest hands.
    assert counts[0] <= 8


def test_a_seeger_fabian_hand_submission_costs_the_same_at_10_and_500_hands(alice_client, evening):
    counts = []
    for size in (10, 500):
        table = factories.make_table(evening, "skat", preset="seeger-fabian", bock=True)
        _fill_seeger(table, size)
        table.refresh_from_db()
        declarer = table.seat_names[size % 3]
        data = {"declarer": declarer, "contract": "grand", "matadors": "1", "declarer_points": "61"}
        data |= {"bock": services.table_pending_bock(table), "dealer": services.next_dealer(table, table.hands.first())}
        data |= {"key": f"k{size}", "table_revision": table.revision}
        url = reverse("ledger:hand_create", args=[table.pk])
        counts.append(_queries(alice_client, "post", url, data, **{"HX-Request": "true"}))
        assert Hand.objects.filter(table=table).count() == size + 1
    assert counts[0] == counts[1]


def test_the_share_page_costs_the_same_at_10_and_500_hands(client, alice):
    counts = []
    for size in (10, 500):
        evening = factories.make_evening(alice)
        _fill(factories.make_table(evening, "snapser"), size)
        counts.append(_queries(client, "get", reverse("ledger:shared_evening", args=[evening.share_token])))
    assert counts[0] == counts[1]
    # The ETag, the evening, its tables; per table its log, hand count, balances and chart (selectors).
    assert counts[0] <= 7


def test_the_evening_page_costs_the_same_at_10_and_500_hands(alice_client, alice):
    counts = []
    for size in (10, 500):
        evening = factories.make_evening(alice)
        _fill(factories.make_table(evening, "snapser"), size)
        counts.append(_queries(alice_client, "get", evening.get_absolute_url()))
    assert counts[0] == counts[1]


def test_the_share_page_of_a_seeger_fabian_table_costs_the_same_at_10_and_500_hands(client, alice):
    counts = []
    for size in (10, 500):
        evening = factories.make_evening(alice)
        _fill_seeger(factories.make_table(evening, "skat", preset="seeger-fabian", bock=True), size)
        counts.append(_queries(client, "get", reverse("ledger:shared_evening", args=[evening.share_token])))
    assert counts[0] == counts[1]
    assert counts[0] <= 7  # as the Šnapser share page: the list points come with the log
