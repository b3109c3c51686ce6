"""Mariáš's contracts and their words: components, trumps, flek levels, renonc kinds, and the validated hand
(:class:`MariasHand`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from rules.i18n import NP_, pgettext

CONTRACTS = ("hra", "sedma", "stovka", "stosedm", "betl", "durch")
TRUMPS = ("hearts", "bells", "leaves", "acorns")
SIDES = ("declarer", "defenders")
RENONC_KINDS = ("talon", "shuffle", "other")
# The seed's words for the flek levels, in order; level k multiplies its component by 2^k. These are msgids: show
# them with flek_name(level), which says them in the active language.
FLEK_NAMES = (
    NP_("marias", "dobrá"),
    NP_("marias", "flek"),
    NP_("marias", "re"),
    NP_("marias", "tutti"),
    NP_("marias", "boty"),
    NP_("marias", "kalhoty"),
)
ALONE_CONTRACTS = ("betl", "durch")
# Components that hearts (lepší) doubles; betl and durch have no trump, so red never touches them.
COLOUR_COMPONENTS = ("hra", "sedma", "stovka")
CARD_POINTS = 90
HUNDRED = 100

COMPONENTS: Mapping[str, tuple[str, ...]] = {
    "hra": ("hra",),
    "sedma": ("hra", "sedma"),
    "stovka": ("stovka",),
    "stosedm": ("stovka", "sedma"),
    "betl": ("betl",),
    "durch": ("durch",),
}
# The words of the game are msgids in the context "marias"; English keeps them (hra, sedma, flek …) and explains.
_CONTRACT_WORDS = {
    "hra": NP_("marias", "hra"),
    "sedma": NP_("marias", "sedma"),
    "stovka": NP_("marias", "stovka"),
    "stosedm": NP_("marias", "stosedm"),
    "betl": NP_("marias", "betl"),
    "durch": NP_("marias", "durch"),
}
TRUMP_IN = {
    "hearts": NP_("marias", "in hearts (lepší)"),
    "bells": NP_("marias", "in bells"),
    "leaves": NP_("marias", "in leaves"),
    "acorns": NP_("marias", "in acorns"),
}
# A flek level said on one component of several ("re na sedmu"): Czech wants the accusative, so one msgid each.
FLEK_ON = {
    "hra": NP_("marias", "%(level)s on the hra"),
    "sedma": NP_("marias", "%(level)s on the sedma"),
    "stovka": NP_("marias", "%(level)s on the stovka"),
    "betl": NP_("marias", "%(level)s on the betl"),
    "durch": NP_("marias", "%(level)s on the durch"),
}
_RENONC_WORDS = {
    "talon": NP_("marias", "aces or tens in the talon"),
    "shuffle": NP_("marias", "shuffling"),
    "other": NP_("marias", "other"),
}
BETL_DURCH = {"10/20": (10, 20), "15/30": (15, 30), "5/10": (5, 10)}


# Contracts whose hra may be entered as won or lost instead of card points when nobody declared a hláška.
WON_INSTEAD_OF_POINTS = ("hra", "sedma")


# Four suits, one of them trumps: its marriage is the 40, so at most three hlášky count 20 (the hand form offers
# 0 to this many per side).
MOST_TWENTIES = 3


@dataclass(frozen=True)
class Seven:
    """The trump seven in the last trick: whose it was and whether it took the trick."""

    side: str
    won: bool


@dataclass(frozen=True)
class Renonc:
    """Who broke the rules and how (the kind sets the fee)."""

    player: str
    kind: str


@dataclass(frozen=True)
class MariasHand:
    """One validated hand. ``flek`` holds a level for every component of the contract, in pricing order."""

    declarer: str
    partner: str | None
    contract: str
    trump: str | None
    flek: tuple[tuple[str, int], ...]
    played_out: bool = True
    laid: bool = False
    flekked_by: str | None = None
    conceded_by: str = "defenders"
    points: int | None = 0  # None: a hra without hlášky entered as won or lost (``won``), no card points
    marriages_declarer: tuple[int, ...] = ()
    marriages_defenders: tuple[int, ...] = ()
    seven: Seven | None = None
    won: bool = False
    renonc: Renonc | None = None

    @property
    def side(self) -> tuple[str, ...]:
        """The declarer's side: the declarer and, in 2 against 2, his partner."""
        return (self.declarer,) if self.partner is None else (self.declarer, self.partner)

    @property
    def alone(self) -> bool:
        return self.partner is None

    @property
    def components(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.flek)

    def level(self, component: str) -> int:
        return dict(self.flek)[component]


# --------------------------------------------------------------------------------------------------------------
# Parsing


def components(contract: str, settings: Mapping[str, Any]) -> tuple[str, ...]:
    """The parts of a contract that are won, lost and flekked separately under these settings.

    >>> components("stosedm", {"stovka_pays_hra": False})
    ('stovka', 'sedma')
    """
    return _components(contract, settings)


def flek_name(level: int) -> str:
    """The name of a flek level (0 dobrá … 5 kalhoty) in the active language.

    >>> flek_name(2)
    're'
    """
    return pgettext("marias", FLEK_NAMES[level])


def renonc_name(kind: str) -> str:
    """The name of a renonc kind (``RENONC_KINDS``) in the active language.

    >>> renonc_name("talon")
    'aces or tens in the talon'
    """
    return pgettext("marias", _RENONC_WORDS[kind])


def renonc_fee(kind: str, settings: Mapping[str, Any]) -> Decimal:
    """What a renonc of this kind costs, to each opponent, under these settings (shuffling costs the talon fee).

    >>> renonc_fee("shuffle", {"renonc_talon": Decimal("5.00"), "renonc_other": Decimal("2.00")})
    Decimal('5.00')
    """
    return Decimal(settings["renonc_other" if kind == "other" else "renonc_talon"])


def contract_word(contract: str) -> str:
    """The contract or component (hra, sedma …) in the table's words of the active language."""
    return pgettext("marias", _CONTRACT_WORDS[contract])


def _components(contract: str, settings: Mapping[str, Any]) -> tuple[str, ...]:
    components = COMPONENTS[contract]
    if settings["stovka_pays_hra"] and "stovka" in components:
        return ("hra", *components)
    return components


def component_words(words: str, trump: str | None) -> str:
    """A (translated) component with its trump: "sedma v lepších", "sedma in hearts (lepší)"."""
    if trump is None:
        return words
    return pgettext("marias", "%(component)s %(trump)s") % {
        "component": words,
        "trump": pgettext("marias", TRUMP_IN[trump]),
    }
