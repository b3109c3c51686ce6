"""The PDF summary: read back as text (pypdf), checked for names with diacritics, amounts, transfers, A4 pages."""

from __future__ import annotations

import io
import shutil
import subprocess
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from pypdf import PdfReader

import rules
from ledger import services
from tests import factories
from tests.ledger.closeout_data import evening_owing, set_iban

NAMES = ("Šárka", "Jürgen", "Ľubo")
A4 = (595, 842)  # points, rounded


@pytest.fixture
def settled(alice):
    """EUR, rounded to 0.50: Šárka +12.40 → +12.50, Jürgen −7.30 → −7.50, Ľubo −5.10 → −5.00."""
    evening = evening_owing(alice, NAMES, currency="EUR", coin=Decimal("0.50"), place="Hospoda U Čápa")
    set_iban(alice, "Šárka", "SK31 1200 0000 1987 4263 7541")
    services.evening_close(evening=evening, by=alice)
    return evening


def _pdf(client, evening):
    response = client.get(reverse("ledger:evening_summary_pdf", args=[evening.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    return response


def _text(content):
    reader = PdfReader(io.BytesIO(content))
    return reader, "\n".join(page.extract_text() for page in reader.pages)


def test_the_summary_names_the_evening_and_its_players(alice_client, settled):
    _, text = _text(_pdf(alice_client, settled).content)
    assert "27. 11. 2026 · Hospoda U Čápa" in text
    assert "Players: Jürgen, Ľubo, Šárka" in text
    assert "EUR (€) · rounded to €0.50 · closed" in text


def test_the_summary_shows_the_rounding_and_the_transfers(alice_client, settled):
    _, text = _text(_pdf(alice_client, settled).content)
    assert "Šárka +12.40 +0.10 +12.50" in text
    assert "Jürgen −7.30 −0.20 −7.50" in text
    assert "Ľubo −5.10 +0.10 −5.00" in text
    assert "Rounded to €0.50, keeping the sum at zero" in text
    assert "Jürgen → Šárka €7.50" in text
    assert "Ľubo → Šárka €5.00" in text
    assert text.count("EPC (SEPA) · SK3112000000198742637541") == 2  # drawn beside each unpaid transfer's code


def test_a_paid_transfer_says_who_marked_it(alice_client, settled, alice):
    services.transfer_mark_paid(transfer=settled.settlement.transfers.get(payer__name="Ľubo"), by=alice)
    _, text = _text(_pdf(alice_client, settled).content)
    assert "Marked paid by alice" in text
    assert text.count("EPC (SEPA)") == 1


def test_the_summary_has_each_table_its_rules_and_the_explained_hand_log(alice_client, settled):
    _, text = _text(_pdf(alice_client, settled).content)
    assert "Šnapser · Šárka, Jürgen, Ľubo" in text and "Šnapser · Ľubo, Jürgen" in text
    flat = " ".join(text.split())  # a long explanation may wrap
    stake_help = rules.game("snapser").options["stake"].help.rstrip(".")
    assert f"House rules: Standard rules — {stake_help}: 3.10" in flat and f"{stake_help}: 0.55" in flat, flat[:800]
    assert "Hands (1)" in text
    hand = settled.tables.first().hands.get()
    shown = [f"{line['label']}: {line['detail']}" if line["detail"] else line["label"] for line in hand.lines]
    for line in shown:  # the explanation, as the engine wrote it (in the language it was recorded in)
        assert line in flat
    # It ends with who pays whom (rules.score's payment line), then the amounts.
    assert hand.lines[-1]["label"].endswith(" each")
    assert f"{shown[-1]} +12.40 −6.20 −6.20" in flat


def test_the_summary_is_a4_with_page_numbers(alice_client, settled):
    reader, text = _text(_pdf(alice_client, settled).content)
    pages = len(reader.pages)
    assert pages >= 1
    assert all((round(float(p.mediabox.width)), round(float(p.mediabox.height))) == A4 for p in reader.pages)
    assert f"Page 1 / {pages}" in text and f"Page {pages} / {pages}" in text


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils not installed")
def test_poppler_reads_the_same_letters(alice_client, settled, tmp_path):
    path = tmp_path / "summary.pdf"
    path.write_bytes(_pdf(alice_client, settled).content)
    text = subprocess.run(
        [shutil.which("pdftotext") or "pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, check=True
    ).stdout.decode()
    for name in NAMES:
        assert name in text
    assert "Jürgen → Šárka" in text


def test_an_open_evening_prints_the_balances_so_far(alice_client, alice):
    evening = evening_owing(alice, NAMES)
    _, text = _text(_pdf(alice_client, evening).content)
    assert "The evening is still open: balances so far, not yet settled." in text
    assert "Šárka +12.40" in text and "Jürgen −7.30" in text
    assert "→" not in text


def test_the_pdf_costs_the_same_queries_at_10_and_120_hands(alice_client, alice):
    counts = []
    for size in (10, 120):
        evening = factories.make_evening(alice)
        table = factories.make_table(evening, "snapser")
        for number in range(size):
            services.hand_record(table=table, hand=factories.SNAPSER_N1 | {"raises": number % 3}, by=alice)
        services.evening_close(evening=evening, by=alice)
        with CaptureQueriesContext(connection) as captured:
            _pdf(alice_client, evening)
        counts.append(len(captured))
    assert counts[0] == counts[1]


def test_a_seeger_fabian_table_in_the_pdf_costs_the_same_queries_at_10_and_60_hands(alice_client, alice):
    """Its list points so far are its newest hand's, read with the evening's hands."""
    counts = []
    for size in (10, 60):
        evening = factories.make_evening(alice)
        table = factories.make_table(evening, "skat", preset="seeger-fabian", bock=True)
        for number in range(size):
            hand = factories.SKAT_S1 | {"declarer": table.seat_names[number % 3], "declarer_points": 60 + number % 2}
            services.hand_record(table=table, hand=hand, by=alice)
        with CaptureQueriesContext(connection) as captured:
            _, text = _text(_pdf(alice_client, evening).content)
        assert "Seeger-Fabian points" in text
        counts.append(len(captured))
    assert counts[0] == counts[1]
