"""The table page without a network: the worker that prices hands in the browser, the zip of code it runs, and the
door through which the hands queued on a phone reach the books.

See ``ledger/offline/pricing.py`` (what the worker runs), ``static/js/offline.js`` (the page's queue) and
``static/js/pricing-worker.js`` (the worker).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from ledger.access import table_for_scorekeeper
from ledger.errors import HandConflict
from ledger.games import form_class
from ledger.hand_forms.base import HandForm
from ledger.models import Hand, Table
from ledger.offline import bundle
from ledger.views.hand_conflicts import conflict_panel
from ledger.views.tables import phone_view, record_from_form

# The worker's own policy (a worker follows the policy of the script it runs, not the page's). WebAssembly needs
# 'wasm-unsafe-eval' to compile Pyodide's interpreter; it allows compiling wasm and nothing else (no eval(), no
# new Function()). The table page itself keeps the site's policy without it.
WORKER_POLICY = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; object-src 'none'; "
    "base-uri 'none'; frame-ancestors 'none'"
)


@require_GET
def pricing_worker(request: HttpRequest, name: str) -> HttpResponse:
    """The worker script, served here rather than from /static/ so that it carries its own policy."""
    if name != bundle.worker_name():
        raise Http404
    response = HttpResponse(bundle.WORKER_SOURCE.read_bytes(), content_type="text/javascript; charset=utf-8")
    response["Content-Security-Policy"] = WORKER_POLICY
    response["Cache-Control"] = "public, max-age=31536000, immutable"
    return response


@require_GET
def pricing_bundle(request: HttpRequest, name: str) -> HttpResponse:
    """The code the worker runs (``ledger.offline.bundle``): named by its digest, so kept for good."""
    if name != bundle.bundle_name():
        raise Http404
    response = HttpResponse(bundle.bundle(), content_type="application/zip")
    response["Cache-Control"] = "public, max-age=31536000, immutable"
    return response


@login_required
@require_POST
def hand_queued(request: HttpRequest, table_id: int) -> JsonResponse:
    """A hand recorded on a phone without a network, sent when it is back: the same form and services as Record,
    answered in JSON for the page's queue. Its key makes a repeat (a queue sent twice, an answer lost on the way)
    return the hand stored the first time, never a second one.

    201 with the stored hand (its number and the server's price); a refusal is an answer too, not a failure of
    the request: 200 with ``stored: false`` and the reasons, each naming its field (a 4xx would also be reported as
    an error in the phone's console, where nothing went wrong). So is a conflict: another phone recorded the hand
    after the ones this phone had seen (its ``after``): ``conflict`` carries the hand that won and the panel with both
    versions, whose buttons act on the phone's queue; nothing is stored.
    """
    table = table_for_scorekeeper(request.user, table_id)
    form = form_class(table.game)(table, request.POST)
    try:
        hand = record_from_form(request, table, form)
    except HandConflict as conflict:
        return JsonResponse(_conflict(request, table, form, conflict))
    if hand is not None:
        return JsonResponse(_stored(hand), status=201)
    return JsonResponse({"stored": False, "errors": _reasons(form)})


def _conflict(request: HttpRequest, table: Table, form: HandForm, conflict: HandConflict) -> dict[str, Any]:
    panel = conflict_panel(
        request,
        table=table,
        conflict=conflict,
        document=form.document(),
        posted=request.POST,
        action=reverse("ledger:hand_queued", args=[table.pk]),
        drop_url=f"{table.get_absolute_url()}#table-live",
        game_only=phone_view(request, table)["game_only"],
        queued=form.cleaned_data.get("key") or "",
    )
    stored = conflict.stored
    return {
        "stored": False,
        "conflict": {"message": conflict.message, "number": stored.number, "panel": panel},
        "errors": [conflict.message],  # what a page from before conflicts says of it: refused, with the reason
    }


def _stored(hand: Hand) -> dict[str, Any]:
    return {
        "stored": True,
        "key": hand.key,
        "number": hand.number,
        "label": hand.label,
        "amounts": hand.result["amounts"],
    }


def _reasons(form: HandForm) -> list[str]:
    """Each error with the field it belongs to, in the reader's words ("Trump: Tap one: …")."""
    reasons = []
    for name, messages in form.errors.items():
        label = "" if name == "__all__" else f"{form.fields[name].label}: " if name in form.fields else f"{name}: "
        reasons += [f"{label}{message}" for message in messages]
    return reasons
