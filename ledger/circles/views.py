"""Circles of regulars: the list, a new circle, the circle page and its forms, a member's own page.

Access: the circle's owner and scorekeepers see and change everything of it (only the owner chooses scorekeepers);
a member reads their own page through their personal link; anybody else gets 404 (``ledger.circles.access``).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ledger import hooks
from ledger.access import evening_for_scorekeeper
from ledger.circles import pdf, selectors, services, tab_and_pot
from ledger.circles.access import (
    circle_for_owner,
    circle_for_scorekeeper,
    circle_transfer_for_scorekeeper,
    membership_for_link,
    membership_for_scorekeeper,
)
from ledger.circles.forms import CircleForm, CircleSettingsForm, MemberForm, PotForm, TabSettleForm
from ledger.circles.models import Circle, CircleEntry, CircleMember, CircleTransfer
from ledger.errors import LedgerError
from ledger.forms import add_domain_error
from ledger.models import Table
from ledger.qr import qr_svg
from ledger.stats import selectors as stats
from ledger.views.htmx import HtmxHttpRequest


@login_required
def circle_list(request: HttpRequest) -> HttpResponse:
    return render(request, "ledger/circles/circle_list.html", {"circles": selectors.circle_list(request.user)})


@login_required
def circle_create(request: HttpRequest) -> HttpResponse:
    form = CircleForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            circle = services.circle_create(
                owner=request.user,
                name=data["name"],
                members=form.member_names(),
                settle=data["settle"],
                currency=data["currency"],
                coin=data["coin"],
                pot_share=data["pot_share"],
            )
        except LedgerError as error:
            add_domain_error(form, error)
        else:
            return redirect(circle)
    return render(request, "ledger/circles/circle_create.html", {"form": form}, status=400 if form.errors else 200)


@login_required
def circle_detail(request: HttpRequest, circle_id: int) -> HttpResponse:
    circle = circle_for_scorekeeper(request.user, circle_id)
    return render(request, "ledger/circles/circle_detail.html", _circle_context(request, circle))


def _circle_context(request: HttpRequest, circle: Circle, **forms: Any) -> dict[str, Any]:
    context = selectors.circle_context(circle)
    context["links"] = [_member_link(request, membership) for membership in context["members"]]
    context["member_form"] = forms.get("member_form") or MemberForm()
    context["settle_form"] = forms.get("settle_form") or TabSettleForm(players=list(context["tab"]))
    context["pot_form"] = forms.get("pot_form") or PotForm(circle=circle)
    context["settings_form"] = forms.get("settings_form") or CircleSettingsForm(circle=circle)
    owner = circle.owner_id == request.user.pk
    context["is_owner"] = owner
    context["candidates"] = services.circle_scorekeeper_candidates(circle) if owner else []
    # What the features above add to the page (an invitation link's section), ``hooks.circle_page_context``.
    context.update(hooks.page_parts(hooks.circle_page_context, hooks.PageShown(request, circle), "circle_page_parts"))
    return context


def _member_link(request: HttpRequest, membership: CircleMember) -> dict[str, Any]:
    """A member's personal link with its QR code, which the member scans from the scorekeeper's phone."""
    if not membership.token:
        return {"membership": membership, "url": "", "qr": ""}
    url = request.build_absolute_uri(reverse("ledger:circle_member_page", args=[membership.token]))
    label = _("Personal link of %(name)s") % {"name": membership.player.name}
    return {"membership": membership, "url": url, "qr": qr_svg(url, label=label, scale=3)}


@login_required
@require_POST
def circle_evening(request: HttpRequest, circle_id: int) -> HttpResponse:
    """ "New evening with the circle", one tap: today's evening of the circle, then the new table's form with the
    circle's last table (game, seats, house rules) or, the first time, the members in the seats."""
    circle = circle_for_scorekeeper(request.user, circle_id)
    evening = services.circle_evening_create(circle=circle, by=request.user, date=timezone.localdate())
    last = Table.objects.filter(evening__circle=circle).exclude(evening=evening).order_by("-id").first()
    target = reverse("ledger:table_create", args=[evening.pk])
    return redirect(f"{target}?again={last.pk}" if last else target)


@login_required
@require_POST
def circle_settings(request: HtmxHttpRequest, circle_id: int) -> HttpResponse:
    """Change the circle's settings (``services.circle_settings_change``). With htmx the answer is the settings card,
    with the page's heading and money part swapped out of band (they show the settings); htmx swaps only a 2xx
    answer, so a refused change answers 200 there and 400 without htmx."""
    circle = circle_for_scorekeeper(request.user, circle_id)
    form = CircleSettingsForm(request.POST, circle=circle)
    changed = None
    if form.is_valid():
        data = form.cleaned_data
        try:
            changed = services.circle_settings_change(
                circle=circle,
                by=request.user,
                name=data["name"],
                settle=data["settle"],
                currency=data["currency"],
                coin=data["coin"],
                pot_share=data["pot_share"],
                pot_holder=data["pot_holder"],
            )
        except LedgerError as error:
            add_domain_error(form, error)
    if request.htmx:
        shown = changed or circle
        context = _circle_context(request, shown, settings_form=None if changed else form)
        context["saved"] = changed is not None
        return render(request, "ledger/circles/_circle_settings_changed.html", context)
    if changed is None:
        context = _circle_context(request, circle, settings_form=form)
        return render(request, "ledger/circles/circle_detail.html", context, status=400)
    messages.success(request, _("The circle's settings are saved; they apply to the evenings closed from now on."))
    return redirect(f"{changed.get_absolute_url()}#settings")


