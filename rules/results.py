"""What pricing a hand gives: the :class:`Score`, the :class:`Line` s that explain it, and the last line of every
explanation, who is due what (:func:`payment_line`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from rules.i18n import _, format_list, format_money, ngettext, render, source_of
from rules.money import ZERO


@dataclass(frozen=True)
class Line:
    """One step of the explanation a player reads when asking "why 3,20?".

    ``amount`` is the line's contribution in the unit of :attr:`Score.value` (list points for Skat, money per
    player seen from the declarer's side for the other games), or ``None`` for a line that only explains.
    """

    label: str
    detail: str = ""
    amount: Decimal | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "detail": self.detail,
            "amount": None if self.amount is None else str(self.amount),
        }

    def as_source(self) -> dict[str, Any]:
        """The line with its texts as :data:`rules.i18n.Source`: what the ledger stores, said in any language."""
        return self.as_dict() | {"label": source_of(self.label), "detail": source_of(self.detail)}


@dataclass(frozen=True)
class Score:
    """The priced hand. ``amounts`` is money per player, exact, summing to exactly zero."""

    label: str
    won: bool | None
    value: Decimal
    amounts: Mapping[str, Decimal]
    lines: tuple[Line, ...] = ()
    score: Mapping[str, int] | None = None
    # Skat pub rules: how many Bock rounds this hand starts. The ledger keeps the queue; the engine only
    # reports triggers and takes the factor of the pending ones from the hand's ``bock`` field.
    bock_rounds: int = 0

    def __post_init__(self) -> None:
        total = sum(self.amounts.values(), ZERO)
        if total != 0:
            # A bug in a game module, never bad input: refuse to hand out money that does not balance.
            raise AssertionError(f"amounts of {self.label!r} sum to {total}, not 0")

    def as_dict(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "won": self.won,
            "value": str(self.value),
            "score": None if self.score is None else dict(self.score),
            "amounts": {player: str(amount) for player, amount in self.amounts.items()},
            "lines": [line.as_dict() for line in self.lines],
            "bock_rounds": self.bock_rounds,
        }

    def text_source(self) -> dict[str, Any]:
        """The label and lines as :data:`rules.i18n.Source`, to be said in any language by :func:`said`.

        The hand is priced once, in whichever language is active; this keeps how its texts were made.

        >>> import rules
        >>> from rules.i18n import override
        >>> with override("cs"):
        ...     score = rules.score({"game": "marias", "players": ["Ana", "Ben", "Cyril", "Dana"], "hand": {
        ...         "declarer": "Ana", "partner": "Cyril", "contract": "hra", "trump": "bells", "points": 60}})
        >>> source = score.text_source()
        >>> said(source, "cs")["label"], said(source, "de")["label"]
        ('Hra v kulích', 'Hra in Schellen')
        """
        return {"label": source_of(self.label), "lines": [line.as_source() for line in self.lines]}


def said(source: Mapping[str, Any], language: str | None = None) -> dict[str, Any]:
    """A :meth:`Score.text_source` said in ``language`` (the active one by default): ``label`` and ``lines`` with
    ``label``, ``detail`` and ``amount``, as :meth:`Score.as_dict` writes them."""
    lines = [
        {"label": render(line["label"], language), "detail": render(line["detail"], language), "amount": line["amount"]}
        for line in source.get("lines", [])
    ]
    return {"label": render(source.get("label", ""), language), "lines": lines}


def payment_line(amounts: Mapping[str, Decimal], currency: str) -> Line:
    """Who is due what, in one sentence in the players' words: the last line of every hand's explanation.

    ``amounts`` are the hand's money per player in seat order (summing to zero); players with nothing to pay or
    get are left out. When every payer pays the same and every payee gets the same, one sentence names them all;
    otherwise each side is said in groups of equal amounts, the largest first.

    >>> def said(**amounts: str) -> str:
    ...     return payment_line({p: Decimal(a) for p, a in amounts.items()}, "EUR").label
    >>> said(Franta="-0.40", Pepa="0.40", Jarda="-0.40", Mirek="0.40")
    'Franta and Jarda pay Pepa and Mirek €0.40 each'
    >>> said(Ana="-0.20", Ben="0.60", Cyril="-0.20", Dana="-0.20")
    'Ana, Cyril and Dana pay Ben €0.20 each'
    >>> said(Ana="-2.40", Ben="1.20", Cyril="1.20"), said(Ana="0.60", Ben="-0.60")
    ('Ana pays Ben and Cyril €1.20 each', 'Ben pays Ana €0.60')
    >>> said(Ana="0.40", Ben="-0.50", Cyril="0.40", Dana="-0.30")
    'Ben pays €0.50 and Dana pays €0.30; Ana and Cyril get €0.40 each'
    >>> said(Ana="0", Ben="0.00", Cyril="0")
    'Nobody pays anything'
    """
    payers = _groups({player: -amount for player, amount in amounts.items() if amount < 0})
    payees = _groups({player: amount for player, amount in amounts.items() if amount > 0})
    if not payers or not payees:
        return Line(_("Nobody pays anything"))
    if len(payers) == 1 and len(payees) == 1:
        (paid, who_pays), (got, who_gets) = payers[0], payees[0]
        names = {"payers": format_list(who_pays), "payees": format_list(who_gets)}
        if len(who_pays) == 1:
            # One payer: what each payee gets ("Ana pays Ben and Cyril €1.20 each").
            sentence = ngettext(
                "%(payers)s pays %(payees)s %(money)s", "%(payers)s pays %(payees)s %(money)s each", len(who_gets)
            )
            return Line(sentence % (names | {"money": format_money(got, currency)}))
        if len(who_gets) == 1 or paid == got:
            # What each payer pays; with as many payees as payers, that is also what each of them gets.
            sentence = ngettext(
                "%(payers)s pay %(payees)s %(money)s each", "%(payers)s pay %(payees)s %(money)s each", len(who_gets)
            )
            return Line(sentence % (names | {"money": format_money(paid, currency)}))
    pay = [
        ngettext("%(names)s pays %(money)s", "%(names)s pay %(money)s each", len(names))
        % {"names": format_list(names), "money": format_money(money, currency)}
        for money, names in payers
    ]
    get = [
        ngettext("%(names)s gets %(money)s", "%(names)s get %(money)s each", len(names))
        % {"names": format_list(names), "money": format_money(money, currency)}
        for money, names in payees
    ]
    return Line(_("%(payers)s; %(payees)s") % {"payers": format_list(pay), "payees": format_list(get)})


def _groups(amounts: Mapping[str, Decimal]) -> list[tuple[Decimal, list[str]]]:
    """Players by equal amount, the largest amount first, each group in seat order."""
    groups: dict[Decimal, list[str]] = {}
    for player, amount in amounts.items():
        groups.setdefault(amount, []).append(player)
    return sorted(groups.items(), key=lambda group: -group[0])
