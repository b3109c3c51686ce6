"""The command line `python -m rules`: JSON in, JSON out, exit status 2 with {"field", "error"} on bad input."""

from __future__ import annotations

import importlib.util
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import rules
from rules.__main__ import main

ROOT = Path(__file__).resolve().parents[2]
S1: dict[str, Any] = {
    "game": "skat",
    "players": ["Ana", "Ben", "Cyril"],
    "rules": {"preset": "isko", "stake": "0.01"},
    "hand": {"declarer": "Ana", "contract": "grand", "matadors": 1, "declarer_points": 61},
}
STRANGER = S1 | {"hand": S1["hand"] | {"declarer": "Zed"}}


def _importable(game: str) -> bool:
    return importlib.util.find_spec(f"rules.{game}") is not None


ALL_GAMES_WRITTEN = all(_importable(name) for name in rules.GAME_NAMES)


def run(argv: list[str], stdin: str = "") -> tuple[int, Any]:
    """Run the CLI in this process; the exit status and the JSON it printed."""
    out = io.StringIO()
    status = main(argv, stdin=io.StringIO(stdin), stdout=out)
    return status, json.loads(out.getvalue())


def run_process(argv: list[str], stdin: str = "") -> tuple[int, str]:
    """Run ``python -m rules`` as a separate process, the way a shell script would."""
    done = subprocess.run(
        [sys.executable, "-m", "rules", *argv], input=stdin, capture_output=True, text=True, cwd=ROOT, check=False
    )
    return done.returncode, done.stdout


def test_score_prints_the_priced_hand() -> None:
    status, output = run(["score", "-"], json.dumps(S1))
    assert status == 0
    assert output["amounts"] == {"Ana": "0.96", "Ben": "-0.48", "Cyril": "-0.48"}
    assert (output["label"], output["won"], output["value"], output["score"]) == (
        "Grand with 1",
        True,
        "48",
        {"Ana": 48, "Ben": 0, "Cyril": 0},
    )
    assert output["lines"][0] == {"label": "Grand with 1, game 2 × 24 = 48", "detail": "61 card points", "amount": "48"}


def test_score_reads_a_file(tmp_path: Path) -> None:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(S1 | {"hand": S1["hand"] | {"declarer_points": 60}}), encoding="utf-8")
    status, output = run(["score", str(path)])
    assert status == 0
    assert output["amounts"] == {"Ana": "-1.92", "Ben": "0.96", "Cyril": "0.96"}


def test_score_exits_2_naming_the_bad_field() -> None:
    status, output = run(["score"], json.dumps(STRANGER))
    assert status == 2
    assert output == {"field": "declarer", "error": "'Zed' is not at this table; players: Ana, Ben, Cyril"}


def test_score_exits_2_on_malformed_json() -> None:
    status, output = run(["score", "-"], '{"game": "skat",')
    assert status == 2
    assert output["field"] == "document"
    assert output["error"].startswith("is not valid JSON")


def test_score_exits_2_on_a_missing_file(tmp_path: Path) -> None:
    status, output = run(["score", str(tmp_path / "nope.json")])
    assert (status, output["field"]) == (2, "file")


def test_schema_describes_the_skat_document() -> None:
    status, schema = run(["schema", "skat"])
    assert status == 0
    assert schema["required"] == ["game", "players", "hand"]
    assert (schema["properties"]["players"]["minItems"], schema["properties"]["players"]["maxItems"]) == (3, 4)
    assert schema["properties"]["rules"]["properties"]["preset"] == {"enum": ["isko", "seeger-fabian", "pub"]}
    assert schema["properties"]["rules"]["properties"]["stake"]["type"] == "string"
    hand = schema["properties"]["hand"]
    assert hand["additionalProperties"] is False
    assert hand["properties"]["contract"]["enum"] == [
        *("clubs", "spades", "hearts", "diamonds", "grand", "null", "ramsch", "passed"),
    ]
    assert hand["properties"]["declarer_points"] == {"type": "integer", "minimum": 0, "maximum": 120}


