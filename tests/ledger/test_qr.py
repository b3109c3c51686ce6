"""Payment QR codes: the payloads exactly as the specifications lay them out, and IBAN checks. No image decoding."""

from __future__ import annotations

from decimal import Decimal

import pytest

from ledger import qr

D = Decimal


def test_a_czk_payment_is_a_qr_platba_string():
    payload = qr.spayd_payload(iban="CZ65 0800 0000 1920 0014 5399", amount=D("7.0000"), message="Talon 27.11.2026 Ben")
    assert payload == "SPD*1.0*ACC:CZ6508000000192000145399*AM:7.00*CC:CZK*MSG:TALON 27.11.2026 BEN"


@pytest.mark.parametrize(
    ("message", "sent"),
    [
        ("Ľubo * Šárka", "LUBO SARKA"),  # no '*' (the field separator), letters without diacritics, upper case
        ("Jürgen: 5€ + Bier", "JURGEN: 5 + BIER"),
        ("x" * 70, "X" * 60),  # at most 60 characters
    ],
)
def test_the_qr_platba_message_keeps_to_the_alphanumeric_set(message, sent):
    payload = qr.spayd_payload(iban="CZ6508000000192000145399", amount=D("0.5"), message=message)
    assert payload.endswith(f"*AM:0.50*CC:CZK*MSG:{sent}")
    assert payload.count("*") == 5


def test_a_eur_payment_is_an_epc_code_of_eleven_lines():
    payload = qr.epc_payload(name="Šárka", iban="sk31 1200 0000 1987 4263 7541", amount=D("7.5"), text="Talon Jürgen")
    assert payload == "BCD\n002\n1\nSCT\n\nŠárka\nSK3112000000198742637541\nEUR7.50\n\n\nTalon Jürgen"
    assert len(payload.split("\n")) == 11


def test_the_epc_code_keeps_to_its_limits():
    payload = qr.epc_payload(name="N" * 80, iban="DE89370400440532013000", amount=D(1), text="r" * 200)
    lines = payload.split("\n")
    assert (len(lines[5]), len(lines[10])) == (70, 140)
    # 331 bytes at most: two-byte letters shorten the text further.
    czech = qr.epc_payload(name="Ana", iban="DE89370400440532013000", amount=D(1), text="ř" * 140)
    assert len(czech.encode()) <= 331 < len(czech.encode()) + 2


def test_the_evenings_currency_picks_the_code():
    common = {"payee": "Ana", "iban": "CZ6508000000192000145399", "amount": D(7), "text": "Talon"}
    assert qr.payment_payload(currency="CZK", **common).startswith("SPD*1.0*")
    assert qr.payment_payload(currency="EUR", **common).startswith("BCD\n002\n1\nSCT\n")


def test_the_code_is_an_inline_svg_with_a_title():
    svg = qr.qr_svg("SPD*1.0*ACC:CZ6508000000192000145399*AM:7.00*CC:CZK*MSG:TALON", label="Ben → Ana <7>")
    assert svg.startswith('<svg width="') and 'class="qr"' in svg
    assert "<title>Ben → Ana &lt;7&gt;</title>" in svg
    assert "<?xml" not in svg


@pytest.mark.parametrize(
    "iban",
    [
        "CZ65 0800 0000 1920 0014 5399",
        "SK31 1200 0000 1987 4263 7541",
        "DE89 3704 0044 0532 0130 00",
        "at611904300234573201",
    ],
)
def test_valid_ibans_pass(iban):
    assert qr.check_iban(iban) == "".join(iban.split()).upper()


@pytest.mark.parametrize(
    ("iban", "says"),
    [
        ("CZ65 0800 0000 1920 0014 5398", "check digits"),
        ("CZ65 0800 0000 1920 0014 539", "24 characters"),
        ("6508 0000 0019 2000 1453 99", "country code"),
        ("CZ65-0800", "country code"),
    ],
)
def test_invalid_ibans_say_what_is_wrong(iban, says):
    with pytest.raises(qr.InvalidIban, match=says):
        qr.check_iban(iban)
