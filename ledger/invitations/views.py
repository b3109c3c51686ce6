"""Invitation links: made and revoked from the evening's, circle's or tournament's page; opened and accepted by
whoever holds one.

Access: a link's maker side follows who may invite (``services.may_make_links``): anybody who may not see the page
gets 404, a co-scorekeeper of an evening who may see it but not invite gets 403. The link's own page answers
anybody holding the token; an unknown token is 404, an expired or revoked one 410.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ledger.errors import LedgerError
from ledger.invitations import selectors, services
from ledger.invitations.access import link_for_holder, link_for_maker, subject_for_maker
from ledger.invitations.models import DEFAULT_DAYS, InviteLink, InviteLinkUse
from ledger.invitations.services import Subject
from ledger.models import Player
from ledger.views.htmx import HtmxHttpRequest

SECTION = "ledger/invitations/_invite_links.html"


def section_context(request: HttpRequest, subject: Subject) -> dict[str, Any]:
    """The page hooks' answer: the "Invite by link" section for one who may invite, nothing for anybody else."""
    if not services.may_make_links(request.user, subject):
        return {}
    return {"invite_links": selectors.links_section(request, subject)}


def _answer(request: HtmxHttpRequest, subject: Subject, said: str, failed: bool = False) -> HttpResponse:
    """htmx: the section redrawn, saying what happened; without JavaScript: back to the page, at the section."""
    if request.htmx:
        context = section_context(request, subject)
        context["invite_links"]["said"], context["invite_links"]["failed"] = said, failed
        return render(request, SECTION, context)
    (messages.error if failed else messages.success)(request, said)
    return redirect(f"{subject.get_absolute_url()}#invite-links")


def _days(request: HttpRequest) -> int:
    days = request.POST.get("days", "")
    return int(days) if days.isdecimal() and len(days) < 4 else DEFAULT_DAYS


def _player(request: HttpRequest, subject: Subject) -> Player | None:
    """The player named by the form, among those the page offers; none: the link is for anybody."""
    chosen = request.POST.get("player", "")
    if not chosen.isdecimal() or len(chosen) > 18:
        return None
    player = selectors.invitable_player(subject, int(chosen))
    if player is None:
        raise services.NotInvitable
    return player


@login_required
@require_POST
def invite_link_create(request: HtmxHttpRequest, kind: str, target_id: int) -> HttpResponse:
    subject = subject_for_maker(request.user, kind, target_id)
    key = request.POST.get("key", "")[:43]
    try:
        link = services.invite_link_create(
            subject=subject, by=request.user, player=_player(request, subject), days=_days(request), key=key
        )
    except LedgerError as error:
        return _answer(request, subject, error.message, failed=True)
    made = _("Invitation link made: it works until %(when)s.") % {"when": selectors.when(link.expires_at)}
    return _answer(request, subject, selectors.sentence(made))


@login_required
@require_POST
def invite_link_revoke(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """Revoke the link the URL names; the same answer for a second tap."""
    link = link_for_maker(request.user, token)
    subject = link.subject
    services.invite_link_revoke(link=link, by=request.user)
    return _answer(request, subject, _("The invitation link no longer works."))


def _sign_up_url(link: InviteLink) -> str:
    """Sign-up, coming back to the link after."""
    return f"{reverse('account_signup')}?{urlencode({'next': link.page_url()})}"


def _log_in_url(link: InviteLink) -> str:
    return f"{reverse('login')}?{urlencode({'next': link.page_url()})}"


def _private(response: HttpResponse) -> HttpResponse:
    response["X-Robots-Tag"] = "noindex"
    # The token is in the URL: no other site may learn it. Same-origin, not no-referrer: with no-referrer a browser
    # sends its form posts with "Origin: null", which the CSRF check refuses.
    response["Referrer-Policy"] = "same-origin"
    return response


def invite_link(request: HttpRequest, token: str) -> HttpResponse:
    """What the link grants, to whoever holds it: Accept for a logged-in user, sign-up and log-in for a visitor."""
    link = link_for_holder(token)
    use = selectors.use_of(link, request.user)
    gone = services.gone_reason(link)
    if use is None and gone:
        return _gone(request, gone)
    context = {
        "link": link,
        "subject": link.subject,
        "use": use,
        # Who makes links sees the page their guests see, with nothing to accept.
        "maker": services.may_make_links(request.user, link.subject),
        "landing": _landing(use, request.user) if use else "",
        "accepted_on": _accepted_on(use) if use else "",
        "works_until": selectors.sentence(
            _("The invitation works until %(when)s.") % {"when": selectors.when(link.expires_at)}
        ),
        "sign_up_url": _sign_up_url(link),
        "log_in_url": _log_in_url(link),
    }
    return _private(render(request, "ledger/invitations/invite_link.html", context))


def _landing(use: InviteLinkUse, user: Any) -> str:
    """The way on from the link's page; none when it leads back to this page (nothing else to open)."""
    landing = selectors.landing(use, user)
    return "" if landing == use.link.page_url() else landing


def _accepted_on(use: InviteLinkUse) -> str:
    return selectors.sentence(
        _("You accepted this invitation on %(when)s.") % {"when": selectors.when(use.accepted_at)}
    )


def _gone(request: HttpRequest, message: str) -> HttpResponse:
    context = {"message": message}
    return _private(render(request, "ledger/invitations/invite_link_gone.html", context, status=410))


@require_POST
def invite_link_accept(request: HttpRequest, token: str) -> HttpResponse:
    """Accept the link the URL names; a second tap answers with the first acceptance. A visitor whose session
    ended meanwhile logs in and comes back to the link's page (not to this address, which only takes a post)."""
    link = link_for_holder(token)
    if not request.user.is_authenticated:
        return redirect(_log_in_url(link))
    try:
        accepted = services.invite_link_accept(link=link, user=request.user)
    except services.LinkGone as gone:
        return _gone(request, gone.message)
    except LedgerError as error:
        messages.error(request, error.message)
        return redirect(link.page_url())
    if accepted.granted:
        messages.success(request, selectors.accepted_text(accepted.link))
    return redirect(selectors.landing(accepted.use, request.user))
