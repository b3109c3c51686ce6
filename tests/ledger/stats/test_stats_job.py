"""The statistics left to the ``stats_catch_up`` job (``STATS_CATCH_UP = "job"``): the hand's request writes its
change down and nothing more; one pass of the job takes in all of a table's waiting hands at once, equal to a
computation from scratch; a statistic read before the job catches up what waits."""

from __future__ import annotations

from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ledger import services
from ledger.models import Hand, Posting, Table
from ledger.stats import increments, summaries
from ledger.stats import selectors as stats
from ledger.stats.management.commands.stats_catch_up import catch_up_pass
from ledger.stats.models import StatsChange
from tests import factories
from tests.ledger.stats.test_stats_increments import OUTCOMES, _hand, _summaries


@pytest.fixture
def job(settings):
    settings.STATS_CATCH_UP = "job"


def _post_hands(client, table: Table, count: int, capture) -> None:
    """``count`` hands through the hand form, each request's after-commit work run as in the app."""
    for number in range(count):
        hand = _hand(table, number % 3, number % OUTCOMES)
        data = {key: value for key, value in hand.items() if not isinstance(value, dict)}
        with capture(execute=True):
            answer = client.post(reverse("ledger:hand_create", args=[table.pk]), data | {"key": f"job-{number}"})
        assert answer.status_code == 302, answer.content.decode()[:500]


def _summarized(table: Table) -> Table:
    factories.record(table)
    summaries.refresh(Table.objects.filter(pk=table.pk))
    return Table.objects.get(pk=table.pk)


def test_with_the_job_the_request_leaves_the_statistics_to_it(
    job, alice_client, alice, django_capture_on_commit_callbacks
):
    table = _summarized(factories.make_table(factories.make_evening(alice), "snapser"))
    with CaptureQueriesContext(connection) as queries:
        _post_hands(alice_client, table, 1, django_capture_on_commit_callbacks)
    assert not any("ledger_stats" in query["sql"] for query in queries)  # no summary read or written
    assert sum("INSERT INTO" in query["sql"] and "talon_stats_statschange" in query["sql"] for query in queries) == 1
    assert Table.objects.values_list("stats_revision", "revision").get(pk=table.pk) == (1, 2)


@pytest.mark.django_db(transaction=True)  # commits for real: the hook runs after them, before the request ends
def test_without_the_job_a_request_takes_its_hand_in_after_the_answer(
    alice_client, alice, django_capture_on_commit_callbacks
):
    table = _summarized(factories.make_table(factories.make_evening(alice), "snapser"))
    _post_hands(alice_client, table, 2, django_capture_on_commit_callbacks)
    assert Table.objects.values_list("stats_revision", "revision").get(pk=table.pk) == (3, 3)
    assert not StatsChange.objects.filter(table=table).exists()


@pytest.mark.parametrize("game", ["snapser", "skat", "marias"])
def test_one_pass_takes_in_many_hands_of_a_table_at_once_as_a_recomputation_would(
    job, alice_client, alice, django_capture_on_commit_callbacks, game
):
    table = _summarized(factories.make_table(factories.make_evening(alice), game))
    other = _summarized(factories.make_table(factories.make_evening(alice), game))
    _post_hands(alice_client, table, 8, django_capture_on_commit_callbacks)
    _post_hands(alice_client, other, 1, django_capture_on_commit_callbacks)
    first = Hand.objects.filter(table=table).order_by("number")[1]
    services.hand_correct(hand=first, document=_hand(table, 2, 4), by=alice, version=1)  # an old hand changed too
    assert StatsChange.objects.filter(table=table).count() == 9
    calls = []
    original = increments.catch_up

    def counting(table_id: int) -> str:
        calls.append(table_id)
        return original(table_id)

    increments.catch_up = counting  # type: ignore[assignment]
    try:
        assert catch_up_pass() == {"added": 2}
        assert catch_up_pass() == {}
    finally:
        increments.catch_up = original  # type: ignore[assignment]
    assert calls == sorted([table.pk, other.pk])  # one pass per table, whatever its number of hands
    for summarized in (table, other):
        assert (
            Table.objects.values_list("stats_revision", flat=True).get(pk=summarized.pk)
            == Table.objects.get(pk=summarized.pk).revision
        )
        kept = _summaries(summarized)
        Table.objects.filter(pk=summarized.pk).update(stats_revision=None)
        summaries.refresh(Table.objects.filter(pk=summarized.pk))
        assert _summaries(summarized) == kept
    assert not StatsChange.objects.exists()


