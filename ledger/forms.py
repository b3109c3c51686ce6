"""Forms for evenings and tables. They collect input; ``ledger.services`` and ``rules`` decide what is valid."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.datastructures import MultiValueDict
from django.utils.translation import gettext_lazy as _

import rules
from ledger.hand_forms.base import add_domain_error as add_domain_error

# add_domain_error lives with the hand forms (the offline worker uses it too); the views take it from here.
from ledger.hand_forms.fields import Segments, choice_field
from ledger.models import Currency, Game, Settlement, Table
from rules.labels import currency_stake, preset_label, value_label

MAX_SEATS = 4


def coin_field() -> forms.DecimalField:
    """The coin an evening's (or a circle's) balances round to; empty: the currency's own."""
    return forms.DecimalField(
        label=_("Round to the coin"),
        required=False,
        min_value=Decimal("0.01"),
        max_digits=14,
        decimal_places=4,
        help_text=_("Empty: 1 Kč for CZK, 0.01 € for EUR."),
    )


class EveningForm(forms.Form):
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    place = forms.CharField(label=_("Place"), max_length=80, required=False)
    currency = forms.ChoiceField(label=_("Currency"), choices=Currency.choices, widget=Segments)
    coin = coin_field()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.initial.setdefault("date", timezone.localdate())
        self.initial.setdefault("currency", Currency.CZK)


