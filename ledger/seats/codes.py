"""A table's join code: six characters a player types (or a QR code opens) to join the table from their phone.

The code is the table's id run through a keyed permutation (a small Feistel cipher keyed by ``SECRET_KEY``) and
written in an alphabet without look-alikes (no 0/O, 1/I/L): every table has its own code, drawn with no query and
no stored row, and a code someone guesses names a table no more often than a stored random code would. A code is
read back case-insensitively, with spaces and dashes ignored.

>>> table_of(code_of(42)) == 42
True
>>> len(code_of(1)), table_of("not a code")
(6, None)
"""

from __future__ import annotations

import hashlib
import hmac
import re

from django.conf import settings

ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"  # 31 characters, none mistaken for another
LENGTH = 6
SPACE = len(ALPHABET) ** LENGTH  # 887,503,681 codes
_HALF_BITS = 15  # a 30-bit block (2**30 > SPACE), cycle-walked down into SPACE
_ROUNDS = 4
_TYPED = re.compile(r"[\s\-]+")


def _round_key() -> bytes:
    return hashlib.sha256(b"talon seat codes:" + settings.SECRET_KEY.encode()).digest()


def _f(key: bytes, step: int, half: int) -> int:
    digest = hmac.new(key, f"{step}:{half}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:4], "big") & ((1 << _HALF_BITS) - 1)


def _encrypt(value: int, key: bytes) -> int:
    mask = (1 << _HALF_BITS) - 1
    left, right = value >> _HALF_BITS, value & mask
    for step in range(_ROUNDS):
        left, right = right, left ^ _f(key, step, right)
    return (left << _HALF_BITS) | right


def _decrypt(value: int, key: bytes) -> int:
    mask = (1 << _HALF_BITS) - 1
    left, right = value >> _HALF_BITS, value & mask
    for step in reversed(range(_ROUNDS)):
        left, right = right ^ _f(key, step, left), left
    return (left << _HALF_BITS) | right


def code_of(table_id: int) -> str:
    """The join code of table ``table_id`` (below ``SPACE``)."""
    if not 0 <= table_id < SPACE:
        raise ValueError("no join code for this table id")
    key = _round_key()
    value = _encrypt(table_id, key)
    while value >= SPACE:  # cycle-walking: stays a permutation of 0..SPACE-1
        value = _encrypt(value, key)
    digits = []
    for _ in range(LENGTH):
        value, digit = divmod(value, len(ALPHABET))
        digits.append(ALPHABET[digit])
    return "".join(reversed(digits))


def normalized(typed: str) -> str:
    """The code as typed, upper case, without spaces or dashes ("ab3-k7p" → "AB3K7P")."""
    return _TYPED.sub("", typed).upper()[:20]


def table_of(typed: str) -> int | None:
    """The table id a typed code names, None when it is no code."""
    code = normalized(typed)
    if len(code) != LENGTH or any(char not in ALPHABET for char in code):
        return None
    value = 0
    for char in code:
        value = value * len(ALPHABET) + ALPHABET.index(char)
    key = _round_key()
    value = _decrypt(value, key)
    while value >= SPACE:
        value = _decrypt(value, key)
    return value or None
