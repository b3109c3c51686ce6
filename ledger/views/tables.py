"""The table page and its hands: enter, correct, void, undo; the table's house rules."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, urlsplit

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_htmx.http import reswap

import rules
from ledger import games, selectors, services, tariffs
from ledger.access import (
    hand_for_scorekeeper,
    table_for_scorekeeper,
)
from ledger.charts import table_chart
from ledger.forms import add_domain_error
from ledger.games import form_class
from ledger.hand_forms.base import HandForm
from ledger.models import Hand, Table
from ledger.selectors import LOG_LENGTH
from ledger.views.htmx import HtmxHttpRequest


@login_required
def table_detail(request: HttpRequest, table_id: int) -> HttpResponse:
    table = table_for_scorekeeper(request.user, table_id)
    context = _table_context(table, whole_log="all" in request.GET)
    # Without JavaScript, Record redirects here with the hand's number: the same status line as the htmx answer.
    recorded = request.GET.get("recorded", "")
    if recorded.isdecimal():
        context |= _recorded(next((hand for hand in context["log"] if hand.number == int(recorded)), None))
    return render(request, "ledger/table_detail.html", context)


def _table_context(table: Table, form: HandForm | None = None, whole_log: bool = False) -> dict[str, Any]:
    """Everything the table page shows, in a fixed number of queries and a fixed amount of Python work whatever the
    number of hands: the newest hands of the log, the last counted hand, and counts and sums from the database."""
    log = selectors.hand_log(table, whole=whole_log)
    return (
        _standing(table, selectors.last_counted(table, log["log"]), form)
        | log
        | {
            "house_rules": tariffs.options(table.game, table.ruleset),
        }
    )


def _standing(table: Table, last: Hand | None, form: HandForm | None = None) -> dict[str, Any]:
    """What every hand changes: the balances, who deals next, the chart, a fresh form and the Undo of the last hand."""
    next_dealer = services.next_dealer(table, last)
    return {
        "table": table,
        "evening": table.evening,
        "form": form or _new_hand_form(table, next_dealer),
        # The form says which state of the table it was drawn on (see _hand_recorded_answer).
        "table_revision": table.revision,
        "last_counted": last,
        "scoreboard": selectors.scoreboard(table, selectors.table_balances(table), next_dealer),
        "next_dealer": table.seat_names[next_dealer],
        "chart": table_chart(table),
        "can_edit": table.evening.is_open,
    }


def _new_hand_form(table: Table, dealer: int) -> HandForm:
    """A fresh form: the rotation's dealer, and the contract most played at this table so far."""
    cls = form_class(table.game)
    played = selectors.contracts_played(table, cls.contract_field)
    initial: dict[str, Any] = {cls.contract_field: cls.usual_contract([(r["contract"], r["count"]) for r in played])}
    pending_bock = services.table_pending_bock(table)
    if pending_bock is not None:
        initial["bock"] = pending_bock
    return cls(table, dealer=dealer, initial=initial)


@login_required
def table_rules(request: HttpRequest, table_id: int) -> HttpResponse:
    table = table_for_scorekeeper(request.user, table_id)
    context = {
        "game": table.game,
        "title": table.get_game_display(),
        "table": table,
        "preset": table.ruleset.get("preset", ""),
        "options": tariffs.options(table.game, table.ruleset),
        "tariffs": games.adapter(table.game).tariffs(table.ruleset, len(table.seat_names)),
    }
    return render(request, "ledger/game_rules.html", context)


@login_required
def hand_form(request: HttpRequest, table_id: int) -> HttpResponse:
    """The hand form re-drawn for the values chosen so far (htmx, when the contract changes)."""
    table = table_for_scorekeeper(request.user, table_id)
    form = form_class(table.game)(table, request.GET)
    form.errors.clear()  # a redraw is not a submission: nothing is wrong until Record is tapped
    # A redraw keeps the table revision the page was drawn on: the page shows nothing newer because of it.
    seen = request.GET.get("table_revision", "")
    context: dict[str, Any] = {
        "table": table,
        "form": form,
        "action": reverse("ledger:hand_create", args=[table.pk]),
        "table_revision": int(seen) if seen.isdecimal() else table.revision,
    }
    if request.GET.get("edit"):
        hand = hand_for_scorekeeper(request.user, int(request.GET["edit"]) if request.GET["edit"].isdecimal() else 0)
        if hand.table_id != table.pk:
            raise Http404
        context |= {"hand": hand, "action": reverse("ledger:hand_edit", args=[hand.pk])}
    return render(request, "ledger/_hand_form.html", context)


