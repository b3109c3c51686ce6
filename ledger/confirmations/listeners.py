"""What the books' hooks (and the seats' page) make the confirmations hear; connected in
``ConfirmationsConfig.ready()``."""

from __future__ import annotations

from ledger import hooks
from ledger.confirmations import marks, pages, pushes
from ledger.seats.hooks import seat_page_context


def connect() -> None:
    hooks.hands_marked.connect(marks.hand_marks)
    hooks.evening_changes.connect(marks.evening_change)
    hooks.evening_close_checks.connect(marks.close_checks)
    hooks.table_page_context.connect(pages.table_page)
    hooks.hand_conflict_context.connect(pages.conflict_page)
    hooks.hand_history_context.connect(pages.hand_history)
    hooks.hand_stored.connect(pushes.hand_stored)
    seat_page_context.connect(pages.seat_page)
