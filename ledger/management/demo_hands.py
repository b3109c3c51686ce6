"""Everyday hands the demo's seasons are drawn from (``load_demo``: a circle's season, a tournament's rounds)."""

from __future__ import annotations

from typing import Any


def marias_hands(declarer: str, partner: str) -> list[dict[str, Any]]:
    """Everyday Mariáš hands for a declarer and the holder of the called card (RULES.md's M2, M3, M4, M11…)."""
    pair = {"declarer": declarer, "partner": partner}
    return [
        {**pair, "contract": "hra", "trump": "bells", "points": 60},
        {**pair, "contract": "hra", "trump": "leaves", "points": 30},
        {**pair, "contract": "hra", "trump": "acorns", "points": 70},
        {**pair, "contract": "hra", "trump": "hearts", "points": 60},
        {**pair, "contract": "hra", "trump": "bells", "points": 30, "flek": {"hra": 1}},
        {**pair, "contract": "hra", "trump": "hearts", "points": 60, "flek": {"hra": 2}},
        {**pair, "contract": "sedma", "trump": "bells", "points": 60, "seven": {"side": "declarer", "won": True}},
        {**pair, "contract": "sedma", "trump": "hearts", "points": 70, "seven": {"side": "declarer", "won": False}},
        {"declarer": declarer, "contract": "betl", "won": True},
        {"declarer": declarer, "contract": "betl", "won": False},
        {"declarer": declarer, "contract": "durch", "won": False},
    ]
