"""The one check of every name, place and note a person types: its spaces tidied, its length capped, and nothing
hidden in it.

Hidden are control characters (Cc), formatting characters (Cf: the text-direction overrides, embeddings, isolates
and marks that make "Ana pays Ben" read otherwise, zero-width spaces and joiners that make two names look alike) and
lone surrogates (Cs), which JSON can carry but no database stores.

>>> text_tidy("  Ana \\t Nováková ", field="name", most=40)
'Ana Nováková'
>>> text_tidy("Ana\\u202eneB", field="name", most=40)
Traceback (most recent call last):
...
ledger.errors.LedgerError: This text cannot contain control or text-direction characters.
"""

from __future__ import annotations

import unicodedata

from django.utils.translation import gettext as _

from ledger.errors import LedgerError

_HIDDEN_CATEGORIES = {"Cc", "Cf", "Cs"}


def has_hidden_characters(text: str) -> bool:
    return any(unicodedata.category(char) in _HIDDEN_CATEGORIES for char in text)


def text_tidy(
    text: str,
    *,
    field: str,
    most: int,
    too_long: str | None = None,
    hidden: str | None = None,
    empty: str | None = None,
    tidy_spaces: bool = True,
) -> str:
    """``text`` with its runs of spaces, tabs and line ends made one space; refused (naming ``field``) when longer
    than ``most`` letters, when it hides characters, or, with an ``empty`` message, when nothing is left. The
    messages say it in the words of the page that asks."""
    if tidy_spaces:
        text = " ".join(text.split())
    if empty is not None and not text:
        raise LedgerError(empty, field=field)
    if len(text) > most:
        raise LedgerError(too_long or _("This text can have at most %(most)s letters.") % {"most": most}, field=field)
    if has_hidden_characters(text):
        raise LedgerError(hidden or _("This text cannot contain control or text-direction characters."), field=field)
    return text
