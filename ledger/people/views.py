"""A person's own pages (/me/), their claims ("this is me") from where a player is reached, and the scorekeeper's
answers to them (/people/claims/).

Every page is the reader's own: nothing here shows another account's data. A claim is made from a link the reader
holds (a share link, a circle member link) or a table they keep score of; the player's scorekeeper consents.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ledger.errors import LedgerError
from ledger.models import Player
from ledger.people import access, exports, selectors, services
from ledger.people.models import PlayerClaim
from ledger.views.htmx import HtmxHttpRequest

# --------------------------------------------------------------------------------------------------------------
# A person's own page


@login_required
def me(request: HttpRequest) -> HttpResponse:
    players = selectors.my_players(request.user)
    evenings = selectors.my_evenings(players)
    context = {
        "claims": list(selectors.claims_of(request.user)),
        "players": players,
        "evenings": evenings,
        "money": selectors.my_money(players, evenings),
        "stats": selectors.my_stats(players),
    }
    return render(request, "ledger/people/me.html", context)


@login_required
def me_data(request: HttpRequest) -> HttpResponse:
    """Everything Talon holds about the reader, as JSON to keep."""
    document = exports.person_document(request.user)
    response = HttpResponse(
        json.dumps(document, cls=DjangoJSONEncoder, ensure_ascii=False, indent=2),
        content_type="application/json; charset=utf-8",
    )
    response["Content-Disposition"] = 'attachment; filename="talon-my-data.json"'
    return response


@login_required
def me_evenings_csv(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(exports.evenings_csv(request.user), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="talon-my-evenings.csv"'
    return response


@login_required
@require_POST
def claim_drop(request: HttpRequest, claim_id: int) -> HttpResponse:
    """The reader ends a claim of theirs, or of a player they own; again (a retry), the claim is gone: their page
    says so."""
    claim = _claims_droppable_by(request.user).filter(pk=claim_id).first()
    if claim is None:
        if PlayerClaim.objects.filter(pk=claim_id).exists():
            raise Http404  # another account's claim
        messages.info(request, _("This claim was withdrawn meanwhile."))
        return redirect(reverse("people:me"))
    services.player_claim_drop(claim=claim, by=request.user)
    messages.success(request, _("%(name)s is a plain name again.") % {"name": claim.player.name})
    back = "people:claims" if claim.user_id != request.user.pk else "people:me"
    return redirect(reverse(back))


def _claims_droppable_by(user: Any) -> QuerySet[PlayerClaim]:
    return PlayerClaim.objects.select_related("player").filter(Q(user=user) | Q(player__owner=user))


# --------------------------------------------------------------------------------------------------------------
# The scorekeeper's answers


@login_required
def claims(request: HttpRequest) -> HttpResponse:
    """The claims on the reader's players waiting for their answer."""
    context = {"waiting": list(selectors.claims_to_decide(request.user))}
    return render(request, "ledger/people/claims.html", context)


@login_required
@require_POST
def claim_decide(request: HtmxHttpRequest, claim_id: int) -> HttpResponse:
    """Approve or decline a waiting claim, or hear how it was decided before; htmx swaps the claim's row for what
    became of it, a plain form comes back to the list."""
    claim = selectors.claim_to_decide(request.user, claim_id)
    if claim is None:
        raise Http404
    approve = request.POST.get("approve") == "1"
    error = None
    try:
        claim = services.player_claim_decide(claim=claim, by=request.user, approve=approve)
    except LedgerError as refused:
        error = refused.message
    if request.htmx:
        return render(request, "ledger/people/_claim_waiting.html", {"claim": claim, "error": error})
    if error:
        messages.error(request, error)
    else:
        text = _("%(user)s is now %(name)s.") if claim.is_approved else _("%(user)s's claim on %(name)s is declined.")
        messages.success(request, text % {"user": claim.user.get_username(), "name": claim.player.name})
    return redirect(reverse("people:claims"))


# --------------------------------------------------------------------------------------------------------------
# "This is me": from a share link, a circle member link or a table's seats


@login_required
def claim_from_share(request: HttpRequest, token: str) -> HttpResponse:
    return _claim_page(request, access.through_share_link(token), private=True)


@login_required
def claim_from_member(request: HttpRequest, token: str) -> HttpResponse:
    return _claim_page(request, access.through_member_link(token), private=True)


@login_required
def claim_from_table(request: HttpRequest, table_id: int) -> HttpResponse:
    return _claim_page(request, access.through_table(request.user, table_id), private=False)


def _claim_page(request: HttpRequest, reached: access.Reached, *, private: bool) -> HttpResponse:
    """The players reached, each with "this is me" (or what became of the reader's claim); a POST claims one."""
    if request.method == "POST":
        chosen = reached.player(request.POST.get("player"))
        if chosen is None:
            raise Http404
        try:
            claim = services.player_claim_request(user=request.user, player=chosen, how=reached.how)
        except LedgerError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _claimed_text(claim))
        return redirect(request.path)
    context = {"rows": _claim_rows(request.user, reached.players), "where": reached.where}
    response = render(request, "ledger/people/claim.html", context)
    if private:
        # The link's token is in the URL: no other site it links to may learn it. Not "no-referrer": the browser
        # would then send the form's POST with the origin "null", which the CSRF check refuses.
        response["Referrer-Policy"] = "same-origin"
        response["X-Robots-Tag"] = "noindex"
    return response


def _claimed_text(claim: PlayerClaim) -> str:
    if claim.is_approved:
        return _("You are %(name)s.") % {"name": claim.player.name}
    if claim.is_pending:
        return _("Asked: %(owner)s, who keeps score of %(name)s, will answer.") % {
            "owner": claim.player.owner.get_username(),
            "name": claim.player.name,
        }
    return _("Your claim on %(name)s was declined.") % {"name": claim.player.name}


def _claim_rows(user: Any, players: list[Player]) -> list[dict[str, Any]]:
    """Per player: the reader's own claim (None: none) and whether another account already is that player."""
    claims = PlayerClaim.objects.filter(player__in=players).values_list("player_id", "user_id", "status")
    mine: dict[int, str] = {}
    taken: set[int] = set()
    for player_id, user_id, status in claims:
        if user_id == user.pk:
            mine[player_id] = status
        elif status == PlayerClaim.Status.APPROVED:
            taken.add(player_id)
    return [
        {"player": player, "mine": mine.get(player.pk), "taken": player.pk in taken and player.pk not in mine}
        for player in players
    ]
