"""Skat's house rules: the options, the presets (ISkO, Seeger-Fabian, pub rules) and what a player reads for them."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from rules.i18n import N_
from rules.options import Option, Settings, currency_option, stake_option
from rules.skat.contracts import LEGAL_BIDS, MOST_SEEGER_POINTS

OPTIONS: dict[str, Option] = {
    "stake": stake_option(Decimal("0.01"), N_("Money per list point; everybody pays everybody the difference.")),
    "currency": currency_option("EUR", N_("Currency of the stake.")),
    "scoring": Option(
        "classic",
        N_("The list the games are written on."),
        choices=("classic", "seeger-fabian"),
    ),
    "seeger_won_bonus": Option(
        50, N_("Seeger-Fabian: points the declarer gets on top of a won game."), min=0, max=MOST_SEEGER_POINTS
    ),
    "seeger_lost_penalty": Option(
        50, N_("Seeger-Fabian: points the declarer loses on top of a lost game."), min=0, max=MOST_SEEGER_POINTS
    ),
    "seeger_others_bonus_3": Option(
        40, N_("Seeger-Fabian, 3 seats: each other player's points for a lost game."), min=0, max=MOST_SEEGER_POINTS
    ),
    "seeger_others_bonus_4": Option(
        30,
        N_("Seeger-Fabian, 4 seats: each other player's points for a lost game (the sitting dealer too)."),
        min=0,
        max=MOST_SEEGER_POINTS,
    ),
    "kontra": Option(False, N_("Kontra (×2) and Re (×4) on the game value, won or lost.")),
    "bock": Option(
        False,
        N_("Bock rounds: a hand scores ×2 per pending Bock; a hand that fires a trigger below starts a new round."),
    ),
    "bock_lost_60": Option(True, N_("Bock trigger: a game lost 60:60.")),
    "bock_lost_kontra": Option(True, N_("Bock trigger: a game lost after Kontra.")),
    "bock_re": Option(True, N_("Bock trigger: Re given.")),
    "bock_grand_hand": Option(True, N_("Bock trigger: a Grand Hand won.")),
    "bock_big_game": Option(True, N_("Bock trigger: a game worth at least the value below (before Kontra and Bock).")),
    # No game is worth more than the highest bid (a Grand with 4, every extra and ouvert: 11 × 24 = 264).
    "bock_big_game_value": Option(
        72, N_("The game value from which a game triggers a Bock round."), min=1, max=max(LEGAL_BIDS)
    ),
    # RULES.md: a hand that fires several triggers (a Grand Hand won worth 72 fires two) adds one round.
    "bock_per_trigger": Option(
        False,
        N_("Bock: each trigger a hand fires starts its own round (off: one round per hand, however many it fires)."),
    ),
    "ramsch": Option(False, N_("When all pass, play Ramsch: the player with the most card points scores minus them.")),
    "jungfrau": Option(True, N_("Ramsch: the loser's points double for each player who took no trick.")),
    "durchmarsch": Option(True, N_("Ramsch: a player who takes every trick scores +120.")),
}

PRESETS: dict[str, dict[str, Any]] = {
    "isko": {},
    "seeger-fabian": {"scoring": "seeger-fabian"},
    "pub": {"kontra": True, "bock": True, "ramsch": True},
}
# What a player reads for a preset and for an option's values (rules.labels says them in the active language).
PRESET_LABELS = {
    "isko": N_("International Skat Order"),
    "seeger-fabian": N_("Seeger-Fabian list (tournaments)"),
    "pub": N_("Pub rules: Kontra, Bock and Ramsch"),
}
VALUE_LABELS = {
    "scoring": {
        "classic": N_("classic: won +value, lost −2 × value"),
        "seeger-fabian": N_("Seeger-Fabian: the tournament list with fixed bonuses"),
    },
}
# A stake that means something in another currency than the presets' (per list point; about one euro cent).
CURRENCY_STAKES = {"CZK": Decimal("0.25")}


def setting(settings: Settings, name: str) -> Any:
    """One resolved setting as the ruleset holds it (each option has a type of its own)."""
    return settings[name]
