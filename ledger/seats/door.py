"""The way onto a table for players' phones: its join code, the join page's address and the QR code of it."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from ledger import qr
from ledger.models import Table
from ledger.seats import codes


def join_url(request: Any, table: Table) -> str:
    return str(request.build_absolute_uri(reverse("seats:join", args=[codes.code_of(table.pk)])))


def door(request: Any, table: Table) -> dict[str, Any]:
    """What the table page shows players who join from their own phones: the code to type, and the QR code of the
    join page (scanned from across the table, hence drawn large)."""
    url = join_url(request, table)
    code = codes.code_of(table.pk)
    return {
        "code": code,
        "spaced": f"{code[:3]} {code[3:]}",
        "url": url,
        "code_url": request.build_absolute_uri(reverse("seats:join_code")),
        "qr": qr.qr_svg(url, label=_("Join this table from your phone"), scale=5),
    }
