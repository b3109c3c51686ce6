"""Write-side logic of the ledger, called by both the htmx pages and the REST API.

Each function is one domain step, named ``<entity>_<action>`` with keyword-only arguments. Every write runs in
one transaction: a rules error or a broken invariant leaves nothing half-stored. The steps live by what they
change (``evenings``, ``hands``, ``settlement``, ``players``); callers name them all through ``ledger.services``.
"""

from ledger.errors import EveningClosed, HandConflict, LedgerError, StaleVersion
from ledger.services.evenings import (
    evening_add_scorekeeper,
    evening_again,
    evening_create,
    evening_place_check,
    evening_scorekeeper_invite,
    evening_scorekeeper_remove,
    evening_share_reset,
    invitation_accept,
    invitation_decline,
    table_create,
)
from ledger.services.hands import (
    hand_correct,
    hand_preview,
    hand_price,
    hand_record,
    hand_restore,
    hand_result,
    hand_undo_last,
    hand_void,
    hands_post,
)
from ledger.services.players import (
    player_get_or_create,
    player_iban_set,
    player_name_tidy,
    player_rename,
    user_language_set,
)
from ledger.services.settlement import (
    NamedTransfer,
    evening_close,
    evening_reopen,
    settlement_plan,
    transfer_mark_paid,
    transfer_mark_unpaid,
    transfer_planned,
)

__all__ = [
    "EveningClosed",
    "HandConflict",
    "LedgerError",
    "NamedTransfer",
    "StaleVersion",
    "evening_add_scorekeeper",
    "evening_again",
    "evening_close",
    "evening_create",
    "evening_place_check",
    "evening_reopen",
    "evening_scorekeeper_invite",
    "evening_scorekeeper_remove",
    "evening_share_reset",
    "hand_correct",
    "hand_preview",
    "hand_price",
    "hand_record",
    "hand_restore",
    "hand_result",
    "hand_undo_last",
    "hand_void",
    "hands_post",
    "invitation_accept",
    "invitation_decline",
    "player_get_or_create",
    "player_iban_set",
    "player_name_tidy",
    "player_rename",
    "settlement_plan",
    "table_create",
    "transfer_mark_paid",
    "transfer_mark_unpaid",
    "transfer_planned",
    "user_language_set",
]
