"""What the invitation pages read: the live links of a page with their QR codes, what a link grants, where an
accepted link leads."""

from __future__ import annotations

import datetime
import secrets
from typing import Any

from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from ledger.circles.models import Circle, CircleMember
from ledger.invitations.models import DEFAULT_DAYS, LIFETIMES, InviteLink, InviteLinkUse
from ledger.invitations.services import Subject
from ledger.models import Evening, Player
from ledger.people.models import PlayerClaim
from ledger.qr import qr_svg
from ledger.tournaments.models import Tournament


def live_links(subject: Subject) -> list[InviteLink]:
    return list(
        InviteLink.objects.of(subject).live().select_related("player").annotate(accepted=Count("uses")).order_by("pk")
    )


def link_url(request: HttpRequest, link: InviteLink) -> str:
    return request.build_absolute_uri(link.page_url())


def when(moment: datetime.datetime) -> str:
    return formats.date_format(timezone.localtime(moment), "DATETIME_FORMAT")


def sentence(text: str) -> str:
    """A sentence that ends with a moment ends with one dot: an English time ends with its own ("10:30 a.m.")."""
    return text[:-1] if text.endswith("..") else text


def link_card(request: HttpRequest, link: InviteLink) -> dict[str, Any]:
    """A link as its maker sees it: the address, its QR code (scanned from the maker's phone) and its use."""
    url = link_url(request, link)
    label = _("Invitation link for %(name)s") % {"name": link.player.name} if link.player else _("Invitation link")
    until = sentence(_("Works until %(when)s.") % {"when": when(link.expires_at)})
    return {"link": link, "url": url, "qr": qr_svg(url, label=label, scale=4), "until": until}


def _invitable(subject: Subject) -> QuerySet[Player]:
    """Whom a link may name: the players of the evening's tables, the circle's members, the tournament's entrants."""
    if isinstance(subject, Evening):
        return Player.objects.filter(seats__table__evening=subject)
    if isinstance(subject, Circle):
        return Player.objects.filter(memberships__circle=subject)
    return Player.objects.filter(entries__tournament=subject)


def invitable_players(subject: Subject) -> list[Player]:
    return list(_invitable(subject).distinct().order_by("name"))


def invitable_player(subject: Subject, player_id: int) -> Player | None:
    return _invitable(subject).filter(pk=player_id).first()


def make_url(subject: Subject) -> str:
    return reverse("invitations:invite_link_create", args=[InviteLink.field_for(subject), subject.pk])


def grants_text(kind: str) -> str:
    texts: dict[str, str] = {
        InviteLink.Kind.EVENING: _("Whoever accepts a link keeps score of this evening with you."),
        InviteLink.Kind.CIRCLE: _("Whoever accepts a link becomes a member of the circle, with a page of their own."),
        InviteLink.Kind.TOURNAMENT: _("Whoever accepts a link is registered for the tournament."),
    }
    return texts[kind]


def accepted_text(link: InviteLink) -> str:
    texts: dict[str, str] = {
        InviteLink.Kind.EVENING: _("You keep score of %(name)s now."),
        InviteLink.Kind.CIRCLE: _("You are a member of %(name)s now."),
        InviteLink.Kind.TOURNAMENT: _("You are registered for %(name)s now."),
    }
    return texts[link.kind] % {"name": str(link.subject)}


def links_section(request: HttpRequest, subject: Subject) -> dict[str, Any]:
    """The "Invite by link" section of a page: the form to make a link and the live links."""
    kind = InviteLink.field_for(subject)
    return {
        "subject": subject,
        "grants": grants_text(kind),
        "make_url": make_url(subject),
        # Names the link the next tap makes: a second tap of the same form finds it instead of making another.
        "key": secrets.token_urlsafe(24),
        "players": invitable_players(subject),
        "lifetimes": LIFETIMES,
        "default_days": DEFAULT_DAYS,
        "cards": [link_card(request, link) for link in live_links(subject)],
    }


def use_of(link: InviteLink, user: Any) -> InviteLinkUse | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return InviteLinkUse.objects.filter(link=link, user=user).first()


def _still_theirs(link: InviteLink, player_id: int, user: Any) -> bool:
    """Whether the player the link's use seated is still ``user``'s: they hold an approved claim on it, or the
    link was for anybody and made it for them, and nobody else has been given it since. A dropped claim cuts them
    off."""
    claims = PlayerClaim.objects.approved().filter(player_id=player_id)
    if claims.filter(user_id=user.pk).exists():
        return True
    return link.player_id is None and not claims.exists()


def membership_of(use: InviteLinkUse, user: Any) -> CircleMember | None:
    """The circle membership a circle link's use made, while its player is still ``user``'s and the link still
    works (None once the member was removed, the claim dropped, or the link revoked or expired): the member's page
    is read fresh, so a renewed member link must not reach whoever was cut off."""
    link, player_id = use.link, use.player_id
    if link.circle_id is None or player_id is None or not link.is_live() or not _still_theirs(link, player_id, user):
        return None
    return CircleMember.objects.filter(circle_id=link.circle_id, player_id=player_id).first()


def landing(use: InviteLinkUse, user: Any) -> str:
    """Where the accepted link leads: the evening's page, the circle's page (for its scorekeepers) or the member's
    own page, the tournament's page (for its organiser) or its live standings; else the link's own page, which
    says what the user holds. The pages a token opens (a member's page, the live standings) only while the link
    works: once it was revoked or expired, a past acceptance leads nowhere the books do not check themselves."""
    link = use.link
    subject = link.subject
    if isinstance(subject, Evening) and subject.can_keep_score(user):
        return subject.get_absolute_url()
    if isinstance(subject, Circle):
        if Circle.objects.for_user(user).filter(pk=subject.pk).exists():
            return subject.get_absolute_url()
        membership = membership_of(use, user)
        if membership is not None and membership.token:
            return reverse("ledger:circle_member_page", args=[membership.token])
    if isinstance(subject, Tournament):
        if subject.owner_id == user.pk:
            return subject.get_absolute_url()
        if subject.share_token and link.is_live():
            return reverse("ledger:tournament_live", args=[subject.share_token])
    return link.page_url()
