"""Forms of the tournament pages. They collect input; ``ledger.tournaments.formats`` decides what is valid and
names the option it refuses (``options.fees.entry`` …), which ``add_tournament_error`` puts beside its field."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledger.errors import LedgerError
from ledger.forms import coin_field
from ledger.hand_forms.fields import Segments
from ledger.models import Currency, Game
from rules import tournament as rt


def money_field(label: Any, help_text: Any = "") -> forms.DecimalField:
    return forms.DecimalField(
        label=label, help_text=help_text, min_value=Decimal(0), max_digits=14, decimal_places=2, required=False
    )


# The service's name of an input → the form's field; the longest matching prefix wins (options.fees.lost.3.x …).
FIELD_OF = {
    "options.fees.entry": "entry_fee",
    "options.fees.table": "table_fee",
    "options.fees.lost.3": "lost_fee_3",
    "options.fees.lost.4": "lost_fee_4",
    "options.prizes": "prizes",
    "options.placement": "placement",
    "options.for_money": "for_money",
    "options.minutes": "minutes",
    "game": "game",
    "name": "name",
    "rounds": "rounds",
    "players": "players",
    "date": "date",
    "place": "place",
    "currency": "currency",
    "coin": "coin",
}


def add_tournament_error(form: forms.BaseForm, error: LedgerError) -> None:
    """The service's error beside the field it names, else above the form."""
    path = error.field or ""
    matches = [key for key in FIELD_OF if path == key or path.startswith(f"{key}.")]
    name = FIELD_OF[max(matches, key=len)] if matches else None
    form.add_error(name if name in form.fields else None, error.message)


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name of the tournament"), max_length=80)
    game = forms.ChoiceField(label=_("Game"), choices=Game.choices, widget=Segments)
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    place = forms.CharField(label=_("Place"), max_length=80, required=False)
    currency = forms.ChoiceField(label=_("Currency"), choices=Currency.choices, widget=Segments)
    coin = coin_field()
    rounds = forms.IntegerField(
        label=_("Series or rounds"),
        min_value=1,
        max_value=20,
        help_text=_("Skat: series of 48 games at four seats, 36 at three. Mariáš and Šnapser: rounds."),
    )
    entry_fee = money_field(_("Entry fee"))
    table_fee = money_field(_("Table fee per series"))
    lost_fee_3 = money_field(_("Lost-game fee at a three-seat table"), _("Skat: paid for each game lost."))
    lost_fee_4 = money_field(_("Lost-game fee at a four-seat table"))
    prizes = forms.ChoiceField(
        label=_("Prizes from the fees"),
        choices=[
            ("top3", _("The best three: 50, 30, 20 %")),
            ("winner", _("The winner takes it all")),
            ("third", _("The best third of the field, falling")),
        ],
        widget=Segments,
    )
    placement = forms.CharField(
        label=_("Placement points"),
        required=False,
        max_length=80,
        help_text=_("Mariáš and Šnapser: points for the places at a table, best first, e.g. 4, 3, 2, 1."),
    )
    for_money = forms.BooleanField(label=_("The tables play for money"), required=False)
    minutes = forms.IntegerField(label=_("Minutes per round"), min_value=1, max_value=600)
    players = forms.CharField(
        label=_("Players"),
        widget=forms.Textarea(attrs={"rows": 6, "autocapitalize": "words"}),
        required=False,
        help_text=_("One name a line (or separated by commas); you can add players later too."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.initial.setdefault("game", rt.tournament_games()[0])  # the registry's first: Skat
        self.initial.setdefault("date", timezone.localdate())
        self.initial.setdefault("currency", Currency.EUR)
        self.initial.setdefault("rounds", 2)
        self.initial.setdefault("lost_fee_3", Decimal("0.50"))
        self.initial.setdefault("lost_fee_4", Decimal("1.00"))
        self.initial.setdefault("prizes", "top3")
        self.initial.setdefault("minutes", 90)

    def player_names(self) -> list[str]:
        text = self.cleaned_data.get("players", "").replace(",", "\n")
        return [name.strip() for name in text.splitlines() if name.strip()]

    def clean_placement(self) -> list[str] | None:
        text = self.cleaned_data.get("placement", "").replace(";", ",")
        parts = [part.strip() for part in text.replace(" ", ",").split(",") if part.strip()]
        if not parts:
            return None
        try:
            [Decimal(part) for part in parts]
        except InvalidOperation:
            raise forms.ValidationError(_("Give numbers, best place first, e.g. 4, 3, 2, 1.")) from None
        return parts

    def options(self) -> dict[str, Any]:
        """The format options as the service reads them (``formats.format_from``): only what was given,
        money as strings."""
        data = self.cleaned_data
        fees: dict[str, Any] = {}
        for key, name in (("entry", "entry_fee"), ("table", "table_fee")):
            if data.get(name) is not None:
                fees[key] = str(data[name])
        lost = {
            seats: str(data[f"lost_fee_{seats}"]) for seats in ("3", "4") if data.get(f"lost_fee_{seats}") is not None
        }
        if lost:
            fees["lost"] = lost
        options: dict[str, Any] = {"fees": fees, "prizes": data["prizes"], "for_money": bool(data.get("for_money"))}
        if data.get("placement"):
            options["placement"] = data["placement"]
        if data.get("minutes") is not None:
            options["minutes"] = data["minutes"]
        return options


class EntrantForm(forms.Form):
    name = forms.CharField(label=_("New player"), max_length=40)
