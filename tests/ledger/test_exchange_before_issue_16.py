"""Exports written before issue 16 still import, and their hands read as they did, in every language.

The three files in fixtures/exports/ were written by Talon as of commit 0d35b79 (before issue 16) from the demo
evenings: the Mariáš one with a corrected hand, a voided hand and a settlement. Their hands carry their texts as
one copy per language (``result.texts``); the import prices each hand again and stores it as sources.
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.utils import translation

from ledger import selectors
from ledger.exchange import evening_import
from rules.i18n import LANGUAGES

EXPORTS = Path(settings.BASE_DIR) / "fixtures" / "exports"
FILES = sorted(EXPORTS.glob("*-before-issue-16.json"))


def _export(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def test_there_is_an_export_of_each_game() -> None:
    assert {path.name.split("-")[0] for path in FILES} == {"marias", "skat", "snapser"}


@pytest.mark.django_db
@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_an_export_from_before_issue_16_imports_with_the_same_money(path: Path, alice: Any) -> None:
    data = _export(path)
    evening = evening_import(data=data, owner=alice)
    for exported, table in zip(data["tables"], evening.tables.order_by("pk"), strict=True):
        expected = dict.fromkeys(table.seat_names, Decimal(0))
        for hand in exported["hands"]:
            if hand["status"] == "counted":
                for name, amount in hand["result"]["amounts"].items():
                    expected[name] += Decimal(amount)
        assert selectors.table_balances(table) == expected
        assert sum(expected.values()) == 0
        stored = table.hands.count(), sum(hand.versions.count() for hand in table.hands.all())
        assert stored == (len(exported["hands"]), sum(len(hand.get("versions", [])) for hand in exported["hands"]))
    if data.get("settlement"):
        transfers = {(t["payer"], t["payee"], t["amount"]) for t in data["settlement"]["transfers"]}
        assert {(t.payer.name, t.payee.name, str(t.amount)) for t in evening.settlement.transfers.all()} == transfers


@pytest.mark.django_db
@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_every_hand_reads_as_it_was_exported_in_every_language(path: Path, alice: Any) -> None:
    data = _export(path)
    evening = evening_import(data=data, owner=alice)
    tables = zip(data["tables"], evening.tables.order_by("pk"), strict=True)
    for exported, table in tables:
        hands = {hand.number: hand for hand in table.hands.all()}
        assert sorted(hands) == sorted(hand["number"] for hand in exported["hands"])
        for hand in exported["hands"]:
            for language in LANGUAGES:
                with translation.override(language):
                    said = {"label": hands[hand["number"]].label, "lines": hands[hand["number"]].lines}
                assert said == hand["result"]["texts"][language], (hand["number"], language)
