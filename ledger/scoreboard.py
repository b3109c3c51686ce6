"""The scoreboard's rows: pure, so the server's pages and the offline worker (``ledger/offline/pricing.py``) draw
them alike."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any


def seat_rows(
    seat_names: Sequence[str], balances: Mapping[str, Decimal], next_dealer: int | None
) -> list[dict[str, Any]]:
    """One entry per seat: name, balance and, when the next dealer is known, who deals and who leads next."""
    seats = len(seat_names)
    return [
        {
            "name": name,
            "balance": balances[name],
            "deals": next_dealer is not None and position == next_dealer,
            # The player on the dealer's left chooses (Mariáš, Šnapser) or leads and bids first (Skat).
            "leads": next_dealer is not None and position == (next_dealer + 1) % seats,
        }
        for position, name in enumerate(seat_names)
    ]