class TableForm(forms.Form):
    """Game, preset, stake, players in seat order and the house rules (options) of the table.

    The option fields are drawn for one game and preset (``drawn_for``). When the scorekeeper picks another game or
    preset, the options are drawn again: those the scorekeeper changed (``edited``) keep what was typed, the others
    take the new preset's values, because a value that was only the old preset's must not stay and price the table.
    A bound form does that to its own data, so the htmx redraw, the no-JS "update" button and a submission that
    arrives before the redraw all show the same options; the last one is refused until the scorekeeper saw them.
    """

    game = forms.ChoiceField(label=_("Game"), choices=Game.choices, widget=Segments)
    preset = forms.ChoiceField(label=_("House rules preset"))
    # Labelled with the players' names once they are known (talon.js renames them while the names are typed).
    first_dealer = forms.TypedChoiceField(label=_("First dealer"), coerce=int, initial=0, widget=Segments)
    # "game:preset" the option fields were drawn for, and the options the scorekeeper changed since (by name).
    drawn_for = forms.CharField(widget=forms.HiddenInput, required=False)
    edited = forms.CharField(widget=forms.HiddenInput, required=False)
    # Frozen with the ruleset once the table starts. Not required: a post without them (an older page, a script)
    # starts the table as tables always started, the scorekeeper alone recording and nobody confirming.
    recording = forms.ChoiceField(
        label=_("Who records"), choices=Table.Recording.choices, required=False, widget=Segments
    )
    confirmation = forms.ChoiceField(
        label=_("Confirmation of each hand"), choices=Table.Confirmation.choices, required=False, widget=Segments
    )
    # Bound, the request's QueryDict; unbound, Django's empty MultiValueDict: either copies and takes writes
    # (_redraw_options), which the stubs' Mapping does not say.
    data: MultiValueDict[str, str]

    def __init__(
        self, *args: Any, known_players: list[str] | None = None, currency: str | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.known_players = known_players or []
        self.currency = currency  # the evening's: the default stake is one that means something in it
        game_name = self._value("game")
        if game_name not in rules.GAME_NAMES:
            game_name = Game["MARIAS"].value
        game = rules.game(game_name)
        self.fields["game"].widget.attrs["data-refresh"] = "1"
        choice_field(self, "preset").choices = [(name, preset_label(game_name, name)) for name in game.presets]
        self.fields["preset"].widget.attrs["data-refresh"] = "1"
        preset = self._value("preset")
        if preset is None or preset not in game.presets:
            preset = game.default_preset
        # Not self.preset: that name is the declared field's (the form's class attribute).
        self.game_name, self.preset_name = game_name, preset
        for seat in range(MAX_SEATS):
            self.fields[f"player_{seat}"] = forms.CharField(
                label=_("Seat %(n)s") % {"n": seat + 1},
                max_length=40,
                required=seat < min(game.seats),
                widget=forms.TextInput(attrs={"list": "known-players", "autocomplete": "off"}),
            )
        choice_field(self, "first_dealer").choices = [(seat, self._seat_name(seat)) for seat in range(MAX_SEATS)]
        for name, field in _option_fields(game_name, preset, currency).items():
            self.fields[f"opt_{name}"] = field
        self.initial.update({"game": game_name, "preset": preset, "drawn_for": f"{game_name}:{preset}"})
        self.initial.setdefault("recording", Table.Recording.SCOREKEEPER)
        self.initial.setdefault("confirmation", Table.Confirmation.NONE)
        self.stale = False  # the options posted were drawn for another game or preset
        self.edited_options: list[str] = []
        if self.is_bound:
            self._redraw_options()

    def _value(self, name: str) -> str | None:
        if self.is_bound:
            return self.data.get(name) or None
        value = self.initial.get(name)
        return str(value) if value else None

    def _seat_name(self, seat: int) -> str:
        name = self.data.get(f"player_{seat}") if self.is_bound else self.initial.get(f"player_{seat}")
        return str(name).strip() if name and str(name).strip() else str(_("Seat %(n)s") % {"n": seat + 1})

    def _redraw_options(self) -> None:
        """Bring the posted options to this game and preset, keeping those the scorekeeper changed."""
        drawn_for = f"{self.game_name}:{self.preset_name}"
        edited = _edited_options(self.data, self.game_name, self.currency)
        data = self.data.copy()
        self.stale = self.data.get("drawn_for") != drawn_for
        if self.stale:
            for name, field in self.fields.items():
                if name.startswith("opt_") and name.removeprefix("opt_") not in edited:
                    _put(data, name, field.initial)
            data["game"], data["preset"], data["drawn_for"] = self.game_name, self.preset_name, drawn_for
        self.edited_options = [name for name in edited if f"opt_{name}" in self.fields]
        data["edited"] = " ".join(self.edited_options)
        self.data = data

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        if self.stale:
            raise forms.ValidationError(
                _("The house rules are now those of the game and preset you chose: check them and start again.")
            )
        return cleaned

    def option_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith("opt_")]

    def player_fields(self) -> list[forms.BoundField]:
        return [self[f"player_{seat}"] for seat in range(MAX_SEATS)]

    def players(self) -> list[str]:
        return [
            self.cleaned_data[f"player_{seat}"] for seat in range(MAX_SEATS) if self.cleaned_data.get(f"player_{seat}")
        ]

    def table_settings(self) -> dict[str, str]:
        """Who records and whose OK a hand needs, as chosen (the defaults where nothing was posted)."""
        return {
            "recording": self.cleaned_data.get("recording") or Table.Recording.SCOREKEEPER,
            "confirmation": self.cleaned_data.get("confirmation") or Table.Confirmation.NONE,
        }

    def overrides(self) -> dict[str, Any]:
        """The preset plus every option as the scorekeeper saw and left it (a valid form was drawn for this preset)."""
        overrides: dict[str, Any] = {"preset": self.preset_name}
        for name in self.fields:
            if name.startswith("opt_"):
                value = self.cleaned_data.get(name)
                if value not in (None, ""):
                    overrides[name.removeprefix("opt_")] = str(value) if isinstance(value, Decimal) else value
        return overrides


def _option_fields(game_name: str, preset: str, currency: str | None = None) -> dict[str, forms.Field]:
    """A form field per house rule of the game (the evening's currency aside), at the preset's values.

    A preset counting in another currency than the evening's starts from the game's stake for that currency
    (a Skat list point at 0.01 € means nothing at a table playing in Kč).
    """
    values = rules.resolve(game_name, {"preset": preset})
    stake = currency_stake(game_name, currency) if currency and currency != values.get("currency") else None
    if stake is not None:
        values["stake"] = str(stake)
    return {
        name: _option_field(game_name, name, option, values[name])
        for name, option in rules.game(game_name).options.items()
        if name != "currency"
    }


