"""Tournament pages: the organiser's list, a new tournament, the tournament page and its forms, the door's
check-in page, and the table phone's link.

Access: the organiser (the tournament's owner) sees and changes everything of it; a table's phone opens its score
sheet through the table's link (``/t/<token>/``), which logs it in as the table's guest, confined to that table by
``table_guest``; players check themselves in through the door's link; anybody else gets 404.
The projector and the players' live page are ``live``, the printouts ``pdf``.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from ledger import hooks
from ledger.errors import LedgerError
from ledger.models import Hand
from ledger.qr import qr_svg
from ledger.tournaments import formats, selectors
from ledger.tournaments import services as tournaments
from ledger.tournaments.access import (
    entrant_for_owner,
    tournament_for_door,
    tournament_for_owner,
    tournament_table_for_owner,
)
from ledger.tournaments.forms import EntrantForm, TournamentForm, add_tournament_error
from ledger.tournaments.models import Entrant, Round, Tournament, TournamentTable
from ledger.tournaments.table_guest import GUEST_EVENING, GUEST_TABLE
from ledger.tournaments.table_link import link_renewed
from ledger.views.htmx import HtmxHttpRequest
from rules import tournament as rt


@login_required
def tournament_list(request: HttpRequest) -> HttpResponse:
    owned = (
        Tournament.objects.filter(owner_id=request.user.pk)
        .annotate(entrant_count=Count("entrants", distinct=True), round_count=Count("round_set", distinct=True))
        .order_by("-date", "-id")
    )
    return render(request, "ledger/tournaments/tournament_list.html", {"tournaments": owned})


@login_required
def tournament_create(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            tournament = tournaments.tournament_create(
                owner=request.user,
                game=data["game"],
                name=data["name"],
                players=form.player_names(),
                rounds=data["rounds"],
                options=form.options(),
                date=data["date"],
                place=data["place"],
                currency=data["currency"],
                coin=data["coin"],
            )
        except LedgerError as error:
            add_tournament_error(form, error)
        else:
            return redirect(tournament)
    status = 400 if form.errors else 200
    return render(request, "ledger/tournaments/tournament_create.html", {"form": form}, status=status)


@login_required
def tournament_detail(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    """The organiser's page; with htmx aimed at the standings, only they (the "Refresh" button)."""
    tournament = tournament_for_owner(request.user, tournament_id)
    context = _tournament_context(request, tournament)
    if request.htmx and request.htmx.target == "standings":
        return render(request, "ledger/tournaments/_tournament_board.html", context)
    return render(request, "ledger/tournaments/tournament_detail.html", context)


def _tournament_context(request: HttpRequest, tournament: Tournament, **forms: Any) -> dict[str, Any]:
    entrants = list(selectors.entrants(tournament))
    standings = selectors.standings(tournament)  # stale tables' results recomputed for the page, not stored
    current = selectors.current_round(tournament)
    finished = tournament.status == Tournament.Status.FINISHED
    context: dict[str, Any] = {
        "tournament": tournament,
        "entrants": entrants,
        "checked_in": sum(entrant.checked_in for entrant in entrants),
        "entrant_form": forms.get("entrant_form") or EntrantForm(),
        "current": current,
        "tables": _round_tables(request, tournament, current) if current else [],
        "standings": standings,
        "prizes": selectors.prize_list(tournament, standings) if finished else {},
        "finished": finished,
        "next_round": _next_round(tournament, current, entrants),
        # The running round's tables still playing: the next round's form names them and asks once.
        "unfinished": None if finished or current is None else selectors.unfinished_tables(tournament, current),
        "door": _door_link(request, tournament),
        "links": _links(tournament),
    }
    # What the features above add to the page (an invitation link's section), ``hooks.tournament_page_context``.
    page = hooks.PageShown(request, tournament)
    context.update(hooks.page_parts(hooks.tournament_page_context, page, "tournament_page_parts"))
    return context


def _round_tables(request: HttpRequest, tournament: Tournament, played: Round) -> list[dict[str, Any]]:
    tables = selectors.round_tables(played)
    hands = selectors.counted_hands([table.table_id for table in tables])
    return [_table_card(request, tournament, table, hands.get(table.table_id, [])) for table in tables]


