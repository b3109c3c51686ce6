"""The evening's PDF summary: a Django template rendered by WeasyPrint (A4, page numbers, DejaVu Sans).

Date, place and players; each table with its game, ruleset, balance chart and hand log (with the explanation
lines); the final balances, the rounding and the transfers with their payment QR codes. The queries are a fixed
number per table, never per hand: all the evening's hands come in one query.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils import timezone
from weasyprint import HTML

from ledger import hooks, selectors, tariffs
from ledger.charts import table_chart
from ledger.models import Evening, EveningEvent, Hand, Table


def summary_pdf(evening: Evening, *, request: HttpRequest | None = None) -> bytes:
    html = render_to_string("ledger/summary_pdf.html", summary_context(evening, request=request), request=request)
    pdf: bytes = HTML(string=html).write_pdf()
    return pdf


def summary_context(evening: Evening, *, request: HttpRequest | None = None) -> dict[str, Any]:
    hands_by_table = selectors.evening_hands(evening)
    # Each hand's marks (confirmed, disputed), asked once for all the evening's hands.
    selectors.hands_marked([hand for hands in hands_by_table.values() for hand in hands])
    found = list(evening.tables.all())
    balances_by_table = selectors.tables_balances(evening, found)
    tables = [_table_entry(table, balances_by_table[table.pk], hands_by_table[table.pk]) for table in found]
    balances = selectors.evening_balances(evening)
    return {
        **selectors.settlement_context(evening, with_qr=True),
        "evening": evening,
        # After the close-out's context, whose "players" (Player rows of a settlement) would hide the names.
        "players": sorted(balances),
        "balances": balances,
        "tables": tables,
        "generated_at": timezone.now(),
        "close_overridden": _close_overridden(evening),
        # The features' parts of the summary (the signatures of the list), at its end.
        **hooks.page_parts(hooks.summary_context, hooks.PageShown(request, evening), "summary_parts"),
    }


def _close_overridden(evening: Evening) -> EveningEvent | None:
    """The override the evening's close was made with (what was still open), None when it closed with nothing
    open or is open: one query, the newest close, reopen and override events."""
    if evening.is_open:
        return None
    kinds = (EveningEvent.Kind.CLOSED, EveningEvent.Kind.CLOSE_OVERRIDDEN, EveningEvent.Kind.REOPENED)
    newest = list(evening.events.filter(kind__in=kinds).select_related("by").order_by("-id")[:2])
    closed_past = [event.kind for event in newest] == [EveningEvent.Kind.CLOSED, EveningEvent.Kind.CLOSE_OVERRIDDEN]
    return newest[1] if closed_past else None


def _table_entry(table: Table, balances: dict[str, Decimal], hands: list[Hand]) -> dict[str, Any]:
    """One table: its stake and the house rules that differ from the game's defaults, balances (and list points
    where the game keeps a list: its newest hand's), chart, hands."""
    return {
        "table": table,
        "ruleset": [
            (option.help.rstrip("."), option.value)
            for option in tariffs.options(table.game, table.ruleset)
            if option.changed or option.name == "stake"
        ],
        "preset": table.ruleset.get("preset", ""),
        "scoreboard": selectors.scoreboard(table, balances, points=selectors.table_list_points(table, hands[-1:])),
        "chart": table_chart(table),
        "hands": hands,
    }
