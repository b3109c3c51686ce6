"""CSV for the reader's spreadsheet: Czech, Slovak and German Excel read semicolons and a decimal comma, and UTF-8
only after a byte-order mark; ``?csv=plain`` is the comma-separated file for programs. XLSX stays the default."""

from __future__ import annotations

import csv
import io

import pytest

from ledger import export
from tests.ledger.stats.stats_data import small_circle

BOM = "\ufeff".encode()


@pytest.fixture
def friday(alice):
    return small_circle(alice)


def _get(client, url: str, language: str):
    response = client.get(url, headers={"Accept-Language": language})
    assert response.status_code == 200 and response["Content-Type"] == "text/csv; charset=utf-8"
    return response.content


@pytest.mark.parametrize("language", ["cs", "de", "sk"])
def test_a_decimal_comma_language_gets_semicolons_a_decimal_comma_and_a_bom(alice_client, friday, language):
    body = _get(alice_client, f"/evenings/{friday.evenings[2].pk}/export/balances.csv", language)
    assert body.startswith(BOM)
    header, *rows = csv.reader(io.StringIO(body.decode("utf-8-sig")), delimiter=";")
    assert len(header) == 4  # one column per field, not one garbled column
    assert [(row[2], row[3]) for row in rows] == [("Ben", "1,68"), ("Cyril", "-2,64"), ("Dana", "0,96")]
    assert rows[0][0] == "2026-01-22"  # a date every spreadsheet reads


def test_english_gets_commas_a_decimal_point_and_a_bom(alice_client, friday):
    body = _get(alice_client, f"/evenings/{friday.evenings[2].pk}/export/balances.csv", "en")
    assert body.startswith(BOM)
    header, *rows = csv.reader(io.StringIO(body.decode("utf-8-sig")))
    assert header == ["date", "place", "player", "balance"] and rows[1][2:] == ["Cyril", "-2.64"]


@pytest.mark.parametrize("language", ["cs", "en"])
def test_plain_csv_is_asked_for_explicitly_whatever_the_language(alice_client, friday, language):
    body = _get(alice_client, "/evenings/export/statistics.csv?csv=plain&from=2026-01-20&to=2026-02-28", language)
    assert not body.startswith(BOM)
    _header, *rows = csv.reader(io.StringIO(body.decode()))  # the header in the reader's language
    assert rows[0][3] == "2.64" and rows[-1][3] == "-3.12"


def test_semicolons_can_be_asked_for_in_english(alice_client, friday):
    body = _get(alice_client, f"/circles/{friday.circle.pk}/export/statistics.csv?csv=semicolon", "en")
    rows = list(csv.DictReader(io.StringIO(body.decode("utf-8-sig")), delimiter=";"))
    assert (rows[0]["player"], rows[0]["net"]) == ("Ben", "7,88")


def test_the_season_page_offers_xlsx_first_and_says_how_its_csv_is_written(alice_client, friday):
    page = alice_client.get(f"/circles/{friday.circle.pk}/stats/", headers={"Accept-Language": "de"}).content.decode()
    downloads = page[page.index('id="downloads"') :]
    assert downloads.index("export.xlsx") < downloads.index(".csv")
    assert 'data-csv="semicolon"' in downloads and "statistics.csv?csv=plain" in downloads


def test_the_format_follows_the_language_and_an_explicit_choice():
    assert export.csv_format("cs") == export.csv_format("de-at") == export.SEMICOLON
    assert export.csv_format("en") == export.COMMA and export.csv_format(None) == export.COMMA
    assert export.csv_format("cs", "plain") == export.PLAIN and export.csv_format("cs", "bogus") == export.SEMICOLON
