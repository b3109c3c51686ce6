"""A stored hand result's texts (its label and explanation lines) in the reader's language."""

from __future__ import annotations

from typing import Any

from django.utils import translation

from rules.base import said
from rules.i18n import normalize_language, render


def result_label(result: dict[str, Any]) -> str:
    """The label of a stored result in the reader's (active) language.

    The ledger prices a hand once and stores how its texts were made (``result["source"]``, message ids and their
    parameters: :meth:`rules.Score.text_source`); they are said here, when read. A result without a source, written
    before texts had sources (an old export read back as it was, or a release still running while migration 0013
    ran), has its texts as copies: the reader's language's, else the English one.
    """
    source = result.get("source")
    if isinstance(source, dict):
        return render(source.get("label", ""), _reader_language())
    return str(_copy(result).get("label", ""))


def result_lines(result: dict[str, Any]) -> list[dict[str, Any]]:
    """The explanation lines of a stored result in the reader's language (see :func:`result_label`)."""
    source = result.get("source")
    if isinstance(source, dict):
        return list(said(source, _reader_language())["lines"])
    return list(_copy(result).get("lines", []))


def _copy(result: dict[str, Any]) -> dict[str, Any]:
    copies = result.get("texts")
    copy = copies.get(_reader_language()) if isinstance(copies, dict) else None
    return copy if isinstance(copy, dict) else result


def _reader_language() -> str:
    return normalize_language(translation.get_language())
