"""A circle's tab as a PDF, as the evening's summary (``ledger.pdf``): a Django template rendered by WeasyPrint."""

from __future__ import annotations

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils import timezone
from weasyprint import HTML

from ledger.circles import selectors
from ledger.circles.models import Circle


def circle_tab_pdf(circle: Circle, *, request: HttpRequest | None = None) -> bytes:
    """A circle's tab: the open balances and its latest settling, with the payment QR codes."""
    settlement, transfers = selectors.latest_tab_settlement(circle)
    context = {
        "circle": circle,
        "tab": selectors.tab_balances(circle),
        "settlement": settlement,
        "balance_rows": settlement.rows() if settlement else [],
        "transfers": [selectors.tab_transfer_row(circle, transfer, with_qr=True) for transfer in transfers],
        "generated_at": timezone.now(),
    }
    html = render_to_string("ledger/circles/circle_tab_pdf.html", context, request=request)
    pdf: bytes = HTML(string=html).write_pdf()
    return pdf
