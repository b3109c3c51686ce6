"""The layer contract (``[tool.importlinter]`` in pyproject.toml) holds for the project, and it fails on an import
that runs upward, also one hidden inside a function, which is how the books used to reach their features."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT = Path(sys.executable).parent / "lint-imports"


def _lint(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(LINT), "--no-cache", "--config", str(root / "pyproject.toml")],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )


def _copy(tmp_path: Path) -> Path:
    for name in ("ledger", "rules", "config"):
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__", "locale"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    return tmp_path


def test_the_project_keeps_its_layers():
    result = _lint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


@pytest.mark.parametrize(
    ("module", "sneaked", "shown"),
    [
        # The books reaching a feature at call time.
        ("ledger/services/hands.py", "def sneaked():\n    from ledger.circles import services\n", "ledger.circles"),
        # A feature reaching its sibling on the same layer.
        ("ledger/circles/__init__.py", "import ledger.tournaments\n", "ledger.tournaments"),
        # The live lines reaching a feature above them.
        ("ledger/live/__init__.py", "import ledger.stats\nimport ledger.tournaments\n", "ledger.tournaments"),
        # The rules engine reaching Django.
        ("rules/__init__.py", "import django\n", "django"),
    ],
)
def test_an_upward_import_breaks_the_contract(tmp_path, module, sneaked, shown):
    root = _copy(tmp_path)
    with (root / module).open("a", encoding="utf-8") as source:
        source.write("\n\n" + sneaked)
    result = _lint(root)
    assert result.returncode == 1, result.stdout
    assert "BROKEN" in result.stdout
    assert shown in result.stdout