def _table_card(
    request: HttpRequest, tournament: Tournament, table: TournamentTable, hands: list[Hand]
) -> dict[str, Any]:
    """A table of the current round: who sits there, its result and hands so far, and its phone's link with a QR
    code."""
    url = request.build_absolute_uri(reverse("ledger:tournament_sheet", args=[table.token]))
    label = _("Score sheet of table %(number)s") % {"number": table.number}
    seats = list(table.table.seat_names)
    return {
        "table": table,
        "seats": [(name, table.result.get(name, {})) for name in seats],
        "hands": hands,
        "planned": formats.planned_hands(tournament, len(seats)),
        "url": url,
        "qr": qr_svg(url, label=label, scale=3),
    }


def _next_round(tournament: Tournament, current: Round | None, entrants: list[Entrant]) -> dict[str, Any]:
    """What "Start round N" would do, said on the button, or why it cannot be done."""
    number = (current.number if current else 0) + 1
    present = sum(entrant.checked_in for entrant in entrants)
    if tournament.status == Tournament.Status.FINISHED or number > tournament.rounds:
        return {
            "number": number,
            "refused": _("All %(rounds)s rounds have been played.") % {"rounds": tournament.rounds},
        }
    try:
        sizes = rt.table_sizes(present, tournament.game)
    except rt.TournamentError:
        refused = _("%(count)s checked-in players cannot be seated at tables of %(game)s.") % {
            "count": present,
            "game": tournament.get_game_display(),
        }
        return {"number": number, "refused": refused}
    # Skat plays series, Mariáš and Šnapser rounds: two whole sentences, as a word slotted in cannot be declined.
    tables = len(sizes)
    if tournament.play.series:
        label = ngettext(
            "Start series %(number)s: %(players)s players at %(tables)s table",
            "Start series %(number)s: %(players)s players at %(tables)s tables",
            tables,
        )
    else:
        label = ngettext(
            "Start round %(number)s: %(players)s players at %(tables)s table",
            "Start round %(number)s: %(players)s players at %(tables)s tables",
            tables,
        )
    label %= {"number": number, "players": present, "tables": tables}
    return {"number": number, "label": label, "refused": ""}


