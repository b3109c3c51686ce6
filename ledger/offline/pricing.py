"""The table page without a network: the same hand forms, templates and rules engine, run in the browser (Pyodide).

The server embeds the table's state in its page (``offline_state``: seats, frozen ruleset, balances, the last counted
hands' dealers and Bock rounds). While the phone is offline, the page's worker runs this module under Pyodide with
the ledger's own ``hand_forms``, the ``rules`` package and the templates the server draws the form with
(``ledger/offline/bundle.py`` lists them, ``ledger/offline/views.py`` serves them as one zip). So a hand entered
offline is checked by the same form, priced by the same engine, and the next form is drawn for the same dealer and
Bock rounds as the server would draw them.

The server stays authoritative: queued hands are sent in order with their idempotency key and priced again there;
the page shows any difference. This module imports nothing that needs a database: ``OfflineTable`` stands in for
``ledger.models.Table`` with what the forms read of it. ``dispatch`` is the one entry point the worker calls.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, NotRequired, TypedDict

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.datastructures import MultiValueDict

import rules
import rules.i18n
from ledger.hand_forms.base import HandForm, add_domain_error, tally_contracts
from ledger.hand_forms.marias import MariasHandForm
from ledger.hand_forms.skat import SkatHandForm
from ledger.hand_forms.snapser import SnapserHandForm
from ledger.scoreboard import seat_rows

# The forms by game, without ledger.games (which imports the tariffs and, through them, the models).
FORMS: dict[str, type[HandForm]] = {form.game: form for form in (MariasHandForm, SnapserHandForm, SkatHandForm)}


class OfflineState(TypedDict):
    """What the table page tells its offline worker (``ledger.offline.table_page.offline_state``), as JSON."""

    table: int
    game: str
    seats: list[str]
    rules: dict[str, Any]
    first_dealer: int
    language: str
    currency: str
    balances: dict[str, str]  # exact, as decimal strings
    next_number: int
    dealt: list[list[int]]  # the last counted hands, oldest first: [dealer, Bock rounds started]
    contracts: list[str]  # of the newest counted hands, newest first: the usual contract's window
    revision: int
    action: str  # where Record posts (the form's action)
    sync: str  # where queued hands are sent (ledger.offline.views.hand_queued)
    csrf_token: str
    open: bool  # the evening takes hands; a closed one refuses what is queued
    user: int  # whose queue: a shared phone keeps each scorekeeper's hands apart
    game_only: NotRequired[bool]  # a tournament table's phone not playing for money: no money on its screen


class QueuedHand(TypedDict):
    """A hand recorded offline, as the page keeps it (IndexedDB) and this module prices it."""

    key: str
    fields: list[list[str]]  # the form's fields as posted: [name, value] pairs
    status: str  # "waiting" or "refused"
    reason: str


@dataclass
class OfflineTable:
    """What the hand forms read of a ``ledger.models.Table``."""

    pk: int
    game: str
    seat_names: list[str]
    ruleset: dict[str, Any]
    first_dealer: int

    @property
    def id(self) -> int:
        return self.pk

    @classmethod
    def of(cls, state: OfflineState) -> OfflineTable:
        return cls(state["table"], state["game"], list(state["seats"]), dict(state["rules"]), state["first_dealer"])


@dataclass
class Priced:
    """One queued hand as the engine priced it offline (``hand``), or the form it was refused with (``form``)."""

    hand: dict[str, Any] | None = None
    form: str | None = None


def posted(fields: Iterable[Sequence[str]]) -> MultiValueDict[str, str]:
    """The form's fields as the server's request.POST would hold them (a QueryDict is a MultiValueDict; importing
    django.http would bring the ORM into the browser)."""
    data: MultiValueDict[str, str] = MultiValueDict()
    for name, value in fields:
        data.appendlist(name, value)
    return data


def next_hand(state: OfflineState, priced: Sequence[dict[str, Any]]) -> rules.NextHand:
    """What the next hand starts from: the server's last counted hands, then the hands priced offline since."""
    previous = [rules.Dealt(dealer, bock) for dealer, bock in state["dealt"]]
    previous += [rules.Dealt(hand["dealer"], hand["bock_rounds"]) for hand in priced]
    return rules.game(state["game"]).next_hand(len(state["seats"]), state["rules"], previous, state["first_dealer"])


