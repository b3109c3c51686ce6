"""What the books' hooks make the seats hear; connected in ``SeatsConfig.ready()``.

The table page's parts cost it no query: the join code is computed from the table's id (``codes``), and the list of
seats is fetched by the page itself (``views.table_seats``), so the table page's cost stays what it was.
"""

from __future__ import annotations

import functools
from typing import Any

from django.db.models import Q

from ledger import hooks
from ledger.seats import services
from ledger.seats.door import door


def table_parts(page: hooks.TablePage) -> dict[str, Any]:
    """The scorekeeper's table page: the join code and its QR code (drawn only where the page includes them, not
    for each answer to Record), the seats list, and the live line."""
    return {
        "seats_door": functools.partial(door, page.request, page.table),
        "table_page_parts": ["ledger/seats/_table_door.html"],
    }


def evening_closed(event: hooks.ClosedEvening) -> None:
    """Seats are held for the evening: once it closes, every phone lets go of its seat."""
    services.seats_end(evening_id=event.evening_id, by_id=event.by_id)


def accounts_unlisted(_event: None) -> Q:
    """A seated phone's stand-in account carries a player's name but is nobody: never offered as a scorekeeper."""
    return Q(seat_stand_in__isnull=False)


def connect() -> None:
    hooks.table_page_context.connect(table_parts)
    hooks.evening_closed.connect(evening_closed)
    hooks.accounts_unlisted.connect(accounts_unlisted)
