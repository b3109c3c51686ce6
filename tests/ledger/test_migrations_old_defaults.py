"""Migrations 0007 and 0008: tables and hands stored under the engine's old defaults keep being priced as they were."""

from __future__ import annotations

import datetime

import pytest

import rules
from tests.ledger.migrations_support import migrate_to

BEFORE = [("ledger", "0006_invitation")]
AFTER = [("ledger", "0007_skat_rules_of_issue_15")]
AFTER_REPAIR = [("ledger", "0008_hands_written_out_for_issue_15")]


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("back_to_the_latest_schema")
def test_old_bock_tables_keep_one_round_per_trigger_and_old_ouvert_hands_become_hand_games():
    apps = migrate_to(BEFORE)
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

    apps = migrate_to(AFTER)
    Table, Hand = apps.get_model("ledger", "Table"), apps.get_model("ledger", "Hand")
    assert Table.objects.get(pk=pub.pk).ruleset == {"bock": True, "bock_per_trigger": True}
    assert Table.objects.get(pk=plain.pk).ruleset == {"bock": False}
    assert Hand.objects.get(pk=hand.pk).document == {**ouvert, "hand": True}
    assert "hand" not in Hand.objects.get(pk=null.pk).document  # Null ouvert need not be a hand game


def _old_hand(apps, table, number, document, amounts):
    user = apps.get_model("auth", "User").objects.get(username="old")
    return apps.get_model("ledger", "Hand").objects.create(
        table=table,
        number=number,
        dealer=0,
        document=document,
        status="counted",
        version=1,
        result={"amounts": {name: str(amount) for name, amount in amounts.items()}},
        changed_by=user,
        entered_by=user,
    )


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("back_to_the_latest_schema")
def test_what_old_hands_left_to_the_engines_defaults_is_written_out_only_where_the_price_stays():
    apps = migrate_to(AFTER)
    user = apps.get_model("auth", "User").objects.create(username="old")
    evening = apps.get_model("ledger", "Evening").objects.create(
        owner=user, date=datetime.date(2026, 1, 1), currency="CZK", coin="1", share_token="u" * 22
    )
    Table = apps.get_model("ledger", "Table")
    seats = ["Ana", "Ben", "Cyril", "Dana"]
    marias = Table.objects.create(evening=evening, game="marias", ruleset=rules.resolve("marias"), seat_names=seats)
    skat = Table.objects.create(evening=evening, game="skat", ruleset=rules.resolve("skat"), seat_names=seats[:3])

    def price(table, hand):
        return rules.score({"game": table.game, "players": table.seat_names, "rules": table.ruleset, "hand": hand})

    betl = {"declarer": "Ben", "contract": "betl"}  # the old engine: no won = lost
    lost_betl = price(marias, betl | {"won": False}).amounts
    old_betl = _old_hand(apps, marias, 1, betl, lost_betl)
    lucky = _old_hand(apps, marias, 2, dict(betl), {name: -amount for name, amount in lost_betl.items()})
    ramsch = {"contract": "ramsch", "ramsch_points": {"Ana": 30, "Ben": 40, "Cyril": 40}}  # 110: no deal does that
    passed = {"contract": "passed", "bid": 20}
    old_ramsch = _old_hand(apps, skat, 1, ramsch, {"Ana": 0, "Ben": 0, "Cyril": 0})
    old_passed = _old_hand(apps, skat, 2, passed, price(skat, {"contract": "passed"}).amounts)

    apps = migrate_to(AFTER_REPAIR)
    Hand = apps.get_model("ledger", "Hand")
    assert Hand.objects.get(pk=old_betl.pk).document == betl | {"won": False}
    assert Hand.objects.get(pk=lucky.pk).document == betl  # written out, it would be priced otherwise: left alone
    assert Hand.objects.get(pk=old_ramsch.pk).document == ramsch  # nothing can save it
    assert Hand.objects.get(pk=old_passed.pk).document == {"contract": "passed"}
