"""The Skat hand form: declarer, game, matadors, points; the rest only when it matters."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from ledger.hand_forms.base import HandForm, Layout
from ledger.hand_forms.conditions import ALWAYS, Is, When
from ledger.hand_forms.fields import (
    WON_LOST,
    choice_field,
    drop_empty,
    flag_field,
    optional_players,
    players_choices,
    points_field,
    segment_field,
    won_choice,
    won_flag,
)
from rules import skat

SUITS = list(skat.SUIT_BASE)
# The quick buttons: the edges of Schneider (30/31, 89/90), of winning (60/61) and all of the card points; and 59,
# a plain loss in one tap that is not the 60:60 which starts a Bock round where Bock is played.
_SCHNEIDER = skat.SCHNEIDER_POINTS
QUICK_POINTS = [
    skat.CARD_POINTS - _SCHNEIDER,
    skat.CARD_POINTS - _SCHNEIDER + 1,
    skat.WIN_POINTS - 2,
    skat.WIN_POINTS - 1,
    skat.WIN_POINTS,
    _SCHNEIDER - 1,
    _SCHNEIDER,
    skat.CARD_POINTS,
]
CONTRACT_LABELS = {
    "clubs": _("♣ Clubs"),
    "spades": _("♠ Spades"),
    "hearts": _("♥ Hearts"),
    "diamonds": _("♦ Diamonds"),
    "grand": _("Grand"),
    "null": _("Null"),
    "ramsch": _("Ramsch"),
    "passed": _("Passed in"),
}


class SkatHandForm(HandForm):
    game = "skat"
    everyday_contracts = tuple(SUITS)
    pills = {"without": pgettext_lazy("skat matadors", "ohne")}
    more_names = ("bid", "bock")

    declarer = segment_field(_("Declarer"), [])
    contract = segment_field(_("Game"), [])
    matadors = segment_field(
        _("Matadors (with / without)"), [(n, str(n)) for n in range(1, skat.MOST_MATADORS + 1)], coerce=int
    )
    without = flag_field(_("Without (ohne)"))
    declarer_points = points_field(_("Declarer's card points"), skat.CARD_POINTS, quick=QUICK_POINTS)
    won = segment_field(_("Null result"), WON_LOST)
    hand = flag_field(_("Hand"))
    ouvert = flag_field(_("Ouvert"))
    schneider_announced = flag_field(_("Schneider announced"))
    schwarz_announced = flag_field(_("Schwarz announced"))
    schwarz = flag_field(_("Schwarz (one side took no trick)"))
    kontra = segment_field(_("Kontra"), [(0, "—"), (1, _("Kontra")), (2, _("Re"))], coerce=int)
    # Numeric keypads, and a tap into the field selects what it says (talon.js): the digits typed replace it.
    bid = forms.IntegerField(
        label=_("Bid"),
        required=False,
        min_value=skat.LOWEST_BID,
        max_value=skat.HIGHEST_BID,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    bock = forms.IntegerField(
        label=_("Pending Bock rounds"),
        required=False,
        min_value=0,
        max_value=skat.MOST_BOCKS,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    ramsch_loser = segment_field(_("Ramsch loser (on a tie)"), [])
    durchmarsch = segment_field(_("Durchmarsch"), [])
    jungfrau = forms.MultipleChoiceField(
        label=_("Jungfrau (took no trick)"), required=False, widget=forms.CheckboxSelectMultiple
    )

    def setup(self) -> None:
        # Every seat is drawn; at four seats the dealer sits out, and the page offers the others (``layout``).
        players = players_choices(self.seats)
        choice_field(self, "declarer").choices = players
        choice_field(self, "ramsch_loser").choices = optional_players(self.seats)
        choice_field(self, "durchmarsch").choices = optional_players(self.seats)
        choice_field(self, "jungfrau").choices = players
        contracts = [c for c in skat.CONTRACTS if c != "ramsch" or self.settings.get("ramsch")]
        choice_field(self, "contract").choices = [(c, CONTRACT_LABELS[c]) for c in contracts]
        for player in self.seats:
            field = points_field(_("Card points of %(player)s") % {"player": player}, skat.CARD_POINTS)
            field.help_text = _("Leave one player's empty: it is what is left of 120.")
            self.fields[f"ramsch_points_{player}"] = field
        self.initial.setdefault("declarer", self.forehand())
        self.initial.setdefault("contract", "clubs")
        self.initial.setdefault("matadors", 1)
        self.initial.setdefault("declarer_points", skat.WIN_POINTS)
        self.initial.setdefault("kontra", 0)
        self.initial.setdefault("bid", skat.LOWEST_BID)
        if self._bock_pending():
            self.fields["bock"].help_text = _("Each pending Bock round doubles this hand.")

    def _playing(self, seat: int) -> When:
        """The seat plays this hand: at four seats the dealer sits out (``rules.Game.next_hand``)."""
        return ~Is("dealer", seat) if len(self.seats) == 4 else ALWAYS

    def layout(self) -> Layout:
        declared = ~Is("contract", "passed", "ramsch")
        ramsch = Is("contract", "ramsch")
        suit_or_grand = declared & ~Is("contract", "null")
        fields: dict[str, When] = {
            "declarer": declared,
            "contract": ALWAYS,
            "won": Is("contract", "null"),
            "matadors": suit_or_grand,
            "without": suit_or_grand,
            # A raise is common at a table that plays it: near the top, within the thumb's reach.
            **({"kontra": declared} if self.settings.get("kontra") else {}),
            "declarer_points": suit_or_grand,
            **{f"ramsch_points_{p}": ramsch & self._playing(seat) for seat, p in enumerate(self.seats)},
            "ramsch_loser": ramsch,
            "jungfrau": ramsch,
            "durchmarsch": ramsch,
            "hand": declared,
            "schneider_announced": suit_or_grand,
            "schwarz_announced": suit_or_grand,
            "ouvert": declared,
            "schwarz": suit_or_grand,
            "bid": declared,
        }
        if self.settings.get("bock"):
            # The Bock count stays on a passed-in hand too: the ledger's queue covers every hand.
            fields["bock"] = ALWAYS
        seats = {p: self._playing(seat) for seat, p in enumerate(self.seats)} if len(self.seats) == 4 else {}
        # A Grand counts at most four matadors (there are four jacks); a suit game up to eleven.
        beyond_grand = range(skat.MOST_GRAND_MATADORS + 1, skat.MOST_MATADORS + 1)
        matadors = {str(n): ~Is("contract", "grand") for n in beyond_grand}
        choices = {"matadors": matadors} | dict.fromkeys(("declarer", "ramsch_loser", "durchmarsch", "jungfrau"), seats)
        # The declarer, tapped last, records the hand: the game, the matadors and the card points (61 until tapped)
        # are on the screen above, so a name is the one choice left.
        return Layout(fields, {"declarer": ALWAYS}, choices)

    def required_names(self) -> list[str]:
        # A Null is won or lost outright: nothing on the screen makes either certain.
        return [name for name in ("declarer", "contract", "won", "declarer_points") if name in self.shown_names()]

    def more(self) -> tuple[str, ...]:
        """A pending Bock doubles the hand a record button records: then it is drawn above the buttons, with what
        it does, not in a closed "More". None pending: it stays there, out of the way."""
        if not self._bock_pending():
            return self.more_names
        return tuple(name for name in self.more_names if name != "bock")

    def _bock_pending(self) -> bool:
        try:
            bock = self.current("bock")
        except forms.ValidationError:  # junk posted: its error opens "More" and says what is wrong
            return False
        return bool(bock and bock > 0)

    def to_document(self, data: dict[str, Any]) -> dict[str, Any]:
        document: dict[str, Any] = {
            key: data.get(key)
            for key in (
                "declarer",
                "contract",
                "matadors",
                "without",
                "declarer_points",
                "hand",
                "ouvert",
                "schneider_announced",
                "schwarz_announced",
                "schwarz",
                "ramsch_loser",
                "durchmarsch",
            )
        }
        if data.get("bid") not in (None, skat.LOWEST_BID):
            document["bid"] = data["bid"]
        if data.get("kontra"):
            document["kontra"] = data["kontra"]
        if data.get("bock"):
            document["bock"] = data["bock"]
        if "won" in data:
            document["won"] = won_flag(data["won"])
        if data.get("jungfrau"):
            document["jungfrau"] = list(data["jungfrau"])
        points = _ramsch_points(data)
        if points:
            document["ramsch_points"] = points
        if self.sits_out() is not None:
            # The dealer who sits out is part of the hand: the engine checks he neither declares nor plays.
            document["dealer"] = self.dealer_name
        keep_false = {"won"}
        return {k: v for k, v in document.items() if k in keep_false and v is not None} | drop_empty(
            {k: v for k, v in document.items() if k not in keep_false}
        )

    @classmethod
    def from_document(cls, table: Any, document: dict[str, Any]) -> dict[str, Any]:
        initial = {key: value for key, value in document.items() if key not in {"won", "ramsch_points", "dealer"}}
        if "won" in document:
            initial["won"] = won_choice(document["won"])
        for player, points in (document.get("ramsch_points") or {}).items():
            initial[f"ramsch_points_{player}"] = points
        dealer = skat.GAME.hand_dealer(table.seat_names, document)
        if dealer is not None:  # the dealer the hand names (he sits out); else the seat the ledger keeps
            initial["dealer"] = dealer
        return initial


def _ramsch_points(data: dict[str, Any]) -> dict[str, int]:
    """Each Ramsch player's card points; one left empty is what the others left of the 120 (one tap fewer)."""
    prefix = "ramsch_points_"
    asked = {key.removeprefix(prefix): value for key, value in data.items() if key.startswith(prefix)}
    empty = [player for player, value in asked.items() if value is None]
    given = {player: value for player, value in asked.items() if value is not None}
    if len(empty) == 1 and len(given) == 2 and sum(given.values()) <= skat.CARD_POINTS:
        given[empty[0]] = skat.CARD_POINTS - sum(given.values())
        return {player: given[player] for player in asked}
    return given
