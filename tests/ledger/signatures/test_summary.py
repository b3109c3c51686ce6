"""The PDF summary's signatures: name, time and on whose phone, read back from the PDF as text (pypdf)."""

from __future__ import annotations

import io

from django.template.loader import render_to_string
from django.urls import reverse
from pypdf import PdfReader
from weasyprint import HTML

from ledger import hooks
from ledger.signatures import listeners, parts
from ledger.signatures.selectors import signed_at
from ledger.signatures.services import signature_sign
from tests import factories


def pdf_text(content: bytes) -> str:
    reader = PdfReader(io.BytesIO(content))
    return "\n".join(page.extract_text() for page in reader.pages)


def printed_part(evening) -> str:
    """The summary's part alone, printed as the summary prints it (WeasyPrint), and read back."""
    context = listeners.summary(hooks.PageShown(None, evening))
    assert context["summary_parts"] == [parts.SUMMARY_PART]
    html = render_to_string(parts.SUMMARY_PART, context | {"evening": evening})
    return pdf_text(HTML(string=f"<html><body>{html}</body></html>").write_pdf())


def test_the_summary_prints_each_signature_with_time_and_phone(evening, table, players, alice, ana_claim):
    ana = signature_sign(evening=evening, player=players["Ana"], by=ana_claim.acting, claim=ana_claim).signature
    cyril = signature_sign(evening=evening, player=players["Cyril"], by=alice, for_absent=True).signature
    text = printed_part(evening)
    assert "Signatures of the list" in text
    assert f"signed at {signed_at(ana)} on their own phone" in text
    assert "Ben has not signed" in text
    assert "Cyril" in text and f"signed for by alice at {signed_at(cyril)}, left early" in text


def test_a_signature_of_hands_changed_since_says_so_in_print(evening, table, players, alice):
    signature_sign(evening=evening, player=players["Ben"], by=alice)
    factories.record(table)
    assert "Ben signed before hand #3 changed: asked to sign again" in printed_part(evening)


def test_the_evenings_pdf_carries_the_signatures(alice_client, evening, players, alice):
    signed = signature_sign(evening=evening, player=players["Ben"], by=alice, for_absent=True).signature
    answer = alice_client.get(reverse("ledger:evening_summary_pdf", args=[evening.pk]))
    text = pdf_text(answer.content)
    assert "Signatures of the list" in text
    assert f"signed for by alice at {signed_at(signed)}, left early" in text
    assert "Ana has not signed" in text