@login_required
@require_POST
def hand_create(request: HtmxHttpRequest, table_id: int) -> HttpResponse:
    table = table_for_scorekeeper(request.user, table_id)
    form = form_class(table.game)(table, request.POST)
    if "_refresh" not in request.POST and form.is_valid():
        try:
            hand = services.hand_record(
                table=table,
                hand=form.document(),
                by=request.user,
                key=form.cleaned_data.get("key") or None,
                dealer=form.cleaned_data.get("dealer"),
            )
        except (rules.RulesError, services.LedgerError) as error:
            add_domain_error(form, error)
        else:
            if request.htmx and (answer := _hand_recorded_answer(request, table, hand)) is not None:
                return answer
            return _table_now(request, table, recorded=hand)
    _after_submission(request, form)
    context = _table_context(table, form=form)
    if request.htmx:
        return render(request, "ledger/_table_live.html", context)
    return render(request, "ledger/table_detail.html", context, status=400 if form.errors else 200)


def _hand_recorded_answer(request: HtmxHttpRequest, table: Table, hand: Hand) -> HttpResponse | None:
    """The htmx answer to Record: what the new hand changed, swapped into the page out of band; None (and the whole
    live part redrawn) unless the page showed the table exactly as it was before this hand.

    The form carries the table's revision it was drawn on; every change to the table's hands bumps it by one. One
    more than the form's means that this hand is the only change since, so the rest of the page is still true.
    """
    seen = request.POST.get("table_revision", "")
    table.refresh_from_db(fields=["revision"])
    if not seen.isdecimal() or table.revision != int(seen) + 1 or hand.number == 1:
        return None  # another phone changed the table meanwhile, a retried tap, or the log's first row
    whole_log = "all" in parse_qs(urlsplit(request.htmx.current_url or "").query, keep_blank_values=True)
    hand_total = table.hands.count()
    # The row that falls off the log's end (if any): the page showed the newest LOG_LENGTH hands before this one.
    beyond = table.hands.order_by("-number").values_list("number", flat=True)[LOG_LENGTH : LOG_LENGTH + 1]
    dropped = None if whole_log else next(iter(beyond), None)
    context = _standing(table, hand) | {
        "oob": True,
        "hand_total": hand_total,
        "log_more": not whole_log and hand_total > LOG_LENGTH,
        "dropped": dropped,
        **_recorded(hand),
    }
    return reswap(render(request, "ledger/_hand_recorded_changes.html", context), "none")


def _after_submission(request: HttpRequest, form: HandForm) -> None:
    """A redraw (``_refresh``) shows no errors; a refused hand puts the cursor on its first error."""
    if "_refresh" in request.POST:
        form.errors.clear()
    else:
        form.focus_first_error()


def _recorded(hand: Hand | None) -> dict[str, Any]:
    """The status line after Record: the hand's number and what it moved (the chooser's money, or everybody's when
    nobody chose), with an Undo that names it."""
    if hand is None or not hand.is_counted:
        return {}
    amounts = hand.amounts
    declarer = hand.document.get("declarer")
    shown = {declarer: amounts[declarer]} if declarer in amounts else amounts
    return {"recorded": hand, "recorded_amounts": list(shown.items())}


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
    return _table_now(request, table)


@login_required
def hand_edit(request: HttpRequest, hand_id: int) -> HttpResponse:
    hand = hand_for_scorekeeper(request.user, hand_id)
    table = hand.table
    cls = form_class(table.game)
    if request.method == "POST":
        form = cls(table, request.POST)
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
        _after_submission(request, form)
    else:
        form = cls(table, initial=cls.from_document(table, hand.document) | {"dealer": hand.dealer})
    context = {"hand": hand, "table": table, "form": form, "versions": list(hand.versions.select_related("changed_by"))}
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
    return _table_now(request, hand.table)


def _table_now(request: HtmxHttpRequest, table: Table, recorded: Hand | None = None) -> HttpResponse:
    """After a change: the live part of the table page for htmx, the whole page (by redirect) without it."""
    if request.htmx:
        table.refresh_from_db(fields=["revision"])  # read before the hands: the form never claims a newer state
        return render(request, "ledger/_table_live.html", _table_context(table) | _recorded(recorded))
    if recorded is not None:
        return redirect(f"{table.get_absolute_url()}?recorded={recorded.number}#table-live")
    return redirect(table)
