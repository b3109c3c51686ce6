"""The refusal every layer above the rules speaks: the books, the features and the API answer it the same way."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

if TYPE_CHECKING:
    from ledger.models import Evening, Hand


class LedgerError(Exception):
    """A request the ledger refuses; ``field`` names what to fix, like ``rules.RulesError``."""

    field = "non_field_errors"

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if field is not None:
            self.field = field


class EveningClosed(LedgerError):
    def __init__(self) -> None:
        super().__init__(_("This evening is closed: reopen it to change its hands."), field="evening")


class StaleVersion(LedgerError):
    """Somebody changed the hand since the caller read it; carries the current version to reload."""

    def __init__(self, hand: Hand) -> None:
        super().__init__(
            _("Hand #%(number)s was changed meanwhile (now version %(version)s); reload it and try again.")
            % {"number": hand.number, "version": hand.version},
            field="version",
        )
        self.current = hand


class HandConflict(LedgerError):
    """A phone recorded the hand after ``after`` but another hand was recorded meanwhile: ``stored`` is the first
    hand the phone had not seen. Nothing of the tapped hand is stored; the phone shows both and its player decides."""

    def __init__(self, stored: Hand) -> None:
        super().__init__(
            _("Hand #%(number)s was just recorded by %(who)s.") % {"number": stored.number, "who": recorder(stored)},
            field="after",
        )
        self.stored = stored


def recorder(hand: Hand) -> str:
    """Who the books name for a hand's recording: the account's full name (a seated phone's stand-in carries its
    player's name there), else its user name."""
    user = hand.entered_by
    return user.get_full_name() or user.get_username()


def require_open(evening: Evening) -> None:
    """Refuse any change to a closed evening's hands, tables or transfers."""
    if not evening.is_open:
        raise EveningClosed()
