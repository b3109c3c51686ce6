"""The one error the rules engine raises on bad input, and how it shows what the caller sent."""

from __future__ import annotations

from reprlib import Repr


class RulesError(ValueError):
    """Bad input: names the field (a path such as ``declarer_points`` or ``rules.stake``) and what is allowed.

    ``field`` is a path into the document and never translated; ``message`` is in the language that was active
    when the error was raised (see :mod:`rules.i18n`).

    >>> err = RulesError("declarer_points", "must be a whole number from 0 to 120")
    >>> err.as_dict()
    {'field': 'declarer_points', 'error': 'must be a whole number from 0 to 120'}

    Both can echo what the caller sent (an unknown field's name, a player who is not at the table). A lone
    surrogate there (JSON's ``"\\ud800"``) cannot be written in any encoding, so it is shown as its escape: the
    error can always be printed, rendered and logged.

    >>> RulesError("hand.x\\ud800", "'\\udfff' is not at this table").as_dict()
    {'field': 'hand.x\\\\ud800', 'error': "'\\\\udfff' is not at this table"}
    """

    def __init__(self, field: str, message: str) -> None:
        field, message = _encodable(field), _encodable(message)
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message

    def as_dict(self) -> dict[str, str]:
        return {"field": self.field, "error": self.message}


def _encodable(text: str) -> str:
    """``text`` with every character UTF-8 cannot encode (lone surrogates) written as its ``\\u`` escape."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


_SHORT = Repr()


def shown(value: object) -> str:
    """A value the caller sent, for an error message: a string as it is, anything else briefly.

    Whatever arrives is shown in bounded size, so a thousand nested lists cannot make the message itself fail.

    >>> shown("Zora"), shown(12), shown([[[[[[[[1]]]]]]]]), shown(list(range(100)))
    ('Zora', '12', '[[[[[[[...]]]]]]]', '[0, 1, 2, 3, 4, 5, ...]')
    """
    if isinstance(value, str):
        return value
    try:
        return _SHORT.repr(value)
    except ValueError:  # an integer longer than Python will print
        return type(value).__name__
