"""After the commit, the phones hear of a hand to confirm or a word given: the evening's live line (so open pages
redraw) and Web Push (so a phone in a pocket buzzes)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _

from ledger import hooks
from ledger.live import fanout
from ledger.models import Evening, Hand, Table
from ledger.seats.models import SeatClaim

if TYPE_CHECKING:
    from ledger.confirmations.models import Confirmation

ASKING = ("recorded", "corrected", "restored")


def hand_stored(event: hooks.HandStored) -> None:
    """A hand changed: its table's phones redraw; the phones whose player must confirm it are asked."""
    from ledger.confirmations.selectors import state_of

    if event.confirmation == Table.Confirmation.NONE:
        return  # a table that asks nobody: nothing to redraw or ask, and no query to learn it
    hand = Hand.objects.select_related("table").filter(pk=event.hand_id).first()
    if hand is None or hand.table.confirmation == hand.table.Confirmation.NONE:
        return
    state = state_of(hand) if event.change in ASKING else None
    _publish(hand, state.code if state else "")
    if state is None or not state.awaiting:
        return
    asked = SeatClaim.objects.filter(
        table_id=hand.table_id, status=SeatClaim.Status.HELD, player_id__in=[player.id for player in state.awaiting]
    )
    devices = list(asked.values_list("device", flat=True))
    if devices:
        title = _("Hand #%(number)s needs your OK") % {"number": hand.number}
        _notify(devices=devices, title=title, body=hand.label, url=seat_url(hand.table_id), tag=f"hand-{hand.pk}")


def answered(given: Confirmation) -> None:
    """A player's word was given: the table's phones redraw; a dispute is told to the evening's scorekeepers."""
    hand = Hand.objects.select_related("table").get(pk=given.hand_id)
    _publish(hand, given.verdict)
    if given.is_ok:
        return
    evening = Evening.objects.get(pk=hand.table.evening_id)
    users = {evening.owner_id, *evening.scorekeepers.values_list("pk", flat=True)}
    title = _("Hand #%(number)s was disputed by %(player)s") % {"number": hand.number, "player": given.player.name}
    _notify(
        users=sorted(users), title=title, body=given.reason, url=hand.table.get_absolute_url(), tag=f"hand-{hand.pk}"
    )


def seat_url(table_id: int) -> str:
    """The seated phone's page of the table (the seats' page)."""
    try:
        return reverse("seats:seat_page", args=[table_id])
    except NoReverseMatch:  # the seats' page not routed (yet): its agreed address
        return f"/seat/{table_id}/"


def _publish(hand: Hand, state: str) -> None:
    news = {"table": hand.table_id, "confirmations": {"hand": hand.number, "state": state}}
    fanout.publish(fanout.evening_topic(hand.table.evening_id), news)


def _notify(**message: Any) -> int:
    """Web Push to the given devices and users (``ledger.devices.push``): nothing when nobody opted in."""
    from ledger.devices import push

    return int(push.notify(**message))
