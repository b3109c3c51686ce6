"""The statistics summaries (``ledger.stats.summaries``): recomputed for exactly the tables that changed, equal to
a computation from scratch, and the statistics read from them equal the same figures worked out from the postings
one by one."""

from __future__ import annotations

import datetime
import itertools
from decimal import Decimal
from typing import Any

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger import services
from ledger.circles.models import Circle, CircleMember
from ledger.models import Evening, Hand, Posting, Table
from ledger.stats import selectors as stats
from ledger.stats import summaries as stats_summaries
from ledger.stats.models import StatsDeclared, StatsLine, StatsPair
from tests import factories

SEATS = ["Ana", "Ben", "Cyril"]
_users = itertools.count()


def _grand(declarer: str, won: bool) -> dict[str, Any]:
    """A grand with one matador, won at 61 points or lost at 60 (S1 of RULES.md and its loss)."""
    return {"declarer": declarer, "contract": "grand", "matadors": 1, "declarer_points": 61 if won else 60}


def _season(owner: Any, plan: list[list[tuple[str, bool]]]) -> Circle:
    """A circle with one Skat evening per item of ``plan``, its hands as listed (declarer, won)."""
    circle = Circle.objects.create(owner=owner, name="Regulars", currency="EUR")
    for day, hands in enumerate(plan):
        evening = factories.make_evening(owner, date=datetime.date(2026, 1, 1) + datetime.timedelta(days=day))
        Evening.objects.filter(pk=evening.pk).update(circle=circle)
        table = factories.make_table(evening, "skat")
        for declarer, won in hands:
            services.hand_record(table=table, hand=_grand(declarer, won), by=owner)
    for player in owner.players.all():
        CircleMember.objects.get_or_create(circle=circle, player=player)
    return circle


def _longest_run(amounts: list[Decimal]) -> int:
    longest = run = 0
    for amount in amounts:
        run = run + 1 if amount > 0 else 0
        longest = max(longest, run)
    return longest


def _by_hand(player: Any) -> list[tuple[Decimal, dict[str, Any]]]:
    """The player's counted postings with their hand documents, in the order played."""
    return list(
        Posting.objects.filter(player=player, hand__status=Hand.Status.COUNTED)
        .order_by("hand__table__evening__date", "hand__table__evening_id", "hand__table_id", "hand__number")
        .values_list("amount", "hand__document")
    )


def _pairs_by_hand(player: Any) -> tuple[dict[str, int], dict[str, int]]:
    """Hands with each other player on the player's side and on the other side, worked out hand by hand: at a
    three-seat Skat table the declarer plays alone against the two defenders, who play together."""
    together: dict[str, int] = {}
    against: dict[str, int] = {}
    for _amount, document in _by_hand(player):
        declarer = document["declarer"]
        for other in SEATS:
            if other == player.name:
                continue
            same = (player.name == declarer) == (other == declarer)
            counter = together if same else against
            counter[other] = counter.get(other, 0) + 1
    return together, against


plans = st.lists(
    st.lists(st.tuples(st.sampled_from(SEATS), st.booleans()), min_size=1, max_size=6), min_size=1, max_size=4
)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(plan=plans)
def test_the_statistics_are_the_postings_read_one_by_one(db, plan):
    owner = factories.make_user(f"keeper{next(_users)}")
    _season(owner, plan)
    for player in owner.players.all():
        figures = stats.player_stats(player)
        by_hand = _by_hand(player)
        amounts = [amount for amount, _document in by_hand]
        assert figures["hands"] == len(amounts)
        assert figures["net"] == sum(amounts, Decimal(0))
        assert figures["streaks"]["hands"] == _longest_run(amounts)
        assert figures["biggest_win"] == max(amounts)
        assert figures["biggest_loss"] == min(amounts)
        assert figures["records"]["highest_hand"]["amount"] == max(amounts)
        declared = [amount for amount, document in by_hand if document["declarer"] == player.name]
        expected = {"grand": {"played": len(declared), "won": sum(1 for amount in declared if amount > 0)}}
        assert figures["declared"] == (expected if declared else {})
        together, against = _pairs_by_hand(player)
        assert {name: row["hands"] for name, row in figures["partners"].items()} == together
        assert {name: row["hands"] for name, row in figures["opponents"].items()} == against


def test_a_run_of_won_hands_goes_on_across_tables_and_evenings(alice):
    # A defender wins when the declarer loses. Ana: won, won, won | won, won, won (the whole second table) |
    # won, lost, won, won: 7 in a row across the first three tables' hands. Ben: lost, lost, lost | lost, lost,
    # won | lost, won, won, lost: 2.
    plan = [
        [("Ben", False), ("Ana", True), ("Ana", True)],
        [("Ana", True), ("Ben", False), ("Cyril", False)],
        [("Ana", True), ("Ana", False), ("Cyril", False), ("Ana", True)],
    ]
    _season(alice, plan)
    ana, ben = (alice.players.get(name=name) for name in ("Ana", "Ben"))
    assert stats.player_stats(ana)["streaks"]["hands"] == 7
    assert stats.player_stats(ben)["streaks"]["hands"] == 2


