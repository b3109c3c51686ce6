"""Load the demo evenings of fixtures/demo.json for `make run`, pricing every hand through the services."""

from __future__ import annotations

import datetime
import json
from decimal import Decimal
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from ledger import services
from ledger.circles import services as circles
from ledger.circles.demo_season import EVENINGS, load_season
from ledger.circles.models import Circle
from ledger.tournaments.demo import load_tournaments

DEMO_FILE = Path(settings.BASE_DIR) / "fixtures" / "demo.json"
DEMO_USER, DEMO_PASSWORD = "demo", "talon-demo"
# The demo's circle of regulars: the players of the Mariáš evening, who carry their balances over.
DEMO_CIRCLE, DEMO_CIRCLE_GAME = "Friday Mariáš", "marias"
DEMO_TOURNAMENT_DATE = datetime.date(2026, 11, 28)  # the Saturday after the demo's evenings


class Command(BaseCommand):
    help = "Create the demo login and its evenings (replacing the demo's earlier ones)."

    def handle(self, *args: Any, **options: Any) -> None:
        data = json.loads(DEMO_FILE.read_text(encoding="utf-8"))
        with transaction.atomic():
            user = _demo_user()
            user.circles_owned.all().delete()
            user.tournaments.all().delete()  # before the evenings: each of its tables is one
            user.evenings_owned.all().delete()
            circle = _demo_circle(user, data)
            hands = sum(_load_evening(user, evening, circle) for evening in data["evenings"])
            hands += _load_season(user, circle, data)
            hands += load_tournaments(user, DEMO_TOURNAMENT_DATE)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo loaded: {len(data['evenings']) + EVENINGS} evenings, 2 tournaments, {hands} hands.\n"
                f"Log in at http://127.0.0.1:8000/accounts/login/ as {DEMO_USER!r} with password {DEMO_PASSWORD!r}."
            )
        )


def _demo_user() -> Any:
    user, _ = get_user_model().objects.get_or_create(username=DEMO_USER)
    user.set_password(DEMO_PASSWORD)
    user.save()
    return user


def _demo_circle(user: Any, data: dict[str, Any]) -> Circle:
    """The circle of the players of the demo's first Mariáš table, settling into a running tab."""
    first = next(t for e in data["evenings"] for t in e["tables"] if t["game"] == DEMO_CIRCLE_GAME)
    return circles.circle_create(owner=user, name=DEMO_CIRCLE, members=first["players"], settle=Circle.Settle.TAB)


def _load_season(user: Any, circle: Circle, data: dict[str, Any]) -> int:
    """The circle's season before its evening of the demo (``ledger.circles.demo_season``)."""
    first = next(e for e in data["evenings"] if any(t["game"] == DEMO_CIRCLE_GAME for t in e["tables"]))
    players = next(t["players"] for t in first["tables"] if t["game"] == DEMO_CIRCLE_GAME)
    return load_season(user, circle, players, datetime.date.fromisoformat(first["date"]), first["place"])


def _load_evening(user: Any, data: dict[str, Any], circle: Circle | None = None) -> int:
    fields = {
        "date": datetime.date.fromisoformat(data["date"]),
        "place": data["place"],
        "currency": data["currency"],
        "coin": Decimal(data["coin"]),
    }
    # The circle's game is played by the circle: its evening belongs to the circle.
    if circle is not None and all(table["game"] == DEMO_CIRCLE_GAME for table in data["tables"]):
        evening = circles.circle_evening_create(circle=circle, by=user, **fields)
    else:
        evening = services.evening_create(owner=user, **fields)
    count = 0
    for table_data in data["tables"]:
        table = services.table_create(
            evening=evening, game=table_data["game"], players=table_data["players"], rules_override=table_data["rules"]
        )
        for hand in table_data["hands"]:
            services.hand_record(table=table, hand=hand, by=user)
            count += 1
    return count
