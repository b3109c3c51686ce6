"""Amounts on the pages are exact until the settlement: never rounded to cents for display."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

import rules.i18n
from ledger import pdf, tariffs
from ledger.api.fields import exact
from ledger.models import Transfer
from ledger.templatetags.talon import currency, money
from rules.i18n import format_money, plain_money
from tests import factories
from tests.ledger.api_support import token_client


@pytest.mark.parametrize(
    ("amount", "english", "czech"),
    [
        ("3.2000", "+3.20", "+3,20"),
        ("-0.1150", "−0.115", "−0,115"),
        ("0.0050", "+0.005", "+0,005"),
        ("-0.125", "−0.125", "−0,125"),
        ("0", "0.00", "0,00"),
    ],
)
def test_money_shows_every_place_the_amount_has(amount, english, czech):
    with translation.override("en"):
        assert money(Decimal(amount)) == english
    with translation.override("cs"):
        assert money(Decimal(amount)) == czech


# --------------------------------------------------------------------------------------------------------------
# One rule everywhere: every place that shows money shows the same places, from one helper.


def _digits(text: str) -> str:
    """The number in a shown amount, written the plain way: no sign of gain, no currency, a point, ASCII minus."""
    kept = "".join(char for char in str(text) if char.isdigit() or char in ",.−-")
    return kept.replace(",", ".").replace("−", "-")


@pytest.mark.parametrize(
    ("amount", "plain"),
    [
        ("3.2000", "3.20"),
        ("-0.1150", "-0.115"),
        ("0.0050", "0.005"),
        ("7", "7.00"),
        ("-0.0000", "0.00"),
        ("1E+3", "1000.00"),
        ("12.3456", "12.3456"),
    ],
)
@pytest.mark.parametrize("language", ["en", "cs", "de"])
def test_every_place_that_shows_money_shows_the_same_places(amount, plain, language):
    value = Decimal(amount)
    assert plain_money(value) == plain
    assert exact(value) == exact(amount) == plain  # the API: Decimals and the engine's stored strings
    assert Transfer(amount=value).amount_text == plain  # the history, the QR code's label
    with translation.override(language), rules.i18n.override(language):
        shown = {
            "scoreboard": money(value),
            "settlement and PDF": currency(value, "EUR"),
            "engine lines": format_money(value, "CZK"),
            "tariff pages": tariffs._shown(amount),
        }
    assert {place: _digits(text) for place, text in shown.items()} == dict.fromkeys(shown, plain)


def test_the_scoreboard_api_pdf_and_the_hands_line_agree_on_an_amount_below_a_cent(alice_client, alice):
    """Skat at half a cent a point: diamonds with two matadors is worth 27 points, so each defender pays 0.135 €."""
    evening = factories.make_evening(alice)
    table = factories.make_table(evening, "skat", stake="0.005")
    factories.record(table, {"declarer": "Ana", "contract": "diamonds", "matadors": 2, "declarer_points": 61})
    page = alice_client.get(reverse("ledger:table_detail", args=[table.pk])).content.decode()
    assert "+0.27" in page and "−0.135" in page
    assert "Ben and Cyril pay Ana €0.135 each" in page  # the hand's payment line, from the engine
    body = token_client(alice).get(f"/api/evenings/{evening.pk}/settlement/").json()
    assert body["balances"] == {"Ana": "0.27", "Ben": "-0.135", "Cyril": "-0.135"}
    html = render_to_string("ledger/summary_pdf.html", pdf.summary_context(evening))
    assert "+0.27" in html and "−0.135" in html
