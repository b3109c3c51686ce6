"""Who must sign an evening's list, who has, and whether what they signed still stands.

Every reader here costs a fixed number of queries, whatever the evening's hands and players: the seated players in
one, the current signatures in one, the tables' revisions in one, and the first hand changed since each stale
signature in one aggregate.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import Min, Q
from django.utils import timezone
from django.utils.formats import time_format
from django.utils.translation import gettext as _

from ledger.models import Evening, Hand, Player, Seat, Table
from ledger.signatures.models import Signature


@dataclass(frozen=True)
class EveningState:
    """The evening's hands as a signature names them: ``revision`` (the sum of its tables' revisions), per table
    {"<id>": [revision, hands numbered]}, and the hands numbered across its tables (voided ones included)."""

    revision: int
    tables: dict[str, list[int]]
    hands: int


def evening_state(evening: Evening | int) -> EveningState:
    rows = Table.objects.filter(evening=evening).order_by("pk").values_list("pk", "revision", "hand_count")
    tables = {str(pk): [revision, count] for pk, revision, count in rows}
    return EveningState(
        revision=sum(revision for revision, _count in tables.values()),
        tables=tables,
        hands=sum(count for _revision, count in tables.values()),
    )


def seated_players(evening: Evening | int) -> list[Player]:
    """Every player seated at one of the evening's tables, by name: all of them sign."""
    seated = Seat.objects.filter(table__evening=evening).values("player_id")
    return list(Player.objects.filter(pk__in=seated).order_by("name", "pk"))


def current_signatures(evening: Evening | int, players: list[int] | None = None) -> dict[int, Signature]:
    """{player id: their current signature} of the evening (of ``players`` only, when given)."""
    found = Signature.objects.filter(evening=evening, superseded_at__isnull=True).select_related("by", "claim")
    if players is not None:
        found = found.filter(player_id__in=players)
    return {signature.player_id: signature for signature in found}


@dataclass(frozen=True)
class SignatureRow:
    """One player of the evening and their signature: ``signature`` None (not signed), ``stale`` (hands changed
    since: ``changed_from`` the first hand number changed, when one is known)."""

    player: Player
    signature: Signature | None
    stale: bool = False
    changed_from: int | None = None

    @property
    def signed(self) -> bool:
        return self.signature is not None and not self.stale


@dataclass(frozen=True)
class EveningSignatures:
    """The evening's list and who signed it: ``rows`` per seated player, by name."""

    evening: Evening
    state: EveningState
    rows: list[SignatureRow]

    @property
    def missing(self) -> list[SignatureRow]:
        return [row for row in self.rows if not row.signed]

    @property
    def complete(self) -> bool:
        return bool(self.rows) and not self.missing


def signatures(evening: Evening, players: list[Player] | None = None) -> EveningSignatures:
    """Who has signed the evening's list (of ``players``, default: every seated player) and whether it stands."""
    players = seated_players(evening) if players is None else players
    state = evening_state(evening)
    current = current_signatures(evening, [player.pk for player in players])
    stale = [signature for signature in current.values() if signature.revision != state.revision]
    changed = changed_since(evening, stale)
    rows = []
    for player in players:
        signature = current.get(player.pk)
        is_stale = signature is not None and signature.revision != state.revision
        rows.append(SignatureRow(player, signature, is_stale, changed.get(signature.pk) if signature else None))
    return EveningSignatures(evening, state, rows)


def changed_since(evening: Evening, stale: list[Signature]) -> dict[int, int]:
    """{signature id: the lowest hand number recorded, corrected, voided or restored after it}: one aggregate."""
    if not stale:
        return {}
    hands = Hand.objects.filter(table__evening=evening)
    found = hands.aggregate(
        **{f"s{signature.pk}": Min("number", filter=Q(changed_at__gt=signature.at)) for signature in stale}
    )
    return {int(key[1:]): number for key, number in found.items() if number is not None}


# --------------------------------------------------------------------------------------------------------------
# What a page says of a signature


def signer_name(user: Any) -> str:
    """Whom a signature names as its signer: the account's full name (a seated phone's stand-in carries its
    player's name), else its user name."""
    return str(user.get_full_name() or user.get_username())


def signed_at(signature: Signature) -> str:
    return time_format(timezone.localtime(signature.at), "H:i")


def signature_text(signature: Signature) -> str:
    """When and on whose phone: "signed at 23:41 on their own phone", "signed for by Ota at 23:41, left early"."""
    values = {"time": signed_at(signature), "who": signer_name(signature.by)}
    if signature.for_absent:
        return _("signed for by %(who)s at %(time)s, left early") % values
    if signature.on_own_phone:
        return _("signed at %(time)s on their own phone") % values
    return _("signed at %(time)s on the phone of %(who)s") % values


def stale_text(row: SignatureRow) -> str:
    if row.changed_from is not None:
        return _("signed before hand #%(number)s changed: asked to sign again") % {"number": row.changed_from}
    return _("signed before the hands changed: asked to sign again")


def player_balance(balances: dict[str, Decimal], player: Player) -> Decimal:
    return balances.get(player.name, Decimal(0))
