"""Junk in any field of a hand document: the engine prices it or raises RulesError, and the error can be printed.

Junk that once got through: a list as the preset (``unhashable type``), a null side of the hlášky (stored, then the
edit page failed), a lone surrogate echoed in an error (no encoding could write it), a thousand nested brackets given
to the CLI. Each has a test below; the property test puts junk of every JSON type in every field, nested ones included.
"""

from __future__ import annotations

import copy
import io
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from rules.__main__ import main
from tests import junk
from tests.rules.samples import MARIAS, SNAPSER
from tests.rules.strategies import skat_documents
from tests.rules.strategies_marias import marias_documents
from tests.rules.strategies_snapser import snapser_documents


def _refused(document: Any) -> rules.RulesError:
    with pytest.raises(rules.RulesError) as caught:
        rules.score(document)
    return caught.value


def _cli(text: str) -> tuple[int, Any]:
    out = io.StringIO()
    status = main(["score", "-"], stdin=io.StringIO(text), stdout=out)
    return status, json.loads(out.getvalue())


@pytest.mark.parametrize("preset", [["seed"], {"seed": 1}, 7, True])
def test_a_preset_that_is_not_a_name_is_refused_naming_the_preset(preset: Any) -> None:
    error = _refused(SNAPSER | {"rules": {"preset": preset}})
    assert (error.field, error.message) == ("rules.preset", "unknown preset; allowed: seed")


@pytest.mark.parametrize("side", ["declarer", "defenders"])
def test_a_null_side_of_the_hlasky_is_refused_rather_than_read_as_none(side: str) -> None:
    error = _refused(MARIAS | {"hand": MARIAS["hand"] | {"marriages": {side: None}}})
    assert error.field == f"marriages.{side}"
    assert "each 20 or 40" in error.message


def test_a_side_without_hlasky_may_still_be_left_out_or_empty() -> None:
    for marriages in ({}, {"declarer": []}, {"declarer": [20], "defenders": []}):
        assert rules.score(MARIAS | {"hand": MARIAS["hand"] | {"marriages": marriages}}).won is not None


@pytest.mark.parametrize(
    ("document", "field"),
    [
        (MARIAS | {"hand": MARIAS["hand"] | {"declarer": "\ud800"}}, "declarer"),
        (MARIAS | {"hand": MARIAS["hand"] | {"x\udfff": 1}}, "x\\udfff"),
        (SNAPSER | {"rules": {"\ud800": 1}}, "rules.\\ud800"),
        (MARIAS | {"hand": MARIAS["hand"] | {"flek": {"\ud800": 1}}}, "flek.\\ud800"),
    ],
)
def test_a_lone_surrogate_echoed_in_an_error_is_escaped(document: dict[str, Any], field: str) -> None:
    error = _refused(document)
    assert error.field == field
    json.dumps(error.as_dict(), ensure_ascii=False).encode("utf-8")  # what a renderer does with it
    assert "\ud800" not in error.message and "\udfff" not in error.message


def test_a_thousand_nested_lists_as_a_player_are_refused_in_a_short_message() -> None:
    nested: Any = "Ana"
    for _ in range(3000):
        nested = [nested]
    error = _refused(MARIAS | {"hand": MARIAS["hand"] | {"declarer": nested}})
    assert error.field == "declarer"
    assert len(error.message) < 100


def test_the_cli_refuses_a_document_nested_too_deeply_to_read() -> None:
    assert _cli("[" * 5000 + "]" * 5000) == (2, {"field": "document", "error": "cannot be read: nested too deeply"})


def test_the_cli_prints_a_player_named_with_a_lone_surrogate_as_an_escape() -> None:
    text = json.dumps(SNAPSER | {"players": ["Ana", "Ben", "C\ud800"]})
    status, output = _cli(text)
    assert status == 0
    assert set(output["amounts"]) == {"Ana", "Ben", "C\ud800"}  # written as JSON's \ud800 escape, read back


# --------------------------------------------------------------------------------------------------------------
# Property: junk anywhere


VALID = st.one_of(skat_documents(), marias_documents(), snapser_documents())


def _places(document: dict[str, Any]) -> list[tuple[str, ...]]:
    """Every object in the document (by path) that a field can be spoiled in: the top, rules, hand, nested ones."""
    places: list[tuple[str, ...]] = []
    pending: list[tuple[tuple[str, ...], Any]] = [((), document)]
    while pending:
        path, node = pending.pop()
        places.append(path)
        pending += [((*path, name), value) for name, value in node.items() if isinstance(value, dict)]
    return sorted(places)


def _known(game_name: str, path: tuple[str, ...]) -> list[str]:
    """The field names the engine reads at ``path`` (the document's own come on top)."""
    game = rules.game(game_name)
    known = {(): ["game", "players", "rules", "hand"], ("rules",): ["preset", *game.options]}
    known[("hand",)] = sorted(game.hand_schema()["properties"])
    return known.get(path, [])


@st.composite
def spoiled_documents(draw: st.DrawFn) -> Any:
    """A valid document with one field, at any depth, set to junk (or the whole document junk)."""
    document = copy.deepcopy(draw(VALID))
    if draw(st.integers(0, 19)) == 0:
        return draw(junk.JSON)
    document.setdefault("rules", {})
    path = draw(st.sampled_from(_places(document)))
    node = document
    for name in path:
        node = node[name]
    name = draw(st.sampled_from(sorted({*node, *_known(document["game"], path)})) | junk.TEXT)
    node[name] = draw(junk.JSON)
    return document


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(document=spoiled_documents())
def test_junk_in_any_field_is_priced_or_refused_with_a_printable_error(document: Any) -> None:
    try:
        rules.score(document)
    except rules.RulesError as error:
        assert isinstance(error.field, str) and error.message
        json.dumps(error.as_dict(), ensure_ascii=False).encode("utf-8")


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(document=spoiled_documents())
def test_the_cli_answers_junk_with_json_and_status_0_or_2(document: Any) -> None:
    status, output = _cli(junk.as_text(document))
    assert status in (0, 2)
    assert ("field" in output) is (status == 2)
