"""What the statistics partials need: the net chart, a contract's and a game's name in the reader's language."""

from __future__ import annotations

import sys
from functools import cache
from typing import Any

from django import template
from django.utils.safestring import SafeString

from ledger import charts, games, selectors
from ledger.models import Game

register = template.Library()


@register.filter
def net_chart(stats: dict[str, Any]) -> SafeString:
    """The running net over the evenings (``stats["net_series"]``) as the balance chart draws a line: at most
    ``selectors.CHART_POINTS`` points, evenly spread, the last evening always among them."""
    series = stats.get("net_series") or []
    if not series:
        return SafeString("")
    numbers = selectors.chart_numbers(len(series))
    line = [0.0, *(float(series[number - 1]["cumulative"]) for number in numbers)]
    return charts.series_chart([str(stats.get("player", ""))], [line], [0, *numbers])


@cache
def _labels(game: str) -> dict[str, Any]:
    """The hand form's names for its contracts: its choices, or the names its module gives the choices it sets up
    per table (Skat's ``CONTRACT_LABELS``)."""
    form = games.adapter(game).form
    field = form.base_fields.get(form.contract_field)
    labels: dict[str, Any] = dict(getattr(sys.modules[form.__module__], "CONTRACT_LABELS", {}))
    labels.update(dict(getattr(field, "choices", [])))
    return labels


@register.filter
def contract_label(contract: str, game: str) -> str:
    """``{{ contract|contract_label:game }}``: the contract as the hand form names it (the key if it has no name)."""
    if game not in games.GAMES:
        return contract
    return str(_labels(game).get(contract, contract))


@register.filter
def game_title(game: str) -> str:
    return str(dict(Game.choices).get(game, game))
