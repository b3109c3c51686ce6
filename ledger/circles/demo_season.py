"""A season of the demo circle for `make run`: twelve weekly Mariáš evenings of twelve hands before the
demo's own Mariáš evening, every hand priced through the services, each evening closed into the circle's tab, so
the circle's statistics, season table and tab have something to show.

The hands are drawn from a few everyday ones by a fixed seed: the same season on every load.
"""

from __future__ import annotations

import datetime
import random
from typing import Any

from ledger import services
from ledger.circles import services as circles
from ledger.circles.models import Circle
from ledger.management.demo_hands import marias_hands

EVENINGS, HANDS = 12, 12
SEED = 19


def load_season(user: Any, circle: Circle, players: list[str], before: datetime.date, place: str) -> int:
    """The season's evenings, one a week up to a week ``before`` the given date, closed: returns the hands."""
    draw = random.Random(SEED)  # noqa: S311 - demo data, not a secret
    count = 0
    for week in range(EVENINGS, 0, -1):
        date = before - datetime.timedelta(weeks=week)
        evening = circles.circle_evening_create(circle=circle, by=user, date=date, place=place, currency="CZK")
        table = services.table_create(
            evening=evening, game="marias", players=players, rules_override={"preset": "ctyrka-dvacetnik"}
        )
        for _hand in range(HANDS):
            declarer, partner = draw.sample(players, 2)
            services.hand_record(table=table, hand=draw.choice(marias_hands(declarer, partner)), by=user)
            count += 1
        services.evening_close(evening=evening, by=user)
    return count
