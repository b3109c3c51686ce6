"""The Mariáš hand form: chooser, contract, trump, partner, points and hlášky; fleks per component."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from ledger.hand_forms.base import (
    SIDE_CHOICES,
    WON_LOST,
    HandForm,
    called_partner,
    choice_field,
    flag_field,
    optional_players,
    partner_choices,
    partner_initial,
    players_choices,
    points_field,
    segment_field,
    won_choice,
    won_flag,
)
from rules import marias
from rules.i18n import format_money

CONTRACTS = [
    ("hra", _("hra")),
    ("sedma", _("sedma")),
    ("stovka", _("stovka")),
    ("stosedm", _("stosedm")),
    ("betl", _("betl")),
    ("durch", _("durch")),
]
# The suits in the reader's language, as the hand log says them (English: hearts, bells; Czech: červené, kule).
TRUMPS = [
    ("hearts", pgettext_lazy("marias trump", "♥ hearts (lepší)")),
    ("bells", pgettext_lazy("marias trump", "bells")),
    ("leaves", pgettext_lazy("marias trump", "leaves")),
    ("acorns", pgettext_lazy("marias trump", "acorns")),
]
# A sedma without hlášky in one tap: its hra and its trump seven are each won or lost (hra/seven).
SEDMA_OUTCOMES = [
    ("won/won", _("hra won, sedma won")),
    ("won/lost", _("hra won, sedma lost")),
    ("lost/won", _("hra lost, sedma won")),
    ("lost/lost", _("hra lost, sedma lost")),
]
MARRIAGE_FIELDS = ("marriages_declarer_20", "marriages_declarer_40", "marriages_defenders_20", "marriages_defenders_40")
SEVEN_SIDES = [("", "—"), *SIDE_CHOICES]
SIDES = [("defenders", _("the defenders")), ("declarer", _("the chooser"))]
# The engine's renonc kinds, the everyday one first.
RENONC_KINDS = ("other", *(kind for kind in marias.RENONC_KINDS if kind != "other"))
COMPONENTS = ("hra", "sedma", "stovka", "betl", "durch")
# One message per component: Czech and Slovak say the component in the accusative ("Flek na hru").
FLEK_LABELS = {
    "hra": _("Flek on the hra"),
    "sedma": _("Flek on the sedma"),
    "stovka": _("Flek on the stovka"),
    "betl": _("Flek on the betl"),
    "durch": _("Flek on the durch"),
}


def _count(label: Any) -> forms.TypedChoiceField:
    """How many hlášky of 20 a side declared: none up to the engine's most."""
    return segment_field(label, [(n, str(n)) for n in range(marias.MOST_TWENTIES + 1)], coerce=int)


