"""The confirmations' pages: a player's OK or dispute (from their own phone or the table's), and the part of the
table's page that lists what waits for a word, drawn alone for a push or as a page of its own without JavaScript."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from ledger.confirmations import services
from ledger.confirmations.access import Giver, giver_for, player_for
from ledger.confirmations.models import Confirmation
from ledger.confirmations.pages import SEAT_PART, TABLE_PART, seat_cards, table_part
from ledger.confirmations.pushes import seat_url
from ledger.errors import LedgerError
from ledger.models import Hand, Table
from ledger.views.htmx import HtmxHttpRequest


@require_GET
def table_confirmations(request: HtmxHttpRequest, table_id: int) -> HttpResponse:
    """What waits for a word at the table, as this phone sees it: its player's cards on a seated phone, the
    disputed and awaiting hands on the scorekeeper's; 404 for anybody else."""
    table = get_object_or_404(Table.objects.select_related("evening"), pk=table_id)
    giver = giver_for(request, table)
    return _drawn(request, table, giver, {})


@require_POST
def hand_answer(request: HtmxHttpRequest, hand_id: int) -> HttpResponse:
    """OK or "that's not what happened" for one player and one version of the hand; a repeated tap answers with
    the word given first."""
    hand = get_object_or_404(Hand.objects.select_related("table__evening"), pk=hand_id)
    table = hand.table
    giver = giver_for(request, table)
    status: dict[str, Any] = {}
    try:
        player, giver = player_for(giver, table, request.POST.get("player"))
        version = _version(request.POST.get("version"))
        verdict = request.POST.get("verdict", Confirmation.Verdict.OK)
        if verdict == Confirmation.Verdict.DISPUTED:
            given = services.dispute(
                hand=hand, version=version, player=player, by=giver.by, claim=giver.claim,
                reason=request.POST.get("reason", ""),
            )  # fmt: skip
        else:
            given = services.confirm(hand=hand, version=version, player=player, by=giver.by, claim=giver.claim)
        status["confirmation_said"] = _said(given)
    except LedgerError as refused:
        status["confirmation_error"] = refused.message
        status["confirmation_error_field"] = refused.field
    if request.htmx:
        return _drawn(request, table, giver, status)
    if "confirmation_error" in status:
        messages.error(request, status["confirmation_error"])
    else:
        messages.success(request, status["confirmation_said"])
    return redirect(seat_url(table.pk) if giver.claim is not None else table.get_absolute_url())


def _drawn(request: HtmxHttpRequest, table: Table, giver: Giver, status: dict[str, Any]) -> HttpResponse:
    if giver.claim is not None and not (giver.scorekeeper and request.GET.get("part") == "table"):
        context = seat_cards(table, giver.claim)
        part = SEAT_PART
    else:
        context = table_part(table)
        part = TABLE_PART
    context |= status | {"table": table, "evening": table.evening}
    if request.htmx:
        return render(request, part, context)
    return render(request, "ledger/confirmations/table.html", context | {"part": part})


def _version(value: Any) -> int:
    text = str(value or "")
    if not text.isdecimal() or len(text) > 9:
        raise LedgerError(_("Say which version of the hand you saw."), field="version")
    return int(text)


def _said(given: Confirmation) -> str:
    values = {"number": given.hand.number, "player": given.player.name}
    if given.is_ok:
        return _("Hand #%(number)s: OK from %(player)s.") % values
    return _("Hand #%(number)s: disputed by %(player)s; the scorekeeper is told.") % values
