"""The ledger's per-game parts in one table: for each game of the engine's registry (``rules.GAMES``) its hand form
and its tariff tables; its name, title, seats and what carries from hand to hand come from the engine itself.

Everything in the ledger that differs by game reads this table, so adding a game means one row here and one object
in ``rules``, and no ``game == …`` branch anywhere in ``ledger/``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import rules
from ledger.hand_forms.base import HandForm
from ledger.hand_forms.marias import MariasHandForm
from ledger.hand_forms.skat import SkatHandForm
from ledger.hand_forms.snapser import SnapserHandForm
from ledger.tariffs import Tariff, marias_tariffs, skat_tariffs, snapser_tariffs


@dataclass(frozen=True)
class GameAdapter:
    """One game as the ledger sees it: the engine's game object plus the ledger's parts for it."""

    engine: rules.Game[Any]
    form: type[HandForm]
    tariffs: Callable[[dict[str, Any], int | None], list[Tariff]]

    @property
    def name(self) -> str:
        return self.engine.name

    @property
    def title(self) -> str:
        return self.engine.title


# In the order the ledger offers the games (the new table form, the model's choices).
GAMES: dict[str, GameAdapter] = {
    adapter.name: adapter
    for adapter in (
        GameAdapter(rules.game("marias"), MariasHandForm, marias_tariffs),
        GameAdapter(rules.game("snapser"), SnapserHandForm, snapser_tariffs),
        GameAdapter(rules.game("skat"), SkatHandForm, skat_tariffs),
    )
}
if set(GAMES) != set(rules.GAMES):  # pragma: no cover - a game added to rules without its ledger parts
    raise ImportError(f"ledger.games covers {sorted(GAMES)}, the engine has {sorted(rules.GAMES)}")

# (value, label) pairs for a model or form field: the engine's name and title of each game.
CHOICES = [(adapter.name, adapter.title) for adapter in GAMES.values()]
# Where each game's hand document keeps the contract the declarer plays: the hand form's own field (the exports'
# contract column, the statistics' contracts).
CONTRACT_FIELDS: dict[str, str] = {name: adapter.form.contract_field for name, adapter in GAMES.items()}


def adapter(name: str) -> GameAdapter:
    """The ledger's parts of the game ``name`` (one of ``rules.GAMES``)."""
    return GAMES[name]


def form_class(name: str) -> type[HandForm]:
    """The hand form of the game ``name``."""
    return GAMES[name].form