def test_a_pass_costs_the_same_queries_for_six_hands_and_for_twelve(
    job, alice_client, alice, django_capture_on_commit_callbacks
):
    counts = []
    for hands in (6, 12):
        table = _summarized(factories.make_table(factories.make_evening(alice), "snapser"))
        _post_hands(alice_client, table, hands, django_capture_on_commit_callbacks)
        with CaptureQueriesContext(connection) as queries:
            assert catch_up_pass() == {"added": 1}
        counts.append(len(queries))
    # The tables waiting, then the table's catch-up: its lock, the changes waiting, seats, hands, the three
    # summaries read, at most a delete and an insert each, the changes deleted and the revision marked.
    assert counts[0] == counts[1] <= 19, counts


def test_a_pass_leaves_a_table_whose_changes_are_newer_than_the_mark(
    job, alice, alice_client, django_capture_on_commit_callbacks
):
    early = _summarized(factories.make_table(factories.make_evening(alice), "snapser"))
    late = _summarized(factories.make_table(factories.make_evening(alice), "snapser"))
    _post_hands(alice_client, early, 1, django_capture_on_commit_callbacks)
    mark = StatsChange.objects.order_by("-pk").values_list("pk", flat=True).first()
    _post_hands(alice_client, late, 1, django_capture_on_commit_callbacks)
    assert catch_up_pass(written_before=mark + 1) == {"added": 1}
    assert StatsChange.objects.filter(table=late).count() == 1
    assert not StatsChange.objects.filter(table=early).exists()


def test_the_statistics_page_catches_up_what_the_job_has_not_taken_in(
    job, alice_client, alice, django_capture_on_commit_callbacks
):
    table = _summarized(factories.make_table(factories.make_evening(alice), "snapser"))
    _post_hands(alice_client, table, 3, django_capture_on_commit_callbacks)
    ana = table.seats.get(position=0).player
    net = sum(Posting.objects.filter(player=ana).values_list("amount", flat=True), Decimal(0))
    with CaptureQueriesContext(connection) as queries:
        page = alice_client.get(reverse("ledger:player_stats", args=[ana.pk]))
    assert page.status_code == 200
    # Taken in by its changes, not recomputed from the table's hands.
    assert not any("INSERT INTO ledger_statsline" in query["sql"] and "SELECT" in query["sql"] for query in queries)
    assert f"{net:+.2f}".replace("-", "\N{MINUS SIGN}") in page.content.decode()
    assert stats.player_stats(ana)["hands"] == 4
    assert not StatsChange.objects.filter(table=table).exists()


def test_the_command_takes_in_what_waits_and_says_so(job, alice, alice_client, django_capture_on_commit_callbacks):
    table = _summarized(factories.make_table(factories.make_evening(alice), "snapser"))
    _post_hands(alice_client, table, 2, django_capture_on_commit_callbacks)
    out = StringIO()
    call_command("stats_catch_up", stdout=out)
    assert out.getvalue().strip() == "1 added"
    call_command("stats_catch_up", stdout=out)
    assert out.getvalue().strip().endswith("nothing waiting")
    assert Table.objects.values_list("stats_revision", flat=True).get(pk=table.pk) == 3


def test_a_tournament_like_evening_left_out_of_statistics_waits_for_a_reader(job, alice):
    evening = factories.make_evening(alice)
    table = _summarized(factories.make_table(evening, "snapser"))
    type(evening).objects.filter(pk=evening.pk).update(counted=False)
    factories.record(table)
    assert catch_up_pass() == {}
    assert increments.catch_up(table.pk) == "waiting"
    assert increments.bring_up_to_date(Table.objects.filter(pk=table.pk)) == 1  # somebody asks: taken in
    assert Table.objects.values_list("stats_revision", flat=True).get(pk=table.pk) == 2
    assert not StatsChange.objects.filter(table=table).exists()


def test_a_read_of_many_tables_behind_recomputes_them_together(job, alice):
    tables = [_summarized(factories.make_table(factories.make_evening(alice), "snapser")) for _ in range(5)]
    for table in tables:
        factories.record(table)
    with CaptureQueriesContext(connection) as queries:
        assert increments.bring_up_to_date(Table.objects.filter(pk__in=[table.pk for table in tables])) == 5
    assert sum("INSERT INTO ledger_statsline" in query["sql"] for query in queries) == 1
    assert not StatsChange.objects.exists()
