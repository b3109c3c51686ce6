"""The fields the three games' hand forms are built of, and what they ask alike (won or lost, a partner, a side).

Tapped, never defaulted: a choice left untouched is no answer, so that what the engine prices is what was tapped.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _


class Segments(forms.RadioSelect):
    """Radio buttons drawn as big tappable pills (see ``.segments`` in talon.css)."""

    segments = True


def segment_field(label: Any, choices: Iterable[tuple[Any, Any]], **kwargs: Any) -> forms.TypedChoiceField:
    kwargs.setdefault("required", False)
    return forms.TypedChoiceField(label=label, choices=list(choices), widget=Segments, **kwargs)


def choice_field(form: forms.BaseForm, name: str) -> forms.ChoiceField:
    """The form's copy of a declared choice field, to set its choices for this table (``form.fields`` holds plain
    Fields as far as the type checker knows)."""
    field = form.fields[name]
    assert isinstance(field, forms.ChoiceField), name
    return field


def flag_field(label: Any) -> forms.BooleanField:
    return forms.BooleanField(label=label, required=False)


def points_field(label: Any, maximum: int, step: int = 1, quick: Sequence[int] = ()) -> forms.IntegerField:
    field = forms.IntegerField(
        label=label,
        required=False,
        min_value=0,
        max_value=maximum,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "step": step, "min": 0, "max": maximum}),
    )
    field.quick = list(quick)  # type: ignore[attr-defined]  # buttons that set the value in one tap
    return field


# The explicit "nobody" answer where a partner is asked for (Mariáš, four-player Šnapser): playing alone pays three
# times as much, so it is a choice to tap, never what an untouched field means. Not a possible player name: names
# are trimmed, and this one starts with a space.
ALONE = " alone"


def players_choices(players: Iterable[str]) -> list[tuple[str, str]]:
    return [(name, name) for name in players]


# -- what the three games' forms ask alike ----------------------------------------------------------------------

# Won or lost, tapped: the engines take a flag, the forms a choice, so that an untouched field is no answer.
WON_LOST = [("won", _("won")), ("lost", _("lost"))]
# The two sides of a hand where the chooser (Mariáš, Šnapser) has a partner.
SIDE_CHOICES = [("declarer", _("the chooser's side")), ("defenders", _("the defenders"))]


def won_flag(choice: str | None) -> bool:
    """The engine's ``won`` from a ``WON_LOST`` choice."""
    return choice == "won"


def won_choice(flag: object) -> str:
    """The ``WON_LOST`` choice that draws the engine's ``won``."""
    return "won" if flag else "lost"


def optional_players(players: Iterable[str]) -> list[tuple[str, str]]:
    """A player, or nobody ("—"), for what happens only in some hands (a renonc, a Durchmarsch)."""
    return [("", "—"), *players_choices(players)]


def partner_choices(players: Iterable[str]) -> list[tuple[str, Any]]:
    """The called partner: a player, or "nobody: alone" as an explicit choice (see ``ALONE``)."""
    return [*players_choices(players), (ALONE, _("nobody: alone"))]


def called_partner(data: dict[str, Any]) -> str | None:
    """The partner the hand names: None when the chooser plays alone (tapped, or he called his own card)."""
    partner = data.get("partner")
    return None if partner in (None, "", ALONE, data.get("declarer")) else str(partner)


def partner_initial(document: dict[str, Any]) -> str:
    """The partner choice that draws a stored hand: no partner in the document is "alone"."""
    return str(document.get("partner") or ALONE)


def drop_empty(document: dict[str, Any]) -> dict[str, Any]:
    """Leave out unset optional fields and false flags: the document stays as short as the hand was simple.

    A 0 is kept: it is a value (a declarer schwarz with 0 card points), and ``0 in (False,)`` is true in Python.
    """
    return {key: value for key, value in document.items() if value is not False and value not in (None, "", [], {})}
