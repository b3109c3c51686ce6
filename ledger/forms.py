"""Forms for evenings and tables. They collect input; ``ledger.services`` and ``rules`` decide what is valid."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

import rules
from ledger.hand_forms.base import Segments
from ledger.models import Currency, Game, Settlement

MAX_SEATS = 4


class EveningForm(forms.Form):
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    place = forms.CharField(label=_("Place"), max_length=80, required=False)
    currency = forms.ChoiceField(label=_("Currency"), choices=Currency.choices, widget=Segments)
    coin = forms.DecimalField(
        label=_("Round to the coin"),
        required=False,
        min_value=Decimal("0.01"),
        max_digits=14,
        decimal_places=4,
        help_text=_("Empty: 1 Kč for CZK, 0.01 € for EUR."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.initial.setdefault("date", timezone.localdate())
        self.initial.setdefault("currency", Currency.CZK)


class TableForm(forms.Form):
    """Game, preset, stake, players in seat order and the house rules (options) of the table."""

    game = forms.ChoiceField(label=_("Game"), choices=Game.choices, widget=Segments)
    preset = forms.ChoiceField(label=_("House rules preset"))
    first_dealer = forms.TypedChoiceField(
        label=_("First dealer"), coerce=int, choices=[(i, str(i + 1)) for i in range(MAX_SEATS)], initial=0
    )
    # The game and preset the option fields were drawn for: options drawn for another preset are not applied.
    drawn_for = forms.CharField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args: Any, known_players: list[str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.known_players = known_players or []
        game_name = self._value("game") or Game.MARIAS
        game = rules.game(game_name)
        self.fields["game"].widget.attrs["data-refresh"] = "1"
        self.fields["preset"].choices = [(name, name) for name in game.presets]
        self.fields["preset"].widget.attrs["data-refresh"] = "1"
        preset = self._value("preset")
        if preset not in game.presets:
            preset = game.default_preset
        self.game_name, self.preset = game_name, preset
        for seat in range(MAX_SEATS):
            self.fields[f"player_{seat}"] = forms.CharField(
                label=_("Seat %(n)s") % {"n": seat + 1},
                max_length=40,
                required=seat < min(game.seats),
                widget=forms.TextInput(attrs={"list": "known-players", "autocomplete": "off"}),
            )
        resolved = rules.resolve(game_name, {"preset": preset})
        for name, option in game.options.items():
            if name == "currency":
                continue  # the evening's currency
            self.fields[f"opt_{name}"] = _option_field(option, resolved[name])
        self.initial.update({"game": game_name, "preset": preset})
        if self.is_bound:
            self.drawn_for_current = self.data.get("drawn_for") == f"{game_name}:{preset}"
        self.initial["drawn_for"] = f"{game_name}:{preset}"

    def _value(self, name: str) -> str | None:
        if self.is_bound:
            return self.data.get(name) or None
        value = self.initial.get(name)
        return str(value) if value else None

    def option_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith("opt_")]

    def player_fields(self) -> list[forms.BoundField]:
        return [self[f"player_{seat}"] for seat in range(MAX_SEATS)]

    def players(self) -> list[str]:
        return [
            self.cleaned_data[f"player_{seat}"] for seat in range(MAX_SEATS) if self.cleaned_data.get(f"player_{seat}")
        ]

    def overrides(self) -> dict[str, Any]:
        """The preset plus the options as shown, when they were drawn for this preset (else the preset alone)."""
        overrides: dict[str, Any] = {"preset": self.preset}
        if getattr(self, "drawn_for_current", False):
            for name in self.fields:
                if name.startswith("opt_"):
                    value = self.cleaned_data.get(name)
                    if value not in (None, ""):
                        overrides[name.removeprefix("opt_")] = str(value) if isinstance(value, Decimal) else value
        return overrides


def _option_field(option: rules.base.Option, initial: Any) -> forms.Field:
    """A form field for one house rule; the rules engine checks the value when the table is created.

    Not required: options drawn for another game or preset are not posted, and an empty one keeps the preset's.
    """
    label = option.translated_help()
    if isinstance(option.default, bool):
        return forms.BooleanField(label=label, required=False, initial=initial)
    if isinstance(option.default, int):
        return forms.IntegerField(label=label, initial=initial, required=False)
    if isinstance(option.default, Decimal):
        return forms.DecimalField(
            label=label, initial=Decimal(initial), max_digits=14, decimal_places=4, required=False
        )
    if option.choices:
        return forms.ChoiceField(label=label, initial=initial, choices=[(c, c) for c in option.choices], required=False)
    return forms.CharField(label=label, initial=initial, required=False)


class ScorekeeperForm(forms.Form):
    username = forms.CharField(label=_("User name of the co-scorekeeper"), max_length=150)


class SettlementForm(forms.Form):
    """How to settle at the close: the mode, and the banker when everybody settles with one person."""

    mode = forms.ChoiceField(label=_("How to settle"), choices=Settlement.Mode.choices, widget=Segments)
    banker = forms.ChoiceField(label=_("Banker"), required=False)

    def __init__(self, *args: Any, players: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.initial.setdefault("mode", Settlement.Mode.FEWEST)
        self.fields["banker"].choices = [("", _("(only for a banker)")), *((name, name) for name in players)]


class PlayerIbanForm(forms.Form):
    iban = forms.CharField(
        label=_("IBAN"),
        max_length=42,  # 34 characters plus the spaces people type in groups of four
        required=False,
        help_text=_("For payment QR codes on the settlement page; leave empty to remove."),
    )
