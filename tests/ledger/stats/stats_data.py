"""A small circle whose statistics were worked out by hand (tests/ledger/stats/test_stats.py checks them).

Four players, Ana, Ben, Cyril and Dana, in the circle "Friday". Amounts from RULES.md (M2, M3, M11, N1, N4, N5,
S1, S2, S12):

2026-01-08, Mariáš (Ana, Ben, Cyril, Dana), stake 0.20
  1. hra in bells, Ana with Cyril, 60 points: won             Ana +0.20  Ben -0.20  Cyril +0.20  Dana -0.20
  2. sedma in bells, Ben with Dana, both won                   Ana -0.60  Ben +0.60  Cyril -0.60  Dana +0.60
  3. hra in bells, Ana alone, flek on the hra, 30 points: lost Ana -1.20  Ben +0.40  Cyril +0.40  Dana +0.40
  4. betl, Cyril alone, won                                    Ana -2.00  Ben -2.00  Cyril +6.00  Dana -2.00
2026-01-15, Šnapser (Ana, Ben, Dana), stake 0.10
  1. Ana hrám in leaves, s vodou                               Ana +0.40  Ben -0.20             Dana -0.20
  2. Ben hrám in hearts, kontra and re, bez vody               Ana -3.20  Ben +6.40             Dana -3.20
  3. Dana za 12, failed                                        Ana +1.20  Ben +1.20             Dana -2.40
  (a fourth hand, voided: never counts)
2026-01-22, Skat (Ben, Cyril, Dana), 0.01 a point
  1. Ben grand with 1, 61                                                 Ben +0.96  Cyril -0.48  Dana -0.48
  2. Cyril grand with 1, 60: lost                                         Ben +0.96  Cyril -1.92  Dana +0.96
  3. Dana clubs with 1, won                                               Ben -0.24  Cyril -0.24  Dana +0.48
2026-01-29, Šnapser, marked "not counted": a 36-times durch for Ana that no statistic may see.
2026-02-05, Skat outside the circle (Ana, Ben, Cyril): Ben grand with 1, 61: Ben +0.96, Ana and Cyril -0.48.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from ledger import services
from ledger.circles.models import Circle, CircleMember
from ledger.models import Evening, Player
from tests import factories

MARIAS = ["Ana", "Ben", "Cyril", "Dana"]
SNAPSER = ["Ana", "Ben", "Dana"]
SKAT = ["Ben", "Cyril", "Dana"]

MARIAS_HANDS = [
    {"declarer": "Ana", "partner": "Cyril", "contract": "hra", "trump": "bells", "points": 60},
    {
        "declarer": "Ben",
        "partner": "Dana",
        "contract": "sedma",
        "trump": "bells",
        "points": 60,
        "seven": {"side": "declarer", "won": True},
    },
    {"declarer": "Ana", "contract": "hra", "trump": "bells", "points": 30, "flek": {"hra": 1}},
    {"declarer": "Cyril", "contract": "betl", "won": True},
]
SNAPSER_HANDS = [
    {"declarer": "Ana", "trump": "leaves", "announcement": "hram", "winner": "declarer", "result": "s_vodou"},
    {
        "declarer": "Ben",
        "trump": "hearts",
        "announcement": "hram",
        "raises": 2,
        "winner": "declarer",
        "result": "bez_vody",
    },
    {"declarer": "Dana", "trump": "leaves", "announcement": "za12", "winner": "defenders"},
]
SKAT_HANDS = [
    {"declarer": "Ben", "contract": "grand", "matadors": 1, "declarer_points": 61},
    {"declarer": "Cyril", "contract": "grand", "matadors": 1, "declarer_points": 60},
    {"declarer": "Dana", "contract": "clubs", "matadors": 1, "declarer_points": 61},
]
DURCH = {"declarer": "Ana", "trump": "leaves", "announcement": "durch", "winner": "declarer"}


@dataclass
class SmallCircle:
    owner: Any
    circle: Circle
    players: dict[str, Player]
    evenings: list[Evening]  # the three counted circle evenings, the not-counted one, the one outside


def evening(owner: Any, day: int, month: int = 1, circle: Circle | None = None, counted: bool = True) -> Evening:
    made = factories.make_evening(owner, date=datetime.date(2026, month, day), place="Friday")
    Evening.objects.filter(pk=made.pk).update(circle=circle, counted=counted)
    made.refresh_from_db()
    return made


def play(evening: Evening, game: str, players: list[str], hands: list[dict[str, Any]]) -> None:
    table = factories.make_table(evening, game, players)
    for hand in hands:
        services.hand_record(table=table, hand=dict(hand), by=evening.owner)


def small_circle(owner: Any) -> SmallCircle:
    circle = Circle.objects.create(owner=owner, name="Friday", currency="EUR")
    players = {name: services.player_get_or_create(owner=owner, name=name) for name in MARIAS}
    for player in players.values():
        CircleMember.objects.create(circle=circle, player=player)
    first = evening(owner, 8, circle=circle)
    play(first, "marias", MARIAS, MARIAS_HANDS)
    second = evening(owner, 15, circle=circle)
    play(second, "snapser", SNAPSER, SNAPSER_HANDS)
    voided = services.hand_record(table=second.tables.get(), hand=dict(DURCH), by=owner)
    services.hand_void(hand=voided, by=owner)
    third = evening(owner, 22, circle=circle)
    play(third, "skat", SKAT, SKAT_HANDS)
    not_counted = evening(owner, 29, circle=circle, counted=False)
    play(not_counted, "snapser", SNAPSER, [DURCH])
    outside = evening(owner, 5, month=2)
    play(outside, "skat", ["Ana", "Ben", "Cyril"], SKAT_HANDS[:1])
    return SmallCircle(owner, circle, players, [first, second, third, not_counted, outside])
