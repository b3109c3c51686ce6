"""A recorded hand costs a fixed number of SQL queries, the same at 10 and at 40 hands: the form's Record as htmx
sends it (the answer with what changed, swapped in out of band) and the API's POST, each with what runs after the
commit (the features' listeners of the stored hand) counted in.

The tables are recorded through ``services.hand_record`` once for the module (``factories.kept_for_the_module``);
each test's own hand is rolled back after it."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

import pytest

from ledger import services
from ledger.models import Hand, Posting, Table
from tests import factories
from tests.ledger.api_support import token_client

pytestmark = pytest.mark.django_db

SIZES = (10, 40)
POSTED = {"declarer": "Ben", "trump": "leaves", "announcement": "hram", "winner": "declarer", "result": "s_vodou"}
# Session and user, the table, the key's lookup, the transaction (savepoint and release in a test), the table's
# lock, the hand, its statistics mark, the seats, the postings, the table's newest hand, the evening's zero sum,
# the table's count; after the commit the tournaments' listener (the confirmations' needs none at a table that asks
# nobody); then the answer: the table's state now, the contracts played lately, the chart.
HTMX_QUERIES = 18
# The same without the session (a token) and the answer's three reads.
API_QUERIES = 14


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
                tables[size] = factories.make_table(factories.make_evening(alice), "snapser")
                for number in range(size):
                    hand = dict(factories.SNAPSER_N1, raises=number % 3)
                    services.hand_record(table=tables[size], hand=hand, by=alice)
        yield Stored(alice=alice, tables=tables)


@pytest.fixture
def alice(db, stored):
    return stored.alice


@pytest.fixture
def job_statistics(settings):
    """The statistics left to their job: the request only writes the hand down for it (one insert)."""
    settings.STATS_CATCH_UP = "job"


def _htmx_post(client, table, key):
    body = POSTED | {"raises": "0", "dealer": "1", "key": key, "table_revision": table.revision}
    headers = {"HX-Request": "true", "HX-Current-URL": f"http://testserver/tables/{table.pk}/"}
    return client.post(f"/tables/{table.pk}/hands/", body, headers=headers)


def _assert_stored(table, size, dealer):
    """The hand is the table's newest, with its postings and the running balances they move."""
    hand = Hand.objects.get(table=table, number=size + 1)
    before = Hand.objects.get(table=table, number=size)
    amounts = dict(Posting.objects.filter(hand=hand).values_list("player__name", "amount"))
    assert amounts == {"Ana": Decimal("-0.2"), "Ben": Decimal("0.4"), "Cyril": Decimal("-0.2")}
    moved = [Decimal(after) - Decimal(was) for after, was in zip(hand.balances, before.balances, strict=True)]
    assert moved == [Decimal("-0.2"), Decimal("0.4"), Decimal("-0.2")]
    assert hand.dealer == dealer
    assert Table.objects.get(pk=table.pk).hand_count == size + 1


@pytest.mark.parametrize("size", SIZES)
def test_the_htmx_record_costs_the_same_at_10_and_40_hands(
    client, alice, stored, size, job_statistics, django_assert_num_queries, django_capture_on_commit_callbacks
):
    client.force_login(alice)
    table = Table.objects.get(pk=stored.tables[size].pk)
    with django_assert_num_queries(HTMX_QUERIES), django_capture_on_commit_callbacks(execute=True):
        response = _htmx_post(client, table, f"htmx-{size}")
    assert response.status_code == 200
    assert response.headers["HX-Reswap"] == "none"  # only what the hand changed, swapped in out of band
    assert f"#{size + 1}" in response.content.decode()
    _assert_stored(table, size, dealer=1)


@pytest.mark.parametrize("size", SIZES)
def test_the_api_record_costs_the_same_at_10_and_40_hands(
    alice, stored, size, job_statistics, django_assert_num_queries, django_capture_on_commit_callbacks
):
    api = token_client(alice)
    table = stored.tables[size]
    with django_assert_num_queries(API_QUERIES), django_capture_on_commit_callbacks(execute=True):
        response = api.post(f"/api/tables/{table.pk}/hands/", {"hand": POSTED, "key": f"api-{size}"}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["number"] == size + 1
    # Without a dealer given, the deal moves on clockwise from the newest hand's dealer.
    newest = Hand.objects.get(table=table, number=size)
    _assert_stored(table, size, dealer=(newest.dealer + 1) % 3)


def test_after_a_voided_hand_the_deal_moves_on_from_the_last_counted_one(alice, stored):
    """The newest hand read for the balances is voided: the dealer comes from the last counted hand."""
    table = Table.objects.get(pk=stored.tables[SIZES[0]].pk)
    last = Hand.objects.get(table=table, number=SIZES[0])
    services.hand_undo_last(table=table, by=alice, number=last.number)
    hand = services.hand_record(table=Table.objects.get(pk=table.pk), hand=POSTED, by=alice)
    counted = Hand.objects.get(table=table, number=SIZES[0] - 1)
    assert hand.dealer == (counted.dealer + 1) % 3
    moved = [Decimal(after) - Decimal(was) for after, was in zip(hand.balances, counted.balances, strict=True)]
    assert moved == [Decimal("-0.2"), Decimal("0.4"), Decimal("-0.2")]  # the voided hand moved nothing
