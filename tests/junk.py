"""Junk for the fuzz tests: what a careless client, a buggy script or curl may send in any field.

``JSON`` draws values of every JSON type, with the text a fuzzer likes best: NUL characters, lone surrogates
(``"\\ud800"``, which no encoding can write), huge numbers, and deep nesting. Deep nesting is drawn as a marker
(:func:`deep`) that :func:`as_text` writes as a thousand brackets in the request body: as a Python value it would
stop ``json.dumps`` itself.
"""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import strategies as st

NASTY_TEXT = ["\x00", "a\x00b", "\ud800", "x\udfff", "\ud83d", "\U0001f0a1", "", " ", "null", "²", "\u202e"]
TEXT = (
    st.text(max_size=12) | st.sampled_from(NASTY_TEXT) | st.text(st.sampled_from(["a", "\x00", "\ud800"]), max_size=4)
)
NUMBERS = st.integers() | st.integers(min_value=10**18) | st.integers(max_value=-(10**18)) | st.floats()
SCALARS = st.none() | st.booleans() | NUMBERS | TEXT

_DEEP = re.compile(r'"@@deep:(\d+):(\[|\{)@@"')


def deep(depth: int, bracket: str = "[") -> str:
    """A marker that :func:`as_text` writes as ``depth`` nested arrays (``[``) or objects (``{``)."""
    return f"@@deep:{depth}:{bracket}@@"


DEEP = st.builds(deep, st.sampled_from([40, 1000, 5000]), st.sampled_from(["[", "{"]))
_NESTED = st.recursive(
    SCALARS | DEEP,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=8,
)
# Each JSON type about as often as the others: a null where a list belongs is as likely as a list of junk.
JSON = st.one_of(
    st.none(),
    st.booleans(),
    NUMBERS,
    TEXT,
    DEEP,
    st.lists(_NESTED, max_size=4),
    st.dictionaries(TEXT, _NESTED, max_size=4),
)


def nested(depth: int) -> Any:
    """``depth`` nested lists as a Python value, for callers that take values rather than JSON text."""
    value: Any = []
    for _ in range(depth - 1):
        value = [value]
    return value


# One value of each wrong kind, for sweeps over every field (the nesting one as a Python value).
WRONG = [None, True, 0, -1, 7, 1.5, 10**20, "", "x", "\x00", "\ud800", [], [None], ["Ana"], {}, {"x": 1}]


def as_text(value: Any) -> str:
    """``value`` as a JSON body: surrogates as JSON escapes (as a client writes them), deep markers expanded."""

    def expand(match: re.Match[str]) -> str:
        depth, bracket = int(match.group(1)), match.group(2)
        if bracket == "[":
            return "[" * depth + "]" * depth
        return '{"a":' * depth + "1" + "}" * depth

    return _DEEP.sub(expand, json.dumps(value))
