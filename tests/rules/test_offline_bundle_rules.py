"""The offline bundle holds the whole rules engine, packages and all: imported straight from the zip (zipimport) by a
Python that sees nothing else but the standard library, it prices a hand of every game as the server does.

The games are packages (``rules/skat/``, ...): a bundle that took only ``rules/*.py`` would miss them, and the
browser would fail at its first hand while every server test passed.
"""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import rules
from ledger.offline import bundle

RULES = Path(rules.__file__).resolve().parent

# One hand of every game, as the modules' own examples price them.
DOCUMENTS: list[dict[str, Any]] = [
    {
        "game": "skat",
        "players": ["Ana", "Ben", "Cyril"],
        "hand": {"declarer": "Ana", "contract": "grand", "hand": True, "matadors": 2, "declarer_points": 95},
    },
    {
        "game": "marias",
        "players": ["Ana", "Ben", "Cyril", "Dana"],
        "hand": {
            "declarer": "Ana",
            "partner": "Cyril",
            "contract": "sedma",
            "trump": "hearts",
            "flek": {"hra": 1, "sedma": 2},
            "points": 80,
            "marriages": {"declarer": [40]},
            "seven": {"side": "declarer", "won": False},
        },
    },
    {
        "game": "snapser",
        "players": ["Ana", "Ben", "Cyril"],
        "hand": {
            "declarer": "Ana",
            "trump": "hearts",
            "announcement": "hram",
            "raises": 1,
            "winner": "declarer",
            "result": "bez_vody",
        },
    },
]

# Run with -I -S: no user site, no PYTHONPATH, no virtualenv, so only the standard library and the zip are there.
# Every rules module must come from the zip: one found anywhere else would mean the zip alone does not price.
PRICE_FROM_THE_ZIP = """
import json, sys
archive, documents = sys.argv[1], json.loads(sys.stdin.read())
sys.path.insert(0, archive)
import rules
outside = sorted(
    name for name, module in sys.modules.items()
    if name.split(".")[0] == "rules" and not str(getattr(module, "__file__", "")).startswith(archive)
)
print(json.dumps({"outside": outside, "scores": [rules.score(document).as_dict() for document in documents]}))
"""


def _bundle_zip(folder: Path) -> Path:
    archive = folder / "bundle.zip"
    archive.write_bytes(bundle.bundle())
    return archive


def _price_from(archive: Path) -> dict[str, Any]:
    run = subprocess.run(
        [sys.executable, "-I", "-S", "-c", PRICE_FROM_THE_ZIP, str(archive)],
        input=json.dumps(DOCUMENTS),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    found: dict[str, Any] = json.loads(run.stdout)
    return found


def test_the_bundle_holds_every_module_of_the_rules_engine(tmp_path: Path) -> None:
    with zipfile.ZipFile(_bundle_zip(tmp_path)) as archive:
        zipped = set(archive.namelist())
    modules = {f"rules/{path.relative_to(RULES).as_posix()}" for path in RULES.rglob("*.py")}
    assert {"rules/__init__.py", "rules/skat/__init__.py", "rules/marias/pricing.py"} <= modules
    assert sorted(modules - zipped) == []


def test_the_rules_engine_prices_from_the_zip_alone_as_it_does_here(tmp_path: Path) -> None:
    # zipimport cannot open the catalogues by path (rules.i18n falls back to English), so this compares English;
    # the worker unpacks the bundle, and tests/ledger/offline/test_bundle.py prices there in every language.
    found = _price_from(_bundle_zip(tmp_path))
    assert found["outside"] == []
    here = [rules.score(document).as_dict() for document in DOCUMENTS]
    assert found["scores"] == here
    amounts = {document["game"]: score["amounts"] for document, score in zip(DOCUMENTS, here, strict=True)}
    assert amounts == {
        "skat": {"Ana": "2.40", "Ben": "-1.20", "Cyril": "-1.20"},
        "marias": {"Ana": "3.20", "Ben": "-3.20", "Cyril": "3.20", "Dana": "-3.20"},
        "snapser": {"Ana": "3.20", "Ben": "-1.60", "Cyril": "-1.60"},
    }
