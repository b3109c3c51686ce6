"""Mariáš's house rules: the options, the presets (dvacetník, desetník) and what a player reads for them."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from rules.i18n import N_
from rules.marias.contracts import (
    BETL_DURCH,
)
from rules.money import ZERO
from rules.options import Option, currency_option, stake_option

OPTIONS: Mapping[str, Option] = {
    "stake": stake_option(Decimal("0.20"), N_("price of a plain hra: 0.20 in dvacetník, 0.10 in desetník")),
    "currency": currency_option("CZK", N_("currency the table plays in")),
    "betl_durch": Option("10/20", N_("betl and durch as multiples of the stake"), choices=tuple(BETL_DURCH)),
    "red_doubles": Option(
        True, N_("hearts trump (lepší) doubles hra, sedma, tichá sedma and stovka; never betl or durch")
    ),
    "stovka_steps": Option(
        "linear",
        N_("a lost announced stovka: what each step of the defenders' points beyond the first costs"),
        choices=("linear", "doubling"),
    ),
    "stovka_silent_hundred": Option(
        True,
        N_("when the defenders of an announced stovka reach a silent hundred, the loss doubles, and again per ten"),
    ),
    "ticha_stovka": Option(
        "seed",
        N_("tichá stovka (a hra with 100 or more): how the hra grows per ten above 100"),
        choices=("seed", "csm"),
    ),
    "stovka_pays_hra": Option(False, N_("an announced stovka pays the hra too, flekked on its own")),
    "flek_cap": Option(5, N_("highest flek level: 1 flek, 2 re, 3 tutti, 4 boty, 5 kalhoty"), min=0, max=5),
    "hand_limit": Option(0, N_("cap on one hand's value per player, in multiples of the stake; 0 = none"), min=0),
    "pay_2v2": Option(
        "pair",
        N_("2 against 2: who pays whom the value V of the hand"),
        choices=("pair", "each"),
    ),
    "pay_alone": Option(
        "each",
        N_("alone against 3: what each opponent pays the lone player"),
        choices=("each", "double"),
    ),
    "renonc_talon": Option(
        Decimal("5.00"), N_("renonc fee to each opponent: aces or tens in the talon, shuffling"), min=ZERO
    ),
    "renonc_other": Option(Decimal("2.00"), N_("renonc fee to each opponent: any other renonc"), min=ZERO),
}
PRESETS: Mapping[str, Mapping[str, Any]] = {
    "ctyrka-dvacetnik": {"stake": Decimal("0.20"), "currency": "CZK"},
    "ctyrka-desetnik": {"stake": Decimal("0.10"), "currency": "CZK"},
}
DEFAULT_PRESET = "ctyrka-dvacetnik"
# What a player reads for a preset and for an option's values (rules.labels says them in the active language); the
# keys stay what documents, the API and the CLI speak.
PRESET_LABELS = {
    "ctyrka-dvacetnik": N_("Čtyřka for a dvacetník: a hra costs 0.20"),
    "ctyrka-desetnik": N_("Čtyřka for a desetník: a hra costs 0.10"),
}
VALUE_LABELS = {
    "betl_durch": {
        "10/20": N_("betl 10 ×, durch 20 × the stake"),
        "15/30": N_("betl 15 ×, durch 30 × the stake"),
        "5/10": N_("betl 5 ×, durch 10 × the stake"),
    },
    "stovka_steps": {"linear": N_("each step adds one stovka"), "doubling": N_("each step doubles the loss")},
    "ticha_stovka": {"seed": N_("× 2, and × 2 again per ten"), "csm": N_("× 2 per ten, counted linearly")},
    "pay_2v2": {"pair": N_("each defender pays one opponent V"), "each": N_("each defender pays both opponents V")},
    "pay_alone": {"each": N_("each opponent pays V"), "double": N_("each opponent pays 2V")},
}
