"""The table page and its hands: enter, correct, void, undo; the table's house rules."""

from __future__ import annotations

import json
import threading
import uuid
from collections import OrderedDict
from typing import Any
from urllib.parse import urlsplit

from django.contrib.auth.decorators import login_required
from django.core.signals import setting_changed
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_htmx.http import reswap

import rules
from ledger import games, hooks, selectors, services, tariffs
from ledger.access import (
    hand_for_scorekeeper,
    table_for_scorekeeper,
)
from ledger.charts import table_chart
from ledger.forms import add_domain_error
from ledger.games import form_class
from ledger.hand_forms.base import ContractPlayed, HandForm, tally_contracts
from ledger.models import Hand, Table
from ledger.selectors import TABLE_LOG_LENGTH
from ledger.views.hand_conflicts import conflict_context
from ledger.views.htmx import HtmxHttpRequest

# The log's "Earlier hands" button shows this many more each tap.
LOG_STEP = 20


@login_required
def table_detail(request: HtmxHttpRequest, table_id: int) -> HttpResponse:
    table = table_for_scorekeeper(request.user, table_id)
    length = _log_length(request.GET)
    before = request.GET.get("before", "")
    if request.htmx and before.isdecimal() and length is not None:
        return _earlier_hands(request, table, int(before), length)
    if request.htmx and "live" in request.GET:  # the live part alone ("Theirs is right: drop mine")
        return table_now(request, table)
    context = _table_context(request, table, length=length)
    # Without JavaScript, Record redirects here with the hand's number: the same status line as the htmx answer.
    recorded = request.GET.get("recorded", "")
    if recorded.isdecimal():
        hand = next((hand for hand in context["log"] if hand.number == int(recorded)), None)
        context |= _recorded(table, hand, game_only=context["game_only"])
    return render(request, "ledger/table_detail.html", context)


def _log_length(query: QueryDict) -> int | None:
    """How many of the newest hands the log shows: ``?log=N`` (the "Earlier hands" button adds to it), all of them
    with ``?all`` (None), else ``TABLE_LOG_LENGTH``."""
    if "all" in query:
        return None
    asked = query.get("log", "")
    return min(max(int(asked), TABLE_LOG_LENGTH), 100_000) if asked.isdecimal() else TABLE_LOG_LENGTH


def _page_log_length(request: HtmxHttpRequest) -> int | None:
    """``_log_length`` of the table page an htmx request comes from (its address, which the button keeps up to
    date); the default for a page loaded anew."""
    current = request.htmx.current_url if request.htmx else None
    try:
        query = urlsplit(current or "").query
    except ValueError:  # a header no browser sends ("http://["): the page's default, not a 500 after the Record
        query = ""
    return _log_length(QueryDict(query))


def _table_context(
    request: HttpRequest, table: Table, form: HandForm | None = None, length: int | None = TABLE_LOG_LENGTH
) -> dict[str, Any]:
    """Everything the table page shows, in a fixed number of queries and a fixed amount of Python work whatever the
    number of hands: the newest ``length`` hands of the log (all with None), the balances its newest hand keeps,
    the last counted hand, a sample of the running balances for the chart, and a count."""
    log = selectors.hand_log(table, whole=length is None, length=length or TABLE_LOG_LENGTH)
    hands = log["log"]
    last = selectors.last_counted(table, hands)
    balances, points = selectors.table_balances(table, hands), selectors.table_list_points(table, hands)
    standing = _standing(request, table, last, balances, form, points=points)
    return (
        standing
        | log
        | _log_more(log["hand_total"], hands[-1].number if hands else None, length)
        | {
            # The chart draws the money: none on a table phone that shows the game alone.
            "chart": None if standing["game_only"] else table_chart(table, hands[0].number if hands else 0),
            "house_rules": tariffs.options(table.game, table.ruleset),
        }
    )


