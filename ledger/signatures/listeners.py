"""What the books' and the seats' hooks make the signatures hear; connected in ``SignaturesConfig.ready()``.

- the seated phone's page: "Sign the list" (``seat_page_parts``);
- the close page: who signed, who has not, signing for a player who left (``settlement_page_parts``); its checks:
  "Karel has not signed", which block the close (need the override) where a table of the evening asks for
  confirmations, and are only shown otherwise;
- the PDF summary: the signatures (``summary_parts``);
- a tournament table's phone, once the series is played: a row to sign on that shared phone (``table_live_parts``);
- the evening closed: each seated player's phones are told what they pay or receive.
"""

from __future__ import annotations

from typing import Any

from django.db.models import OuterRef, Subquery
from django.utils.translation import gettext as _

from ledger import hooks
from ledger.models import Evening, Table
from ledger.seats import hooks as seat_hooks
from ledger.signatures import notices, parts, selectors
from ledger.signatures.models import Signature
from ledger.tournaments.formats import planned_hands
from ledger.tournaments.models import TournamentTable
from ledger.tournaments.table_guest import GUEST_TABLE


def seat_page(page: seat_hooks.SeatPage) -> dict[str, Any]:
    return {"signing": parts.seat_signing(page.table, page.claim), "seat_page_parts": [parts.SEAT_PART]}


def settlement_page(page: hooks.PageShown) -> dict[str, Any]:
    evening: Evening = page.subject
    return {
        "signature_list": parts.close_signatures(evening, can_sign=True),
        "settlement_page_parts": [parts.CLOSE_PART],
    }


def summary(page: hooks.PageShown) -> dict[str, Any]:
    return {
        "signature_list": parts.close_signatures(page.subject, can_sign=False),
        "summary_parts": [parts.SUMMARY_PART],
    }


def close_checks(evening: Evening) -> list[hooks.CloseCheck]:
    """A line per player who has not signed (or signed hands that changed since); open where confirmations are on."""
    listed = selectors.signatures(evening)
    if listed.state.hands == 0:
        return []
    confirming = Table.objects.filter(evening=evening).exclude(confirmation=Table.Confirmation.NONE).exists()
    checks = []
    for row in listed.missing:
        if row.stale and row.changed_from is not None:
            text = _("%(player)s signed before hand #%(number)s changed: asked to sign again") % {
                "player": row.player.name,
                "number": row.changed_from,
            }
        elif row.stale:
            text = _("%(player)s signed before the hands changed: asked to sign again") % {"player": row.player.name}
        else:
            text = _("%(player)s has not signed") % {"player": row.player.name}
        checks.append(hooks.CloseCheck(text=text, open=confirming))
    return checks


def table_page(page: hooks.TablePage) -> dict[str, Any]:
    """A tournament table's phone (the session its link made) signs the list on that phone once the series is
    played (SkWO 6.2: every player signs at the end of a series). No query for any other phone."""
    session = getattr(page.request, "session", None)
    if session is None or session.get(GUEST_TABLE) != page.table.pk:
        return {}
    found = TournamentTable.objects.filter(table=page.table).select_related("round__tournament").first()
    if found is None:
        return {}
    planned = planned_hands(found.round.tournament, len(page.table.seat_names))
    shown = parts.series_played(page.table, planned)
    return {"signing": parts.shared_signing(page.table, shown=shown), "table_live_parts": [parts.SHARED_PART]}


def evening_closed(event: hooks.ClosedEvening) -> None:
    notices.evening_closed(event.evening_id)


def evening_change(_event: None) -> Subquery:
    """``hooks.evening_changes``: the evening's newest signature, so a phone whose line was away redraws who signed."""
    newest = Signature.objects.filter(evening=OuterRef("pk")).order_by("-id").values("id")[:1]
    return Subquery(newest)


def connect() -> None:
    seat_hooks.seat_page_context.connect(seat_page)
    hooks.settlement_page_context.connect(settlement_page)
    hooks.summary_context.connect(summary)
    hooks.evening_close_checks.connect(close_checks)
    hooks.table_page_context.connect(table_page)
    hooks.evening_closed.connect(evening_closed)
    hooks.evening_changes.connect(evening_change)