@login_required
@require_POST
def circle_member_add(request: HtmxHttpRequest, circle_id: int) -> HttpResponse:
    circle = circle_for_scorekeeper(request.user, circle_id)
    form = MemberForm(request.POST)
    if form.is_valid():
        try:
            services.circle_member_add(circle=circle, name=form.cleaned_data["name"])
        except LedgerError as error:
            add_domain_error(form, error)
    if form.errors:
        status = 400
    else:
        status, form = 200, MemberForm()
    if request.htmx:
        # 200 even when refused: htmx swaps no 4xx answer, and the errors must show beside the field.
        context = _circle_context(request, circle, member_form=form)
        return render(request, "ledger/circles/_circle_members.html", context)
    if status == 400:
        return render(
            request, "ledger/circles/circle_detail.html", _circle_context(request, circle, member_form=form), status=400
        )
    return redirect(circle)


@login_required
@require_POST
def circle_member_remove(request: HttpRequest, circle_id: int, player_id: int) -> HttpResponse:
    circle = circle_for_scorekeeper(request.user, circle_id)
    membership = membership_for_scorekeeper(request.user, circle, player_id)
    services.circle_member_remove(circle=circle, player=membership.player)
    messages.success(request, _("%(name)s left the circle.") % {"name": membership.player.name})
    return redirect(circle)


@login_required
@require_POST
def circle_member_link(request: HtmxHttpRequest, circle_id: int, player_id: int) -> HttpResponse:
    """Make a member's personal link anew (the old one stops working) or switch it off."""
    circle = circle_for_scorekeeper(request.user, circle_id)
    membership = membership_for_scorekeeper(request.user, circle, player_id)
    if request.POST.get("action") == "revoke":
        services.member_link_revoke(membership=membership)
    else:
        services.member_link_create(membership=membership)
    if request.htmx:
        context = {"link": _member_link(request, membership), "circle": circle}
        return render(request, "ledger/circles/_circle_member_link.html", context)
    return redirect(f"{circle.get_absolute_url()}#member-{membership.player_id}")


@login_required
@require_POST
def circle_scorekeeper_add(request: HttpRequest, circle_id: int) -> HttpResponse:
    circle = circle_for_owner(request.user, circle_id)
    chosen = request.POST.get("user", "")
    candidate = next((user for user in services.circle_scorekeeper_candidates(circle) if str(user.pk) == chosen), None)
    if candidate is None:
        messages.error(request, _("Choose somebody who keeps score of one of your evenings."))
        return redirect(circle)
    services.circle_scorekeeper_add(circle=circle, user=candidate, by=request.user)
    messages.success(request, _("%(name)s keeps score of the circle now.") % {"name": candidate.get_username()})
    return redirect(circle)


@login_required
@require_POST
def circle_scorekeeper_remove(request: HttpRequest, circle_id: int) -> HttpResponse:
    """The owner removes a scorekeeper; a scorekeeper leaves."""
    circle = circle_for_scorekeeper(request.user, circle_id)
    chosen = request.POST.get("user", "")
    keeper = next((user for user in circle.scorekeepers.all() if str(user.pk) == chosen), None)
    if keeper is None or (circle.owner_id != request.user.pk and keeper != request.user):
        messages.error(request, _("Only the circle's owner chooses its scorekeepers."))
        return redirect(circle)
    services.circle_scorekeeper_remove(circle=circle, user=keeper, by=request.user)
    if keeper == request.user:
        messages.success(request, _("You no longer keep score of %(circle)s.") % {"circle": circle})
        return redirect("ledger:circle_list")
    return redirect(circle)


@login_required
@require_POST
def circle_tab_settle(request: HttpRequest, circle_id: int) -> HttpResponse:
    circle = circle_for_scorekeeper(request.user, circle_id)
    form = TabSettleForm(request.POST, players=list(selectors.tab_balances(circle)))
    if form.is_valid():
        try:
            tab_and_pot.tab_settle(
                circle=circle,
                by=request.user,
                mode=form.cleaned_data["mode"],
                banker=form.cleaned_data["banker"] or None,
            )
        except LedgerError as error:
            add_domain_error(form, error)
        else:
            messages.success(request, _("The tab is settled: here is who pays whom."))
            return redirect(f"{circle.get_absolute_url()}#tab")
    return render(
        request, "ledger/circles/circle_detail.html", _circle_context(request, circle, settle_form=form), status=400
    )