def _log_more(hand_total: int, oldest: int | None, length: int | None) -> dict[str, Any]:
    """What the button under the log needs: whether there are hands not shown, the oldest hand shown (the next
    page starts below it) and the log's length after one more tap."""
    shown = hand_total if length is None else min(length, hand_total)
    return {"log_more": shown < hand_total, "log_before": oldest, "log_next": shown + LOG_STEP}


def _earlier_hands(request: HtmxHttpRequest, table: Table, before: int, length: int) -> HttpResponse:
    """The log's next page ("Earlier hands"): the hands just older than hand ``before``, added under the log by
    htmx, and the button for the page after. Its cost is the page's, not the evening's."""
    hands = selectors.earlier_hands(table, before, LOG_STEP + 1)
    shown = hands[:LOG_STEP]
    context = {
        **phone_view(request, table),
        "table": table,
        "log": shown,
        "hand_total": table.hands.count(),
        "can_edit": table.evening.is_open,
        "log_more": len(hands) > LOG_STEP,
        "log_before": shown[-1].number if shown else None,
        "log_next": length + LOG_STEP,
    }
    return render(request, "ledger/_log_earlier.html", context)


def _standing(
    request: HttpRequest,
    table: Table,
    last: Hand | None,
    balances: dict[str, Any],
    form: HandForm | None = None,
    *,
    points: dict[str, int] | None = None,
    oob: bool = False,
) -> dict[str, Any]:
    """What every hand changes: the balances (and the list points, at a game that keeps a list), who deals next, a
    fresh form (or ``form``, refused, as it was posted) and the Undo of the last hand."""
    next_dealer = selectors.next_dealer(table, last)
    recent = selectors.recent_counted(table, last)
    contracts = selectors.recent_contracts(table, form_class(table.game).contract_field)
    played = tally_contracts(contracts)
    if form is not None:
        drawn: dict[str, Any] = {"form": form}
    elif table.evening.is_open:
        pending_bock = selectors.next_hand(table, recent).bock
        drawn = {"form_html": _fresh_form(request, table, next_dealer, played, pending_bock, oob=oob)}
    else:
        drawn = {}  # a closed evening shows no form
    phone = phone_view(request, table)
    scoreboard = selectors.scoreboard(table, balances, next_dealer, points)
    page = hooks.TablePage(request, table, balances, recent, contracts, game_only=phone["game_only"])
    features = _features(page)
    return {
        **drawn,
        **phone,
        **features,  # the features' parts of the page (the offline entry's state, ...)
        "table": table,
        "evening": table.evening,
        # The form says which state of the table it was drawn on (see _hand_recorded_answer), and how many hands
        # the page showed: a hand recorded meanwhile by another phone is then a conflict, not a silent new hand.
        "table_revision": table.revision,
        "after": table.hand_count,
        "last_counted": last,
        "scoreboard": _game_scoreboard(table, scoreboard) if phone["game_only"] else scoreboard,
        "next_dealer": table.seat_names[next_dealer],
        "can_edit": table.evening.is_open,
    }


# The templates the features add to the table page: each answer's lists are joined, not replaced.
PAGE_PARTS = ("table_live_parts", "table_page_parts")


def _features(page: hooks.TablePage) -> dict[str, Any]:
    """The features' parts of the table page (``hooks.table_page_context``): their context, and the templates
    they add to the live part (redrawn by each answer to Record) and to the page."""
    merged: dict[str, Any] = {part: [] for part in PAGE_PARTS}
    for answer in hooks.table_page_context.send(page):
        for key, value in answer.items():
            merged[key] = merged[key] + list(value) if key in PAGE_PARTS else value
    return merged


def phone_view(request: HttpRequest, table: Table) -> dict[str, bool]:
    """Whether the page is drawn for a phone confined to the table (``hooks.table_phone_view``), which reaches its
    table's hands, log and standings only (no evening, no settlement), and whether that phone shows the game alone
    (no money: its players count list points or the game's points)."""
    for answer in hooks.table_phone_view.send(hooks.TableViewer(request, table)):
        if answer is not None:
            return {"table_phone": answer.table_phone, "game_only": answer.game_only}
    return {"table_phone": False, "game_only": False}


