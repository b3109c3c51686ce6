"""What the seated phone's page asks the features above the seats (confirmations, signatures) to add."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ledger.hooks import Hook
from ledger.models import Table
from ledger.seats.models import SeatClaim


@dataclass(frozen=True)
class SeatPage:
    """The seated phone's page (or its live part) is drawn for ``request``, whose phone holds ``claim`` at
    ``table``."""

    request: Any
    table: Table
    claim: SeatClaim


# Each listener answers template context, with a list of templates under ``seat_page_parts`` (drawn in the page's
# live part, so a push redraws them); ``ledger.hooks.page_parts`` joins them.
seat_page_context = Hook[SeatPage, dict[str, Any]]("seat_page_context")
