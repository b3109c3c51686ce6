"""Evenings and starting a table: create, look, share, co-scorekeepers."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

import rules
from ledger import hooks, selectors, services
from ledger.access import evening_for_owner, evening_for_scorekeeper, invitation_for_invitee
from ledger.forms import EveningForm, ScorekeeperForm, TableForm, add_domain_error
from ledger.models import Evening, Invitation, Player, Table
from ledger.qr import qr_svg
from ledger.views.htmx import HtmxHttpRequest


@login_required
def evening_list(request: HttpRequest) -> HttpResponse:
    # Evenings a feature lists elsewhere are left out (a tournament's tables: on the tournament's page).
    evenings = hooks.evenings_listed(Evening.objects.for_user(request.user)).annotate(table_count=Count("tables"))
    invitations = Invitation.objects.for_user(request.user).select_related("evening", "invited_by")
    return render(request, "ledger/evening_list.html", {"evenings": evenings, "invitations": list(invitations)})


@login_required
def evening_create(request: HttpRequest) -> HttpResponse:
    form = EveningForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            evening = services.evening_create(owner=request.user, **form.cleaned_data)
        except services.LedgerError as error:
            add_domain_error(form, error)
        else:
            return redirect("ledger:table_create", evening_id=evening.pk)
    return render(request, "ledger/evening_create.html", {"form": form})


def last_table(user: Any) -> Table | None:
    """The table the user started last, in any evening they keep score of: who sat where, at which rules."""
    evenings = hooks.evenings_listed(Evening.objects.for_user(user))  # not one a feature lists elsewhere
    return Table.objects.filter(evening__in=evenings).select_related("evening").order_by("-id").first()


@login_required
@require_POST
def evening_again(request: HttpRequest) -> HttpResponse:
    """ "Same players as last time": today's evening where and in what money the last one was, and the new table's
    form filled in with the last table's game, seats and house rules (the scorekeeper still sees them and starts)."""
    last = last_table(request.user)
    if last is None:
        return redirect("ledger:evening_create")
    # A repeated tap reuses the evening the first one made (no empty twin on the evenings list).
    evening = services.evening_again(owner=request.user, previous=last.evening, date=timezone.localdate())
    return redirect(f"{reverse('ledger:table_create', args=[evening.pk])}?again={last.pk}")


