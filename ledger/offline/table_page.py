"""The offline entry's part of the table page (``hooks.table_page_context``): the worker and the bundle the page
loads, and the table's state embedded in it (``templates/ledger/offline/_offline_state.html``), so the worker can
check, price and draw hands as this server would after the network is gone."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.urls import reverse
from django.utils import translation

from ledger.hooks import TablePage
from ledger.offline import bundle
from ledger.offline.pricing import OfflineState


def offline_context(page: TablePage) -> dict[str, Any]:
    """What the table page's templates read of the offline entry: ``offline_bundle``, ``offline_worker`` (the names
    of the zip and the worker script) and ``offline_state``. No query: the page has read everything it needs."""
    return {
        "offline_bundle": bundle.bundle_name(),
        "offline_worker": bundle.worker_name(),
        "offline_state": offline_state(page),
        # Drawn in the part of the page each answer to Record redraws, and once in the page (its script).
        "table_live_parts": ["ledger/offline/_offline_state.html"],
        "table_page_parts": ["ledger/offline/_table_script.html"],
    }


def offline_state(page: TablePage) -> OfflineState:
    """What the page's offline worker needs (``ledger/offline/pricing.py``): embedded in the page, so it works after
    the network is gone."""
    request: HttpRequest = page.request
    table = page.table
    return {
        "table": table.pk,
        "game": table.game,
        "seats": list(table.seat_names),
        "rules": dict(table.ruleset),
        "first_dealer": table.first_dealer,
        "language": translation.get_language(),
        "currency": table.evening.currency,
        "balances": {name: str(amount) for name, amount in page.balances.items()},
        "next_number": table.hand_count + 1,
        "dealt": [[hand.dealer, int(hand.result.get("bock_rounds") or 0)] for hand in page.recent],
        "contracts": [contract for _number, contract in page.contracts],
        "revision": table.revision,
        "action": reverse("ledger:hand_create", args=[table.pk]),
        "sync": reverse("ledger:hand_queued", args=[table.pk]),
        "csrf_token": get_token(request),
        "open": table.evening.is_open,
        "user": int(request.user.pk or 0),
        "game_only": page.game_only,
    }