def _summaries() -> list[tuple[Any, ...]]:
    lines = StatsLine.objects.order_by("table_id", "player_id").values_list(
        "table_id", "player_id", "table_hands", "hands", "won", "net", "most", "least", "flek_given", "flek_won",
        "declared", "declared_won", "best_run", "lead_run", "tail_run",
    )  # fmt: skip
    declared = StatsDeclared.objects.order_by("table_id", "player_id", "contract").values_list(
        "table_id", "player_id", "contract", "played", "won"
    )
    pairs = StatsPair.objects.order_by("table_id", "player_id", "other_id").values_list(
        "table_id", "player_id", "other_id", "with_hands", "with_net", "with_won", "against_hands", "against_net",
        "against_won",
    )  # fmt: skip
    return [*lines, *declared, *pairs]


def test_only_the_tables_that_changed_are_computed_again_and_they_equal_a_fresh_start(alice):
    circle = _season(alice, [[("Ana", True), ("Ben", False)], [("Cyril", True)]])
    tables = Table.objects.filter(evening__circle=circle)
    first, second = tables.order_by("evening__date")
    assert stats_summaries.refresh(tables) == 2
    assert stats_summaries.refresh(tables) == 0
    hand = services.hand_record(table=first, hand=_grand("Ben", True), by=alice)
    assert stats_summaries.refresh(tables) == 1
    assert StatsLine.objects.get(table=first, player__name="Ben").hands == 3
    services.hand_void(hand=hand, by=alice)
    assert stats_summaries.refresh(tables) == 1
    assert StatsLine.objects.get(table=first, player__name="Ben").hands == 2
    # Cyril renamed: the names the documents speak of change at both his tables.
    services.player_rename(player=alice.players.get(name="Cyril"), name="Cyrus")
    assert stats_summaries.refresh(tables) == 2
    assert StatsDeclared.objects.get(table=second, player__name="Cyrus").played == 1
    kept = _summaries()
    for model in stats_summaries.SUMMARIES:
        model.objects.all().delete()
    Table.objects.update(stats_revision=None)
    assert stats_summaries.refresh(tables) == 2
    assert _summaries() == kept


@pytest.mark.parametrize(
    ("declarer", "won", "amounts"), [("Ana", True, ("0.96", "-0.48")), ("Ana", False, ("-1.92", "0.96"))]
)
def test_one_hand_worked_out_by_hand(alice, declarer, won, amounts):
    # S1 and S20 of RULES.md: grand, one matador, 61 points: (1 + 1) × 24 = 48 list points at 0.01 a point, which
    # each of the two others pays Ana: Ana +0.96, the others −0.48 each; lost, twice the value: Ana pays each 0.96.
    circle = _season(alice, [[(declarer, won)]])
    stats_summaries.refresh(Table.objects.filter(evening__circle=circle))
    ana, ben = (StatsLine.objects.get(player__name=name) for name in ("Ana", "Ben"))
    assert (ana.net, ben.net) == tuple(Decimal(amount) for amount in amounts)
    assert (ana.hands, ana.won, ana.declared, ana.declared_won) == (1, int(won), 1, int(won))
    assert (ana.best_run, ana.lead_run, ana.tail_run) == ((1, 1, 1) if won else (0, 0, 0))
    pair = StatsPair.objects.get(player__name="Ben", other__name="Cyril")
    assert (pair.with_hands, pair.with_net, pair.against_hands) == (1, Decimal(amounts[1]), 0)


@pytest.mark.django_db(transaction=True)
def test_a_hand_recorded_on_the_page_leaves_its_tables_summaries_ready(client):
    # Committed for real (the summaries are recomputed after the commit, once the answer has gone out), so the
    # statistics asked next have nothing to recompute.
    owner = factories.make_user("keeper")
    client.force_login(owner)
    table = factories.make_table(factories.make_evening(owner), "skat")
    url = reverse("ledger:hand_create", args=[table.pk])
    response = client.post(url, _grand("Ana", True) | {"dealer": "0", "key": "k1"})
    assert response.status_code in (200, 302)
    table.refresh_from_db()
    assert table.revision > 0 and table.stats_revision == table.revision
    assert StatsLine.objects.get(table=table, player__name="Ana").net == Decimal("0.96")
    assert stats_summaries.refresh(Table.objects.filter(pk=table.pk)) == 0
    # A table of an evening left out of statistics waits until somebody asks.
    other = factories.make_table(factories.make_evening(owner), "skat")
    Evening.objects.filter(pk=other.evening_id).update(counted=False)
    client.post(reverse("ledger:hand_create", args=[other.pk]), _grand("Ana", True) | {"dealer": "0", "key": "k2"})
    other.refresh_from_db()
    assert other.revision > 0 and other.stats_revision is None


def test_a_record_tie_goes_to_the_hand_stored_first(alice):
    # Two evenings on one date, the same grand won at each: the highest hand is the one recorded first, whatever
    # the evenings' order.
    day = datetime.date(2026, 3, 6)
    first, second = factories.make_evening(alice, date=day), factories.make_evening(alice, date=day)
    later, earlier = factories.make_table(first, "skat"), factories.make_table(second, "skat")
    factories.record(earlier)
    factories.record(later)
    ana = alice.players.get(name="Ana")
    assert stats.player_stats(ana)["records"]["highest_hand"]["evening"] == second.pk
