"""Šnapser's house rules: the options, the preset and what a player reads for them."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from rules.i18n import N_
from rules.options import Option, currency_option, stake_option

PAYMENTS = ("every_loser_every_winner", "each_loser_one_winner")
FALSE_DOST = ("by_points", "s_vodou", "bez_vody", "za_6")

OPTIONS: dict[str, Option] = {
    "stake": stake_option(Decimal("0.10"), N_("Money for one základ: a hand pays category × raises × red × stake.")),
    "currency": currency_option("EUR", N_("The currency the stake is in.")),
    "payment": Option(
        "every_loser_every_winner",
        N_(
            "Who pays whom: every member of the losing side pays every member of the winning side V (2 against 2: "
            "±2V each), or each loser pays one winner V (2 against 2: ±V each; a lone chooser still settles with "
            "every opponent)."
        ),
        choices=PAYMENTS,
    ),
    "red_on_nehram": Option(True, N_("Hearts trump doubles nehrám too, as it doubles every other game.")),
    "red_on_durch": Option(True, N_("Hearts trump doubles an announced durch too, as it doubles every other game.")),
    "tichy_durch_on_za12": Option(
        True,
        N_(
            "A za 12 in which one side takes every trick is paid as tichý durch (18, whatever game was "
            "announced), or, when off, as the za 12 it was (12). Enter it as result tichý durch either way."
        ),
    ),
    "false_dost": Option(
        "by_points",
        N_(
            "What a false “dosť” (said without 66) costs in hrám: the other side wins the category the caller's "
            "points give (enter it as the result), or always one fixed category."
        ),
        choices=FALSE_DOST,
    ),
}
PRESETS: dict[str, dict[str, Any]] = {
    "seed": {
        "stake": Decimal("0.10"),
        "currency": "EUR",
        "payment": "every_loser_every_winner",
        "red_on_nehram": True,
        "red_on_durch": True,
        "tichy_durch_on_za12": True,
        "false_dost": "by_points",
    },
}
# What a player reads for a preset and for an option's values (rules.labels says them in the active language).
PRESET_LABELS = {"seed": N_("Standard rules")}
VALUE_LABELS = {
    "payment": {
        "every_loser_every_winner": N_("every loser pays every winner V"),
        "each_loser_one_winner": N_("each loser pays one winner V"),
    },
    "false_dost": {
        "by_points": N_("what the caller's points give"),
        "s_vodou": N_("always s vodou"),
        "bez_vody": N_("always bez vody"),
        "za_6": N_("always za 6"),
    },
}
# A stake that means something in another currency than the preset's (one základ).
CURRENCY_STAKES = {"CZK": Decimal("2.00")}
