"""With a listener marking hands in one query, each list of hands costs the same number of queries at 10 and at 40
hands: the marks are asked once per listed page, never once per hand.

The tables are recorded through ``services.hand_record`` once for the module (``factories.kept_for_the_module``)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.db import connection
from django.template.loader import render_to_string
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ledger import hooks, pdf, services
from ledger.models import Hand, Table
from tests import factories
from tests.ledger.api_support import anonymous_client, token_client

pytestmark = pytest.mark.django_db

SIZES = (10, 40)


@dataclass(frozen=True)
class Stored:
    alice: object
    tables: dict[int, Table]


@pytest.fixture(scope="module")
def stored(django_db_setup, django_db_blocker):
    with factories.kept_for_the_module(django_db_blocker):
        with django_db_blocker.unblock():
            alice = factories.make_user("alice")
            tables = {}
            for size in SIZES:
                evening = factories.make_evening(alice)
                services.evening_share_reset(evening=evening)
                tables[size] = factories.make_table(evening, "snapser")
                for number in range(size):
                    hand = dict(factories.SNAPSER_N1, raises=number % 3)
                    services.hand_record(table=tables[size], hand=hand, by=alice)
        yield Stored(alice=alice, tables=tables)


@pytest.fixture
def alice(db, stored):
    return stored.alice


def _one_query_marks(hands):
    """Every even-numbered hand confirmed, read in one query whatever the number of hands."""
    even = Hand.objects.filter(pk__in=[hand.pk for hand in hands], number__iregex=r"[02468]$")
    return {hand_id: [hooks.HandMark("confirmed", "Confirmed")] for hand_id in even.values_list("pk", flat=True)}


@pytest.fixture
def marking():
    hooks.hands_marked.connect(_one_query_marks)
    yield
    hooks.hands_marked.disconnect(_one_query_marks)


def _counted(read):
    """{size: (queries, what was read)} for each stored table."""
    counts = {}
    for size in SIZES:
        with CaptureQueriesContext(connection) as queries:
            answer = read(size)
        counts[size] = (len(queries), answer)
    return counts


def _same_count(counts):
    (small, _), (large, _) = counts[SIZES[0]], counts[SIZES[1]]
    assert small == large, f"{small} queries at {SIZES[0]} hands, {large} at {SIZES[1]}"


def test_the_table_pages_whole_log_costs_the_same(client, alice, stored, marking):
    client.force_login(alice)
    counts = _counted(lambda size: client.get(f"{stored.tables[size].get_absolute_url()}?all").content.decode())
    _same_count(counts)
    assert counts[40][1].count('data-mark="confirmed"') == 20


def test_the_share_pages_whole_log_costs_the_same(client, stored, marking):
    def read(size):
        token = stored.tables[size].evening.share_token
        return client.get(f"{reverse('ledger:shared_evening', args=[token])}?all").content.decode()

    counts = _counted(read)
    _same_count(counts)
    assert counts[40][1].count('data-mark="confirmed"') == 20


def test_the_api_hand_list_costs_the_same(alice, stored, marking):
    api = token_client(alice)
    counts = _counted(lambda size: api.get(f"/api/tables/{stored.tables[size].pk}/hands/").json())
    _same_count(counts)
    assert sum(bool(hand["marks"]) for hand in counts[40][1]) == 20


def test_the_shared_evening_api_costs_the_same(stored, marking):
    api = anonymous_client()
    counts = _counted(lambda size: api.get(f"/api/shared/{stored.tables[size].evening.share_token}/").json())
    _same_count(counts)
    assert sum(bool(hand["marks"]) for hand in counts[40][1]["tables"][0]["hands"]) == 20


def test_the_pdf_summary_costs_the_same(stored, marking):
    def read(size):
        return render_to_string("ledger/summary_pdf.html", pdf.summary_context(stored.tables[size].evening))

    counts = _counted(read)
    _same_count(counts)
    assert counts[40][1].count('<strong class="mark">Confirmed</strong>') == 20
