"""The API's JSON on the wire: bodies that nothing behind the parser could handle are refused as 400 naming the field.

Refused when read, before any serializer, service or database sees them:

- nesting deeper than :data:`MAX_DEPTH` (a thousand ``[`` made Python's JSON reader raise RecursionError; no hand
  document is more than four levels deep);
- a number outside the range of a float (``1e400``: Python reads it as infinity, which no JSON column stores and
  no answer can write);
- text holding a NUL character (PostgreSQL stores none, in a JSON column or elsewhere) or a lone surrogate such
  as ``"\\ud800"`` (no encoding can write it: echoed in an error, it broke the answer itself). Keys count as text.

The renderer is the last guard for the way out: should an unencodable string reach an answer anyway, it is written
with JSON's escapes instead of failing.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from rest_framework import exceptions, parsers, renderers

MAX_DEPTH = 32


class BadBody(exceptions.ParseError):
    """A body refused when read; ``field`` is the dotted path of the bad value (``hand.declarer``, ``players.1``)."""

    def __init__(self, field: str, detail: str) -> None:
        super().__init__(detail)
        self.field = field


class JSONParser(parsers.JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise BadBody("body", _too_deep()) from None
        refuse_unreadable(data)
        return data


def refuse_unreadable(data: Any) -> None:
    """Walk the parsed body (without recursion: it may be deep) and raise BadBody at the first thing refused."""
    pending: list[tuple[Any, str, int]] = [(data, "", 0)]
    while pending:
        value, path, depth = pending.pop()
        if isinstance(value, str):
            _check_text(value, path or "body")
            continue
        if isinstance(value, float) and not math.isfinite(value):
            raise BadBody(path or "body", _("Enter a number."))  # Django's message, in its catalogues
        if isinstance(value, Mapping):
            items: Any = value.items()
        elif isinstance(value, list):
            items = enumerate(value)
        else:
            continue
        if depth >= MAX_DEPTH:
            raise BadBody("body", _too_deep())  # as when the JSON reader itself gives up
        for key, item in items:
            if isinstance(key, str):
                _check_text(key, path or "body")  # a bad name is reported at the object holding it
            pending.append((item, f"{path}.{key}" if path else str(key), depth + 1))


def _check_text(text: str, field: str) -> None:
    # The messages of Django's and DRF's own CharField validators, translated in their catalogues.
    if "\x00" in text:
        raise BadBody(field, _("Null characters are not allowed."))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:  # only a lone surrogate cannot be encoded
        message = _("Surrogate characters are not allowed: U+{code_point:X}.")
        raise BadBody(field, message.format(code_point=ord(text[error.start]))) from None


def _too_deep() -> str:
    return _("The JSON is nested deeper than %(depth)s levels.") % {"depth": MAX_DEPTH}


class JSONRenderer(renderers.JSONRenderer):
    def render(self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None) -> bytes:
        try:
            return super().render(data, accepted_media_type, renderer_context)
        except UnicodeEncodeError:
            return _EscapingJSONRenderer().render(data, accepted_media_type, renderer_context)


class _EscapingJSONRenderer(renderers.JSONRenderer):
    ensure_ascii = True  # "\ud800" written as its escape: valid JSON, encodable
