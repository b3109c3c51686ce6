"""Pages of the ledger: plain function views, thin (HTTP in, HTTP out, glue); the logic is in services and rules.

Access: scorekeepers (the evening's creator and co-scorekeepers) see and change everything of their evenings;
anybody else gets 404, never a hint that the evening exists. Players read an evening through its share link.
One module per part of the app; ``ledger/urls.py`` reaches every view through this package.
"""

from ledger.views.evenings import (
    evening_again,
    evening_create,
    evening_detail,
    evening_list,
    evening_scorekeeper_invite,
    evening_scorekeeper_remove,
    evening_share,
    invitation_accept,
    invitation_decline,
    table_create,
)
from ledger.views.hand_changes import hand_edit, hand_restore, hand_undo, hand_void
from ledger.views.pages import game_rules, home, language_set
from ledger.views.settlement import (
    evening_reopen,
    evening_settlement,
    evening_summary_pdf,
    player_edit,
    transfer_mark_paid,
    transfer_mark_unpaid,
)
from ledger.views.share_link import shared_evening
from ledger.views.tables import hand_create, hand_form, table_detail, table_rules

__all__ = [
    "evening_again",
    "evening_create",
    "evening_detail",
    "evening_list",
    "evening_reopen",
    "evening_scorekeeper_invite",
    "evening_scorekeeper_remove",
    "evening_settlement",
    "evening_share",
    "evening_summary_pdf",
    "game_rules",
    "hand_create",
    "hand_edit",
    "hand_form",
    "hand_restore",
    "hand_undo",
    "hand_void",
    "home",
    "invitation_accept",
    "invitation_decline",
    "language_set",
    "player_edit",
    "shared_evening",
    "table_create",
    "table_detail",
    "table_rules",
    "transfer_mark_paid",
    "transfer_mark_unpaid",
]
