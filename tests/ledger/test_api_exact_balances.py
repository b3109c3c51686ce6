"""Balances through the API are exact on SQLite too, where the database adds decimals up as floats.

Ana's postings at this table are +0.40, −0.10 and −0.30: as floats 0.4 − 0.1 − 0.3 is 2.8e-17, not zero, and
Cyril's −0.2 − 0.1 − 0.3 is −0.6000000000000001. Every reader of a balance must give back 0.00 and −0.60.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ledger import services
from tests import factories
from tests.ledger.api_support import anonymous_client, token_client

HANDS = [
    ("Ana", "bez_vody"),  # Ana +0.40, Ben −0.20, Cyril −0.20
    ("Ben", "s_vodou"),  # Ben +0.20, Ana −0.10, Cyril −0.10
    ("Ben", "za_6"),  # Ben +0.60, Ana −0.30, Cyril −0.30
]
EXACT = {"Ana": "0.00", "Ben": "0.60", "Cyril": "-0.60"}


@pytest.fixture
def played(alice):
    evening = factories.make_evening(alice)
    table = factories.make_table(evening, "snapser", stake="0.05")
    for declarer, result in HANDS:
        hand = dict(factories.SNAPSER_N1, declarer=declarer, result=result)
        services.hand_record(table=table, hand=hand, by=alice)
    return table


def test_the_float_sum_is_not_exact():
    """The premise: summed as floats, these amounts miss zero (so the test would catch a reader that skips)."""
    assert 0.4 - 0.1 - 0.3 != 0
    assert -0.2 - 0.1 - 0.3 != -0.6


def test_every_balance_the_api_shows_is_exact(alice, played):
    api = token_client(alice)
    evening = played.evening
    detail = api.get(f"/api/evenings/{evening.pk}/").json()
    assert detail["balances"] == EXACT
    assert detail["tables"][0]["balances"] == EXACT
    assert api.get(f"/api/tables/{played.pk}/").json()["balances"] == EXACT
    assert api.get(f"/api/evenings/{evening.pk}/settlement/").json()["balances"] == EXACT
    shared = anonymous_client().get(f"/api/shared/{evening.share_token}/").json()
    assert shared["balances"] == EXACT
    assert shared["tables"][0]["balances"] == EXACT


def test_the_closed_settlement_is_exact_too(alice, played):
    api = token_client(alice)
    evening = played.evening
    body = api.post(f"/api/evenings/{evening.pk}/close/", {}, format="json").json()
    assert body["balances"] == EXACT
    assert body["rounded"] == EXACT
    assert [(t["from"], t["to"], t["amount"]) for t in body["transfers"]] == [("Cyril", "Ben", "0.60")]
    shared = anonymous_client().get(f"/api/shared/{evening.share_token}/").json()
    assert shared["settlement"]["balances"] == EXACT


def test_a_balance_of_zero_orders_by_name_among_equals(alice):
    """Largest gain first, then by name: a float crumb below zero must not push a zero balance down the list."""
    evening = factories.make_evening(alice)
    table = factories.make_table(evening, "snapser", stake="0.05", players=["Zed", "Ben", "Cyril"])
    for declarer, result in [("Zed", "bez_vody"), ("Ben", "s_vodou"), ("Ben", "za_6")]:
        hand = dict(factories.SNAPSER_N1, declarer=declarer, result=result)
        services.hand_record(table=table, hand=hand, by=alice)
    other = factories.make_table(evening, "snapser", players=["Ana", "Dana", "Eva"])
    services.hand_record(table=other, hand=dict(factories.SNAPSER_N1), by=alice)
    services.hand_undo_last(table=other, by=alice)  # Ana, Dana, Eva at exactly zero
    body = token_client(alice).get(f"/api/evenings/{evening.pk}/").json()
    assert list(body["balances"].items()) == [
        ("Ben", "0.60"),
        ("Ana", "0.00"),
        ("Dana", "0.00"),
        ("Eva", "0.00"),
        ("Zed", "0.00"),
        ("Cyril", "-0.60"),
    ]


def test_only_the_posting_queries_sum_money():
    """One exact path: amounts are summed only in ledger/models.py, where every sum goes through exact_total."""
    ledger = Path(__file__).resolve().parents[2] / "ledger"
    summing = [
        str(path.relative_to(ledger))
        for path in ledger.rglob("*.py")
        if path.name != "models.py" and re.search(r"Sum\(\s*[\"'](\w+__)*amount[\"']", path.read_text())
    ]
    assert summing == []
