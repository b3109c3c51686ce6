"""Old exports, their texts one copy per language, still import, and their hands read as they did in every language.

The three files in fixtures/exports/ were written by Talon as of commit 0d35b79, before hands stored their texts as
sources, from the demo evenings: the Mariáš one with a corrected hand, a voided hand and a settlement. Their hands
carry their texts as one copy per language (``result.texts``); the import prices each hand again and stores it as
sources.
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
from rules.i18n import LOCALE_DIR as RULES_LOCALE
from tests.rules.test_i18n import parse_po

EXPORTS = Path(settings.BASE_DIR) / "fixtures" / "exports"
FILES = sorted(EXPORTS.glob("*-evening-with-text-copies.json"))


def _export(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def test_there_is_an_export_of_each_game() -> None:
    assert {path.name.split("-")[0] for path in FILES} == {"marias", "skat", "snapser"}


@pytest.mark.django_db
@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_an_export_with_text_copies_imports_with_the_same_money(path: Path, alice: Any) -> None:
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


def _message_ids(source: Any) -> set[tuple[str | None, str]]:
    """Every (context, message id) a stored text source names, however deep."""
    found: set[tuple[str | None, str]] = set()
    if isinstance(source, dict):
        if "t" in source:
            found.add((source.get("c"), source["t"]))
        for value in source.values():
            found |= _message_ids(value)
    elif isinstance(source, list):
        for value in source:
            found |= _message_ids(value)
    return found


@pytest.mark.django_db
def test_the_messages_stored_hands_name_stay_in_every_catalogue(alice: Any) -> None:
    """Stored hands name the engine's message ids: rewording or dropping one would leave every hand stored with it
    reading the English id in all four languages. Keep the old id in the catalogues (or migrate the hands)."""
    named: set[tuple[str | None, str]] = set()
    for path in FILES:
        evening = evening_import(data=_export(path), owner=alice)
        for table in evening.tables.all():
            for hand in table.hands.all():
                named |= _message_ids(hand.result["source"])
    assert len(named) > 40  # the demo evenings say a good part of what the engines can say
    for language in ("cs", "sk", "de"):
        entries = parse_po(RULES_LOCALE / language / "LC_MESSAGES" / "rules.po")[1]
        translated = {key for key, entry in entries.items() if all(entry.msgstr) and not entry.fuzzy}
        assert named - translated == set(), language