@login_required
def evening_detail(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening = evening_for_scorekeeper(request.user, evening_id)
    return render(request, "ledger/evening_detail.html", _evening_context(request, evening))


def _evening_context(request: HttpRequest, evening: Evening) -> dict[str, Any]:
    share_url = request.build_absolute_uri(_share_path(evening)) if evening.share_token else ""
    return {
        "evening": evening,
        "tables": list(evening.tables.all()),
        "balances": list(selectors.evening_balances(evening).items()),
        "share_url": share_url,
        # The players scan it from the scorekeeper's phone: no typing, no messaging app needed.
        "share_qr": qr_svg(share_url, label=_("Share link"), scale=5) if share_url else "",
        "keepers": list(evening.scorekeepers.all()),
        "invitations": list(evening.invitations.all()) if evening.owner_id == request.user.pk else [],
        "keeper_form": ScorekeeperForm(),
        # What the features add to the page (an invitation link's section), ``hooks.evening_page_context``.
        **hooks.page_parts(hooks.evening_page_context, hooks.PageShown(request, evening), "evening_page_parts"),
    }


def _share_path(evening: Evening) -> str:
    return reverse("ledger:shared_evening", args=[evening.share_token])


@login_required
@require_POST
def evening_share(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening = evening_for_scorekeeper(request.user, evening_id)
    enabled = request.POST.get("action") != "revoke"
    services.evening_share_reset(evening=evening, enabled=enabled)
    messages.success(request, _("New share link made.") if enabled else _("Share link switched off."))
    return redirect(evening)


@login_required
@require_POST
def evening_scorekeeper_invite(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening = evening_for_owner(request.user, evening_id)
    form = ScorekeeperForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Name the user to invite."))
        return redirect(evening)
    try:
        invitation = services.evening_scorekeeper_invite(
            evening=evening, username=form.cleaned_data["username"], by=request.user
        )
    except services.LedgerError as error:
        messages.error(request, error.message)
    else:
        # The same words whether or not somebody has that name: the form tells nobody which names exist.
        messages.success(
            request, _("%(name)s can keep score once they accept the invitation.") % {"name": invitation.username}
        )
    return redirect(evening)


@login_required
@require_POST
def evening_scorekeeper_remove(request: HttpRequest, evening_id: int) -> HttpResponse:
    """The owner removes a co-scorekeeper or withdraws an invitation; a co-scorekeeper leaves (403 for others)."""
    evening = evening_for_scorekeeper(request.user, evening_id)
    username = request.POST.get("username", "")
    if "\x00" in username:  # no user name holds one, and PostgreSQL refuses to be asked about it
        return HttpResponseBadRequest()
    try:
        services.evening_scorekeeper_remove(evening=evening, username=username, by=request.user)
    except services.LedgerError as error:
        messages.error(request, error.message)
        return redirect(evening)
    if username == request.user.get_username():
        messages.success(request, _("You no longer keep score of %(evening)s.") % {"evening": evening})
        return redirect("ledger:evening_list")
    messages.success(request, _("%(name)s can no longer keep score of this evening.") % {"name": username})
    return redirect(evening)


@login_required
@require_POST
def invitation_accept(request: HttpRequest, invitation_id: int) -> HttpResponse:
    invitation = invitation_for_invitee(request.user, invitation_id)
    try:
        evening = services.invitation_accept(invitation=invitation, user=request.user)
    except services.LedgerError as error:
        messages.error(request, error.message)
        return redirect("ledger:evening_list")
    messages.success(request, _("You keep score of %(evening)s now.") % {"evening": evening})
    return redirect(evening)


@login_required
@require_POST
def invitation_decline(request: HttpRequest, invitation_id: int) -> HttpResponse:
    invitation = invitation_for_invitee(request.user, invitation_id)
    services.invitation_decline(invitation=invitation, user=request.user)
    messages.success(request, _("Invitation declined."))
    return redirect("ledger:evening_list")


@login_required
def table_create(request: HtmxHttpRequest, evening_id: int) -> HttpResponse:
    evening = evening_for_scorekeeper(request.user, evening_id)
    known = list(Player.objects.filter(owner=evening.owner).values_list("name", flat=True))
    refresh = request.htmx or "_refresh" in request.POST
    data = request.POST if request.method == "POST" else None
    initial = _last_seating(evening) or _seating_again(request) or _seating_suggested(evening)
    form = TableForm(data, known_players=known, currency=evening.currency, initial=initial)
    if request.method == "POST" and not refresh and form.is_valid():
        try:
            table = services.table_create(
                evening=evening,
                game=form.cleaned_data["game"],
                players=form.players(),
                rules_override=form.overrides(),
                first_dealer=form.cleaned_data["first_dealer"],
                **form.table_settings(),
            )
        except (rules.RulesError, services.LedgerError) as error:
            add_domain_error(form, error)
        else:
            return redirect(table)
    if request.method == "POST" and refresh:
        form.errors.clear()  # a re-render for another game or preset is not a submission
    template = "ledger/_table_form.html" if request.htmx else "ledger/table_create.html"
    return render(request, template, {"evening": evening, "form": form})


def _last_seating(evening: Evening) -> dict[str, Any]:
    """Offer the seats of the evening's last table first: the same people usually play on."""
    last = evening.tables.order_by("-id").first()
    if last is None:
        return {}
    seats = {f"player_{seat}": name for seat, name in enumerate(last.seat_names)}
    return {"game": last.game, "recording": last.recording, "confirmation": last.confirmation, **seats}


def _seating_suggested(evening: Evening) -> dict[str, Any]:
    """The evening's first table: the seats a feature suggests (a circle's members), ``hooks.seating_suggested``."""
    return next((seats for seats in hooks.seating_suggested.send(evening) if seats), {})


def _seating_again(request: HttpRequest) -> dict[str, Any]:
    """The table named by ``?again=`` (one the user keeps score of) as it was started: game, seats, first dealer,
    preset and every house rule it played away from the preset. Nothing for a table the user may not see."""
    table_id = request.GET.get("again", "")
    if not table_id.isdecimal():
        return {}
    evenings = Evening.objects.for_user(request.user)
    table = Table.objects.filter(evening__in=evenings, pk=int(table_id)).first()
    if table is None:
        return {}
    preset = str(table.ruleset.get("preset", ""))
    defaults = rules.resolve(table.game, {"preset": preset}) if preset in rules.game(table.game).presets else {}
    changed = {
        f"opt_{name}": value
        for name, value in table.ruleset.items()
        if name not in ("preset", "currency") and defaults.get(name) != value
    }
    seats = {f"player_{seat}": name for seat, name in enumerate(table.seat_names)}
    # The seats come back in the same order, so the same seat number is the same player dealing first.
    settings = {"recording": table.recording, "confirmation": table.confirmation}
    return {"game": table.game, "preset": preset, "first_dealer": table.first_dealer, **settings, **seats, **changed}
