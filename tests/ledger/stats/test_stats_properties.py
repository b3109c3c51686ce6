"""Properties of the statistics over random hands of all three games, and their cost (queries) at two sizes."""

from __future__ import annotations

import datetime
import itertools
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger import services
from ledger.circles.models import Circle, CircleMember
from ledger.models import Evening, Posting
from ledger.stats import selectors as stats
from tests import factories
from tests.rules.strategies import skat_documents
from tests.rules.strategies_marias import marias_documents
from tests.rules.strategies_snapser import snapser_documents

_users = itertools.count()
documents = st.one_of(skat_documents(), marias_documents(), snapser_documents())


def _circle_of(owner) -> Circle:
    return Circle.objects.create(owner=owner, name="Regulars", currency="EUR")


def _record(circle: Circle, day: int, document: dict) -> None:
    """One evening of the circle with one table for the document's game, seats and rules, and its hand."""
    evening = factories.make_evening(circle.owner, date=datetime.date(2026, 1, 1) + datetime.timedelta(days=day))
    Evening.objects.filter(pk=evening.pk).update(circle=circle)
    table = services.table_create(
        evening=evening, game=document["game"], players=document["players"], rules_override=document["rules"]
    )
    for name in document["players"]:
        CircleMember.objects.get_or_create(
            circle=circle, player=services.player_get_or_create(owner=circle.owner, name=name)
        )
    # The ledger keeps the Bock queue itself (a drawn count would not match the table's).
    hand = {key: value for key, value in document["hand"].items() if key != "bock"}
    services.hand_record(table=table, hand=hand, by=circle.owner)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(hands=st.lists(documents, min_size=1, max_size=6))
def test_the_nets_of_a_circle_sum_to_zero_and_are_the_postings_summed(db, hands):
    owner = factories.make_user(f"keeper{next(_users)}")
    circle = _circle_of(owner)
    for day, document in enumerate(hands):
        _record(circle, day, document)
    players = list(circle.members.all())
    per_player = {player.name: stats.player_stats(player, circle=circle) for player in players}
    assert sum((row["net"] for row in per_player.values()), Decimal(0)) == 0
    season = stats.circle_stats(circle)
    assert sum((row["net"] for row in season["table"]), Decimal(0)) == 0
    for player in players:
        postings = list(Posting.objects.filter(player=player).values_list("amount", flat=True))
        mine = per_player[player.name]
        assert mine["net"] == sum(postings, Decimal(0))
        assert mine["hands"] == len(postings)
        assert mine["net_series"][-1]["cumulative"] == mine["net"] if postings else not mine["net_series"]
        # Each hand a player shares with somebody is with them or against them, or neither has a side.
        for other, row in mine["partners"].items():
            assert row["hands"] == per_player[other]["partners"][player.name]["hands"]
        declared = sum(row["played"] for row in mine["declared"].values())
        assert declared <= mine["hands"]


def _season(owner, evenings: int, hands: int) -> Circle:
    circle = _circle_of(owner)
    for day in range(evenings):
        evening = factories.make_evening(owner, date=datetime.date(2026, 1, 1) + datetime.timedelta(days=7 * day))
        Evening.objects.filter(pk=evening.pk).update(circle=circle)
        for game in ("marias", "snapser", "skat"):
            factories.record(factories.make_table(evening, game), times=hands)
    for player in owner.players.all():
        CircleMember.objects.create(circle=circle, player=player)
    return circle


def _queries(function, *args, **kwargs) -> int:
    with CaptureQueriesContext(connection) as captured:
        function(*args, **kwargs)
    return len(captured.captured_queries)


@pytest.mark.parametrize("scope", ["player", "player in circle", "circle"])
def test_the_number_of_queries_does_not_grow_with_evenings_or_hands(alice, scope):
    small = _season(alice, evenings=1, hands=1)
    big = _season(factories.make_user("bob"), evenings=6, hands=8)

    def count(circle: Circle) -> int:
        ana = circle.members.get(name="Ana")
        if scope == "player":
            return _queries(stats.player_stats, ana)
        if scope == "player in circle":
            return _queries(stats.player_stats, ana, circle=circle, game="skat")
        return _queries(stats.circle_stats, circle)

    own = {"player": 5, "player in circle": 5, "circle": 7}[scope]  # the statistics' own, over the summaries
    # Two to fingerprint the books (the cache's key), then the statistics themselves, the first time with the
    # summaries of every table computed in one go (one query finds them behind, never summarized, then 12: a
    # savepoint around the lock on the stale tables, three deletes, three inserts, the revisions marked and the
    # changes written down deleted); asked again, only the two.
    assert count(small) == count(big) == 2 + 1 + 12 + own
    assert count(small) == count(big) == 2
    # With the cache gone but the summaries still right, one query finds no table to recompute.
    cache.clear()
    assert count(small) == count(big) == 2 + 1 + own
    assert stats.circle_stats(big)["hands"] == 6 * 3 * 8


def test_the_cached_answer_follows_every_change_of_the_books(alice):
    circle = _season(alice, evenings=2, hands=1)
    ana = circle.members.get(name="Ana")
    assert stats.player_stats(ana)["hands"] == 6
    evening = circle.evenings.order_by("date").first()
    hand = factories.record(evening.tables.get(game="skat"))[0]  # Ana declares a grand: +0.96
    assert (stats.player_stats(ana)["hands"], stats.circle_stats(circle)["hands"]) == (7, 7)
    services.hand_void(hand=hand, by=alice)
    assert stats.player_stats(ana)["hands"] == 6
    Evening.objects.filter(pk=evening.pk).update(counted=False)
    assert (stats.player_stats(ana)["evenings"], stats.circle_stats(circle)["evenings"]) == (1, 1)
    ana.hide_stats = True
    ana.save()
    assert "Ana" not in [row["player"] for row in stats.circle_stats(circle)["table"]]
