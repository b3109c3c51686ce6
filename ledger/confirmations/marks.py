"""How a hand's state reads wherever hands are listed (the log, the share page, the PDF, the API) and on the close
page."""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import OuterRef, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _

from ledger import hooks
from ledger.confirmations.models import Confirmation
from ledger.confirmations.selectors import AWAITING, CONFIRMED, HandState, hand_states, open_hands, player_names
from ledger.models import Evening, Hand


def hand_marks(hands: Sequence[Hand]) -> dict[int, list[hooks.HandMark]]:
    """``hooks.hands_marked``: one mark per hand at a table that asks for confirmation."""
    return {hand_id: [mark(state)] for hand_id, state in hand_states(hands).items()}


def evening_change(_event: None) -> Subquery:
    """``hooks.evening_changes``: the evening's newest answer, so a shared page drawn before it is not served again."""
    newest = Confirmation.objects.filter(hand__table__evening=OuterRef("pk")).order_by("-id").values("id")[:1]
    return Subquery(newest)


def mark(state: HandState) -> hooks.HandMark:
    if state.code == CONFIRMED:
        return hooks.HandMark(CONFIRMED, _("confirmed"), "; ".join(given_text(given) for given in state.oks))
    if state.code == AWAITING:
        return hooks.HandMark(AWAITING, _("awaiting OK"), awaiting_text(state))
    return hooks.HandMark("disputed", _("disputed"), "; ".join(given_text(given) for given in state.disputes))


def given_text(given: Confirmation) -> str:
    """ "OK from Karel at 21:04 on his own phone", "Disputed by Karel at 21:06 on alice's phone: it was a seven"."""
    values = {"player": given.player.name, "at": f"{timezone.localtime(given.at):%H:%M}", "phone": _phone(given)}
    if given.is_ok:
        return _("OK from %(player)s at %(at)s %(phone)s") % values
    text = _("Disputed by %(player)s at %(at)s %(phone)s") % values
    return f"{text}: {given.reason}" if given.reason else text


def awaiting_text(state: HandState) -> str:
    names = ", ".join(player_names(state.awaiting))
    if state.every:
        return _("Waiting for the OK of %(names)s") % {"names": names}
    return _("Waiting for an OK from one of %(names)s") % {"names": names}


def close_checks(evening: Evening) -> list[hooks.CloseCheck]:
    """``hooks.evening_close_checks``: one open line per hand still awaiting an OK or disputed."""
    return [hooks.CloseCheck(_check_text(state), open=True) for state in open_hands(evening)]


def _check_text(state: HandState) -> str:
    """ "Šnapser, hand #2 (s vodou): Waiting for an OK from one of Ben, Cyril"."""
    hand = state.hand
    disputes = "; ".join(given_text(given) for given in state.disputes)
    said = awaiting_text(state) if state.code == AWAITING else disputes
    what = {"table": hand.table.get_game_display(), "number": hand.number, "label": hand.label, "said": said}
    return _("%(table)s, hand #%(number)s (%(label)s): %(said)s") % what


def _phone(given: Confirmation) -> str:
    if given.on_own_phone:
        return _("on their own phone")
    by = given.by.get_full_name() or given.by.get_username()
    return _("on the table's phone (%(by)s)") % {"by": by}
