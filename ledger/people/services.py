"""Claims of players by accounts: asked, granted, decided and dropped.

Consent is the player's owner's: a claim counts once they approve it, or an invitation they made that names the
player grants it at once. Not a co-scorekeeper's: an evening's "anybody" invitation link makes anybody one. A
decided claim stays decided: answering it again answers what was decided. The player row is locked while a claim
on it changes, so two approvals racing each other end with one approved claim and a clear refusal.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ledger.errors import LedgerError
from ledger.models import Player
from ledger.people.models import PlayerClaim


def may_decide(user: Any, player: Player) -> bool:
    """Whether ``user`` may consent for ``player``: its owner alone (who answers claims, see
    ``PlayerClaimQuerySet.decidable_by``)."""
    return bool(getattr(user, "is_authenticated", False)) and player.owner_id == user.pk


def _locked_player(player: Player) -> Player:
    return Player.objects.select_for_update().get(pk=player.pk)


def _taken(player: Player) -> LedgerError:
    return LedgerError(
        _("%(name)s is already claimed by another account: a player is one person.") % {"name": player.name},
        field="player",
    )


def _refuse_second_person(player: Player, user: Any) -> None:
    if PlayerClaim.objects.approved().filter(player=player).exclude(user=user).exists():
        raise _taken(player)


def _require_user(user: Any) -> None:
    if not getattr(user, "is_authenticated", False):
        raise LedgerError(_("Log in to claim a player."), field="user")


def _require_how(how: str) -> None:
    if how not in PlayerClaim.How.values:
        raise LedgerError(_("Unknown way of claiming a player: %(how)s.") % {"how": how}, field="how")


def _approve(claim: PlayerClaim, by: Any) -> PlayerClaim:
    claim.status = PlayerClaim.Status.APPROVED
    claim.decided_at = timezone.now()
    claim.decided_by = by
    try:
        with transaction.atomic():
            claim.save(update_fields=["status", "decided_at", "decided_by"])
    except IntegrityError as error:  # the constraint, should a writer have skipped the lock
        raise _taken(claim.player) from error
    return claim


def _claim_for(user: Any, player: Player, how: str) -> PlayerClaim:
    claim, _created = PlayerClaim.objects.get_or_create(user=user, player=player, defaults={"how": how})
    return claim


@transaction.atomic
def player_claim_request(*, user: Any, player: Player, how: str) -> PlayerClaim:
    """``user`` says "this is me" for ``player``; a repeat returns the claim made before, whatever its state. The
    player's own scorekeeper needs nobody's consent: their claim is approved at once."""
    _require_user(user)
    _require_how(how)
    player = _locked_player(player)
    existing = PlayerClaim.objects.filter(user=user, player=player).first()
    if existing is not None:
        return existing
    _refuse_second_person(player, user)
    claim = _claim_for(user, player, how)
    if player.owner_id == user.pk:
        return _approve(claim, user)
    return claim


@transaction.atomic
def player_claim_grant(*, user: Any, player: Player, granted_by: Any, how: str) -> PlayerClaim:
    """An invitation naming ``player`` makes ``user`` that player at once (``granted_by`` consented when inviting);
    a repeat returns the approved claim."""
    _require_user(user)
    _require_how(how)
    if not may_decide(granted_by, player):
        raise LedgerError(
            _("Only a scorekeeper of %(name)s can give that player to an account.") % {"name": player.name},
            field="player",
        )
    player = _locked_player(player)
    _refuse_second_person(player, user)
    claim = _claim_for(user, player, how)
    if claim.is_approved:
        return claim
    return _approve(claim, granted_by)


@transaction.atomic
def player_claim_decide(*, claim: PlayerClaim, by: Any, approve: bool) -> PlayerClaim:
    """The player's owner approves or declines a waiting ``claim``; a claim decided before stays as it was decided
    (either way) and is returned as it is."""
    if not PlayerClaim.objects.decidable_by(by).filter(pk=claim.pk).exists():
        raise LedgerError(
            _("Only a scorekeeper of %(name)s can decide who that player is.") % {"name": claim.player.name},
            field="claim",
        )
    player = _locked_player(claim.player)
    try:
        claim = PlayerClaim.objects.select_for_update().select_related("player").get(pk=claim.pk)
    except PlayerClaim.DoesNotExist as error:
        raise LedgerError(_("This claim was withdrawn meanwhile."), field="claim") from error
    if not claim.is_pending:
        return claim
    if approve:
        _refuse_second_person(player, claim.user)
        return _approve(claim, by)
    claim.status = PlayerClaim.Status.DECLINED
    claim.decided_at = timezone.now()
    claim.decided_by = by
    claim.save(update_fields=["status", "decided_at", "decided_by"])
    return claim


@transaction.atomic
def player_claim_drop(*, claim: PlayerClaim, by: Any) -> None:
    """The claiming user or the player's owner ends the link; the player stays, a plain name again."""
    allowed = getattr(by, "is_authenticated", False) and by.pk in (claim.user_id, claim.player.owner_id)
    if not allowed:
        raise LedgerError(_("Only the claiming account or the player's scorekeeper can drop a claim."), field="claim")
    PlayerClaim.objects.filter(pk=claim.pk).delete()


def player_claims_drop(*, user: Any) -> int:
    """Every claim of ``user`` goes (their account is being deleted): the players keep their names."""
    deleted, _per_model = PlayerClaim.objects.filter(user=user).delete()
    return deleted
