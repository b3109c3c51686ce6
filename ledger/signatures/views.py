"""Signing the list from a phone at the table, and for a player who left from the close page.

Access: a phone holding a seat at the table (its device cookie) signs for its own player; a scorekeeper of the
evening (a tournament table's phone among them) signs on a shared phone for a player seated at the table, or for a
player who left on the close page. Anybody else gets 404.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from ledger.access import evening_for_scorekeeper, table_for_scorekeeper
from ledger.errors import LedgerError
from ledger.models import Evening, Player, Table
from ledger.seats.models import SeatClaim
from ledger.signatures import parts, phones, services
from ledger.views.htmx import HtmxHttpRequest


def _revision(request: HttpRequest) -> int | None:
    seen = request.POST.get("revision", "")
    return int(seen) if seen.isdecimal() and len(seen) < 10 else None


def _signer(request: HttpRequest, table_id: int) -> tuple[Table, SeatClaim | None]:
    """The table and the seat this phone holds there; a scorekeeper's phone naming a player signs as a shared phone
    (no claim). 404 for anybody else."""
    claim = phones.held_claim(request, table_id)
    if claim is not None and not request.POST.get("player"):
        return claim.table, claim
    if not request.user.is_authenticated:
        raise Http404
    return table_for_scorekeeper(request.user, table_id), None


def _table_context(table: Table, claim: SeatClaim | None, said: str = "", failed: bool = False) -> dict[str, Any]:
    if claim is not None:
        signing = parts.seat_signing(table, claim)
        part = parts.SEAT_PART
    else:
        signing = parts.shared_signing(table)
        part = parts.SHARED_PART
    return {"table": table, "signing": signing | {"said": said, "failed": failed}, "part": part}


@require_http_methods(["GET", "POST"])
def table_sign(request: HtmxHttpRequest, table_id: int) -> HttpResponse:
    """GET: what this phone signs; POST: sign it. htmx gets the part redrawn; without JavaScript the page again."""
    table, claim = _signer(request, table_id)
    said, failed = "", False
    if request.method == "POST":
        said, failed = _sign_at_table(request, table, claim)
        if not request.htmx:
            (messages.error if failed else messages.success)(request, said)
            return redirect("signatures:table_sign", table_id=table.pk)
    context = _table_context(table, claim, said, failed)
    if request.htmx:
        # 200 even when refused: htmx swaps no 4xx, and the part says what went wrong in its status line.
        return render(request, context["part"], context)
    return render(request, "ledger/signatures/sign_page.html", context)


def _sign_at_table(request: HttpRequest, table: Table, claim: SeatClaim | None) -> tuple[str, bool]:
    player: Player | None = (
        claim.player if claim is not None else parts.seat_player(table, request.POST.get("player", ""))
    )
    by: Any = claim.acting if claim is not None else request.user
    if player is None:
        return _("Choose a player of this table."), True
    try:
        signed = services.signature_sign(
            evening=table.evening, player=player, by=by, claim=claim, revision=_revision(request)
        )
    except LedgerError as error:
        return error.message, True
    return _("%(player)s signed the list.") % {"player": signed.signature.player.name}, False


@login_required
@require_POST
def evening_sign(request: HtmxHttpRequest, evening_id: int) -> HttpResponse:
    """The close page's "Sign for a player who left": the scorekeeper signs, recorded as signed for the absent."""
    evening = evening_for_scorekeeper(request.user, evening_id)
    said, failed = _sign_for_absent(request, evening)
    if request.htmx:
        listed = parts.close_signatures(evening, can_sign=True) | {"said": said, "failed": failed}
        context = {"evening": evening, "signature_list": listed}
        return render(request, parts.CLOSE_PART, context)  # refused too: htmx swaps no 4xx
    (messages.error if failed else messages.success)(request, said)
    return redirect(f"{_settlement_url(evening)}#signatures")


def _sign_for_absent(request: HttpRequest, evening: Evening) -> tuple[str, bool]:
    chosen = request.POST.get("player", "")
    player = None
    if chosen.isdecimal() and len(chosen) < 19:
        player = Player.objects.filter(pk=int(chosen), seats__table__evening=evening).first()
    if player is None:
        return _("Choose a player of this evening."), True
    try:
        services.signature_sign(
            evening=evening, player=player, by=request.user, for_absent=True, revision=_revision(request)
        )
    except LedgerError as error:
        return error.message, True
    return _("Signed for %(player)s, who left.") % {"player": player.name}, False


def _settlement_url(evening: Evening) -> str:
    return reverse("ledger:evening_settlement", args=[evening.pk])
