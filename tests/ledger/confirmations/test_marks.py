"""The marks hands carry wherever they are listed, and the close page's lines, in queries that do not grow."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ledger import hooks
from ledger.confirmations import marks as confirmation_marks
from ledger.confirmations import services
from ledger.models import Hand
from tests import factories
from tests.ledger.confirmations.support import asking_table, player, seat_phone


@pytest.fixture
def table(alice):
    return asking_table(factories.make_evening(alice), "snapser", "opponent")


def test_the_marks_say_who_confirmed_who_is_awaited_and_who_disputed(table, alice):
    confirmed, awaiting, disputed = factories.record(table, times=3)
    claim = seat_phone(table, "Ben")
    services.confirm(hand=confirmed, version=1, player=claim.player, by=claim.acting, claim=claim)
    services.dispute(hand=disputed, version=1, player=player(table, "Cyril"), by=alice, reason="It was za 6")
    marks = hooks.hand_marks(list(Hand.objects.filter(table=table)))
    ok, waiting, flagged = (marks[hand.pk][0] for hand in (confirmed, awaiting, disputed))
    assert (ok.code, ok.label) == ("confirmed", "confirmed")
    assert ok.title.startswith("OK from Ben at ") and ok.title.endswith("on their own phone")
    assert (waiting.code, waiting.title) == ("awaiting", "Waiting for an OK from one of Ben, Cyril")
    assert flagged.code == "disputed"
    assert flagged.title.startswith("Disputed by Cyril at ")
    assert flagged.title.endswith("on the table's phone (alice): It was za 6")


def test_a_table_without_confirmation_marks_nothing(alice):
    table = factories.make_table(factories.make_evening(alice), "snapser")
    assert hooks.hand_marks(factories.record(table, times=2)) == {}


@pytest.mark.parametrize("count", [10, 40])
def test_marking_hands_costs_the_same_queries_at_10_and_40_hands(table, alice, count, django_assert_num_queries):
    hands = factories.record(table, times=count)
    for hand in hands[::3]:
        services.confirm(hand=hand, version=1, player=player(table, "Ben"), by=alice)
    listed = list(Hand.objects.filter(table=table))  # as the log lists them: without their table
    with django_assert_num_queries(5):
        marks = hooks.hand_marks(listed)
    assert sum(mark[0].code == "confirmed" for mark in marks.values()) == len(hands[::3])


def test_the_close_lists_each_hand_still_awaiting_or_disputed(table, alice):
    first, _awaiting, third = factories.record(table, times=3)
    services.confirm(hand=first, version=1, player=player(table, "Ben"), by=alice)
    services.dispute(hand=third, version=1, player=player(table, "Ben"), by=alice, reason="no")
    checks = confirmation_marks.close_checks(table.evening)
    assert [check.open for check in checks] == [True, True]
    assert checks[0].text == "Šnapser, hand #2 (s vodou): Waiting for an OK from one of Ben, Cyril"
    assert checks[1].text.startswith("Šnapser, hand #3 (s vodou): Disputed by Ben at ")
    assert set(checks) <= set(hooks.close_checks(table.evening))  # what the close page reads


def test_the_close_reads_the_evening_in_queries_that_do_not_grow(table, alice):
    factories.record(table, times=12)
    with CaptureQueriesContext(connection) as few:
        confirmation_marks.close_checks(table.evening)
    factories.record(table, times=30)
    with CaptureQueriesContext(connection) as many:
        assert len(confirmation_marks.close_checks(table.evening)) == 42
    assert len(many) == len(few)


def test_a_confirmed_evening_has_nothing_to_close_past(table, alice):
    hand = factories.record(table)[0]
    services.confirm(hand=hand, version=1, player=player(table, "Cyril"), by=alice)
    assert confirmation_marks.close_checks(table.evening) == []


def test_a_confirmation_changes_the_shared_pages_etag_and_its_mark(table, client):
    """The share page answers 304 while nothing it shows changed: an OK changes its mark, so not its ETag alone."""
    hand = factories.record(table)[0]
    url = f"/s/{table.evening.share_token}/"
    first = client.get(url)
    assert 'data-mark="awaiting"' in first.text
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    claim = seat_phone(table, "Ben")
    services.confirm(hand=hand, version=1, player=claim.player, by=claim.acting, claim=claim)
    after = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert after.status_code == 200 and after["ETag"] != first["ETag"]
    assert 'data-mark="confirmed"' in after.text
