"""An evening written out as the document (``evening_export``)."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from ledger import hooks
from ledger.exchange.document import FORMAT, VERSION
from ledger.models import (
    Evening,
    Hand,
    Player,
    Settlement,
    Table,
)


def evening_export(*, evening: Evening) -> dict[str, Any]:
    """The whole evening as JSON-ready values (see the module's docstring for the format)."""
    tables = evening.tables.prefetch_related("hands__entered_by", "hands__changed_by", "hands__versions__changed_by")
    seated = Player.objects.filter(seats__table__evening=evening).distinct().order_by("name")
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "evening": {
            "date": evening.date.isoformat(),
            "place": evening.place,
            "currency": evening.currency,
            "coin": str(evening.coin),
            "status": evening.status,
            "created_at": evening.created_at.isoformat(),
            "owner": evening.owner.get_username(),
            "scorekeepers": sorted(user.get_username() for user in evening.scorekeepers.all()),
        },
        "players": [{"name": player.name, "iban": player.iban} for player in seated],
        "tables": [_export_table(table) for table in tables.order_by("id")],
        "settlement": _export_settlement(evening),
        "events": [
            {"kind": event.kind, "by": _name(event.by), "at": event.at.isoformat(), "note": event.note}
            for event in evening.events.select_related("by").order_by("at", "id")
        ],
    }


def _export_table(table: Table) -> dict[str, Any]:
    return {
        "game": table.game,
        "ruleset": table.ruleset,
        "seat_names": table.seat_names,
        "first_dealer": table.first_dealer,
        "recording": table.recording,
        "confirmation": table.confirmation,
        "hand_count": table.hand_count,
        "revision": table.revision,
        "created_at": table.created_at.isoformat(),
        "hands": [_export_hand(hand) for hand in sorted(table.hands.all(), key=lambda hand: hand.number)],
    }


def _export_hand(hand: Hand) -> dict[str, Any]:
    return {
        "number": hand.number,
        "version": hand.version,
        "dealer": hand.dealer,
        "status": hand.status,
        "document": hand.document,
        "result": hand.result,
        "key": hand.key,
        "entered_by": _name(hand.entered_by),
        "entered_at": hand.entered_at.isoformat(),
        "changed_by": _name(hand.changed_by),
        "changed_at": hand.changed_at.isoformat(),
        "versions": [
            {
                "version": old.version,
                "dealer": old.dealer,
                "status": old.status,
                "document": old.document,
                "result": old.result,
                "changed_by": _name(old.changed_by),
                "changed_at": old.changed_at.isoformat(),
            }
            for old in sorted(hand.versions.all(), key=lambda old: old.version)
        ],
    }


def _export_settlement(evening: Evening) -> dict[str, Any] | None:
    settlement = Settlement.objects.filter(evening=evening).select_related("banker", "created_by").first()
    if settlement is None:
        return None
    # An evening whose transfers went elsewhere (a circle's tab, ``hooks.transfers_carried``) says so: its plan is
    # not stored.
    carried = {"carried": True} if any(hooks.transfers_carried.send(evening)) else {}
    return carried | export_settled(settlement)


def export_settled(settlement: Any) -> dict[str, Any]:
    """A settlement as the document gives it, an evening's (here) or a circle tab's (``ledger.circles.exchange``):
    its mode, banker, coin, balances, author and ``transfers`` (``TransferBase`` rows)."""
    return {
        "mode": settlement.mode,
        "banker": settlement.banker.name if settlement.banker else "",
        "coin": str(settlement.coin),
        "exact": settlement.exact,
        "rounded": settlement.rounded,
        "created_by": _name(settlement.created_by),
        "created_at": settlement.created_at.isoformat(),
        "transfers": [
            {
                "payer": transfer.payer.name,
                "payee": transfer.payee.name,
                "amount": str(transfer.amount),
                "paid_at": transfer.paid_at.isoformat() if transfer.paid_at else None,
                "paid_by": _name(transfer.paid_by) if transfer.paid_by else None,
            }
            for transfer in settlement.transfers.select_related("payer", "payee", "paid_by").order_by("id")
        ],
    }


def _name(user: Any) -> str:
    return str(user.get_username())
