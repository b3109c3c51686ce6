"""CSV and XLSX downloads of hands, balances and statistics, read back: an evening, a circle, a date range."""

from __future__ import annotations

import csv
import io
from decimal import Decimal as D

import pytest
from django.test import Client
from openpyxl import load_workbook

from tests.ledger.stats.stats_data import small_circle


@pytest.fixture
def friday(alice):
    return small_circle(alice)


def _csv(response) -> list[dict[str, str]]:
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    return list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))  # English: comma, BOM


def _sheets(response) -> dict[str, list[tuple]]:
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/vnd.openxmlformats-officedocument.spreadsheetml")
    book = load_workbook(io.BytesIO(response.content))
    return {sheet.title: list(sheet.iter_rows(values_only=True)) for sheet in book.worksheets}


def test_an_evenings_balances_as_csv_are_exact_strings(alice_client, friday):
    rows = _csv(alice_client.get(f"/evenings/{friday.evenings[2].pk}/export/balances.csv"))
    assert [(row["player"], row["balance"]) for row in rows] == [("Ben", "1.68"), ("Cyril", "-2.64"), ("Dana", "0.96")]


def test_a_circles_workbook_holds_hands_balances_and_statistics(alice_client, friday):
    response = alice_client.get(f"/circles/{friday.circle.pk}/export.xlsx")
    assert "attachment" in response["Content-Disposition"]
    sheets = _sheets(response)
    assert list(sheets) == ["hands", "balances", "statistics"]
    header, *hands = sheets["hands"]
    # The circle's four evenings (the not-counted one too: its hands are in the books), the voided hand marked.
    assert len(hands) == 4 + 4 + 3 + 1
    columns = {name: header.index(name) for name in ("Ana", "Ben", "Cyril", "Dana", "status")}
    counted = [row for row in hands if row[columns["status"]] == "counted" and row[0].day != 29]  # 29th: not counted
    assert sum(D(str(row[columns["Ben"]] or 0)) for row in counted) == D("7.88")
    assert hands[0][columns["Ana"]] == 0.2 and hands[0][columns["Cyril"]] == 0.2
    header, *statistics = sheets["statistics"]
    assert [(row[0], row[1], row[2], D(str(row[3]))) for row in statistics] == [
        ("Ben", 3, 10, D("7.88")),
        ("Cyril", 2, 7, D("3.36")),
        ("Ana", 2, 7, D("-5.20")),
        ("Dana", 3, 10, D("-6.04")),
    ]
    book = load_workbook(io.BytesIO(response.content))
    net = book["statistics"]["D2"]
    assert (net.value, net.number_format) == (7.88, "0.00")


def test_a_date_range_of_my_evenings(alice_client, friday):
    rows = _csv(alice_client.get("/evenings/export/statistics.csv?from=2026-01-20&to=2026-02-28"))
    assert [(row["player"], row["evenings"], row["net"]) for row in rows] == [
        ("Ben", "2", "2.64"),
        ("Dana", "1", "0.96"),
        ("Ana", "1", "-0.48"),
        ("Cyril", "2", "-3.12"),
    ]
    hands = _csv(alice_client.get("/evenings/export/hands.csv?from=2026-01-20&to=2026-02-28"))
    assert [(row["date"], row["hand"], row["Ben"]) for row in hands] == [
        ("2026-01-22", "1", "0.96"),
        ("2026-01-22", "2", "0.96"),
        ("2026-01-22", "3", "-0.24"),
        ("2026-01-29", "1", "-3.60"),  # in the books, though not in the statistics
        ("2026-02-05", "1", "0.96"),
    ]


def test_strangers_get_404_and_an_unknown_sheet_too(alice_client, charlie, friday):
    charlie_client = Client()
    charlie_client.force_login(charlie)
    for url in (
        f"/evenings/{friday.evenings[0].pk}/export.xlsx",
        f"/evenings/{friday.evenings[0].pk}/export/hands.csv",
        f"/circles/{friday.circle.pk}/export.xlsx",
    ):
        assert charlie_client.get(url).status_code == 404, url
    assert _csv(charlie_client.get("/evenings/export/hands.csv"))[0:] == []
    assert alice_client.get(f"/evenings/{friday.evenings[0].pk}/export/secrets.csv").status_code == 404
    assert alice_client.get("/evenings/export/hands.csv?from=soon").status_code == 404


def test_a_name_that_looks_like_a_formula_stays_a_name(alice_client, alice):
    from tests import factories

    evening = factories.make_evening(alice, place='=HYPERLINK("http://example.com")')
    table = factories.make_table(evening, "snapser", ["=1+2", "Ben", "Cyril"])
    factories.record(table, {**factories.SNAPSER_N1, "declarer": "=1+2"})
    rows = list(csv.reader(io.StringIO(alice_client.get(f"/evenings/{evening.pk}/export/hands.csv").content.decode())))
    assert rows[0][-3:] == ["'=1+2", "Ben", "Cyril"]
    assert rows[1][1] == '\'=HYPERLINK("http://example.com")' and rows[1][6] == "'=1+2"
    assert rows[1][-3:] == ["0.40", "-0.20", "-0.20"]  # money keeps its minus
    book = load_workbook(io.BytesIO(alice_client.get(f"/evenings/{evening.pk}/export.xlsx").content))
    header = [cell.value for cell in book["hands"][1]]
    assert header[-3:] == ["=1+2", "Ben", "Cyril"]
    assert book["hands"].cell(row=1, column=len(header) - 2).data_type == "s"
    assert book["hands"].cell(row=2, column=2).data_type == "s"
