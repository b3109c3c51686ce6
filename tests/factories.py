"""Small factory functions: tests build their own data through the same services the app uses."""

from __future__ import annotations

import contextlib
import datetime
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from ledger import services
from ledger.models import Evening, Hand, Table

PASSWORD = "correct-horse-battery"

# One plain hand per game, priced by hand from RULES.md: Šnapser N1 (chooser +0.40, opponents −0.20 each),
# Skat S1 at 0.01/point (declarer +0.96, defenders −0.48 each).
SNAPSER_N1 = {"declarer": "Ana", "trump": "leaves", "announcement": "hram", "winner": "declarer", "result": "s_vodou"}
SKAT_S1 = {"declarer": "Ana", "contract": "grand", "matadors": 1, "declarer_points": 61}
MARIAS_M2 = {"declarer": "Ana", "partner": "Cyril", "contract": "hra", "trump": "bells", "points": 60}

PLAYERS = {
    "snapser": ["Ana", "Ben", "Cyril"],
    "skat": ["Ana", "Ben", "Cyril"],
    "marias": ["Ana", "Ben", "Cyril", "Dana"],
}


def make_user(username: str) -> Any:
    return get_user_model().objects.create_user(username=username, password=PASSWORD)


def make_evening(owner: Any, currency: str = "EUR", **kwargs: Any) -> Evening:
    kwargs.setdefault("date", datetime.date(2026, 11, 27))
    kwargs.setdefault("place", "U Fleků")
    return services.evening_create(owner=owner, currency=currency, **kwargs)


def make_table(evening: Evening, game: str = "snapser", players: list[str] | None = None, **rules: Any) -> Table:
    return services.table_create(
        evening=evening, game=game, players=players or PLAYERS[game], rules_override=rules or None
    )


def record(table: Table, hand: dict[str, Any] | None = None, times: int = 1) -> list[Hand]:
    default = {"snapser": SNAPSER_N1, "skat": SKAT_S1, "marias": MARIAS_M2}[table.game]
    return [services.hand_record(table=table, hand=dict(hand or default), by=table.evening.owner) for _ in range(times)]


def money(text: str) -> Decimal:
    return Decimal(text)


@contextlib.contextmanager
def kept_for_the_module(django_db_blocker: Any) -> Iterator[None]:
    """For a module-scoped fixture that builds costly data (hundreds of hands recorded through the services): what it
    writes inside stays in one open transaction for the module's tests, each of which runs in a savepoint inside it
    (pytest-django's ``db`` nests its atomic blocks), and is rolled back when the module is done. Nothing is
    committed, so no other test sees it; within the module a test's own writes are undone after it as usual."""
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
    try:
        yield
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
