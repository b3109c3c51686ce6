"""Join codes (ledger/seats/codes.py): one per table, six characters without look-alikes, read back as typed."""

from __future__ import annotations

import itertools

import pytest

from ledger.seats import codes


@pytest.mark.parametrize("table_id", [1, 2, 3, 999, 123_456, codes.SPACE - 1])
def test_a_code_names_its_table_and_only_its_table(table_id):
    code = codes.code_of(table_id)
    assert len(code) == codes.LENGTH and set(code) <= set(codes.ALPHABET)
    assert codes.table_of(code) == table_id
    assert codes.table_of(f" {code[:3].lower()}-{code[3:]} ") == table_id


def test_neighbouring_tables_have_unrelated_codes():
    made = [codes.code_of(table_id) for table_id in range(1, 2001)]
    assert len(set(made)) == 2000
    assert sum(a[:4] == b[:4] for a, b in itertools.pairwise(made)) < 5


@pytest.mark.parametrize("typed", ["", "ABC", "ABCDEFG", "0OIL1Z", "ÄBCDEF", "12345\n"])
def test_what_is_no_code_names_no_table(typed):
    assert codes.table_of(typed) is None


def test_there_is_no_look_alike_in_the_alphabet():
    assert not set("01OIL") & set(codes.ALPHABET) and len(set(codes.ALPHABET)) == len(codes.ALPHABET) == 31


def test_the_codes_follow_the_secret_key(settings):
    before = codes.code_of(7)
    settings.SECRET_KEY = "another-" + settings.SECRET_KEY
    assert codes.code_of(7) != before and codes.table_of(codes.code_of(7)) == 7
