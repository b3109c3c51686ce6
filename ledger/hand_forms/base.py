"""The hand form: one Django form per game that turns taps into the hand part of the hand document.

The form only collects; the rules engine validates and prices. A ``RulesError`` comes back to the form and is
shown beside the field it names (``add_domain_error``). Fields appear only when they matter for the chosen contract:
each game's ``layout`` says when, in conditions (``conditions.py``) that the page evaluates at every tap, so the form
is drawn once and never waits for the server, and that the server evaluates to read the same hand from what was posted.
"""

from __future__ import annotations

import itertools
import json
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, TypedDict

from django import forms
from django.utils.translation import gettext_lazy as _

import rules
from ledger.hand_forms.conditions import ALWAYS, AnyOf, When, asked_values
from ledger.hand_forms.fields import choice_field


class SeatedTable(Protocol):
    """What a hand form reads of its table: a ``ledger.models.Table``, or in the browser without a network the
    ``ledger.offline.pricing.OfflineTable`` that stands in for it."""

    @property
    def seat_names(self) -> Any: ...

    @property
    def ruleset(self) -> Any: ...


def missing_message(field: forms.Field) -> str:
    """What to say when a field that decides the money was left empty: the choices in the reader's words.

    Built when the form is, in the request's language (Django copies ``error_messages`` for each form).
    """
    choices = [str(label) for value, label in getattr(field, "choices", []) if value not in ("", None)]
    if choices:
        # Labels that hold a comma themselves ("hra won, sedma lost") are told apart by semicolons.
        separator = "; " if any("," in choice for choice in choices) else ", "
        return _("Tap one: %(choices)s.") % {"choices": separator.join(choices)}
    if isinstance(field, forms.IntegerField):
        return _("Enter a number from %(min)s to %(max)s.") % {"min": field.min_value, "max": field.max_value}
    return str(_("This decides the money: fill it in."))


# The usual contract is the one most played among this many of the table's newest counted hands.
CONTRACTS_WINDOW = 30


class ContractPlayed(TypedDict):
    contract: str  # as the hand document names it
    count: int  # counted hands that played it
    latest: int  # the number of the latest of them


def tally_contracts(recent: list[tuple[int, str]]) -> list[ContractPlayed]:
    """``contracts_played`` from the window's (number, contract) pairs, newest first."""
    played: dict[str, ContractPlayed] = {}
    for number, contract in recent[:CONTRACTS_WINDOW]:
        if contract:
            row = played.setdefault(contract, {"contract": contract, "count": 0, "latest": number})
            row["count"] += 1
    return list(played.values())  # newest first: each contract's first row is its latest hand


@dataclass
class Layout:
    """When each field of a hand form is asked (``fields``, in screen order), which fields record the hand with a tap
    on one of their choices and when (``record``: at most one holds at a time), and which single choices only some
    hands allow (``choices``: field → value → condition)."""

    fields: Mapping[str, When]
    record: Mapping[str, When] = field(default_factory=dict)
    choices: Mapping[str, Mapping[str, When]] = field(default_factory=dict)


@dataclass
class DrawnChoice:
    """One choice of a field as the template draws it: its widget and, for a choice only some hands allow, its
    condition and whether it is offered now."""

    widget: Any
    value: str
    label: Any
    show: str  # the condition as JSON, "" when always offered
    offered: bool


@dataclass
class DrawnField:
    """A field as the template draws it: asked now or hidden, with the condition the page re-evaluates at each tap."""

    bound: forms.BoundField
    show: str
    asked: bool
    choices: list[DrawnChoice]
    # A box drawn as a small pill beside the field before it (the 40 beside the 20s), and its short text.
    pill: str = ""
    beside_next: bool = False

    @property
    def name(self) -> str:
        return self.bound.name

    @property
    def buttons(self) -> list[DrawnChoice]:
        """The choices drawn as record buttons: every one but "—", which answers nothing."""
        return [choice for choice in self.choices if choice.value != ""]

    @property
    def long_labels(self) -> bool:
        """Choices with long names ("hra won, sedma lost"): their record buttons go two a row, others three."""
        return any(len(str(choice.label)) > 10 for choice in self.choices)


