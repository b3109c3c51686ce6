"""Invitation links: made, revoked and accepted.

A link grants one role in one evening, circle or tournament to whoever accepts it while it works; one that names a
player is for that one person, who claims the player by accepting (the link's maker consented when making it).
Accepting locks the link's row, so two taps at once, or two people, take their turns: accepting again answers the
first acceptance and grants nothing more.
"""

from __future__ import annotations

import datetime
import unicodedata
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ledger.circles import services as circles
from ledger.circles.models import Circle
from ledger.errors import LedgerError
from ledger.invitations.models import DEFAULT_DAYS, LIFETIMES, InviteLink, InviteLinkUse
from ledger.models import Evening, Player
from ledger.people import services as people
from ledger.services.evenings import evening_add_scorekeeper
from ledger.services.players import player_name_tidy
from ledger.tournaments import services as tournaments
from ledger.tournaments.models import Entrant, Tournament

Subject = Evening | Circle | Tournament

# The live links a page holds at once: each is drawn with its QR code on the page, so the page stays light.
MOST_LIVE = 20


class LinkGone(LedgerError):
    """The link no longer grants anything: expired, revoked, or used by the one person it was for."""

    def __init__(self, message: str) -> None:
        super().__init__(message, field="token")


class NotInvitable(LedgerError):
    """The player named is none of the page's (seated at its evening, a member of its circle, an entrant)."""

    def __init__(self) -> None:
        super().__init__(_("Invite one of the players of this page, or anybody."), field="player")


def may_make_links(user: Any, subject: Subject) -> bool:
    """Who may invite: an evening's owner (who alone chooses its scorekeepers), a circle's owner and scorekeepers
    (who add its members), a tournament's organiser."""
    if not getattr(user, "is_authenticated", False):
        return False
    if subject.owner_id == user.pk:
        return True
    return isinstance(subject, Circle) and Circle.objects.for_user(user).filter(pk=subject.pk).exists()


def _require_maker(user: Any, subject: Subject) -> None:
    if not may_make_links(user, subject):
        raise PermissionDenied


def _player_check(subject: Subject, player: Player | None, by: Any) -> Player | None:
    """A link may name one of the subject's owner's players whom its maker may give to an account."""
    if player is None:
        return None
    if player.owner_id != subject.owner_id or not people.may_decide(by, player):
        raise NotInvitable
    return player


@transaction.atomic
def invite_link_create(
    *, subject: Subject, by: Any, player: Player | None = None, days: int = DEFAULT_DAYS, key: str = ""
) -> InviteLink:
    """A new link into ``subject`` working for ``days``; with ``key`` (what the maker's page named it), making
    it again returns the link the first request made."""
    _require_maker(by, subject)
    if days not in LIFETIMES:
        raise LedgerError(_("Choose how long the link works."), field="days")
    player = _player_check(subject, player, by)
    field = InviteLink.field_for(subject)
    # The subject's row: two makers at once count the live links one after the other.
    type(subject).objects.select_for_update().filter(pk=subject.pk).first()
    if key:
        made = InviteLink.objects.filter(created_by=by, key=key).first()
        if made is not None:
            if getattr(made, f"{field}_id") != subject.pk:
                raise LedgerError(_("This request named another invitation link."), field="key")
            return made
    now = timezone.now()
    if InviteLink.objects.of(subject).live(now).count() >= MOST_LIVE:
        raise LedgerError(
            _("At most %(most)s invitation links work at once here: revoke one to make another.") % {"most": MOST_LIVE}
        )
    return InviteLink.objects.create(
        kind=field,
        **{field: subject},
        player=player,
        key=key,
        created_by=by,
        created_at=now,
        expires_at=now + datetime.timedelta(days=days),
    )


def invite_link_revoke(*, link: InviteLink, by: Any) -> InviteLink:
    """The link stops working now; revoking it again keeps the first moment. Who accepted keeps their role."""
    _require_maker(by, link.subject)
    InviteLink.objects.filter(pk=link.pk, revoked_at__isnull=True).update(revoked_at=timezone.now())
    link.refresh_from_db(fields=["revoked_at"])
    return link


@dataclass(frozen=True)
class Accepted:
    """What accepting answered: the use (the first one, also on a repeat) and whether this request granted it."""

    link: InviteLink
    use: InviteLinkUse
    granted: bool


