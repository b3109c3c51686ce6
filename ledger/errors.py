"""The refusal every layer above the rules speaks: the books, the features and the API answer it the same way."""

from __future__ import annotations


class LedgerError(Exception):
    """A request the ledger refuses; ``field`` names what to fix, like ``rules.RulesError``."""

    field = "non_field_errors"

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if field is not None:
            self.field = field
