"""The seated phone's page: the table's scoreboard and log, redrawn when the live line says something changed, and
the hand form where the table lets any seated player record.

The page is the books' table page seen from a seat: its context comes from the books' own builder
(``ledger.views.tables``), its parts are the books' templates; the seats add who sits here, Leave, and the parts of
the features above them (``hooks.seat_page_context``). A phone waiting for the scorekeeper sees that it waits on the
same address, and the live part turns into the seat once it is allowed.
"""

from __future__ import annotations

import re
from typing import Any

from django.http import HttpResponse, HttpResponseForbidden
from django.shortcuts import redirect, render
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

import rules
from ledger import hooks, selectors, services
from ledger.errors import HandConflict, LedgerError
from ledger.forms import add_domain_error
from ledger.games import form_class
from ledger.hand_forms.base import HandForm
from ledger.models import Hand, Table
from ledger.seats import access, codes
from ledger.seats import services as seats
from ledger.seats.hooks import SeatPage, seat_page_context
from ledger.seats.models import SeatClaim
from ledger.views import tables
from ledger.views.hand_conflicts import conflict_context
from ledger.views.htmx import HtmxHttpRequest

LIVE = "ledger/seats/_seat_live.html"
PAGE = "ledger/seats/seat_page.html"
PUSH_OPTIN = "ledger/devices/_push_optin.html"


@never_cache
def seat_page(request: HtmxHttpRequest, table_id: int) -> HttpResponse:
    """The seated phone's page (htmx: its live part). A phone with no claim at the table gets 404."""
    claim = access.any_claim_for_phone(request, table_id)
    length = tables._log_length(request.GET)
    before = request.GET.get("before", "")
    if request.htmx and claim.is_held and before.isdecimal() and length is not None:
        return _earlier_hands(request, claim, int(before), length)
    context = seat_context(request, claim, length=length)
    return render(request, LIVE if request.htmx else PAGE, context)


