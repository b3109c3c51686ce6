"""Read side of the close-out: what the settlement page, the share link and the PDF show of a settlement.

A fixed number of queries whatever the number of hands or transfers: the settlement (with its banker), its
transfers (with their players, for their names and IBANs, and who marked them paid), the evening's players.
"""

from __future__ import annotations

from typing import Any

from django.utils.safestring import SafeString

from ledger import qr
from ledger.models import Evening, Player, Settlement, Transfer


def settlement_context(evening: Evening, *, with_qr: bool) -> dict[str, Any]:
    """The settlement of the evening (None when it was never closed), its balance rows and its transfers."""
    settlement = Settlement.objects.filter(evening=evening).select_related("banker").first()
    if settlement is None:
        return {"settlement": None, "balance_rows": [], "transfers": [], "players": {}}
    transfers = list(settlement.transfers.select_related("payer", "payee", "paid_by"))
    players = {
        player.name: player for player in Player.objects.filter(owner_id=evening.owner_id, name__in=settlement.exact)
    }
    return {
        "settlement": settlement,
        "balance_rows": settlement.rows(),
        "transfers": [transfer_row(evening, transfer, with_qr=with_qr) for transfer in transfers],
        "players": players,
    }


def transfer_row(evening: Evening, transfer: Transfer, *, with_qr: bool) -> dict[str, Any]:
    """One transfer as shown: the payee's IBAN and, while unpaid, the payment QR code in the evening's currency."""
    payee = transfer.payee
    iban = payee.iban
    code = SafeString("")
    # No code once paid: scanning it again would pay twice.
    if with_qr and iban and not transfer.is_paid:
        payload = qr.payment_payload(
            currency=evening.currency,
            payee=payee.name,
            iban=iban,
            amount=transfer.amount,
            text=qr.payment_text(date=evening.date, payer=transfer.payer.name),
        )
        code = qr.qr_svg(payload, label=str(transfer))
    kind = "QR Platba" if evening.currency == "CZK" else "EPC (SEPA)"
    return {"transfer": transfer, "payee_player": payee, "iban": iban, "qr": code, "qr_kind": kind}
