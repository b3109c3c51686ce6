"""The join pages (a phone finds the table by its code and takes a seat) and the scorekeeper's list of seats.

Personas: the scorekeeper (the table's evening's), a player's phone (with or without an account: the device cookie
is its token), a stranger (404 for everything of a table except the join page, whose code is the invitation).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from ledger.access import table_for_scorekeeper
from ledger.devices.phone import device_for, device_hash, remember_device
from ledger.errors import LedgerError
from ledger.models import Table
from ledger.seats import codes, guesses, selectors, services
from ledger.seats.access import claim_for_scorekeeper
from ledger.seats.models import SeatClaim
from ledger.views.htmx import HtmxHttpRequest

SEAT_LIST = "ledger/seats/_seat_list.html"


def _table_by_code(code: str) -> Table | None:
    table_id = codes.table_of(code)
    if table_id is None:
        return None
    return Table.objects.select_related("evening").filter(pk=table_id).first()


@never_cache
def join_code(request: HttpRequest) -> HttpResponse:
    """The page where a player types the table's code (the QR code leads past it)."""
    typed = request.GET.get("code", "")
    error, status = "", 200
    if typed and guesses.too_many(request):
        error, status = _("Too many wrong codes from this network: try again in a few minutes."), 429
    elif typed:
        table = _table_by_code(typed)
        if table is not None:
            return redirect("seats:join", code=codes.code_of(table.pk))
        guesses.missed(request)
        error, status = (
            _("No table has the code %(code)s: check it on the scorekeeper's phone.")
            % {"code": codes.normalized(typed)},
            400,
        )
    return render(request, "ledger/seats/join_code.html", {"typed": typed, "error": error}, status=status)


@never_cache
def join(request: HttpRequest, code: str) -> HttpResponse:
    """The table's join page: the player taps their name; an account that is one of the seated players is offered
    its own seat first. POST: the phone claims the seat it names (again: the same claim)."""
    if guesses.too_many(request):
        raise Http404
    table = _table_by_code(code)
    if table is None or codes.code_of(table.pk) != codes.normalized(code):
        guesses.missed(request)
        raise Http404
    error = ""
    if request.method == "POST":
        position = request.POST.get("position", "")
        try:
            claim = services.seat_claim(
                table=table,
                position=int(position) if position.isdecimal() and len(position) < 4 else -1,
                phone=services.Phone(device_hash(device_for(request)), request.user),
            )
        except LedgerError as refused:
            error = refused.message
        else:
            return remember_device(request, redirect("seats:seat_page", table_id=claim.table_id))
    held = selectors.claim_of(request, table)
    taken = {claim.position for claim in selectors.held_claims(table)}
    own = selectors.own_position(request.user, table)
    seats = [
        {
            "position": position,
            "name": name,
            "taken": position in taken,
            "mine": held is not None and held.position == position,
        }
        for position, name in enumerate(table.seat_names)
    ]
    context = {
        "table": table,
        "evening": table.evening,
        "code": codes.code_of(table.pk),
        "seats": seats,
        "own": None if own is None else seats[own],
        "held": held,
        "error": error,
    }
    return render(request, "ledger/seats/join.html", context, status=400 if error else 200)


# --------------------------------------------------------------------------------------------------------------
# The scorekeeper's list of seats


@login_required
@never_cache
def table_seats(request: HtmxHttpRequest, table_id: int) -> HttpResponse:
    """Who holds which seat, who waits for one (Allow / Refuse), and Release: the table page fetches it (htmx),
    and again whenever its live line says the seats changed; without JavaScript, a page of its own."""
    table = table_for_scorekeeper(request.user, table_id)
    context = seat_list_context(table)
    if request.htmx:
        return render(request, SEAT_LIST, context)
    return render(request, "ledger/seats/table_seats.html", context)


def seat_list_context(table: Table, said: str = "") -> dict[str, Any]:
    return {"table": table, "evening": table.evening, "rows": selectors.seat_rows(table), "said": said}


DECISIONS = {"allow": services.seat_allow, "refuse": services.seat_refuse, "release": services.seat_release}


@login_required
@require_POST
def seat_decide(request: HtmxHttpRequest, table_id: int, claim_id: int, decision: str) -> HttpResponse:
    """Allow or refuse a waiting claim, release a held seat. The claim's id names what the tap meant: a repeat (a
    double tap, a retry) finds it decided and answers with the list as it is."""
    if decision not in DECISIONS:
        raise Http404
    claim = claim_for_scorekeeper(request.user, table_id, claim_id)
    try:
        decided = DECISIONS[decision](claim=claim, by=request.user)
    except LedgerError as refused:
        return _decided(request, claim.table, refused.message, failed=True)
    return _decided(request, claim.table, said_of(decided))


def said_of(claim: SeatClaim) -> str:
    """What the scorekeeper's list says after an answer, in the claim's words as it is now."""
    name = claim.table.seat_names[claim.position]
    return {
        SeatClaim.Status.HELD: _("%(name)s's seat is held by the phone you allowed."),
        SeatClaim.Status.REFUSED: _("The phone asking for %(name)s's seat was refused."),
        SeatClaim.Status.RELEASED: _("%(name)s's seat is free again."),
        SeatClaim.Status.PENDING: _("A phone waits for %(name)s's seat."),
    }[SeatClaim.Status(claim.status)] % {"name": name}


def _decided(request: HtmxHttpRequest, table: Table, said: str, failed: bool = False) -> HttpResponse:
    if request.htmx:
        context = seat_list_context(table, said)
        context["failed"] = failed
        return render(request, SEAT_LIST, context)  # htmx swaps a 200 only: the list says it
    (messages.error if failed else messages.success)(request, said)
    return redirect(reverse("seats:table_seats", args=[table.pk]))