def seat_context(
    request: HtmxHttpRequest,
    claim: SeatClaim,
    form: HandForm | None = None,
    length: int | None = None,
    recorded: Hand | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """What the seated page shows: the claim, and while the seat is held, the books' table context (scoreboard, log,
    the fresh form where this phone may record) and the features' seat parts."""
    table = claim.table
    context: dict[str, Any] = {
        "claim": claim,
        "table": table,
        "evening": table.evening,
        "seat_name": table.seat_names[claim.position],
        "push_optin": _template_exists(PUSH_OPTIN),
        "join_code": codes.code_of(table.pk),
        **extra,
    }
    if not claim.is_held or not table.evening.is_open:
        return context
    length = length if length is not None or "all" in request.GET else selectors.TABLE_LOG_LENGTH
    books = tables._table_context(request, table, form=form, length=length)
    may_record = table.recording == Table.Recording.SEATED
    context |= books | {
        "may_record": may_record,
        "can_edit": False,  # the log's Edit, Void and Undo are the scorekeeper's
        "seat_action": reverse("seats:seat_record", args=[table.pk]),
        "form_html": _seat_form(books.get("form_html"), table) if may_record else None,
        **hooks.page_parts(seat_page_context, SeatPage(request, table, claim), "seat_page_parts"),  # type: ignore[arg-type]
    }
    if recorded is not None:
        context |= tables._recorded(table, recorded, game_only=context["game_only"])
    return context


_REVISION_INPUT = re.compile(r'(<input type="hidden" name="table_revision" value="\d+">)')


def _seat_form(html: str | None, table: Table) -> SafeString | None:
    """The books' fresh form, posted to the seat's own address instead of the scorekeeper's, and saying how many
    hands the phone showed (``after``), so a hand another phone recorded meanwhile is a conflict, not a second hand."""
    if not html:
        return None
    html = html.replace(reverse("ledger:hand_create", args=[table.pk]), reverse("seats:seat_record", args=[table.pk]))
    if 'name="after"' not in html:
        html = _REVISION_INPUT.sub(rf'\1<input type="hidden" name="after" value="{table.hand_count}">', html, count=1)
    return mark_safe(html)  # noqa: S308 - the books' own form, drawn by their template


def _earlier_hands(request: HtmxHttpRequest, claim: SeatClaim, before: int, length: int) -> HttpResponse:
    """The log's next page, as on the table page but without the scorekeeper's buttons."""
    table = claim.table
    hands = selectors.earlier_hands(table, before, tables.LOG_STEP + 1)
    shown = hands[: tables.LOG_STEP]
    context = {
        **tables.phone_view(request, table),
        "table": table,
        "log": shown,
        "hand_total": table.hands.count(),
        "can_edit": False,
        "log_more": len(hands) > tables.LOG_STEP,
        "log_before": shown[-1].number if shown else None,
        "log_next": length + tables.LOG_STEP,
    }
    return render(request, "ledger/_log_earlier.html", context)


@require_POST
def seat_leave(request: HtmxHttpRequest, table_id: int) -> HttpResponse:
    """The phone lets go of its seat (or stops waiting for one). Again: the page as it is now."""
    claim = access.any_claim_for_phone(request, table_id)
    if claim.is_held or claim.is_pending:
        claim = seats.seat_release(claim=claim, by=claim.acting)
    if request.htmx:
        return render(request, LIVE, seat_context(request, claim))
    return redirect("seats:seat_page", table_id=table_id)


@require_POST
def seat_record(request: HtmxHttpRequest, table_id: int) -> HttpResponse:
    """Record a hand from the seated phone, where the table lets any seated player record; the books name the
    phone's acting account for it. ``after`` (the hands the phone showed) turns a race with another phone into the
    conflict panel; the hand's key makes a repeat return the hand stored the first time."""
    claim = access.claim_for_phone(request, table_id)
    table = claim.table
    if table.recording != Table.Recording.SEATED:
        return HttpResponseForbidden(_("Only the scorekeeper records hands at this table."))
    form = form_class(table.game)(table, request.POST)
    if "_refresh" not in request.POST and form.is_valid():
        try:
            hand = services.hand_record(
                table=table,
                hand=form.document(),
                by=claim.acting,
                key=form.cleaned_data.get("key") or None,
                dealer=form.cleaned_data.get("dealer"),
                after=_after(request),
            )
        except HandConflict as conflict:
            return _conflict(request, claim, form, conflict)
        except (rules.RulesError, LedgerError) as error:
            add_domain_error(form, error)
        else:
            if not request.htmx:
                return redirect("seats:seat_page", table_id=table_id)
            table.refresh_from_db(fields=["revision", "hand_count"])
            answer = render(request, LIVE, seat_context(request, claim, recorded=hand))
            answer["X-Talon-Recorded"] = hand.key or ""
            return answer
    tables.after_submission(request, form)
    context = seat_context(request, claim, form=form)
    # htmx swaps a 200 only: the refusal is in the form it draws.
    status = 400 if form.errors and not request.htmx else 200
    return render(request, LIVE if request.htmx else PAGE, context, status=status)


def _after(request: HtmxHttpRequest) -> int | None:
    after = request.POST.get("after", "")
    return int(after) if after.isdecimal() and len(after) < 10 else None


def _conflict(request: HtmxHttpRequest, claim: SeatClaim, form: HandForm, conflict: HandConflict) -> HttpResponse:
    """Another phone recorded first: the live part as it is now, with both versions side by side and the ways out
    (the books' conflict panel); nothing of the tapped hand is stored. "Mine is another hand" posts here again."""
    table = claim.table
    table.refresh_from_db(fields=["revision", "hand_count"])  # read before the hands: the form never claims more
    context = seat_context(request, claim)
    page = reverse("seats:seat_page", args=[table.pk])
    context |= conflict_context(
        request,
        table=table,
        conflict=conflict,
        document=form.document(),
        posted=request.POST,
        action=reverse("seats:seat_record", args=[table.pk]),
        drop_url=f"{page}#table-live",
        live_url=page,
        game_only=context.get("game_only", False),
    )
    return render(request, LIVE if request.htmx else PAGE, context, status=200 if request.htmx else 409)


def _template_exists(name: str) -> bool:
    try:
        get_template(name)
    except TemplateDoesNotExist:
        return False
    return True
