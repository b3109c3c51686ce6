"""Migration 0013: hands stored with their texts as copies per language read the same once they are sources."""

from __future__ import annotations

from typing import Any

import pytest

import rules
from ledger import old_documents, services
from ledger.models import Hand, HandVersion
from rules.base import said
from rules.i18n import LANGUAGES, override
from tests import factories
from tests.ledger.migrations_support import migrate_to

BEFORE = [("ledger", "0012_hand_balances")]
AFTER = [("ledger", "0013_hand_texts_as_sources")]
M13 = {  # RULES.md M13: a lost stovka against the defenders' silent hundred: tens, plurals, hlášky, fleks
    "declarer": "Ana",
    "partner": "Cyril",
    "contract": "stovka",
    "trump": "leaves",
    "points": 50,
    "marriages": {"declarer": [20], "defenders": [40, 20]},
}


def _copies(document: dict[str, Any]) -> dict[str, Any]:
    """The result as the ledger once stored it: priced once per language, English beside the copies."""
    scores = {}
    for language in LANGUAGES:
        with override(language):
            scores[language] = rules.score(document)
    texts = {language: {"label": score.label, "lines": score.as_dict()["lines"]} for language, score in scores.items()}
    return scores["en"].as_dict() | {"texts": texts}


def _stored_as_copies(hand: Hand) -> dict[str, Any]:
    result = _copies(hand.table.document(hand.document))
    Hand.objects.filter(pk=hand.pk).update(result=result)
    return result


def _read(apps: Any, model: str, pk: int) -> dict[str, Any]:
    return apps.get_model("ledger", model).objects.get(pk=pk).result


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("back_to_the_latest_schema")
def test_copies_become_message_ids_that_read_as_before_in_every_language(alice):
    table = factories.make_table(factories.make_evening(alice, "CZK"), "marias")
    (hand,) = factories.record(table, M13)
    before = _stored_as_copies(hand)
    migrate_to(BEFORE)
    result = _read(migrate_to(AFTER), "Hand", hand.pk)
    assert "texts" not in result and "by_language" not in str(result["source"])  # message ids, not copies
    for language in LANGUAGES:
        assert said(result["source"], language) == before["texts"][language], language
    assert {key: result[key] for key in ("label", "lines", "amounts")} == {
        key: before[key] for key in ("label", "lines", "amounts")
    }
    assert said(result["source"], "cs")["lines"][1]["label"].startswith("stovka v zelených, prohra (70), chybí 3")


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("back_to_the_latest_schema")
def test_a_hand_whose_wording_changed_keeps_its_copies(alice, snapser_table):
    (hand,) = factories.record(snapser_table)
    before = _stored_as_copies(hand)
    before["label"] = "Hra (as the old engine said it)"
    before["texts"]["cs"]["label"] = "Hra (jak to řekl starý engine)"
    del before["texts"]["de"]  # a copy lost: the English one stands in
    Hand.objects.filter(pk=hand.pk).update(result=before)
    migrate_to(BEFORE)
    result = _read(migrate_to(AFTER), "Hand", hand.pk)
    assert said(result["source"], "cs")["label"] == "Hra (jak to řekl starý engine)"
    assert said(result["source"], "de")["label"] == "Hra (as the old engine said it)"
    assert said(result["source"], "sk") == before["texts"]["sk"]
    assert result["amounts"] == before["amounts"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("back_to_the_latest_schema")
def test_old_versions_migrate_too_and_the_way_back_writes_the_copies_again(alice, snapser_table):
    (hand,) = factories.record(snapser_table)
    hand = services.hand_correct(hand=hand, document=factories.SNAPSER_N1 | {"trump": "acorns"}, by=alice, version=1)
    version = HandVersion.objects.get(hand=hand)
    copies = _copies(snapser_table.document(version.document))
    HandVersion.objects.filter(pk=version.pk).update(result=copies)
    migrate_to(BEFORE)
    apps = migrate_to(AFTER)
    assert said(_read(apps, "HandVersion", version.pk)["source"], "de") == copies["texts"]["de"]
    current = _read(apps, "Hand", hand.pk)
    back = migrate_to(BEFORE)
    old = _read(back, "HandVersion", version.pk)
    assert "source" not in old and old["texts"] == copies["texts"]
    assert _read(back, "Hand", hand.pk)["texts"]["de"] == said(current["source"], "de")


@pytest.mark.parametrize(
    "junk",
    [
        {"amounts": None, "label": "Hra", "lines": None},
        {"amounts": {"Ana": "abc"}, "label": "Hra", "lines": [7, {"label": "x"}]},
        {"amounts": {"Ana": "1"}, "label": None, "lines": "not a list", "texts": {"cs": "not a dict"}},
        {},
    ],
)
def test_a_result_that_the_ledger_never_wrote_keeps_what_it_says(junk):
    """Migration 0013 must not stop at a hand edited by hand: its texts stay as they were, per language."""
    source = old_documents.text_source("snapser", ["Ana", "Ben", "Cyril"], {}, junk, factories.SNAPSER_N1)
    said_en = said(source, "en")
    assert said_en["label"] == str(junk.get("label", ""))
    assert len(said_en["lines"]) == (len(junk["lines"]) if isinstance(junk.get("lines"), list) else 0)
    assert said(source, "cs") == said_en  # no Czech copy: the English one


def test_a_result_without_a_source_reads_its_copy_in_the_readers_language():
    from django.utils import translation

    from ledger.result_texts import result_label, result_lines

    result = {"label": "Hra", "lines": [], "texts": {"cs": {"label": "Hra (cs)", "lines": [{"label": "x"}]}}}
    with translation.override("cs"):
        assert (result_label(result), result_lines(result)) == ("Hra (cs)", [{"label": "x"}])
    with translation.override("de"):
        assert (result_label(result), result_lines(result)) == ("Hra", [])
