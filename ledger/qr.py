"""Payment details: IBAN checks and the payment QR codes a banking app scans to pre-fill a transfer.

- CZK: QR Platba, the Short Payment Descriptor (SPAYD, https://qr-platba.cz/pro-vyvojare/specifikace-formatu/).
- EUR: the EPC QR code (EPC069-12, "GiroCode"), a SEPA credit transfer.

The payloads are plain strings built here (and unit-tested exactly); segno draws them as inline SVG.
"""

from __future__ import annotations

import datetime
import re
import unicodedata
from decimal import Decimal

import segno
from django.utils.safestring import SafeString, mark_safe

# Lengths of the IBANs of the countries our players bank in; others are checked by format and checksum only.
IBAN_LENGTHS = {"CZ": 24, "SK": 24, "AT": 20, "DE": 22, "PL": 28, "HU": 28, "SI": 19, "HR": 21}
_IBAN_FORMAT = re.compile(r"[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}")

# QR Platba: a value must not hold '*' (the field separator). Keeping the message to the QR code's alphanumeric
# set (upper-case letters, digits, space and $%+-./:) keeps the code small, as the specification recommends.
SPAYD_MESSAGE_LIMIT = 60
_SPAYD_UNSAFE = re.compile(r"[^0-9A-Z $%+\-./:]")
# EPC069-12: beneficiary name ≤ 70 characters, unstructured remittance ≤ 140, whole payload ≤ 331 bytes.
EPC_NAME_LIMIT, EPC_TEXT_LIMIT, EPC_PAYLOAD_LIMIT = 70, 140, 331


class InvalidIban(ValueError):
    pass


def normalize_iban(value: str) -> str:
    """The IBAN as banks store it: upper case, no spaces ("cz65 0800 …" → "CZ650800…")."""
    return "".join(value.split()).upper()


def check_iban(value: str) -> str:
    """The normalized IBAN, or InvalidIban saying what is wrong (format, length for the country, checksum)."""
    iban = normalize_iban(value)
    if not _IBAN_FORMAT.fullmatch(iban):
        raise InvalidIban(
            "An IBAN starts with a country code and two check digits, e.g. CZ65 0800 0000 1920 0014 5399."
        )
    expected = IBAN_LENGTHS.get(iban[:2])
    if expected is not None and len(iban) != expected:
        raise InvalidIban(f"An IBAN from {iban[:2]} has {expected} characters, not {len(iban)}.")
    # ISO 13616: move the first four characters to the end, letters to numbers (A=10 … Z=35), mod 97 must be 1.
    digits = "".join(str(int(char, 36)) for char in iban[4:] + iban[:4])
    if int(digits) % 97 != 1:
        raise InvalidIban("This IBAN's check digits do not match: a character is wrong or missing.")
    return iban


def spayd_payload(*, iban: str, amount: Decimal, message: str) -> str:
    """QR Platba for a CZK transfer.

    >>> spayd_payload(iban="cz65 0800 0000 1920 0014 5399", amount=Decimal("7"), message="Talon 27. 11. Ben*")
    'SPD*1.0*ACC:CZ6508000000192000145399*AM:7.00*CC:CZK*MSG:TALON 27. 11. BEN'
    """
    return f"SPD*1.0*ACC:{normalize_iban(iban)}*AM:{_two_places(amount)}*CC:CZK*MSG:{_spayd_message(message)}"


def epc_payload(*, name: str, iban: str, amount: Decimal, text: str) -> str:
    """The EPC QR code (version 002, UTF-8, SEPA credit transfer, no BIC) for a EUR transfer.

    Eleven lines: service tag, version, character set, identification, BIC, name, IBAN, amount, purpose,
    structured reference, unstructured remittance text.

    >>> epc_payload(name="Jürgen", iban="DE89 3704 0044 0532 0130 00", amount=Decimal("5.1"), text="Talon")
    'BCD\\n002\\n1\\nSCT\\n\\nJürgen\\nDE89370400440532013000\\nEUR5.10\\n\\n\\nTalon'
    """
    lines = ["BCD", "002", "1", "SCT", "", _one_line(name)[:EPC_NAME_LIMIT], normalize_iban(iban)]
    lines += [f"EUR{_two_places(amount)}", "", "", _one_line(text)[:EPC_TEXT_LIMIT]]
    payload = "\n".join(lines)
    while len(payload.encode()) > EPC_PAYLOAD_LIMIT:  # only with very long multi-byte texts
        payload = payload[:-1]
    return payload


def payment_payload(*, currency: str, payee: str, iban: str, amount: Decimal, text: str) -> str:
    """The payload banks of the evening's currency read: QR Platba for CZK, the EPC code for EUR."""
    if currency == "CZK":
        return spayd_payload(iban=iban, amount=amount, message=text)
    return epc_payload(name=payee, iban=iban, amount=amount, text=text)


def payment_text(*, date: datetime.date, payer: str) -> str:
    """What the payee reads on the statement: which evening, from whom."""
    return f"Talon {date:%d.%m.%Y} {payer}"


def qr_svg(payload: str, *, label: str = "", scale: int = 4) -> SafeString:
    """The payload as an inline SVG QR code, error correction level M as both specifications ask; ``scale`` pixels
    per module (the share link's code is scanned from across the table, so it is drawn larger)."""
    # Bytes, so that names with diacritics travel as UTF-8 (EPC character set 1) whatever segno would guess.
    data = payload.encode() if not payload.isascii() else payload
    code = segno.make(data, error="m", boost_error=False, micro=False)
    # A white quiet zone, so the code scans from a phone in dark mode too.
    svg = code.svg_inline(
        scale=scale, border=2, dark="#000", light="#fff", title=label or None, svgclass="qr", lineclass=None
    )
    return mark_safe(svg)  # noqa: S308 - segno's own markup; the title is escaped by segno


def _two_places(amount: Decimal) -> str:
    return str(Decimal(amount).quantize(Decimal("0.01")))


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _spayd_message(text: str) -> str:
    plain = unicodedata.normalize("NFKD", text)
    plain = "".join(char for char in plain if not unicodedata.combining(char)).upper()
    return " ".join(_SPAYD_UNSAFE.sub(" ", plain).split())[:SPAYD_MESSAGE_LIMIT].rstrip()
