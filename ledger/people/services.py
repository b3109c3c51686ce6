"""Claims of players by accounts: asked, granted, decided and dropped.

Consent is the scorekeeper's: a claim counts once the player's owner, or a co-scorekeeper of an evening the player
sat in, approves it, or an invitation that names the player grants it at once. The player row is locked while a
claim on it changes, so two approvals racing each other end with one approved claim and a clear refusal.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ledger.errors import LedgerError
from ledger.models import Evening, Player
from ledger.people.models import PlayerClaim


def may_decide(user: Any, player: Player) -> bool:
    """Whether ``user`` may consent for ``player``: its owner, or a scorekeeper of an evening it sat in."""
    if not getattr(user, "is_authenticated", False):
        return False
    if player.owner_id == user.pk:
        return True
    return Evening.objects.for_user(user).filter(tables__seats__player=player).exists()


def _locked_player(player: Player) -> Player:
    return Player.objects.select_for_update().get(pk=player.pk)


def _refuse_second_person(player: Player, user: Any) -> None:
    taken = PlayerClaim.objects.approved().filter(player=player).exclude(user=user).exists()
    if taken:
        raise LedgerError(
            _("%(name)s is already claimed by another account: a player is one person.") % {"name": player.name},
            field="player",
        )


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
        raise LedgerError(
            _("%(name)s is already claimed by another account: a player is one person.") % {"name": claim.player.name},
            field="player",
        ) from error
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
    """The player's scorekeeper approves or declines ``claim``; deciding the same way twice changes nothing."""
    if not may_decide(by, claim.player):
        raise LedgerError(
            _("Only a scorekeeper of %(name)s can decide who that player is.") % {"name": claim.player.name},
            field="claim",
        )
    player = _locked_player(claim.player)
    try:
        claim = PlayerClaim.objects.select_for_update().select_related("player").get(pk=claim.pk)
    except PlayerClaim.DoesNotExist as error:
        raise LedgerError(_("This claim was withdrawn meanwhile."), field="claim") from error
    if approve:
        if claim.is_approved:
            return claim
        _refuse_second_person(player, claim.user)
        return _approve(claim, by)
    if claim.status != PlayerClaim.Status.DECLINED:
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