class HandForm(forms.Form):
    """Base of the per-game hand forms.

    Subclasses declare their fields, ``layout`` (when each is asked), ``to_document`` (cleaned data → hand part of
    the document) and ``from_document`` (the reverse, for corrections).
    """

    game: ClassVar[str]
    # Fields kept under "more" (rarely changed); everything else is shown first.
    more_names: ClassVar[tuple[str, ...]] = ()
    # Boxes drawn as a pill with a short text on the line of the field before them (their label stays their name
    # for a screen reader): field → short text.
    pills: ClassVar[dict[str, Any]] = {}
    # The field that names what was played, and the game's everyday contracts (the first is the plain default).
    contract_field: ClassVar[str] = "contract"
    everyday_contracts: ClassVar[tuple[str, ...]]

    key = forms.CharField(widget=forms.HiddenInput, required=False, max_length=64)
    # Not posted (no JavaScript, a bare client): None, and the service takes the rotation's dealer.
    dealer = forms.TypedChoiceField(label=_("Dealer"), coerce=int, required=False, empty_value=None)

    def __init__(
        self, table: SeatedTable, *args: Any, dealer: int = 0, correction: bool = False, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        if self.is_bound and "_refresh" in self.data:
            self.data = self._with_defaults(table, self.data)
        self.table = table
        # A correction saves with one button and shows the record field as a field; a new hand records with a tap.
        self.correction = correction
        self.seats: list[str] = list(table.seat_names)
        self.settings = table.ruleset
        choice_field(self, "dealer").choices = list(enumerate(self.seats))
        if not self.is_bound and "dealer" not in self.initial:
            self.initial["dealer"] = dealer
        if not self.is_bound and not self.initial.get("key"):
            self.initial["key"] = uuid.uuid4().hex
        self.setup()
        for name in self.pills:
            # Drawn as a short pill ("+ 40"): its label stays its name for a screen reader.
            self.fields[name].widget.attrs["aria-label"] = str(self.fields[name].label)
        self._layout = self.layout()
        self._asked = asked_values(self._layout.fields, self._raw_values())
        for name in self.required_names():
            bound_field = self.fields[name]
            bound_field.required = True
            bound_field.error_messages["required"] = missing_message(bound_field)

    @classmethod
    def _with_defaults(cls, table: SeatedTable, data: Any) -> Any:
        """The posted values plus the defaults of the fields that were not posted.

        The page without JavaScript redraws the form for a new contract with "Update" (``_refresh``); a field that
        was not posted would lose its default and cost taps. Checkboxes are left alone: for them, not posted means
        unticked.
        """
        data = data.copy()
        dealer = str(data.get("dealer", ""))
        blank = cls(table, dealer=int(dealer) if dealer.isdecimal() else 0)
        for name, form_field in blank.fields.items():
            value = blank.initial.get(name, form_field.initial)
            if name in data or value in (None, "") or isinstance(form_field.widget, forms.CheckboxInput):
                continue
            data[name] = str(value)
        return data

    @classmethod
    def usual_contract(cls, played: Sequence[tuple[str, int]]) -> str:
        """The contract to pre-select: the one played most at this table when it leads alone; on a tie the everyday
        one (of those tied, the latest played), so that one rare hand never makes a rare contract the default.

        ``played``: (contract, how many counted hands played it) for each contract, the most recently played first
        (``selectors.contracts_played``: one grouped query, whatever the length of the evening).
        """
        if not played:
            return cls.everyday_contracts[0]
        top = max(count for _contract, count in played)
        leaders = [contract for contract, count in played if count == top]
        if len(leaders) == 1:
            return leaders[0]
        everyday = [contract for contract in leaders if contract in cls.everyday_contracts]
        return everyday[0] if everyday else cls.everyday_contracts[0]

    # -- subclass hooks ------------------------------------------------------------------------------------------

    def setup(self) -> None:
        """Fill choices that depend on the table (players, options in force)."""

    def layout(self) -> Layout:
        """When each field is asked and which one records the hand (see ``Layout``)."""
        raise NotImplementedError

    def required_names(self) -> list[str]:
        """The shown fields that decide who pays or how much and that nothing makes certain: the scorekeeper taps
        them, and an empty one is an error beside it (all of them at once, before the engine is asked)."""
        return []

    def to_document(self, data: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    @classmethod
    def from_document(cls, table: SeatedTable, document: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    @classmethod
    def status_player(cls, document: dict[str, Any]) -> str | None:
        """Whose money the status line names after Record: the chooser's, where the hand has one."""
        declarer = document.get("declarer")
        return str(declarer) if declarer else None

    # -- what the layout says now ----------------------------------------------------------------------------------

    def _raw_values(self) -> dict[str, str]:
        """The form's values as the browser holds them: posted data when bound, else the initial values written the
        way a browser would post them (a ticked box is "on")."""
        if self.is_bound:
            return {name: str(self.data.get(self.add_prefix(name)) or "") for name in self.fields}
        raw = {}
        for name, form_field in self.fields.items():
            value = self.initial.get(name, form_field.initial)
            if isinstance(form_field.widget, forms.CheckboxInput):
                raw[name] = "on" if value else ""
            else:
                # Not ``value in (None, False)``: a 0 (card points) is a value, and 0 == False in Python.
                raw[name] = "" if value is None or value is False else str(value)
        return raw

    def shown_names(self) -> list[str]:
        """The fields asked for the current values, in screen order: they make the hand document."""
        return [name for name, when in self._layout.fields.items() if when.holds(self._asked)]

    def record_name(self) -> str | None:
        """The shown field whose choices record the hand at once, or None: "Record hand" records it.

        The last choice of a common hand (won or lost, the category, the declarer…) is drawn as one submit button
        per choice, so that it is the last tap. Everything else the hand is priced from stays on the screen above
        the buttons, pre-selected where the form has a default, so a button records exactly what the page shows.
        """
        for name, when in self._layout.record.items():
            if when.holds(self._asked) and self._layout.fields[name].holds(self._asked):
                return name
        return None

    def _field_condition(self, name: str) -> When:
        """When the field is drawn as a field: when asked, less when its buttons record the hand instead."""
        when = self._layout.fields[name]
        if name in self._layout.record and not self.correction:
            return when & ~self._layout.record[name]
        return when

    def _drawn(self, name: str, when: When) -> DrawnField:
        bound = self[name]
        choices = []
        conditions = self._layout.choices.get(name, {})
        if isinstance(bound.field.widget, forms.RadioSelect | forms.CheckboxSelectMultiple):
            for widget in bound:
                choice = conditions.get(str(widget.data["value"]))
                choices.append(
                    DrawnChoice(
                        widget,
                        str(widget.data["value"]),
                        widget.choice_label,
                        json.dumps(choice.as_json()) if choice is not None else "",
                        choice is None or choice.holds(self._asked),
                    )
                )
        pill = str(self.pills.get(name, ""))
        return DrawnField(bound, json.dumps(when.as_json()), when.holds(self._asked), choices, pill)

    def drawn(self, names: Iterable[str]) -> list[DrawnField]:
        fields = [self._drawn(name, self._field_condition(name)) for name in names]
        for before, after in itertools.pairwise(fields):
            before.beside_next = bool(after.pill)
        return fields

    def more(self) -> tuple[str, ...]:
        """The fields under "More" for the current values: ``more_names``, less any a game draws among the shown
        ones now (a pre-selected value that changes the money must be on the screen, not in a closed "More")."""
        return self.more_names

    def shown(self) -> list[DrawnField]:
        """Every field of the layout outside "More", asked now or not (the page shows them as the values change)."""
        more = self.more()
        return self.drawn(name for name in self._layout.fields if name not in more)

    def shown_more(self) -> list[DrawnField]:
        more = self.more()
        return [
            DrawnField(self["dealer"], json.dumps(ALWAYS.as_json()), True, []),
            *self.drawn(name for name in self._layout.fields if name in more),
        ]

    def record_bar(self) -> list[DrawnField]:
        """The fields whose buttons record a new hand, each drawn with when it does (none for a correction)."""
        if self.correction:
            return []
        return [self._drawn(name, self._layout.fields[name] & when) for name, when in self._layout.record.items()]

    @property
    def plain_record(self) -> dict[str, Any]:
        """The "Record hand" button's condition (JSON) and whether it shows now: when no record field applies."""
        recording = [self._layout.fields[name] & when for name, when in self._layout.record.items()]
        when = ~AnyOf(tuple(recording)) if recording and not self.correction else ALWAYS
        return {"show": json.dumps(when.as_json()), "asked": when.holds(self._asked)}

    @property
    def more_has_errors(self) -> bool:
        """Whether "More" opens by itself: a field in it has an error (by name: nothing is drawn for this)."""
        return any(self.errors.get(name) for name in ("dealer", *self.more()))

    def current(self, name: str) -> Any:
        """The field's value as the user sees it now: posted data when bound, else the initial value."""
        if self.is_bound:
            value = self.data.get(self.add_prefix(name))
            if value not in (None, ""):
                return self.fields[name].to_python(value)
            return None
        return self.initial.get(name, self.fields[name].initial)

    @property
    def dealer_position(self) -> int:
        dealer = self.current("dealer")
        # Posted data is not cleaned yet: anything but a seat number draws the form for the first seat.
        position = int(dealer) if isinstance(dealer, int) or str(dealer).isdecimal() else 0
        return position % len(self.seats)

    @property
    def dealer_name(self) -> str:
        return self.seats[self.dealer_position]

    def sits_out(self) -> int | None:
        """The seat that plays no part in this hand (the dealer at a four-seat Skat table), or None: the game's own
        rule (``rules.Game.next_hand``), asked for the dealer on the form."""
        seats, dealer = len(self.seats), self.dealer_position
        return rules.game(self.game).next_hand(seats, self.settings, [], first_dealer=dealer).sits_out

    def active_players(self) -> list[str]:
        """Who plays this hand: everybody but the seat that sits out."""
        sits_out = self.sits_out()
        return [name for position, name in enumerate(self.seats) if position != sits_out]

    def forehand(self) -> str:
        """The player to the dealer's left: leads or chooses first."""
        active = self.active_players()
        position = self.seats.index(self.dealer_name)
        for step in range(1, len(self.seats) + 1):
            candidate = self.seats[(position + step) % len(self.seats)]
            if candidate in active:
                return candidate
        return active[0]

    def document(self) -> dict[str, Any]:
        """The hand part of the document from the cleaned data, without the fields that do not matter."""
        shown = set(self.shown_names())
        data = {name: value for name, value in self.cleaned_data.items() if name in shown}
        return self.to_document(data)

    def focus_first_error(self) -> None:
        """Put the cursor on the first field in error, in screen order (``autofocus``: also without JavaScript)."""
        # By name: drawing the fields first would render their choices before the mark is on the widget.
        more = self.more()
        order = [
            *(name for name in self._layout.fields if name not in more),
            "dealer",
            *(name for name in self._layout.fields if name in more),
        ]
        asked = {*self.shown_names(), "dealer"}
        for name in order:
            if name in asked and self.errors.get(name):
                self.fields[name].widget.attrs["autofocus"] = True
                return

    def errors_outside_shown(self) -> list[str]:
        """Errors on fields that are not on the screen, so none is ever silently swallowed."""
        shown = set(self.shown_names()) | {"dealer"}
        return [
            f"{self.fields[name].label}: {message}"
            for name, messages in self.errors.items()
            if name != "__all__" and name not in shown
            for message in messages
        ]


class DomainError(Protocol):
    """An error that names a place in the hand document: ``rules.RulesError``, ``services.LedgerError``."""

    @property
    def field(self) -> str | None: ...

    @property
    def message(self) -> str: ...


def add_domain_error(form: forms.BaseForm, error: DomainError) -> None:
    """Show the engine's or the ledger's error beside the field it names, else above the form.

    The error names a place in the document: ``flek.sedma`` is the field ``flek_sedma``, ``renonc.kind`` falls
    back to ``renonc``, and a house rule ``rules.bock`` is the table form's ``opt_bock``. An engine message left
    above the form keeps that place in front, because it reads as a predicate ("must be …").
    """
    path = error.field or ""
    option = path.removeprefix("rules.")
    for name in (path, path.replace(".", "_"), path.split(".")[0], option, f"opt_{option}"):
        if name and name in form.fields:
            form.add_error(name, error.message)
            return
    if isinstance(error, rules.RulesError) and path:
        form.add_error(None, f"{path}: {error.message}")
    else:
        form.add_error(None, error.message)