def usual_contract(state: OfflineState, priced: Sequence[dict[str, Any]]) -> str:
    """The contract the fresh form pre-selects: the server's rule (``HandForm.usual_contract``) over its window of
    the newest counted hands, slid on by the hands priced offline."""
    queued = [hand["contract"] for hand in reversed(priced)]
    window = [(0, contract) for contract in [*queued, *state["contracts"]]]
    played = [(row["contract"], row["count"]) for row in tally_contracts(window)]
    return FORMS[state["game"]].usual_contract(played)


def _form_html(state: OfflineState, form: HandForm, after: int | str | None) -> str:
    """The form as the server draws it; ``after``: how many hands the page showed before the hand it takes (the
    server's and those kept on the phone before it), so that a kept hand synced later is checked against them."""
    context = {
        "table": OfflineTable.of(state),
        "form": form,
        "action": state["action"],
        "table_revision": state["revision"],
        "after": after,
        "csrf_token": state["csrf_token"],
    }
    return render_to_string("ledger/_hand_form.html", context)


def fresh_form(state: OfflineState, priced: Sequence[dict[str, Any]]) -> str:
    """The form for the next hand after the queued ones, as the server's ``_fresh_form`` draws it."""
    cls = FORMS[state["game"]]
    start = next_hand(state, priced)
    initial: dict[str, Any] = {cls.contract_field: usual_contract(state, priced)}
    if start.bock is not None:
        initial["bock"] = start.bock
    form = cls(OfflineTable.of(state), dealer=start.dealer, initial=initial)
    return _form_html(state, form, state["next_number"] - 1 + len(priced))


def redraw(state: OfflineState, fields: list[list[str]]) -> str:
    """The form redrawn for the values chosen so far (the server's ``hand_form`` view)."""
    data = posted(fields)
    form = FORMS[state["game"]](OfflineTable.of(state), data)
    form.errors.clear()  # a redraw is not a submission
    return _form_html(state, form, data.get("after"))


def price(state: OfflineState, queued: QueuedHand, before: Sequence[dict[str, Any]]) -> Priced:
    """One queued hand checked by its form and priced by the engine, after the hands ``before`` it in the queue.

    The same steps as the server's Record (``views.tables.hand_create`` and ``services.hand_record``): the form's
    checks, the pending Bock rounds, the dealer the hand names, the engine's price. A refusal comes back as the form
    with its errors beside the fields, as the server would draw it.
    """
    table = OfflineTable.of(state)
    data = posted(queued["fields"])
    form = FORMS[state["game"]](table, data)
    if form.is_valid():
        try:
            return Priced(hand=_priced_hand(state, form, before))
        except (rules.RulesError, BockMismatch) as error:
            add_domain_error(form, error)
    form.focus_first_error()
    return Priced(form=_form_html(state, form, data.get("after")))


