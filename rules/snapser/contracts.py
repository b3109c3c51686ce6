"""Šnapser's games and what they are worth: seats, trumps, announcements, results and their multiples of the stake,
the validated hand (:class:`SnapserHand`) and the table's words for them."""

from __future__ import annotations

from dataclasses import dataclass

from rules.i18n import NP_, pgettext

SEATS = (2, 3, 4)
# Only four seats play 2 against 2 (the chooser's hidden partner holds the trump card he names).
PARTNER_SEATS = 4
TRUMPS = ("hearts", "bells", "leaves", "acorns")
RED = "hearts"
ANNOUNCEMENTS = ("hram", "za12", "durch", "nehram")
RESULTS = ("s_vodou", "bez_vody", "za_6", "tichy_durch")
WINNERS = ("declarer", "defenders")
ENDS = ("dost", "last_trick", "false_dost")


MAX_RAISES = 4

# Multiples of the stake ("násobok základu" in the seed). Results apply to hrám only; the other announcements are
# won or lost at their own multiple.
MULTIPLES = {
    "s_vodou": 2,
    "bez_vody": 4,
    "za_6": 6,
    "tichy_durch": 18,
    "za12": 12,
    "durch": 36,
    "nehram": 6,
}
# The table's words are msgids in the context "snapser" (English keeps them and explains them in WHY); say them
# with category_name(key) and raise_name(level).
NAMES = {
    "s_vodou": NP_("snapser", "s vodou"),
    "bez_vody": NP_("snapser", "bez vody"),
    "za_6": NP_("snapser", "za 6"),
    "tichy_durch": NP_("snapser", "tichý durch"),
    "hram": NP_("snapser", "hrám"),
    "za12": NP_("snapser", "za 12"),
    "durch": NP_("snapser", "durch"),
    "nehram": NP_("snapser", "nehrám"),
}
WHY = {
    "s_vodou": NP_("snapser", "the losers have 33 points or more"),
    "bez_vody": NP_("snapser", "the losers have fewer than 33 points"),
    "za_6": NP_("snapser", "the losers took no trick"),
    "tichy_durch": NP_("snapser", "the winners took every trick without announcing it"),
    "za12": NP_("snapser", "announced: 66 and “dosť” before the other side takes a trick"),
    "durch": NP_("snapser", "announced: the chooser takes every trick"),
    "nehram": NP_("snapser", "the chooser gave up and loses at once"),
}
RAISE_NAMES = (
    "",
    NP_("snapser", "kontra"),
    NP_("snapser", "re"),
    NP_("snapser", "tuti"),
    NP_("snapser", "boty"),
)


@dataclass(frozen=True)
class SnapserHand:
    """A validated hand: the document's facts and the ``category`` (a key of :data:`MULTIPLES`) it is paid at.

    ``result`` is what the document says: the category of a hrám, or ``tichy_durch`` on a za 12 in which one side
    took every trick (paid as tichý durch or as za 12, as the table's rules say); ``partner`` None = alone.
    """

    declarer: str
    partner: str | None
    trump: str
    announcement: str
    raises: int
    winner: str
    result: str | None
    end: str | None
    category: str

    @property
    def won(self) -> bool:
        return self.winner == "declarer"

    def declarer_side(self) -> tuple[str, ...]:
        return (self.declarer,) if self.partner is None else (self.declarer, self.partner)


def category_name(key: str) -> str:
    """A category or announcement (a key of :data:`NAMES`) in the table's words of the active language.

    >>> category_name("bez_vody")
    'bez vody'
    """
    return pgettext("snapser", NAMES[key])


def raise_name(raises: int) -> str:
    """The name of a raise level (1 kontra … 4 boty) in the active language."""
    return pgettext("snapser", RAISE_NAMES[raises])