def _door_link(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    if not tournament.share_token:
        return {"url": "", "qr": ""}
    url = request.build_absolute_uri(reverse("ledger:tournament_checkin", args=[tournament.share_token]))
    return {"url": url, "qr": qr_svg(url, label=_("Check-in at the door"), scale=4)}


def _links(tournament: Tournament) -> dict[str, str]:
    """The projector, the players' standings and the printouts (``live``, ``pdf``), by the URL contract's paths."""
    base = f"/tournaments/{tournament.pk}/"
    return {
        "projector": f"{base}projector/",
        "live": f"/r/{tournament.share_token}/" if tournament.share_token else "",
        "draw_pdf": f"{base}draw.pdf",
        "sheets_pdf": f"{base}sheets.pdf",
        "results_pdf": f"{base}results.pdf",
    }


@login_required
@require_POST
def tournament_entrant_add(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    tournament = tournament_for_owner(request.user, tournament_id)
    form = EntrantForm(request.POST)
    if form.is_valid():
        try:
            entrant = tournaments.entrant_add(tournament=tournament, name=form.cleaned_data["name"])
        except LedgerError as error:
            form.add_error("name", error.message)
        else:
            # Who registers at the door is there: checked in at once (while a round runs, for the next one: adding
            # a player is the explicit action a late arrival needs).
            tournaments.entrant_check_in(
                entrant=entrant, checked_in=request.POST.get("checked_in") == "1", for_next_round=True
            )
    if request.htmx:
        # htmx swaps only a 2xx answer: a refused name answers 200 here, with the error beside the field.
        context = _tournament_context(request, tournament, entrant_form=form if form.errors else None)
        return render(request, "ledger/tournaments/_tournament_entrants.html", context)
    if form.errors:
        context = _tournament_context(request, tournament, entrant_form=form)
        return render(request, "ledger/tournaments/tournament_detail.html", context, status=400)
    return redirect(f"{tournament.get_absolute_url()}#entrants")


@login_required
@require_POST
def tournament_check_in(request: HtmxHttpRequest, tournament_id: int, entrant_id: int) -> HttpResponse:
    """Check a player in or out: the form names the state it asks for (two taps agree, they do not toggle back).
    Once a round is drawn only ``for_next_round`` does it, the explicit late arrival or leaving."""
    tournament = tournament_for_owner(request.user, tournament_id)
    entrant = entrant_for_owner(tournament, entrant_id)
    wanted = request.POST.get("checked_in") == "1"
    for_next_round = request.POST.get("for_next_round") == "1"
    error = ""
    if "checked_in" not in request.POST:
        # A tap names the state it asks for; without it (a page from before) a repeat would toggle back.
        error = _("Tap the name again: the page was out of date, nothing was changed.")
    elif for_next_round and not wanted and entrant.checked_in and request.POST.get("confirm") != "1":
        error = _("Tick the box to check %(name)s out: nothing was changed.") % {"name": entrant.player.name}
    else:
        try:
            tournaments.entrant_check_in(entrant=entrant, checked_in=wanted, for_next_round=for_next_round)
        except LedgerError as refused:
            error = refused.message
    tournament.refresh_from_db(fields=["status"])
    if request.htmx:
        entrants = Entrant.objects.filter(tournament=tournament)
        context = {
            "tournament": tournament,
            "entrant": entrant,
            "error": error,
            "checked_in": entrants.filter(checked_in=True).count(),
            "entrant_count": entrants.count(),
        }
        return render(request, "ledger/tournaments/_tournament_entrant_checked.html", context)
    if error:
        messages.error(request, error)
    return redirect(f"{tournament.get_absolute_url()}#entrants")


def _round_asked(request: HttpRequest) -> int | None:
    value = request.POST.get("round", "")
    return int(value) if value.isdigit() and len(value) < 4 else None


@login_required
@require_POST
def tournament_round_start(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Start the round the form names; the same request again is answered with that round. While tables of the
    running round have not finished, the page names them and asks once (``confirm_unfinished``)."""
    tournament = tournament_for_owner(request.user, tournament_id)
    number = _round_asked(request)
    if number is None:
        messages.error(request, _("Say which round to start: the page was out of date, here it is again."))
        return redirect(f"{tournament.get_absolute_url()}#next-round")
    try:
        started = tournaments.round_start(
            tournament=tournament, number=number, confirm_unfinished=request.POST.get("confirm_unfinished") == "1"
        )
    except tournaments.TablesUnfinished as unfinished:
        context = _tournament_context(request, tournament)
        context["unfinished"] = unfinished.tables
        context["unfinished_refused"] = unfinished.message
        return render(request, "ledger/tournaments/tournament_detail.html", context, status=409)
    except LedgerError as error:
        messages.error(request, error.message)
        return redirect(f"{tournament.get_absolute_url()}#next-round")
    if started.created:
        text = _("Round %(number)s has started: here are its tables.")
    else:
        text = _("Round %(number)s had started already: here are its tables, nothing was changed.")
    messages.success(request, text % {"number": started.round.number})
    return redirect(f"{tournament.get_absolute_url()}#tables")


@login_required
@require_POST
def tournament_table_link_renew(request: HtmxHttpRequest, tournament_id: int, table_id: int) -> HttpResponse:
    """A new score-sheet link for a table (a lost phone): the old link and the phone logged in through it stop."""
    tournament = tournament_for_owner(request.user, tournament_id)
    table = tournaments.table_link_renew(table=tournament_table_for_owner(tournament, table_id))
    if request.htmx:
        hands = selectors.counted_hands([table.table_id]).get(table.table_id, [])
        card = _table_card(request, tournament, table, hands)
        context = {"tournament": tournament, "card": card, "renewed": True}
        return render(request, "ledger/tournaments/_tournament_table.html", context)
    messages.success(
        request, _("Table %(number)s has a new link; the old one opens nothing.") % {"number": table.number}
    )
    return redirect(f"{tournament.get_absolute_url()}#table-{table.number}")


@login_required
@require_POST
def tournament_finish(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Finish the tournament once the organiser ticked "Yes, finish" (one tap cannot end it)."""
    tournament = tournament_for_owner(request.user, tournament_id)
    if tournament.status == Tournament.Status.FINISHED:
        messages.success(request, _("The tournament is finished: here are the standings and the prizes."))
        return redirect(f"{tournament.get_absolute_url()}#standings")
    if request.POST.get("confirm") != "1":
        messages.error(request, _("Tick “Yes, finish the tournament” to finish it: nothing was changed."))
        return redirect(f"{tournament.get_absolute_url()}#finish")
    tournaments.tournament_finish(tournament=tournament)
    messages.success(request, _("The tournament is finished: here are the standings and the prizes."))
    return redirect(f"{tournament.get_absolute_url()}#standings")


@login_required
@require_POST
def tournament_standings_link(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """A new standings link once the organiser ticked "Yes" (the old one, passed on too far, stops working)."""
    tournament = tournament_for_owner(request.user, tournament_id)
    if request.POST.get("confirm") != "1":
        messages.error(request, _("Tick “Yes, a new link” to renew it: nothing was changed."))
    else:
        tournaments.standings_link_renew(tournament=tournament)
        messages.success(request, _("A new standings link: the old one opens nothing, and its open pages stop."))
    return redirect(f"{tournament.get_absolute_url()}#standings-link")


# --------------------------------------------------------------------------------------------------------------
# Players at the door, and the tables' phones: no account


def tournament_checkin(request: HttpRequest, token: str) -> HttpResponse:
    """The door's page: every registered name; a player taps their own to check in. Nothing else changes here."""
    tournament = tournament_for_door(token)
    context = {"tournament": tournament, "entrants": selectors.entrants(tournament), "token": token}
    response = render(request, "ledger/tournaments/tournament_checkin.html", context)
    response["X-Robots-Tag"] = "noindex"
    # The token is in the URL: no other site may learn it. Same-origin, not no-referrer: with no-referrer the
    # browser posts this page's own forms with "Origin: null", which the CSRF check refuses.
    response["Referrer-Policy"] = "same-origin"
    return response


@require_POST
def tournament_checkin_entrant(request: HtmxHttpRequest, token: str, entrant_id: int) -> HttpResponse:
    tournament = tournament_for_door(token)
    if tournament.status == Tournament.Status.FINISHED:
        raise Http404
    entrant = get_object_or_404(Entrant.objects.select_related("player"), tournament=tournament, pk=entrant_id)
    if not entrant.checked_in:
        # A player's own tap at the door only ever checks in: a late arrival, their own explicit action.
        tournaments.entrant_check_in(entrant=entrant, for_next_round=True)
    if request.htmx:
        context = {"tournament": tournament, "entrant": entrant, "token": token, "just": True}
        return render(request, "ledger/tournaments/_tournament_checkin_row.html", context)
    messages.success(request, _("%(name)s is checked in. Good luck!") % {"name": entrant.player.name})
    return redirect("ledger:tournament_checkin", token=token)


def tournament_sheet(request: HttpRequest, token: str) -> HttpResponse:
    """A table's score-sheet link: the phone is logged in as the table's guest and lands on the table's page."""
    try:
        table, guest = tournaments.table_guest(token=token)
    except LookupError:
        # A printed or scanned link of a round that is over, or one the organiser renewed: said in the phone's
        # language (no record of old tokens is kept, so an unknown one gets the same words, as 404).
        return link_renewed(request, status=404)
    if request.user.pk == table.round.tournament.owner_id:
        # The organiser trying the QR code on their own phone stays logged in as themselves.
        return redirect("ledger:table_detail", table_id=table.table_id)
    # The session must name a backend the settings list, or the next request finds nobody logged in; ours is
    # Django's ModelBackend behind the log-in limit (ledger.auth), which also refuses a replaced (inactive) guest.
    login(request, guest, backend=settings.AUTHENTICATION_BACKENDS[0])
    request.session[GUEST_TABLE] = table.table_id
    request.session[GUEST_EVENING] = table.evening_id
    return redirect("ledger:table_detail", table_id=table.table_id)
