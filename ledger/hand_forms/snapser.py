"""The Šnapser hand form: chooser, trump, announcement, who won and how."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from ledger.hand_forms.base import HandForm, Layout
from ledger.hand_forms.conditions import ALWAYS, Is, When
from ledger.hand_forms.fields import (
    SIDE_CHOICES,
    called_partner,
    choice_field,
    drop_empty,
    partner_choices,
    partner_initial,
    players_choices,
    segment_field,
)
from rules import snapser

# The suits in the reader's language, as the hand log says them (English: hearts, bells; Slovak: červeň, guľa).
TRUMPS = [
    ("hearts", pgettext_lazy("snapser trump", "♥ hearts")),
    ("bells", pgettext_lazy("snapser trump", "bells")),
    ("leaves", pgettext_lazy("snapser trump", "leaves")),
    ("acorns", pgettext_lazy("snapser trump", "acorns")),
]
ANNOUNCEMENTS = [("hram", _("hrám")), ("za12", _("za 12")), ("durch", _("durch")), ("nehram", _("nehrám"))]
RESULTS = [
    ("s_vodou", _("s vodou")),
    ("bez_vody", _("bez vody")),
    ("za_6", _("za 6")),
    ("tichy_durch", _("tichý durch")),
]
ENDS = [("", "—"), ("dost", _("dosť")), ("last_trick", _("last trick")), ("false_dost", _("false dosť"))]


class SnapserHandForm(HandForm):
    game = "snapser"
    contract_field = "announcement"
    everyday_contracts = ("hram",)
    more_names = ("end",)

    declarer = segment_field(_("Chooser"), [])
    partner = segment_field(_("Partner (holder of the called card)"), [])
    trump = segment_field(_("Trump"), TRUMPS)
    announcement = segment_field(_("Announcement"), ANNOUNCEMENTS)
    winner = segment_field(_("Won by"), SIDE_CHOICES)
    result = segment_field(_("Result"), RESULTS)
    raises = segment_field(_("Raises"), [], coerce=int)
    end = segment_field(_("How it ended"), ENDS)

    def setup(self) -> None:
        players = players_choices(self.seats)
        choice_field(self, "declarer").choices = players
        choice_field(self, "partner").choices = partner_choices(self.seats)
        # The engine's names (kontra … boty), as the hand's explanation says them.
        levels = range(1, snapser.MAX_RAISES + 1)
        choice_field(self, "raises").choices = [(0, "—"), *((level, snapser.raise_name(level)) for level in levels)]
        choice_field(self, "result").choices = [("", "—"), *RESULTS]
        self.initial.setdefault("declarer", self.forehand())
        self.initial.setdefault("announcement", "hram")
        self.initial.setdefault("winner", "declarer")
        self.initial.setdefault("raises", 0)

    def layout(self) -> Layout:
        played = ~Is("announcement", "nehram")
        za12 = Is("announcement", "za12")
        fields: dict[str, When] = {"declarer": ALWAYS}
        if len(self.seats) == 4:
            fields["partner"] = ALWAYS
        fields |= {
            "trump": ALWAYS,
            "announcement": ALWAYS,
            "winner": played,
            "result": Is("announcement", "hram", "za12"),
            "raises": played,
            "end": played,
        }
        # A za 12 has a result only when one side took every trick: then it is a tichý durch (RULES.md §3).
        result = {"": za12} | {value: ~za12 for value, _label in RESULTS[:-1]}
        # A hrám ends with its category (the winning side pre-selected above it), a za 12 or a durch with who won:
        # one tap that records. A nehrám has nothing left to say: "Record hand".
        record = {"result": Is("announcement", "hram"), "winner": Is("announcement", "za12", "durch")}
        return Layout(fields, record, {"result": result})

    def required_names(self) -> list[str]:
        required = ["declarer", "partner", "trump", "announcement", "winner"]
        if self.current("announcement") != "za12":
            required.append("result")  # a za 12 has none unless one side took every trick
        return [name for name in required if name in self.shown_names()]

    def to_document(self, data: dict[str, Any]) -> dict[str, Any]:
        document = drop_empty(dict(data))
        if data.get("raises") == 0:
            document.pop("raises", None)
        if called_partner(document) is None:
            document.pop("partner", None)
        if document.get("result") is not None and document.get("result") == _fixed_result(self.settings, document):
            document.pop("result")  # the table's house rule fixes it: the engine's default, left out like it
        return document

    @classmethod
    def from_document(cls, table: Any, document: dict[str, Any]) -> dict[str, Any]:
        initial = dict(document)
        if len(table.seat_names) == 4:
            initial["partner"] = partner_initial(document)
        # A false "dosť" at a table that fixes its category stores no result: show the fixed one, not the form's
        # everyday default (which the engine would refuse for this hand).
        fixed = _fixed_result(table.ruleset, document)
        if fixed is not None and "result" not in document:
            initial["result"] = fixed
        return initial


def _fixed_result(settings: dict[str, Any], document: dict[str, Any]) -> str | None:
    """The category a hrám ended by a false "dosť" is paid at when the table's house rule fixes it, else None."""
    fixed = settings.get("false_dost", "by_points")
    if document.get("announcement") == "hram" and document.get("end") == "false_dost" and fixed != "by_points":
        return str(fixed)
    return None
