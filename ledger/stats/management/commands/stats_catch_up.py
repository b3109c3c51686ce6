"""``manage.py stats_catch_up``: bring the statistics summaries of every table with changes waiting up to date,
each table's changes taken in together (``ledger.stats.increments.catch_up``); ``--loop`` keeps doing it.

The job for ``STATS_CATCH_UP = "job"``, where the requests leave the statistics to it: a pass takes in each table
whose first waiting change is at least ``--delay`` seconds old, so the hands a busy table records meanwhile are
taken in with it, in one pass (one lock, one read and one write of its summaries for all of them). Without the job
nothing is lost: a statistic read takes in what waits before it reads.
"""

from __future__ import annotations

import signal
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import DatabaseError, close_old_connections

from ledger.stats import increments
from ledger.stats.models import StatsChange


class Command(BaseCommand):
    help = "Bring the statistics summaries of the tables with changes waiting up to date (--loop: keep doing it)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--loop", action="store_true", help="keep taking changes in until stopped (SIGTERM)")
        parser.add_argument("--delay", type=float, default=1.0, help="seconds a change waits for others (--loop)")
        parser.add_argument("--interval", type=float, default=0.5, help="seconds between passes (--loop)")

    def handle(self, *args: Any, **options: Any) -> None:
        if not options["loop"]:
            self.stdout.write(_summary(catch_up_pass()))
            return
        stopping: list[int] = []
        signal.signal(signal.SIGTERM, lambda number, _frame: stopping.append(number))
        signal.signal(signal.SIGINT, lambda number, _frame: stopping.append(number))
        # A pass takes in the tables with a change written by the previous pass's time (``--delay`` ago at least).
        seen, seen_at = 0, time.monotonic()
        while not stopping:
            close_old_connections()
            try:
                if time.monotonic() - seen_at >= options["delay"]:
                    newest = StatsChange.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
                    done = catch_up_pass(written_before=seen + 1) if seen else {}
                    if done:
                        self.stdout.write(_summary(done))
                    seen, seen_at = newest, time.monotonic()
            except DatabaseError as error:  # the database restarting: try again next pass
                self.stderr.write(f"statistics not brought up to date: {error}")
            time.sleep(options["interval"])


def catch_up_pass(*, written_before: int | None = None) -> dict[str, int]:
    """One pass over the tables with changes waiting (written before ``written_before``, a ``StatsChange`` id):
    how many tables ended "added", "recomputed", "current" or "waiting"."""
    outcomes: dict[str, int] = {}
    for table_id in increments.waiting_tables(written_before=written_before):
        outcome = increments.catch_up(table_id)
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    return outcomes


def _summary(outcomes: dict[str, int]) -> str:
    return ", ".join(f"{count} {outcome}" for outcome, count in sorted(outcomes.items())) or "nothing waiting"