@pytest.mark.parametrize(
    "hand",
    [
        S1["hand"],
        {"declarer": "Ana", "contract": "null", "hand": True, "won": False, "bid": 35, "kontra": 1},
        {"contract": "ramsch", "ramsch_points": {"Ana": 120, "Ben": 0, "Cyril": 0}, "jungfrau": ["Ben"], "bock": 1},
        {"contract": "ramsch", "durchmarsch": "Ben"},
        {"contract": "passed"},
    ],
)
def test_documents_the_engine_accepts_fit_the_schema(hand: dict[str, Any]) -> None:
    # jsonschema is not installed, so check the keys and the simple types the hand schema states.
    document = S1 | {"rules": {"preset": "pub"}, "hand": hand}
    rules.score(document)
    properties = rules.schema("skat")["properties"]["hand"]["properties"]
    for key, value in hand.items():
        assert _fits(value, properties[key]), key


def _fits(value: object, spec: dict[str, Any]) -> bool:
    """The few JSON Schema keywords the hand schema's properties use (jsonschema itself is not installed)."""
    kinds: dict[str, type] = {"boolean": bool, "integer": int, "object": dict, "array": list, "string": str}
    if "enum" in spec:
        return value in spec["enum"]
    types = spec["type"] if isinstance(spec["type"], list) else [spec["type"]]
    if value is None:
        return "null" in types
    if not any(isinstance(value, kinds[t]) for t in types if t in kinds):
        return False
    if isinstance(value, int):
        return bool(spec.get("minimum", value) <= value <= spec.get("maximum", value))
    if isinstance(value, dict):
        return all(_fits(v, spec.get("additionalProperties", {"type": "string"})) for v in value.values())
    if isinstance(value, list):
        return len(value) <= spec.get("maxItems", len(value)) and all(_fits(v, spec["items"]) for v in value)
    return True


def test_presets_lists_isko_seeger_fabian_and_pub(monkeypatch: pytest.MonkeyPatch) -> None:
    # Other games may not be written yet: list only the ones that can be imported.
    monkeypatch.setattr(rules, "GAME_NAMES", tuple(n for n in rules.GAME_NAMES if _importable(n)))
    status, listing = run(["presets"])
    assert status == 0
    skat = listing["skat"]
    assert (skat["title"], skat["default"], list(skat["presets"])) == ("Skat", "isko", ["isko", "seeger-fabian", "pub"])
    assert skat["presets"]["pub"]["ramsch"] is True
    assert skat["presets"]["seeger-fabian"]["scoring"] == "seeger-fabian"
    assert skat["options"]["stake"]["default"] == "0.01"
    assert skat["options"]["currency"]["choices"] == ["EUR", "CZK"]


def test_the_module_runs_as_a_program() -> None:
    status, stdout = run_process(["score", "-"], json.dumps(S1))
    assert status == 0
    assert json.loads(stdout)["amounts"]["Ana"] == "0.96"


def test_the_program_exits_2_on_bad_input() -> None:
    status, stdout = run_process(["score", "-"], json.dumps(STRANGER))
    assert (status, json.loads(stdout)["field"]) == (2, "declarer")
    status, stdout = run_process(["score", "-"], "not json")
    assert (status, json.loads(stdout)["field"]) == (2, "document")


def test_the_program_exits_2_on_an_unknown_command() -> None:
    status, _ = run_process(["schema", "poker"])
    assert status == 2


def test_the_program_prints_the_schema() -> None:
    status, stdout = run_process(["schema", "skat"])
    assert status == 0
    assert json.loads(stdout)["properties"]["game"] == {"const": "skat"}


@pytest.mark.skipif(not ALL_GAMES_WRITTEN, reason="`python -m rules presets` lists every game, so needs them all")
def test_the_program_lists_the_presets() -> None:
    status, stdout = run_process(["presets"])
    assert status == 0
    assert list(json.loads(stdout)["skat"]["presets"]) == ["isko", "seeger-fabian", "pub"]
