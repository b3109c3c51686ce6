"""The examples in ledger/'s docstrings hold. pytest collects doctests under its test paths (tests/, rules/) only, so
they are found and run here, on whichever database the run uses."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

import ledger

LEDGER = Path(ledger.__file__).resolve().parent


def _with_examples() -> list[Path]:
    return [
        path
        for path in sorted(LEDGER.rglob("*.py"))
        if "migrations" not in path.parts and ">>>" in path.read_text(encoding="utf-8")
    ]


def _module(path: Path) -> str:
    return ".".join(path.relative_to(LEDGER.parent).with_suffix("").parts).removesuffix(".__init__")


def _doctests() -> list[doctest.DocTest]:
    finder = doctest.DocTestFinder()
    found = []
    for path in _with_examples():
        found += [test for test in finder.find(importlib.import_module(_module(path))) if test.examples]
    return found


DOCTESTS = _doctests()


def test_every_example_written_in_ledger_is_run():
    written = sum(
        line.lstrip().startswith(">>>") for path in _with_examples() for line in path.read_text("utf-8").splitlines()
    )
    assert written > 0
    assert sum(len(test.examples) for test in DOCTESTS) == written


@pytest.mark.parametrize("test", DOCTESTS, ids=lambda test: test.name)
def test_the_example_holds(test: doctest.DocTest):
    report: list[str] = []
    result = doctest.DocTestRunner().run(test, out=report.append)
    assert result.attempted == len(test.examples)
    assert result.failed == 0, "".join(report)
