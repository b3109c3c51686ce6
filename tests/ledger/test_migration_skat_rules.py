"""Migration 0007: Skat tables and hands from before issue 15 keep being priced as they were."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("ledger", "0006_invitation")]
AFTER = [("ledger", "0007_skat_rules_of_issue_15")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture
def back_to_the_latest_schema():
    """Leave the database as the other tests expect it: every migration applied."""
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("back_to_the_latest_schema")
def test_old_bock_tables_keep_one_round_per_trigger_and_old_ouvert_hands_become_hand_games():
    apps = _migrate(BEFORE)
    user = apps.get_model("auth", "User").objects.create(username="old")
    evening = apps.get_model("ledger", "Evening").objects.create(
        owner=user, date=datetime.date(2026, 1, 1), currency="EUR", coin="0.01", share_token="t" * 22
    )
    Table = apps.get_model("ledger", "Table")
    players = ["Ana", "Ben", "Cyril"]
    pub = Table.objects.create(evening=evening, game="skat", ruleset={"bock": True}, seat_names=players)
    plain = Table.objects.create(evening=evening, game="skat", ruleset={"bock": False}, seat_names=players)
    ouvert = {"declarer": "Ana", "contract": "grand", "matadors": 1, "declarer_points": 61, "ouvert": True}
    made = {"dealer": 0, "result": {}, "status": "counted", "version": 1}
    made |= {"changed_by": user, "entered_by": user}
    hand = apps.get_model("ledger", "Hand").objects.create(table=plain, document=ouvert, number=1, **made)
    null = apps.get_model("ledger", "Hand").objects.create(
        table=plain, document={"declarer": "Ben", "contract": "null", "ouvert": True, "won": True}, number=2, **made
    )

    apps = _migrate(AFTER)
    Table, Hand = apps.get_model("ledger", "Table"), apps.get_model("ledger", "Hand")
    assert Table.objects.get(pk=pub.pk).ruleset == {"bock": True, "bock_per_trigger": True}
    assert Table.objects.get(pk=plain.pk).ruleset == {"bock": False}
    assert Hand.objects.get(pk=hand.pk).document == {**ouvert, "hand": True}
    assert "hand" not in Hand.objects.get(pk=null.pk).document  # Null ouvert need not be a hand game
