"""A hand is priced once: its texts, stored as sources, read in every language exactly as pricing it there would.

The ledger prices a hand in the scorekeeper's language and stores :meth:`rules.Score.text_source`; a player reading
in another language gets :func:`rules.base.said` of it. That must equal what the engine says when it prices the
same hand in the reader's language, for every game, every kind of hand and every pair of languages.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from rules.base import said
from rules.i18n import LANGUAGES, override
from tests.rules.samples import MARIAS, SKAT, SNAPSER
from tests.rules.strategies import skat_any_documents
from tests.rules.strategies_marias import marias_any_documents
from tests.rules.strategies_snapser import snapser_any_documents


def priced_in(document: dict[str, Any], language: str) -> rules.Score | None:
    with override(language):
        try:
            return rules.score(document)
        except rules.RulesError:
            return None


def assert_said_alike(document: dict[str, Any], priced_language: str) -> None:
    score = priced_in(document, priced_language)
    if score is None:
        return
    source = score.text_source()
    for language in LANGUAGES:
        direct = priced_in(document, language)
        assert direct is not None
        assert said(source, language) == {"label": direct.label, "lines": direct.as_dict()["lines"]}, language


@pytest.mark.parametrize("document", [SKAT, MARIAS, SNAPSER], ids=["skat", "marias", "snapser"])
@pytest.mark.parametrize("priced_language", LANGUAGES)
def test_the_samples_read_alike_in_every_language(document: dict[str, Any], priced_language: str) -> None:
    assert_said_alike(document, priced_language)


@settings(max_examples=300)
@given(st.one_of(skat_any_documents(), marias_any_documents(), snapser_any_documents()), st.sampled_from(LANGUAGES))
def test_any_hand_reads_alike_in_every_language(document: dict[str, Any], priced_language: str) -> None:
    assert_said_alike(document, priced_language)


def test_the_source_is_json() -> None:
    import json

    with override("cs"):
        score = rules.score(MARIAS)
    assert json.loads(json.dumps(score.text_source())) == score.text_source()
