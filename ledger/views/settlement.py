"""Closing the evening: settlement, transfers paid, reopening, the PDF summary and players' IBANs."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from ledger import hooks, pdf, selectors, services
from ledger.access import (
    evening_for_scorekeeper,
    player_for_owner,
    transfer_for_scorekeeper,
)
from ledger.forms import PlayerIbanForm, SettlementForm, add_domain_error
from ledger.models import Evening, Player, Transfer
from ledger.views.htmx import HtmxHttpRequest


@login_required
def evening_settlement(request: HtmxHttpRequest, evening_id: int) -> HttpResponse:
    """Open: the balances so far and the close form. Closed: rounding, transfers with QR codes, history."""
    evening = evening_for_scorekeeper(request.user, evening_id)
    balances = selectors.evening_balances(evening) if evening.is_open else {}
    form = SettlementForm(request.POST or None, players=list(balances))
    if request.method == "POST" and form.is_valid():
        try:
            services.evening_close(
                evening=evening,
                by=request.user,
                mode=form.cleaned_data["mode"],
                banker=form.cleaned_data["banker"] or None,
                override=form.cleaned_data["override"],
            )
        except services.LedgerError as error:
            add_domain_error(form, error)
        else:
            messages.success(request, _("The evening is closed: here is who pays whom."))
            return _to_settlement(request, evening)
    close = _close_context(evening, form)
    if request.htmx and request.method == "POST":
        # The close card again, with what is open and why the close was refused; a closed evening's whole page.
        if not evening.is_open:
            return _to_settlement(request, evening)
        return render(request, "ledger/_close_form.html", close)
    context = selectors.settlement_context(evening, with_qr=True) | close
    if evening.is_open:
        payment_players = list(Player.objects.filter(owner_id=evening.owner_id, name__in=balances))
    else:
        payment_players = sorted(context["players"].values(), key=lambda player: player.name)
    context |= {
        "evening": evening,
        "form": form,
        "balances": balances,
        "payment_players": payment_players,
        "events": list(evening.events.select_related("by")),
        # What the close booked, not what the circle settles by today (its settings may have changed since).
        "went_into_tab": any(hooks.transfers_carried.send(evening)),
        # The features' parts of the page (who has signed the list, signing for a player who left).
        **hooks.page_parts(hooks.settlement_page_context, hooks.PageShown(request, evening), "settlement_page_parts"),
    }
    return render(request, "ledger/evening_settlement.html", context, status=400 if form.errors else 200)


def _close_context(evening: Evening, form: SettlementForm) -> dict[str, Any]:
    """The close card: the form, and the lines the features check before the close (open ones need the override)."""
    checks = hooks.close_checks(evening) if evening.is_open else []
    return {"evening": evening, "form": form, "close_checks": checks, "checks_open": any(c.open for c in checks)}


def _to_settlement(request: HtmxHttpRequest, evening: Evening) -> HttpResponse:
    url = reverse("ledger:evening_settlement", args=[evening.pk])
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


@login_required
@require_POST
def transfer_mark_paid(request: HtmxHttpRequest, transfer_id: int) -> HttpResponse:
    transfer = transfer_for_scorekeeper(request.user, transfer_id)
    evening = transfer.settlement.evening
    try:
        transfer = services.transfer_mark_paid(transfer=transfer, by=request.user)
    except services.LedgerError as error:
        messages.error(request, error.message)
        return redirect("ledger:evening_settlement", evening_id=evening.pk)
    if request.htmx:
        return _transfer_changed(request, evening, transfer)
    messages.success(request, _("Paid: %(transfer)s.") % {"transfer": transfer})
    return redirect("ledger:evening_settlement", evening_id=evening.pk)


@login_required
@require_POST
def transfer_mark_unpaid(request: HtmxHttpRequest, transfer_id: int) -> HttpResponse:
    """Take back a paid mark tapped by mistake: owed again while closed, dropped from a reopened evening."""
    transfer = transfer_for_scorekeeper(request.user, transfer_id)
    evening = transfer.settlement.evening
    transfer = services.transfer_mark_unpaid(transfer=transfer, by=request.user)
    if request.htmx and not evening.is_open:
        return _transfer_changed(request, evening, transfer)
    if evening.is_open:
        text = _("Not paid: %(transfer)s. Closing the evening plans it again.")
    else:
        text = _("Not paid: %(transfer)s.")
    messages.success(request, text % {"transfer": transfer})
    if request.htmx:  # the transfer left the page's "Already paid" list: show the page anew
        return HttpResponseClientRedirect(reverse("ledger:evening_settlement", args=[evening.pk]))
    return redirect("ledger:evening_settlement", evening_id=evening.pk)


def _transfer_changed(request: HttpRequest, evening: Evening, transfer: Transfer) -> HttpResponse:
    """The htmx answer to a paid mark set or taken back: the transfer's row, and the history out of band."""
    context = {
        "row": selectors.transfer_row(evening, transfer, with_qr=True),
        "evening": evening,
        "can_edit": True,
        "events": list(evening.events.select_related("by")),
        "oob": True,
        # The row's links lead back to the settlement page, not to the URL this POST went to.
        "back": reverse("ledger:evening_settlement", args=[evening.pk]),
    }
    return render(request, "ledger/_transfer_changed.html", context)


@login_required
@require_POST
def evening_reopen(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening = evening_for_scorekeeper(request.user, evening_id)
    try:
        services.evening_reopen(evening=evening, by=request.user)
    except services.LedgerError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("The evening is open again: unpaid transfers were dropped, paid ones are kept."))
    return redirect("ledger:evening_settlement", evening_id=evening.pk)


@login_required
def evening_summary_pdf(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening = evening_for_scorekeeper(request.user, evening_id)
    response = HttpResponse(pdf.summary_pdf(evening, request=request), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="talon-{evening.date:%Y-%m-%d}.pdf"'
    return response


@login_required
def player_edit(request: HttpRequest, player_id: int) -> HttpResponse:
    """A player's IBAN, for payment QR codes; ``next`` leads back to the page the scorekeeper came from."""
    player = player_for_owner(request.user, player_id)
    back = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        back = ""
    form = PlayerIbanForm(request.POST or None, initial={"iban": player.iban})
    if request.method == "POST" and form.is_valid():
        try:
            services.player_iban_set(player=player, iban=form.cleaned_data["iban"])
        except services.LedgerError as error:
            add_domain_error(form, error)
        else:
            messages.success(request, _("Payment details of %(name)s saved.") % {"name": player.name})
            # Never redirect(back): a "next" without "/" or "." (say "0") would be taken for the name of a URL.
            return HttpResponseRedirect(back or reverse("ledger:evening_list"))
    context = {"player": player, "form": form, "next": back}
    return render(request, "ledger/player_edit.html", context, status=400 if form.errors else 200)