class BockMismatch(Exception):
    """The form's Bock rounds are not the ones pending (the server says the same: ``ledger.services.hands``)."""

    field = "bock"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _priced_hand(state: OfflineState, form: HandForm, before: Sequence[dict[str, Any]]) -> dict[str, Any]:
    start = next_hand(state, before)
    document = form.document()
    if start.bock is not None:
        given = document.get("bock", start.bock)
        if given != start.bock:
            raise BockMismatch(
                translation.gettext("%(pending)s Bock rounds are pending at this table, not %(given)s.")
                % {"pending": start.bock, "given": given}
            )
        document = document | {"bock": start.bock}
    game = rules.game(state["game"])
    named = game.hand_dealer(state["seats"], document)
    posted_dealer = form.cleaned_data.get("dealer")
    dealer = named if named is not None else posted_dealer if posted_dealer is not None else start.dealer
    score = rules.score({"game": state["game"], "players": state["seats"], "rules": state["rules"], "hand": document})
    return {
        "key": form.cleaned_data.get("key") or "",
        "number": state["next_number"] + len(before),
        "dealer": dealer % len(state["seats"]),
        "document": document,
        "contract": str(document.get(form.contract_field) or ""),
        "bock_rounds": int(score.as_dict().get("bock_rounds") or 0),
        "amounts": {name: str(amount) for name, amount in score.amounts.items()},
        "label": str(score.label),
        "lines": [{"label": str(line.label), "detail": str(line.detail or "")} for line in score.lines],
    }


def balances(state: OfflineState, priced: Sequence[dict[str, Any]]) -> dict[str, Decimal]:
    """The server's balances plus every hand priced offline: what the scoreboard shows, provisionally."""
    totals = {name: Decimal(amount) for name, amount in state["balances"].items()}
    for hand in priced:
        for name, amount in hand["amounts"].items():
            totals[name] = totals.get(name, Decimal(0)) + Decimal(amount)
    return totals


def queue(state: OfflineState, queued: Sequence[QueuedHand], tapped: str | None = None) -> dict[str, Any]:
    """The page's offline part for the queue as it is: each waiting hand priced in order, the provisional
    scoreboard, the rows of the log's "waiting to send" list, and the form for the next hand.

    ``tapped``: the key of the hand just recorded without a network (the queue's last). When its form refuses it,
    the answer says ``refused`` and its ``form`` is that form with the errors beside the fields; the page then takes
    it out of the queue again (it was never a hand) and shows the form.
    """
    priced: list[dict[str, Any]] = []
    rows: list[dict[str, Any]] = []
    answer: dict[str, Any] = {"refused": False, "tapped": None}
    for entry in queued:
        if entry["status"] == "refused":  # the server refused it: not counted until fixed
            rows.append({"entry": entry, "hand": None})
            continue
        result = price(state, entry, priced)
        if entry["key"] == tapped:
            if result.hand is None:
                answer |= {"refused": True, "form": result.form}
                continue
            answer["tapped"] = result.hand
        if result.hand is not None:
            priced.append(result.hand)
        rows.append({"entry": entry, "hand": result.hand})
    if not answer["refused"]:
        answer["form"] = fresh_form(state, priced)
    totals = balances(state, priced)
    start = next_hand(state, priced)
    scoreboard = seat_rows(state["seats"], totals, start.dealer)
    game_only = bool(state.get("game_only"))
    if game_only:  # the phone of a table not playing for money shows no money, provisional or not
        scoreboard = [row | {"balance": None} for row in scoreboard]
    context = {"scoreboard": scoreboard, "rows": rows, "provisional": len(priced), "game_only": game_only}
    return answer | {
        "priced": priced,
        "scoreboard": render_to_string("ledger/_scoreboard.html", context | {"live": True}),
        "rows": render_to_string("ledger/offline/_offline_queue.html", context),
        "next_dealer_html": render_to_string("ledger/_next_dealer.html", {"next_dealer": state["seats"][start.dealer]}),
    }


def dispatch(request: str) -> str:
    """The worker's one call: ``{"call": name, "state": …, …}`` as JSON in, the answer as JSON out, in the
    language the page speaks."""
    asked = json.loads(request)
    state: OfflineState = asked["state"]
    with translation.override(state["language"]), rules.i18n.override(state["language"]):
        if asked["call"] == "redraw":
            answer: Any = {"form": redraw(state, asked["fields"])}
        elif asked["call"] == "queue":
            answer = queue(state, asked["queued"], asked.get("tapped"))
        else:
            raise ValueError(f"unknown call {asked['call']!r}")
    return json.dumps(answer, default=str)
