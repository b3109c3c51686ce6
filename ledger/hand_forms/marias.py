"""The Mariáš hand form: chooser, contract, trump, partner, points and hlášky; fleks per component."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from ledger.hand_forms.base import HandForm, Layout
from ledger.hand_forms.conditions import ALWAYS, AnyOf, Filled, Given, Is, When
from ledger.hand_forms.fields import (
    SIDE_CHOICES,
    WON_LOST,
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
    # Red trumps are the better game (lepší): every player knows it, and a short label keeps the four on one line.
    ("hearts", pgettext_lazy("marias trump", "♥ hearts")),
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
# How the hand ended: played out (the everyday end), or stopped by a renonc, given up by either side, or laid down.
ENDINGS = [
    ("played", _("played out")),
    ("renonc", _("renonc")),
    ("conceded_defenders", _("the defenders gave up")),
    ("conceded_declarer", _("the chooser gave up")),
    ("laid", _("laid down (shown, not played)")),
]
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
    pills = {
        "marriages_declarer_40": pgettext_lazy("hláška", "+ 40"),
        "marriages_defenders_40": pgettext_lazy("hláška", "+ 40"),
    }

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
    ending = segment_field(_("How it ended"), ENDINGS)
    flekked_by = segment_field(_("Flekked by (for a laid game)"), [])
    renonc_kind = segment_field(_("Renonc kind"), [])
    renonc_played_out = flag_field(_("The harmed side had the hand played out"))
    renonc_player = segment_field(_("Renonc by"), [])

    def setup(self) -> None:
        players = players_choices(self.seats)
        choice_field(self, "declarer").choices = players
        choice_field(self, "partner").choices = partner_choices(self.seats)
        choice_field(self, "flekked_by").choices = optional_players(self.seats)
        # "—" only for a laid game (a renonc is rare there); a renonc that ended the hand names its offender.
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
        self.initial.setdefault("ending", "played")
        self.initial.setdefault("renonc_kind", "other")
        for name in ("marriages_declarer_20", "marriages_defenders_20"):
            self.initial.setdefault(name, 0)

    def _contracts_with(self, component: str) -> When:
        """The contracts that carry ``component`` at this table (a stosedm is a sedma and a stovka)."""
        return Is("contract", *(c for c in marias.CONTRACTS if component in marias.components(c, self.settings)))

    def layout(self) -> Layout:
        alone = Is("contract", *marias.ALONE_CONTRACTS)
        stopped_by_renonc = Is("ending", "renonc") & ~Given("renonc_played_out")
        # A client that posts no ending (a bare script) means the everyday one, as ``_ending`` reads it.
        played = Is("ending", "played", "") | (Is("ending", "renonc") & Given("renonc_played_out"))
        renonc = Is("ending", "renonc", "laid")
        colour = played & ~alone
        # Sedma and stosedm announce the chooser's trump seven: it is asked as won or lost, not as a tichá sedma.
        seven = self._contracts_with("sedma")
        # Card points change the price in a stovka, or once either side declared a hláška (then a side can reach a
        # tichá stovka, and the hlášky decide who wins the hra). Without hlášky neither side gets past 90, so a hra
        # is only won or lost (RULES.md §2), and the engine takes won instead of the points. Card points already
        # given (a hand stored with them) are kept and priced.
        declared = AnyOf(tuple(Given(name) for name in MARRIAGE_FIELDS))
        points_matter = ~Is("contract", *marias.WON_INSTEAD_OF_POINTS) | declared | Filled("points")
        fields: dict[str, When] = {
            "declarer": ALWAYS,
            "contract": ALWAYS,
            "trump": ~alone,
            "partner": ~alone,
            **{f"flek_{c}": self._contracts_with(c) for c in COMPONENTS},
            **dict.fromkeys(MARRIAGE_FIELDS, colour),
            # A tichá sedma is tapped before the hra's won or lost: whose seven, then won or lost.
            "seven_side": colour & ~seven,
            "seven_won": colour & (points_matter | ~seven),
            "points": colour & points_matter,
            "sedma_outcome": colour & ~points_matter & seven,
            "won": (played & alone) | (colour & ~points_matter & ~seven),
            "ending": ALWAYS,
            "flekked_by": Is("ending", "laid"),
            "renonc_kind": renonc,
            "renonc_played_out": Is("ending", "renonc"),
            "renonc_player": renonc,
        }
        # The card points decide the price where they matter: one button a ten (0 to 90), with the hlášky, the
        # seven and the fleks they are priced with on the screen above them. A renonc that stopped the hand ends
        # with its offender.
        record = {"won": ALWAYS, "points": ALWAYS, "sedma_outcome": ALWAYS, "renonc_player": stopped_by_renonc}
        return Layout(fields, record, {"renonc_player": {"": Is("ending", "laid")}})

    def required_names(self) -> list[str]:
        shown = self.shown_names()
        required = ["declarer", "contract", "trump", "partner", "points", "won", "sedma_outcome"]
        if "sedma" in marias.components(self._contract(), self.settings):
            required.append("seven_won")
        if self.current("ending") == "renonc":
            required.append("renonc_player")
        return [name for name in required if name in shown]

    def _contract(self) -> str:
        contract = self.current("contract")
        # Not cleaned yet: an unknown contract counts as hra (and fails validation).
        return contract if contract in marias.CONTRACTS else "hra"

    @classmethod
    def status_player(cls, document: dict[str, Any]) -> str | None:
        """A renonc that stopped the hand costs only its offender's fee: the status line names him."""
        renonc = document.get("renonc")
        if renonc and not document.get("played_out", True):
            return str(renonc.get("player"))
        return super().status_player(document)

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
        return document | _ending(data)

    @classmethod
    def from_document(cls, table: Any, document: dict[str, Any]) -> dict[str, Any]:
        initial = {k: v for k, v in document.items() if k in ("declarer", "contract", "trump", "points", "flekked_by")}
        if document.get("contract") not in marias.ALONE_CONTRACTS:
            initial["partner"] = partner_initial(document)
        initial |= _ending_initial(document)
        for component, level in (document.get("flek") or {}).items():
            initial[f"flek_{component}"] = level
        if "won" in document:
            initial["won"] = won_choice(document["won"])
        for side, values in (document.get("marriages") or {}).items():
            values = values or []  # a null side, which the API once accepted, is no hláška
            initial[f"marriages_{side}_20"] = values.count(20)
            initial[f"marriages_{side}_40"] = 40 in values
        seven = document.get("seven")
        if seven:
            initial["seven_side"] = seven.get("side", "")
            initial["seven_won"] = won_choice(seven.get("won"))
            if "won" in document and document.get("contract") == "sedma":  # entered as won/lost, not points
                initial["sedma_outcome"] = f"{initial['won']}/{initial['seven_won']}"
        return initial


