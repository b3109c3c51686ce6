"""The share link: read-only, no login, refreshing itself cheaply (ETag / 304) when its live line says so.

``shared_state`` and ``evening_state`` are the page's fingerprint, also what its live line sends first."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.db.models import Count, Max, OuterRef, QuerySet, Subquery, Sum
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import condition
from django.views.decorators.vary import vary_on_headers

from ledger import hooks, selectors
from ledger.charts import table_chart
from ledger.models import Evening, EveningEvent, Table
from ledger.views.htmx import HtmxHttpRequest


def shared_state(token: str) -> tuple[int, str] | None:
    """The shared evening's id and a fingerprint that changes whenever anything its page shows changes; one small
    query, None for a link that does not (or no longer) work."""
    return evening_state(Evening.objects.filter(share_token=token))


def evening_state(evenings: QuerySet[Evening]) -> tuple[int, str] | None:
    """The first of ``evenings``' id and fingerprint (as ``shared_state``), None for none."""
    # The last history event: closing, reopening and marking a transfer paid change the page without a hand.
    last_event = EveningEvent.objects.filter(evening=OuterRef("pk")).order_by("-id").values("id")[:1]
    changes = {f"change_{number}": expression for number, expression in enumerate(hooks.evening_changes.send(None))}
    state = (
        evenings.annotate(revisions=Sum("tables__revision"), tables_seen=Count("tables"), last_table=Max("tables__id"))
        .annotate(last_event=Subquery(last_event), **changes)
        .values_list("pk", "status", "revisions", "tables_seen", "last_table", "last_event", *changes)
        .first()
    )
    if state is None:
        return None
    evening_id, *shown = state
    return evening_id, "-".join(str(part) for part in shown)


def _shared_etag(request: HtmxHttpRequest, token: str) -> str | None:
    state = shared_state(token)
    if state is None:
        return None
    # The full page and the htmx partial share the URL: each gets its own ETag (and Vary) so that a 304 never
    # hands htmx a cached full page, or a reload a cached fragment.
    shape = "partial" if request.htmx else "page"
    return "-".join((token[:6], state[1], request.LANGUAGE_CODE, shape))


@vary_on_headers("HX-Request")
@condition(etag_func=_shared_etag)
def shared_evening(request: HtmxHttpRequest, token: str) -> HttpResponse:
    evening = Evening.objects.filter(share_token=token).first()
    if evening is None:
        # Said in the reader's language, never a bare (or, with DEBUG, a debugging) 404 page: a player's link
        # stops working when the scorekeeper switches it off or makes a new one. A page that was polling shows
        # the same words in place of the score (static/js/share.js swaps this 404 in).
        template = "ledger/_shared_missing.html" if request.htmx else "ledger/shared_missing.html"
        return render(request, template, status=404)
    whole = "all" in request.GET
    found = list(evening.tables.all())
    # One grouped query for every table's balances, as the API and the PDF read them.
    balances = selectors.tables_balances(evening, found)
    tables = [_shared_table(table, balances[table.pk], whole=whole) for table in found]
    context = {"evening": evening, "tables": tables, "token": token}
    # The features' parts of the page (a player's "this is me"): drawn the same for every reader, as the ETag says.
    context |= hooks.page_parts(hooks.shared_page_context, hooks.PageShown(request, evening), "shared_page_parts")
    if not evening.is_open:
        # The players pay from their own phones: each unpaid transfer with its payment QR code, as on the
        # settlement page (no code once paid, none without the payee's IBAN).
        context |= selectors.settlement_context(evening, with_qr=True)
    template = "ledger/_shared_live.html" if request.htmx else "ledger/shared_evening.html"
    return render(request, template, context)


def _shared_table(table: Table, balances: dict[str, Decimal], *, whole: bool) -> dict[str, Any]:
    """One table as the players follow it: who deals next (as the scorekeeper's page says), balances, chart, log.

    The next dealer comes from the newest counted hand, which the log already holds (no query) unless every hand
    shown was voided.
    """
    log = selectors.hand_log(table, whole=whole)
    dealer = None
    if table.evening.is_open:  # a closed evening deals no more
        dealer = selectors.next_dealer(table, selectors.last_counted(table, log["log"]))
    return {
        "table": table,
        **log,
        # At a game that keeps a list (Skat), its list points so far, kept by the newest hand of the log (no query).
        "scoreboard": selectors.scoreboard(table, balances, dealer, selectors.table_list_points(table, log["log"])),
        "next_dealer": None if dealer is None else table.seat_names[dealer],
        "chart": table_chart(table),
    }
