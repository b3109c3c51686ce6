"""What the statistics hear, connected in ``StatsConfig.ready()``: the hands and versions the books store (each
written down as a change to take in, in the hand's transaction), the tables a request changed (the books' hook),
the request's start and end, and the books' spreadsheets asking for the statistics sheet."""

from __future__ import annotations

from django.core.signals import request_finished, request_started
from django.db.models.signals import post_save

from ledger import hooks
from ledger.models import Hand, HandVersion
from ledger.stats import increments, spreadsheet


def connect() -> None:
    hooks.hands_changed.connect(increments.hands_changed)
    hooks.spreadsheet_sheets.connect(spreadsheet.sheets)
    post_save.connect(increments.hand_saved, sender=Hand, dispatch_uid="talon-stats-hand")
    post_save.connect(increments.version_saved, sender=HandVersion, dispatch_uid="talon-stats-version")
    request_started.connect(increments.begin, dispatch_uid="talon-stats-begin")
    request_finished.connect(increments.flush, dispatch_uid="talon-stats-flush")
