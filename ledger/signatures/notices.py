"""When an evening closes, each seated player's phones hear what they pay or receive (Web Push, after the commit).

The amounts are the settlement's transfers as the close page shows them (rounded to the evening's coin, in the
reader's money format); where the close booked no transfers (a circle's tab) the player's rounded balance.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext as _

from ledger.devices import push
from ledger.models import Evening, Settlement, Transfer
from ledger.seats.models import SeatClaim
from ledger.templatetags.talon import currency


def _notify(**message: Any) -> int:
    return push.notify(**message)


def evening_closed(evening_id: int) -> int:
    """Push each seated player's phones (and their accounts' devices) what the close means for them; how many
    pushes were queued."""
    evening = Evening.objects.filter(pk=evening_id).first()
    settlement = Settlement.objects.filter(evening_id=evening_id).first()
    if evening is None or settlement is None:
        return 0
    phones = _phones(evening)
    if not phones:
        return 0
    transfers = list(Transfer.objects.filter(settlement=settlement).select_related("payer", "payee"))
    url = reverse("ledger:shared_evening", args=[evening.share_token]) if evening.share_token else ""
    sent = 0
    for player_id, (name, devices, users) in phones.items():
        body = _what_it_means(evening, settlement, transfers, player_id, name)
        sent += _notify(
            devices=sorted(devices),
            users=sorted(users),
            title=str(evening),
            body=body,
            url=url,
            tag=f"closed-{evening.pk}",
        )
    return sent


def _phones(evening: Evening) -> dict[int, tuple[str, set[str], set[int]]]:
    """{player id: (name, device hashes, user ids)} of the seats held when the evening closed: held still, or let go
    by the close itself (the seats end with the evening)."""
    closed_at = evening.events.filter(kind="closed").values_list("at", flat=True).first()
    ended = Q(status=SeatClaim.Status.RELEASED, ended_at__gte=closed_at) if closed_at else Q(pk__in=[])
    claims = SeatClaim.objects.filter(Q(status=SeatClaim.Status.HELD) | ended, table__evening=evening)
    found: dict[int, tuple[str, set[str], set[int]]] = {}
    for claim in claims.select_related("player"):
        _name, devices, users = found.setdefault(claim.player_id, (claim.player.name, set(), set()))
        devices.add(claim.device)
        if claim.user_id is not None:
            users.add(claim.user_id)
    return found


def _what_it_means(
    evening: Evening, settlement: Settlement, transfers: list[Transfer], player_id: int, name: str
) -> str:
    lines = []
    for transfer in transfers:
        amount = currency(transfer.amount, evening.currency)
        if transfer.payer_id == player_id and not transfer.is_paid:
            lines.append(_("you pay %(payee)s %(amount)s") % {"payee": transfer.payee.name, "amount": amount})
        elif transfer.payee_id == player_id and not transfer.is_paid:
            lines.append(_("you receive %(amount)s from %(payer)s") % {"payer": transfer.payer.name, "amount": amount})
    if not lines and not transfers:
        rounded = Decimal(settlement.rounded.get(name, "0"))
        if rounded:
            lines.append(_("your balance %(amount)s") % {"amount": currency(rounded, evening.currency)})
    if not lines:
        lines.append(_("you pay nothing and receive nothing"))
    return _("The evening is closed: %(what)s") % {"what": ", ".join(lines)}
