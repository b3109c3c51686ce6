"""Hand documents stored or exported by earlier releases, read the way the engine read them then.

The engine once priced some shapes by a default that it now refuses, because no deal can produce them:
a Mariáš betl or durch, or a seven, without ``won`` (taken as lost), a hlášky side of ``null`` (none), a bid on a
Skat Ramsch or passed-in hand (ignored), a Šnapser ``end`` that contradicts the result (``end`` is informational
unless it is a false dosť). :func:`written_out` spells those defaults out. Callers keep the rewritten document only
when the engine prices it to exactly the amounts stored with it, so nobody's money ever changes. Migration 0008
uses this module: keep it as long as that migration exists.

Hands once stored their texts as one copy per language; they now store sources (message ids and their parameters):
:func:`text_source` and :func:`text_copies` are migration 0013's two directions.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import rules
from rules.base import said
from rules.i18n import LANGUAGES, override


def frozen_ruleset(game: str, ruleset: dict[str, Any]) -> dict[str, Any]:
    """A ruleset frozen by an earlier release keeps what it meant: Skat counted one Bock round per trigger then
    (the option did not exist; a missing key would now read as the new default, one round per hand). Migration 0007
    wrote this out for the tables in the database; an export from before then gets it here."""
    if game == "skat" and ruleset.get("bock") and "bock_per_trigger" not in ruleset:
        return {**ruleset, "bock_per_trigger": True}
    return ruleset


def written_out(game: str, hand: dict[str, Any]) -> dict[str, Any]:
    """The hand part with the old engine's defaults written out (a copy; unchanged where none applies)."""
    hand = dict(hand)
    if game == "marias":
        if hand.get("contract") in ("betl", "durch") and "won" not in hand and hand.get("played_out", True):
            hand["won"] = False
        if isinstance(hand.get("seven"), dict) and "won" not in hand["seven"]:
            hand["seven"] = {**hand["seven"], "won": False}
        if isinstance(hand.get("marriages"), dict):
            hand["marriages"] = {side: values for side, values in hand["marriages"].items() if values is not None}
    elif game == "skat" and hand.get("contract") in ("ramsch", "passed"):
        hand.pop("bid", None)
    elif game == "snapser" and hand.get("end") != "false_dost":
        hand.pop("end", None)
    return hand


def repaired(
    game: str, players: list[str], ruleset: dict[str, Any], hand: dict[str, Any], amounts: dict[str, Decimal]
) -> dict[str, Any] | None:
    """The written-out hand when the engine refuses ``hand`` and prices the written-out one to ``amounts``."""

    def priced(document: dict[str, Any]) -> dict[str, Decimal] | None:
        try:
            score = rules.score({"game": game, "players": players, "rules": ruleset, "hand": document})
        except rules.RulesError:
            return None
        return dict(score.amounts)

    if priced(hand) is not None:
        return None
    fixed = written_out(game, hand)
    return fixed if fixed != hand and priced(fixed) == amounts else None


# --------------------------------------------------------------------------------------------------------------
# A hand's texts as sources or as copies per language. Migration 0013 uses these: keep them as long as it exists.


def text_source(game: str, players: list[str], ruleset: dict[str, Any], result: dict[str, Any], hand: Any) -> Any:
    """How a result stored with text copies says its label and lines in any language (``result["source"]``).

    Such a result holds its texts as copies: English in ``label``/``lines`` and, since the ledger spoke four
    languages, one copy per language in ``texts``. Priced again, the hand gives message ids and parameters; they are
    kept only when the engine comes to exactly the stored amounts and English texts. Otherwise (the wording has
    changed since, or the engine refuses the hand) each text keeps the copies it was stored with, per language, so
    an old hand reads as it always did.
    """
    try:
        with override("en"):
            score = rules.score({"game": game, "players": players, "rules": ruleset, "hand": hand})
        stored = {name: Decimal(amount) for name, amount in result.get("amounts", {}).items()}
    except (rules.RulesError, ArithmeticError, AttributeError, TypeError, ValueError):
        # Refused by today's engine, or a stored result that is not what the ledger writes (edited by hand):
        # keep what it says, whatever it says.
        return _copies(result)
    english = {"label": result.get("label", ""), "lines": result.get("lines", [])}
    if dict(score.amounts) == stored:
        source = score.text_source()
        if said(source, "en") == english:
            return source
    return _copies(result)


def _copies(result: dict[str, Any]) -> dict[str, Any]:
    """The stored copies as one ``by_language`` source per text (English from the result itself)."""
    stored = result.get("texts")
    texts: dict[str, Any] = stored if isinstance(stored, dict) else {}
    copies = {language: text for language, text in texts.items() if isinstance(text, dict)}
    copies["en"] = {"label": result.get("label", ""), "lines": result.get("lines", [])}  # the record's own
    english_lines = copies["en"]["lines"] if isinstance(copies["en"]["lines"], list) else []

    def text(pick: Any) -> dict[str, Any]:
        written = {}
        for language, copy in copies.items():
            try:
                written[language] = str(pick(copy))
            except (LookupError, TypeError):
                continue  # a copy that lacks this line: the reader gets the English one
        return {"by_language": written}

    lines = [
        {
            "label": text(lambda copy, n=number: copy["lines"][n]["label"]),
            "detail": text(lambda copy, n=number: copy["lines"][n]["detail"]),
            "amount": line.get("amount") if isinstance(line, dict) else None,
        }
        for number, line in enumerate(english_lines)
    ]
    return {"label": text(lambda copy: copy["label"]), "lines": lines}


def text_copies(source: dict[str, Any]) -> dict[str, Any]:
    """Back to text copies: the texts as one copy per language (``result["texts"]``)."""
    return {language: said(source, language) for language in LANGUAGES}
