"""A hand of the log changed: corrected, voided, counted again, or the last one undone."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

import rules
from ledger import hooks, selectors, services
from ledger.access import (
    hand_for_scorekeeper,
    table_for_scorekeeper,
)
from ledger.forms import add_domain_error
from ledger.games import form_class
from ledger.models import Hand
from ledger.views.htmx import HtmxHttpRequest
from ledger.views.tables import after_submission, phone_view, table_now


@login_required
@require_POST
def hand_undo(request: HtmxHttpRequest, table_id: int) -> HttpResponse:
    table = table_for_scorekeeper(request.user, table_id)
    try:
        number = request.POST.get("number", "")
        undone = services.hand_undo_last(
            table=table, by=request.user, number=int(number) if number.isdecimal() else None
        )
    except services.LedgerError as error:
        messages.error(request, error.message)
    else:
        if undone is not None:
            messages.success(
                request, _("Hand #%(number)s undone (kept in the log, voided).") % {"number": undone.number}
            )
    return table_now(request, table)


@login_required
def hand_edit(request: HttpRequest, hand_id: int) -> HttpResponse:
    hand = hand_for_scorekeeper(request.user, hand_id)
    table = hand.table
    cls = form_class(table.game)
    if request.method == "POST":
        form = cls(table, request.POST, correction=True)
        if "_refresh" not in request.POST and form.is_valid():
            try:
                services.hand_correct(
                    hand=hand,
                    document=form.document(),
                    by=request.user,
                    version=_posted_version(request),
                    dealer=form.cleaned_data.get("dealer"),
                )
            except (rules.RulesError, services.LedgerError) as error:
                add_domain_error(form, error)
            else:
                messages.success(request, _("Hand #%(number)s corrected.") % {"number": hand.number})
                return redirect(table)
        after_submission(request, form)
    else:
        form = cls(table, initial=cls.from_document(table, hand.document) | {"dealer": hand.dealer}, correction=True)
    selectors.hands_marked([hand])
    context = {
        **phone_view(request, table),  # a table phone not for money: the history without the money
        "hand": hand,
        "table": table,
        "form": form,
        "versions": list(hand.versions.select_related("changed_by")),
        **hooks.page_parts(hooks.hand_history_context, hooks.PageShown(request, hand), "hand_history_parts"),
    }
    return render(request, "ledger/hand_edit.html", context, status=400 if form.errors else 200)


def _posted_version(request: HttpRequest) -> int:
    try:
        return int(request.POST.get("version", ""))
    except ValueError:
        raise services.LedgerError(_("The form lost the hand's version; reload the page."), field="version") from None


@login_required
@require_POST
def hand_void(request: HtmxHttpRequest, hand_id: int) -> HttpResponse:
    return _change_hand(request, hand_id, services.hand_void)


@login_required
@require_POST
def hand_restore(request: HtmxHttpRequest, hand_id: int) -> HttpResponse:
    return _change_hand(request, hand_id, services.hand_restore)


def _change_hand(request: HtmxHttpRequest, hand_id: int, change: Callable[..., Hand]) -> HttpResponse:
    """Void or count again one hand of the log, then show the table as it is now."""
    hand = hand_for_scorekeeper(request.user, hand_id)
    try:
        change(hand=hand, by=request.user)
    except services.LedgerError as error:
        messages.error(request, error.message)
    return table_now(request, hand.table)
