"""Who may reach what of invitation links, for the pages and the API alike: each helper returns the object or
raises 404 (for one who may not see the page, or a token nobody made) or 403 (for one who sees the page but may not
invite: an evening's co-scorekeeper)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404

from ledger.access import evening_for_scorekeeper
from ledger.circles.access import circle_for_scorekeeper
from ledger.invitations.models import InviteLink
from ledger.invitations.services import Subject, may_make_links
from ledger.tournaments.access import tournament_for_owner


def subject_for_maker(user: Any, kind: str, target_id: int) -> Subject:
    subject: Subject
    if kind == InviteLink.Kind.EVENING:
        subject = evening_for_scorekeeper(user, target_id)
    elif kind == InviteLink.Kind.CIRCLE:
        subject = circle_for_scorekeeper(user, target_id)
    elif kind == InviteLink.Kind.TOURNAMENT:
        subject = tournament_for_owner(user, target_id)
    else:
        raise Http404
    if not may_make_links(user, subject):
        raise PermissionDenied
    return subject


def link_for_maker(user: Any, token: str) -> InviteLink:
    link = get_object_or_404(InviteLink, token=token)
    subject_for_maker(user, link.kind, link.subject.pk)
    return link


def link_for_holder(token: str) -> InviteLink:
    """The link the token names, for anybody holding it (what it grants is no secret to them)."""
    return get_object_or_404(
        InviteLink.objects.select_related("evening", "circle", "tournament", "player", "created_by"), token=token
    )