def _game_scoreboard(table: Table, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The scoreboard of a table that does not play for money: no balance, the list points (Skat) or each seat's
    game points so far under "Points"."""
    if selectors.list_scoring(table) is not None:
        return [row | {"balance": None} for row in rows]
    label = _("Points")
    return [
        row | {"balance": None, "list_label": label, "list_points": selectors.shown_game_points(table, row["balance"])}
        for row in rows
    ]


def _fresh_form(
    request: HttpRequest,
    table: Table,
    dealer: int,
    played: list[ContractPlayed],
    pending_bock: int | None,
    *,
    oob: bool = False,
) -> SafeString:
    """A fresh hand form: the rotation's dealer, the contract most played at this table lately (``played``), the
    Bock rounds pending; drawn once per process for each such start (``_FRESH_FORMS``), then only stamped for this
    request (``table`` read before its hands: the form never claims more hands than the page shows)."""
    cls = form_class(table.game)
    initial: dict[str, Any] = {cls.contract_field: cls.usual_contract([(r["contract"], r["count"]) for r in played])}
    if pending_bock is not None:
        initial["bock"] = pending_bock
    language = translation.get_language()
    start = (table.pk, table.game, json.dumps([table.seat_names, table.ruleset, initial], sort_keys=True))
    drawn = _FRESH_FORMS.get((*start, dealer, language, oob))
    if drawn is None:
        form = cls(table, dealer=dealer, initial=initial | {"key": _KEY_MARK})
        context = {
            "table": table,
            "form": form,
            "action": reverse("ledger:hand_create", args=[table.pk]),
            "table_revision": _REVISION_MARK,
            "after": _AFTER_MARK,
            "csrf_token": _CSRF_MARK,
            "oob": oob,
        }
        drawn = render_to_string("ledger/_hand_form.html", context)
        _FRESH_FORMS.put((*start, dealer, language, oob), drawn)
    stamped = drawn.replace(_CSRF_MARK, get_token(request)).replace(_KEY_MARK, uuid.uuid4().hex)
    stamped = stamped.replace(_REVISION_MARK, str(table.revision)).replace(_AFTER_MARK, str(table.hand_count))
    return mark_safe(stamped)  # noqa: S308 - drawn by our template


class _DrawnForms:
    """The fresh hand forms drawn so far in this process, the least recently used forgotten past ``size``.

    A fresh form is a pure function of its table (seats, frozen ruleset), its dealer, its pre-selected values and
    the language, except for four stamps: the CSRF token, the form's submission key, the table's revision and its
    count of hands, drawn as marks and replaced for each request. Drawing one costs more than all the rest of the
    answer to Record (some thirty widgets through Django's templates), and at a table the same few (one per dealer)
    come back hand after hand. In memory, not in the shared cache: a new release, with other templates, starts with
    none.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self.drawn: OrderedDict[tuple[Any, ...], str] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: tuple[Any, ...]) -> str | None:
        with self.lock:
            drawn = self.drawn.get(key)
            if drawn is not None:
                self.drawn.move_to_end(key)
            return drawn

    def put(self, key: tuple[Any, ...], drawn: str) -> None:
        with self.lock:
            self.drawn[key] = drawn
            while len(self.drawn) > self.size:
                self.drawn.popitem(last=False)

    def clear(self, **_kwargs: Any) -> None:
        with self.lock:
            self.drawn.clear()


_FRESH_FORMS = _DrawnForms(256)
# A test that changes the settings (templates, languages …) draws its forms anew.
setting_changed.connect(_FRESH_FORMS.clear)
# Marks that no form draws by itself (fresh for each process), replaced by each request's own values.
_CSRF_MARK, _KEY_MARK, _REVISION_MARK, _AFTER_MARK = (
    f"{name}-{uuid.uuid4().hex}" for name in ("csrf", "key", "revision", "after")
)


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
    form = form_class(table.game)(table, request.GET, correction=bool(request.GET.get("edit")))
    form.errors.clear()  # a redraw is not a submission: nothing is wrong until Record is tapped
    # A redraw keeps the table revision the page was drawn on: the page shows nothing newer because of it.
    seen = request.GET.get("table_revision", "")
    context: dict[str, Any] = {
        "table": table,
        "form": form,
        "action": reverse("ledger:hand_create", args=[table.pk]),
        "table_revision": int(seen) if seen.isdecimal() else table.revision,
        "after": _posted_after(request.GET, table),
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
    if "_refresh" not in request.POST:
        try:
            hand = record_from_form(request, table, form)
        except services.HandConflict as conflict:
            return _conflict_answer(request, table, form, conflict)
        if hand is not None:
            answer = _hand_recorded_answer(request, table, hand) if request.htmx else None
            if answer is None:
                answer = table_now(request, table, recorded=hand)
            # The page's offline queue takes a hand it kept off the phone once the server has it (static/js/offline.js).
            answer["X-Talon-Recorded"] = hand.key or ""
            return answer
    after_submission(request, form)
    context = _table_context(request, table, form=form, length=_page_log_length(request))
    # The hand being fixed was tapped after the hands its page showed then: a hand recorded since is a conflict.
    context["after"] = _posted_after(request.POST, table)
    if request.htmx:
        return render(request, "ledger/_table_live.html", context)
    return render(request, "ledger/table_detail.html", context, status=400 if form.errors else 200)


def record_from_form(request: HttpRequest, table: Table, form: HandForm) -> Hand | None:
    """Record the hand the posted form says (its key makes a repeat return the hand stored the first time), or None
    with the refusal beside the form's fields: Record, and the hands a phone kept without a network.

    The form's ``after`` (how many hands its page showed) makes a hand another phone recorded meanwhile a
    ``services.HandConflict``, raised for the caller to show both (``ledger.views.hand_conflicts``)."""
    if not form.is_valid():
        return None
    try:
        return services.hand_record(
            table=table,
            hand=form.document(),
            by=request.user,
            key=form.cleaned_data.get("key") or None,
            dealer=form.cleaned_data.get("dealer"),
            after=_posted_after(request.POST),
        )
    except services.HandConflict:
        raise
    except (rules.RulesError, services.LedgerError) as error:
        add_domain_error(form, error)
        return None


def _posted_after(posted: QueryDict, table: Table | None = None) -> int | None:
    """The ``after`` a form carries (how many hands its page showed); None from a page drawn before forms carried it,
    which records as before (or, redrawing for ``table``, the hands it has now)."""
    after = posted.get("after", "")
    if after.isdecimal() and len(after) < 10:
        return int(after)
    return None if table is None else table.hand_count


def _conflict_answer(
    request: HtmxHttpRequest, table: Table, form: HandForm, conflict: services.HandConflict
) -> HttpResponse:
    """Another phone recorded a hand first: the table as it is now with both versions side by side and the ways out
    (``templates/ledger/_hand_conflict.html``); nothing of the tapped hand is stored."""
    table.refresh_from_db(fields=["revision", "hand_count"])  # read before the hands: the form never claims more
    context = _table_context(request, table, length=_page_log_length(request))
    url = table.get_absolute_url()
    context |= conflict_context(
        request,
        table=table,
        conflict=conflict,
        document=form.document(),
        posted=request.POST,
        action=reverse("ledger:hand_create", args=[table.pk]),
        drop_url=f"{url}#table-live",
        live_url=f"{url}?live",
        game_only=context["game_only"],
    )
    if request.htmx:
        return render(request, "ledger/_table_live.html", context)
    return render(request, "ledger/table_detail.html", context, status=409)


def _hand_recorded_answer(request: HtmxHttpRequest, table: Table, hand: Hand) -> HttpResponse | None:
    """The htmx answer to Record: what the new hand changed, swapped into the page out of band; None (and the whole
    live part redrawn) unless the page showed the table exactly as it was before this hand.

    The form carries the table's revision it was drawn on; every change to the table's hands bumps it by one. One
    more than the form's means that this hand is the only change since, so the rest of the page is still true.
    """
    seen = request.POST.get("table_revision", "")
    now = Table.objects.filter(pk=table.pk).annotate(hand_total=Count("hands"))
    table.revision, table.hand_count, hand_total = now.values_list("revision", "hand_count", "hand_total").get()
    if not seen.isdecimal() or table.revision != int(seen) + 1 or hand.number == 1 or hand.balances is None:
        return None  # another phone changed the table meanwhile, a retried tap, or the log's first row
    selectors.hands_marked([hand])  # the row added shows what the features say of it (awaiting an OK)
    length = _page_log_length(request)
    # The oldest row the log shows now, and the one that falls off its end (the page showed `length` hands). When
    # the table holds as many hands as the new one's number, they are numbered 1 to it: no need to ask.
    if length is None:
        edge = []
    elif hand_total == hand.number:
        edge = [number for number in (hand.number - length + 1, hand.number - length) if number >= 1]
    else:  # an imported evening may skip numbers
        edge = list(table.hands.order_by("-number").values_list("number", flat=True)[length - 1 : length + 1])
    balances = dict(zip(table.seat_names, hand.balances_after or [], strict=True))
    points = selectors.table_list_points(table, [hand])
    context = _standing(request, table, hand, balances, points=points, oob=True) | {
        "oob": True,
        "hand_total": hand_total,
        "dropped": edge[1] if len(edge) > 1 else None,
        **_log_more(hand_total, edge[0] if edge else None, length),
    }
    context["chart"] = None if context["game_only"] else table_chart(table, hand.number)
    context |= _recorded(table, hand, game_only=context["game_only"])
    return reswap(render(request, "ledger/_hand_recorded_changes.html", context), "none")


def after_submission(request: HttpRequest, form: HandForm) -> None:
    """A redraw (``_refresh``) shows no errors; a refused hand puts the cursor on its first error."""
    if "_refresh" in request.POST:
        form.errors.clear()
    else:
        form.focus_first_error()


def _recorded(table: Table, hand: Hand | None, *, game_only: bool = False) -> dict[str, Any]:
    """The status line after Record: the hand's number and what it moved (the chooser's money, or everybody's when
    nobody chose), with an Undo that names it. ``game_only`` (a table phone showing no money): the chooser's
    list points (Skat) or game points instead of money, as ``recorded_points``."""
    if hand is None or not hand.is_counted:
        return {}
    amounts = hand.amounts
    named = form_class(table.game).status_player(hand.document)
    shown = {named: amounts[named]} if named in amounts else amounts
    if not game_only:
        return {"recorded": hand, "recorded_amounts": list(shown.items())}
    score = hand.result.get("score") if isinstance(hand.result, dict) else None
    if selectors.list_scoring(table) is not None and isinstance(score, dict):
        points = {name: selectors.signed_points(int(score.get(name) or 0)) for name in shown}
    else:
        points = {name: selectors.shown_game_points(table, amount) for name, amount in shown.items()}
    return {"recorded": hand, "recorded_points": list(points.items())}


def table_now(request: HtmxHttpRequest, table: Table, recorded: Hand | None = None) -> HttpResponse:
    """After a change: the live part of the table page for htmx, the whole page (by redirect) without it."""
    if request.htmx:
        table.refresh_from_db(
            fields=["revision", "hand_count"]
        )  # read before the hands: the form never claims a newer state
        context = _table_context(request, table, length=_page_log_length(request))
        context |= _recorded(table, recorded, game_only=context["game_only"])
        return render(request, "ledger/_table_live.html", context)
    if recorded is not None:
        return redirect(f"{table.get_absolute_url()}?recorded={recorded.number}#table-live")
    return redirect(table)