class MariasHandForm(HandForm):
    game = "marias"
    everyday_contracts = ("hra",)
    # A hláška brings the card points in (see _points_matter), so it redraws the form too.
    refresh_on = ("contract", "played_out", "laid", *MARRIAGE_FIELDS)
    more_names = ("played_out", "laid", "conceded_by", "flekked_by", "renonc_player", "renonc_kind")

    declarer = segment_field(_("Chooser"), [])
    contract = segment_field(_("Contract"), CONTRACTS)
    trump = segment_field(_("Trump"), TRUMPS)
    partner = segment_field(_("Partner (holds the called card)"), [])
    points = points_field(
        _("Card points of the chooser's side"),
        marias.CARD_POINTS,
        step=10,
        quick=list(range(0, marias.CARD_POINTS + 1, 10)),
    )
    marriages_declarer_20 = _count(_("Hlášky 20 of the chooser's side"))
    marriages_declarer_40 = flag_field(_("Hláška 40 (trumps) of the chooser's side"))
    marriages_defenders_20 = _count(_("Hlášky 20 of the defenders"))
    marriages_defenders_40 = flag_field(_("Hláška 40 (trumps) of the defenders"))
    seven_won = segment_field(_("The trump seven in the last trick: won or lost"), WON_LOST)
    seven_side = segment_field(_("Tichá sedma: whose trump seven was in the last trick"), SEVEN_SIDES)
    won = segment_field(_("Result"), WON_LOST)
    sedma_outcome = segment_field(_("Result: the hra and the sedma"), SEDMA_OUTCOMES)
    played_out = flag_field(_("Played out"))
    laid = flag_field(_("Laid down (shown, not played)"))
    conceded_by = segment_field(_("Given up by"), SIDES)
    flekked_by = segment_field(_("Flekked by (for a laid game)"), [])
    renonc_player = segment_field(_("Renonc by"), [])
    renonc_kind = segment_field(_("Renonc kind"), [])

    def setup(self) -> None:
        players = players_choices(self.seats)
        choice_field(self, "declarer").choices = players
        choice_field(self, "partner").choices = partner_choices(self.seats)
        choice_field(self, "flekked_by").choices = optional_players(self.seats)
        choice_field(self, "renonc_player").choices = optional_players(self.seats)
        # "other (2.00 Kč)": the engine's name of the kind and its fee to each opponent at this table.
        currency = self.settings["currency"]
        choice_field(self, "renonc_kind").choices = [
            (kind, f"{marias.renonc_name(kind)} ({format_money(marias.renonc_fee(kind, self.settings), currency)})")
            for kind in RENONC_KINDS
        ]
        cap = int(self.settings.get("flek_cap", 5))
        for component in COMPONENTS:
            self.fields[f"flek_{component}"] = segment_field(
                FLEK_LABELS[component], [(level, marias.flek_name(level)) for level in range(cap + 1)], coerce=int
            )
            self.initial.setdefault(f"flek_{component}", 0)
        self.initial.setdefault("declarer", self.forehand())
        self.initial.setdefault("contract", "hra")
        self.initial.setdefault("played_out", True)
        self.initial.setdefault("renonc_kind", "other")
        for name in ("marriages_declarer_20", "marriages_defenders_20"):
            self.initial.setdefault(name, 0)

    def _played_out(self) -> bool:
        return bool(self.current("played_out")) and not self.current("laid")

    def _contract(self) -> str:
        contract = self.current("contract")
        # Not cleaned yet: an unknown contract draws the form for hra (and fails validation).
        return contract if contract in marias.CONTRACTS else "hra"

    def _seven_announced(self) -> bool:
        """Sedma and stosedm announce the chooser's trump seven: it is asked as won or lost, not as a tichá sedma."""
        return "sedma" in marias.components(self._contract(), self.settings)

    def shown_names(self) -> list[str]:
        contract = self._contract()
        alone = contract in marias.ALONE_CONTRACTS
        names = ["declarer", "contract"]
        if not alone:
            names += ["trump", "partner"]
        if self._played_out():
            if alone:
                names.append("won")
            else:
                names += [*MARRIAGE_FIELDS, *self._result_names()]
        names += [f"flek_{c}" for c in marias.components(contract, self.settings)]
        names += ["played_out", "laid"]
        if not self._played_out():
            names += ["flekked_by"] if self.current("laid") else ["conceded_by"]
        return [*names, "renonc_player", "renonc_kind"]

    def _points_matter(self) -> bool:
        """Whether card points can change the price: in a stovka, or once either side declared a hláška (then a
        side can reach a silent hundred, and the hlášky decide who wins the hra). Without hlášky neither side gets
        past 90, so a hra is only won or lost (RULES.md §2), and the engine takes won instead of the points."""
        if self._contract() not in marias.WON_INSTEAD_OF_POINTS:
            return True
        # Not cleaned yet: a posted count is the string "0" (no hláška), a ticked 40 is True.
        declared = any(self.current(name) not in (None, "", "0", 0, False) for name in MARRIAGE_FIELDS)
        # Card points already given (a hand stored with them, a client that posts them) are kept and priced.
        return declared or self.current("points") is not None

    def _result_names(self) -> list[str]:
        """How a played-out colour game ended: the card points where they matter, else won or lost."""
        if self._points_matter():
            return ["points", *(["seven_won"] if self._seven_announced() else ["seven_side", "seven_won"])]
        if self._seven_announced():
            return ["sedma_outcome"]
        return ["seven_side", "seven_won", "won"]  # a tichá sedma is tapped before the hra's won or lost

    def record_name(self) -> str | None:
        if not self._played_out():
            return None
        if self._contract() in marias.ALONE_CONTRACTS:
            return "won"
        if self._points_matter():
            # The card points decide the price: they are the last tap, one button a ten (0 to 90), with the
            # hlášky, the seven and the fleks they are priced with already on the screen above them.
            return "points"
        return "sedma_outcome" if self._seven_announced() else "won"

    def required_names(self) -> list[str]:
        shown = self.shown_names()
        required = ["declarer", "contract", "trump", "partner", "points", "won", "sedma_outcome", "conceded_by"]
        if self._seven_announced():
            required.append("seven_won")
        return [name for name in required if name in shown]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        # A tichá sedma (a trump seven in the last trick, not announced) is whose, and then won or lost.
        if "seven_side" in self.shown_names():
            if data.get("seven_side") and not data.get("seven_won"):
                self.add_error("seven_won", _("Whose seven was in the last trick is tapped: tap won or lost."))
            if data.get("seven_won") and not data.get("seven_side"):
                self.add_error("seven_side", _("Won or lost is tapped: tap whose trump seven was in the last trick."))
        return data

    def to_document(self, data: dict[str, Any]) -> dict[str, Any]:
        document: dict[str, Any] = {"declarer": data.get("declarer"), "contract": data.get("contract")}
        for name in ("trump", "points", "flekked_by"):
            if data.get(name) not in (None, ""):
                document[name] = data[name]
        partner = called_partner(data)
        if partner is not None:
            document["partner"] = partner
        fleks = {c: data[f"flek_{c}"] for c in COMPONENTS if data.get(f"flek_{c}")}
        if fleks:
            document["flek"] = fleks
        if data.get("won"):
            document["won"] = won_flag(data["won"])
        marriages = {side: _marriages(data, side) for side in ("declarer", "defenders")}
        if any(marriages.values()):
            document["marriages"] = {side: values for side, values in marriages.items() if values}
        document |= _seven(data)
        if data.get("sedma_outcome"):
            hra, seven = data["sedma_outcome"].split("/")
            document["won"] = won_flag(hra)
            document["seven"] = {"side": "declarer", "won": won_flag(seven)}
        # Written only where it differs from the engine's default (not played out when laid), so that a laid
        # hand reads back as the same document it was drawn from.
        if "played_out" in data and not data["played_out"] and not data.get("laid"):
            document["played_out"] = False
        if data.get("laid"):
            document["laid"] = True
        if data.get("conceded_by") == "declarer":
            document["conceded_by"] = "declarer"
        if data.get("renonc_player"):
            document["renonc"] = {"player": data["renonc_player"], "kind": data.get("renonc_kind") or "other"}
        return document

    @classmethod
    def from_document(cls, table: Any, document: dict[str, Any]) -> dict[str, Any]:
        initial = {
            k: v
            for k, v in document.items()
            if k in ("declarer", "contract", "trump", "points", "laid", "flekked_by", "conceded_by")
        }
        if document.get("contract") not in marias.ALONE_CONTRACTS:
            initial["partner"] = partner_initial(document)
        initial["played_out"] = document.get("played_out", not document.get("laid", False))
        if not initial["played_out"] and not document.get("laid"):
            initial["conceded_by"] = document.get("conceded_by", "defenders")
        for component, level in (document.get("flek") or {}).items():
            initial[f"flek_{component}"] = level
        if "won" in document:
            initial["won"] = won_choice(document["won"])
        for side, values in (document.get("marriages") or {}).items():
            values = values or []  # a null side, which the API took before issue 14, is no hláška
            initial[f"marriages_{side}_20"] = values.count(20)
            initial[f"marriages_{side}_40"] = 40 in values
        seven = document.get("seven")
        if seven:
            initial["seven_side"] = seven.get("side", "")
            initial["seven_won"] = won_choice(seven.get("won"))
            if "won" in document and document.get("contract") == "sedma":  # entered as won/lost, not points
                initial["sedma_outcome"] = f"{initial['won']}/{initial['seven_won']}"
        renonc = document.get("renonc")
        if renonc:
            initial["renonc_player"], initial["renonc_kind"] = renonc["player"], renonc["kind"]
        return initial


def _marriages(data: dict[str, Any], side: str) -> list[int]:
    return [20] * int(data.get(f"marriages_{side}_20") or 0) + ([40] if data.get(f"marriages_{side}_40") else [])


def _seven(data: dict[str, Any]) -> dict[str, Any]:
    """The seven as the engine reads it: announced (sedma, stosedm) or silent, and whether it won."""
    result = data.get("seven_won")
    side = data.get("seven_side")
    if "seven_side" in data and not side:
        return {}  # no trump seven in the last trick: no tichá sedma
    if not result:
        return {}
    return {"seven": {"side": side or "declarer", "won": won_flag(result)}}