@login_required
@require_POST
def circle_pot(request: HttpRequest, circle_id: int) -> HttpResponse:
    circle = circle_for_scorekeeper(request.user, circle_id)
    form = PotForm(request.POST, circle=circle)
    if form.is_valid():
        data = form.cleaned_data
        book = tab_and_pot.pot_deposit if data["action"] == "deposit" else tab_and_pot.pot_withdraw
        try:
            book(circle=circle, by=request.user, amount=data["amount"], player=data["player"], note=data["note"])
        except LedgerError as error:
            add_domain_error(form, error)
        else:
            messages.success(request, _("Booked in the pot."))
            return redirect(f"{circle.get_absolute_url()}#pot")
    return render(
        request, "ledger/circles/circle_detail.html", _circle_context(request, circle, pot_form=form), status=400
    )


@login_required
@require_POST
def circle_transfer_mark_paid(request: HtmxHttpRequest, transfer_id: int) -> HttpResponse:
    transfer = circle_transfer_for_scorekeeper(request.user, transfer_id)
    return _transfer_changed(request, tab_and_pot.tab_transfer_mark_paid(transfer=transfer, by=request.user))


@login_required
@require_POST
def circle_transfer_mark_unpaid(request: HtmxHttpRequest, transfer_id: int) -> HttpResponse:
    transfer = circle_transfer_for_scorekeeper(request.user, transfer_id)
    return _transfer_changed(request, tab_and_pot.tab_transfer_mark_unpaid(transfer=transfer, by=request.user))


@login_required
@require_POST
def circle_pot_paid(request: HtmxHttpRequest, circle_id: int, entry_id: int) -> HttpResponse:
    """Mark a winner's pot pay-in paid to the pot holder (``action=paid``) or take the mark back (``unpaid``)."""
    circle = circle_for_scorekeeper(request.user, circle_id)
    entry = get_object_or_404(
        CircleEntry.objects.select_related("player", "evening"), pk=entry_id, circle=circle, kind="paid_in"
    )
    if request.POST.get("action") == "unpaid":
        tab_and_pot.pot_pay_in_mark_unpaid(entry=entry, by=request.user)
    else:
        tab_and_pot.pot_pay_in_mark_paid(entry=entry, by=request.user)
    if not request.htmx:
        return redirect(f"{circle.get_absolute_url()}#pot-payments")
    row = selectors.pot_payment_row(circle, entry, holder=circle.pot_holder)
    return render(
        request, "ledger/circles/_circle_pot_payment_row.html", {"row": row, "circle": circle, "can_edit": True}
    )


def _transfer_changed(request: HtmxHttpRequest, transfer: CircleTransfer) -> HttpResponse:
    circle = transfer.settlement.circle
    if not request.htmx:
        return redirect(f"{circle.get_absolute_url()}#tab")
    row = selectors.tab_transfer_row(circle, transfer, with_qr=True)
    return render(request, "ledger/circles/_circle_transfer_row.html", {"row": row, "circle": circle, "can_edit": True})


@login_required
def circle_tab_pdf(request: HttpRequest, circle_id: int) -> HttpResponse:
    """The tab's latest settling as a PDF (``ledger.circles.pdf``): balances, rounding, transfers with QR codes."""
    circle = circle_for_scorekeeper(request.user, circle_id)
    response = HttpResponse(pdf.circle_tab_pdf(circle, request=request), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="talon-circle-{circle.pk}.pdf"'
    return response


def circle_member_page(request: HttpRequest, token: str) -> HttpResponse:
    """A member's own page through their personal link: no account, read only; 404 once revoked."""
    membership = membership_for_link(token)
    context = selectors.member_context(membership)
    context["stats"] = _member_stats(membership)
    context |= hooks.page_parts(hooks.member_page_context, hooks.PageShown(request, membership), "member_page_parts")
    response = render(request, "ledger/circles/circle_member.html", context)
    response["X-Robots-Tag"] = "noindex"
    # The token is in the URL: no other site may learn it. Same-origin, not no-referrer: with no-referrer the
    # browser posts this page's own forms with "Origin: null", which the CSRF check refuses.
    response["Referrer-Policy"] = "same-origin"
    return response


@require_POST
def circle_member_hide(request: HttpRequest, token: str) -> HttpResponse:
    """The member hides from statistics, or shows again: their own choice, through their own link."""
    membership = membership_for_link(token)
    services.player_hide_stats_set(player=membership.player, hidden=request.POST.get("hidden") == "1")
    return redirect(f"{reverse('ledger:circle_member_page', args=[token])}#stats")


@login_required
@require_POST
def evening_counted(request: HttpRequest, evening_id: int) -> HttpResponse:
    """A scorekeeper counts the evening in statistics, or leaves it out."""
    evening = evening_for_scorekeeper(request.user, evening_id)
    services.evening_counted_set(evening=evening, counted=request.POST.get("counted") == "1")
    return redirect(evening)


def _member_stats(membership: CircleMember) -> dict[str, Any] | None:
    """The member's statistics in the circle (``ledger.stats``), None when the player hides from statistics."""
    if membership.player.hide_stats:
        return None
    return stats.player_stats(membership.player, circle=membership.circle)
