"""Evenings that end owing money, built through the services the app uses (shared by the close-out tests).

Two Šnapser tables, one hand each (s vodou, chooser wins): at a stake of 3.10 the chooser takes 12.40 from two
opponents (−6.20 each); at a two-player table at 0.55 the chooser takes 1.10. So:
Ana +12.40, Ben −6.20 − 1.10 = −7.30, Cyril −6.20 + 1.10 = −5.10.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from ledger import services
from ledger.models import Evening, Player
from tests import factories

ANA_IBAN = "CZ65 0800 0000 1920 0014 5399"


def evening_owing(owner: Any, names: tuple[str, str, str] = ("Ana", "Ben", "Cyril"), **evening: Any) -> Evening:
    """``names[0]`` +12.40, ``names[1]`` −7.30, ``names[2]`` −5.10 (CZK, coin 1 unless told otherwise)."""
    evening.setdefault("currency", "CZK")
    winner, big_loser, small_loser = names
    result = factories.make_evening(owner, **evening)
    first = factories.make_table(result, "snapser", players=list(names), stake="3.10")
    factories.record(first, factories.SNAPSER_N1 | {"declarer": winner})
    second = factories.make_table(result, "snapser", players=[small_loser, big_loser], stake="0.55")
    factories.record(second, factories.SNAPSER_N1 | {"declarer": small_loser})
    return result


def set_iban(owner: Any, name: str, iban: str) -> Player:
    return services.player_iban_set(player=Player.objects.get(owner=owner, name=name), iban=iban)


def transfers(settlement: Any) -> list[tuple[str, str, Decimal, bool]]:
    return [(t.payer.name, t.payee.name, t.amount, t.is_paid) for t in settlement.transfers.all()]