@transaction.atomic
def invite_link_accept(*, link: InviteLink, user: Any) -> Accepted:
    """``user`` takes the role the link grants (and the player it names); a repeat answers the first acceptance."""
    if not getattr(user, "is_authenticated", False):
        raise LedgerError(_("Log in to accept the invitation."), field="user")
    link = InviteLink.objects.select_for_update(of=("self",)).select_related("player").get(pk=link.pk)
    earlier = InviteLinkUse.objects.filter(link=link, user=user).first()
    if earlier is not None:
        return Accepted(link=link, use=earlier, granted=False)
    gone = gone_reason(link)
    if gone:
        raise LinkGone(gone)
    player = _grant(link, user)
    if link.player is not None:
        people.player_claim_grant(user=user, player=link.player, granted_by=link.created_by, how="invitation")
    use = InviteLinkUse.objects.create(link=link, user=user, player=player)
    return Accepted(link=link, use=use, granted=True)


def gone_reason(link: InviteLink) -> str:
    """Why the link grants nothing (any more): revoked, expired, or for one person who accepted it; "" while it
    grants its role. A use stays when its account goes, so a link for one person never works for a second."""
    if link.revoked_at is not None:
        return _("This invitation link was revoked.")
    if not link.is_live():
        return _("This invitation link has expired.")
    if link.player_id is not None and InviteLinkUse.objects.filter(link=link).exists():
        return _("This invitation link was for one person, who has accepted it.")
    return ""


def _grant(link: InviteLink, user: Any) -> Player | None:
    """The role itself; the player it seats the user as (a circle member, an entrant), or the link's player."""
    if link.evening is not None:
        evening_add_scorekeeper(evening=link.evening, user=user)
        return link.player
    if link.circle is not None:
        return _circle_member(link.circle, link.player or _new_player(user, link.circle.owner))
    assert link.tournament is not None  # the check constraint: one target of its kind
    return _entrant(link.tournament, link.player or _new_player(user, link.tournament.owner))


def _looks(name: str) -> str:
    """What a name looks like to a reader: "Petr", "petr" and a full-width "ｐｅｔｒ" are one name."""
    return unicodedata.normalize("NFKC", name).casefold()


def _new_player(user: Any, owner: Any) -> Player:
    """A new player of the owner's, named as the user ("petr", or "petr (2)" if the owner has a petr, a Petr or a
    full-width ｐｅｔｒ).

    Never one the owner has already, nor one that only looks like it: a link for anybody would hand its holder
    somebody else's membership, personal page and entries, or a name the scorekeeper cannot tell from theirs. Only
    a link that names a player gives that player, to the one person it is for. The user name is read as the
    books read every name: its look-alike letters made plain, refused when it hides characters."""
    name = player_name_tidy(unicodedata.normalize("NFKC", str(user.get_username()))[:40])
    taken = {_looks(other) for other in Player.objects.filter(owner=owner).values_list("name", flat=True)}
    for number in range(1, 1000):
        suffix = f" ({number})" if number > 1 else ""
        candidate = name[: 40 - len(suffix)].rstrip() + suffix
        if _looks(candidate) in taken:
            continue
        try:
            with transaction.atomic():  # somebody else took the name meanwhile: the next number
                return Player.objects.create(owner=owner, name=candidate)
        except IntegrityError:
            continue
    raise LedgerError(_("There is already a player called %(name)s.") % {"name": name}, field="user")


def _circle_member(circle: Circle, player: Player) -> Player:
    """The player joins the circle with a personal link: that is how a member sees the circle."""
    membership = circles.circle_member_add(circle=circle, name=player.name)
    if not membership.token:
        circles.member_link_create(membership=membership)
    return player


def _entrant(tournament: Tournament, player: Player) -> Player:
    if not Entrant.objects.filter(tournament=tournament, player=player).exists():
        tournaments.entrant_add(tournament=tournament, name=player.name)
    return player


def invite_links_forget(*, user: Any) -> None:
    """``user`` deletes their account: the links they made stop working (nobody consents through them any more).
    The invitations they took stay, as their roles do (the books keep the account's row, anonymised): a link for
    one person they accepted must not work again for somebody else."""
    InviteLink.objects.filter(created_by=user).live().update(revoked_at=timezone.now())
