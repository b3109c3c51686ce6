"""Forms of the circle pages. They collect input; ``ledger.circles.services`` decides what is valid."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from ledger.circles.models import Circle
from ledger.forms import SettlementForm, coin_field
from ledger.hand_forms.fields import Segments
from ledger.models import Currency, Player


class CircleForm(forms.Form):
    name = forms.CharField(label=_("Name of the circle"), max_length=80)
    members = forms.CharField(
        label=_("Members"),
        widget=forms.Textarea(attrs={"rows": 5, "autocapitalize": "words"}),
        required=False,
        help_text=_("One name a line (or separated by commas); known players are reused."),
    )
    settle = forms.ChoiceField(label=_("How the circle settles"), choices=Circle.Settle.choices, widget=Segments)
    currency = forms.ChoiceField(label=_("Currency"), choices=Currency.choices, widget=Segments)
    coin = coin_field()
    pot_share = forms.DecimalField(
        label=_("Share of each winner's gain paid into the pot"),
        required=False,
        min_value=Decimal(0),
        max_value=Decimal(1),
        max_digits=14,
        decimal_places=4,
        help_text=_("For a pot: 0.1 is a tenth."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.initial.setdefault("settle", Circle.Settle.EVENING)
        self.initial.setdefault("currency", Currency.CZK)

    def member_names(self) -> list[str]:
        text = self.cleaned_data.get("members", "").replace(",", "\n")
        return [name for name in text.splitlines() if name.strip()]


class CircleSettingsForm(forms.Form):
    """A circle's settings after creation (``services.circle_settings_change`` decides what may change)."""

    name = forms.CharField(label=_("Name of the circle"), max_length=80)
    settle = forms.ChoiceField(label=_("How the circle settles"), choices=Circle.Settle.choices, widget=Segments)
    currency = forms.ChoiceField(label=_("Currency"), choices=Currency.choices, widget=Segments)
    coin = coin_field()
    pot_share = forms.DecimalField(
        label=_("Share of each winner's gain paid into the pot"),
        min_value=Decimal(0),
        max_value=Decimal(1),
        max_digits=14,
        decimal_places=4,
        help_text=_("For a pot: 0.1 is a tenth."),
    )
    pot_holder = forms.ModelChoiceField(
        label=_("Who holds the pot"),
        queryset=Player.objects.none(),
        required=False,
        help_text=_("Winners pay their share to this member: a payment QR code when they have an IBAN."),
    )

    def __init__(self, *args: Any, circle: Circle, **kwargs: Any) -> None:
        kwargs.setdefault(
            "initial",
            {
                "name": circle.name,
                "settle": circle.settle,
                "currency": circle.currency,
                "coin": circle.coin.normalize(),
                "pot_share": circle.pot_share.normalize(),
                "pot_holder": circle.pot_holder_id,
            },
        )
        # Prefixed: the circle page's other forms have a "name" (a new member) too.
        kwargs.setdefault("prefix", "settings")
        super().__init__(*args, **kwargs)
        field = self.fields["pot_holder"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = circle.members.order_by("name")
        field.empty_label = _("(nobody yet)")


class MemberForm(forms.Form):
    name = forms.CharField(label=_("New member"), max_length=40)


class PotForm(forms.Form):
    """A deposit into the pot or a withdrawal from it, by a member or nobody in particular."""

    action = forms.ChoiceField(
        label=_("Booking"),
        choices=[("deposit", _("Deposit")), ("withdraw", _("Withdrawal"))],
        widget=Segments,
        initial="deposit",
    )
    amount = forms.DecimalField(label=_("Amount"), min_value=Decimal("0.01"), max_digits=14, decimal_places=2)
    player = forms.ModelChoiceField(label=_("Member"), queryset=Player.objects.none(), required=False)
    note = forms.CharField(label=_("Note"), max_length=200, required=False)

    def __init__(self, *args: Any, circle: Circle, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["player"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = circle.members.order_by("name")
        field.empty_label = _("(nobody in particular)")


class TabSettleForm(SettlementForm):
    """Settling the tab: the settlement's mode and banker, and a "Yes" ticked, so that one stray tap settles
    nothing (the tab's balances become transfers and the tab starts again from zero)."""

    confirm = forms.BooleanField(
        label=_("Yes, settle the tab now: its balances become payments and the tab starts again at zero"),
        error_messages={"required": _("Tick the box to settle the tab: nothing was changed.")},
    )