def _option_field(game_name: str, name: str, option: rules.base.Option, initial: Any) -> forms.Field:
    """A form field for one house rule; the rules engine checks the value when the table is created.

    Required (a checkbox aside): the form always draws every option filled in, and an emptied stake left to the
    preset would be a price the scorekeeper never saw.
    """
    label = option.translated_help()
    if isinstance(option.default, bool):
        return forms.BooleanField(label=label, required=False, initial=initial)
    if isinstance(option.default, int):
        return forms.IntegerField(label=label, initial=initial)
    if isinstance(option.default, Decimal):
        return forms.DecimalField(label=label, initial=Decimal(initial), max_digits=14, decimal_places=4)
    if option.choices:
        choices = [(choice, value_label(game_name, name, choice) or choice) for choice in option.choices]
        return forms.ChoiceField(label=label, initial=initial, choices=choices)
    return forms.CharField(label=label, initial=initial)


def _drawn_for(value: str | None) -> tuple[str, str] | None:
    game_name, _sep, preset = (value or "").partition(":")
    if game_name in rules.GAME_NAMES and preset in rules.game(game_name).presets:
        return game_name, preset
    return None


_UNREADABLE = object()  # a posted value no field accepts: the scorekeeper typed it, so it counts as changed


def _edited_options(data: Any, game_name: str, currency: str | None = None) -> list[str]:
    """The options the scorekeeper changed: marked so before, or posted other than drawn (an emptied one is not).

    Without a known drawing (a hand-made post) every option posted with a value counts as changed.
    """
    drawn = _drawn_for(data.get("drawn_for"))
    if drawn is None:
        return [
            name
            for name in rules.game(game_name).options
            if name != "currency" and data.get(f"opt_{name}") not in (None, "")
        ]
    before = set(str(data.get("edited") or "").split())
    edited = []
    for name, field in _option_fields(*drawn, currency).items():
        posted: Any = field.widget.value_from_datadict(data, {}, f"opt_{name}")
        if posted in field.empty_values:
            continue  # emptied: the value to show is the preset's again
        try:
            posted = field.clean(posted)
        except forms.ValidationError:
            posted = _UNREADABLE
        if name in before or posted != field.initial:
            edited.append(name)
    return edited


def _put(data: Any, key: str, value: Any) -> None:
    """Write an option's value into form data as a browser posts it (an unticked checkbox is not posted)."""
    if value is False:
        data.pop(key, None)
    elif value is True:
        data[key] = "on"
    else:
        data[key] = str(value)


class ScorekeeperForm(forms.Form):
    username = forms.CharField(label=_("User name of the co-scorekeeper"), max_length=150)


class SettlementForm(forms.Form):
    """How to settle at the close: the mode, and the banker when everybody settles with one person."""

    mode = forms.ChoiceField(label=_("How to settle"), choices=Settlement.Mode.choices, widget=Segments)
    banker = forms.ChoiceField(label=_("Banker"), required=False)
    # Drawn only while a close check is open (a hand not confirmed, a player who has not signed).
    override = forms.BooleanField(
        label=_("Close anyway"),
        required=False,
        help_text=_("Closes past what is still open; the evening's history records what it was."),
    )

    def __init__(self, *args: Any, players: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.initial.setdefault("mode", Settlement.Mode.FEWEST)
        choice_field(self, "banker").choices = [("", _("(only for a banker)")), *((name, name) for name in players)]


class PlayerIbanForm(forms.Form):
    iban = forms.CharField(
        label=_("IBAN"),
        max_length=42,  # 34 characters plus the spaces people type in groups of four
        required=False,
        help_text=_("For payment QR codes on the settlement page; leave empty to remove."),
    )