def _ending(data: dict[str, Any]) -> dict[str, Any]:
    """How the hand ended, as the document says it: each only where it differs from the engine's default (a laid
    hand is not played out by itself), so that a hand reads back as the same document it was drawn from."""
    ending = data.get("ending") or "played"
    offender = data.get("renonc_player")
    renonc = {"renonc": {"player": offender, "kind": data.get("renonc_kind") or "other"}} if offender else {}
    if ending == "laid":
        return {"laid": True} | renonc
    if ending == "conceded_defenders":
        return {"played_out": False}
    if ending == "conceded_declarer":
        return {"played_out": False, "conceded_by": "declarer"}
    if ending == "renonc" and renonc:
        return renonc if data.get("renonc_played_out") else renonc | {"played_out": False}
    return {}


def _ending_initial(document: dict[str, Any]) -> dict[str, Any]:
    """The form's ending (and renonc fields) that draw a stored hand."""
    renonc = document.get("renonc")
    played_out = document.get("played_out", not document.get("laid", False))
    offender = {"renonc_player": renonc["player"], "renonc_kind": renonc["kind"]} if renonc else {}
    if document.get("laid"):
        return {"ending": "laid", **offender}
    if renonc:
        return {"ending": "renonc", "renonc_played_out": played_out, **offender}
    if not played_out:
        return {"ending": f"conceded_{document.get('conceded_by', 'defenders')}"}
    return {"ending": "played"}


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
