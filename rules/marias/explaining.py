"""The words of a Mariáš hand's explanation: the hand as the players call it, won or lost, tens, the formula of
each component and the points line."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from rules.i18n import capitalised, concat, format_money, joined, ngettext, pgettext
from rules.marias.contracts import (
    ALONE_CONTRACTS,
    CARD_POINTS,
    FLEK_ON,
    MariasHand,
    component_words,
    contract_word,
    flek_name,
)
from rules.results import Line


def outcome_word(won: bool) -> str:
    """Won or lost, seen from the declarer's side (the sign of the component's money)."""
    return pgettext("marias result", "won") if won else pgettext("marias result", "lost")


def tens(count: int) -> str:
    """Tens of points, as the players say it (Czech has three plural forms).

    >>> from rules.i18n import override
    >>> tens(1), tens(3)
    ('1 ten', '3 tens')
    >>> with override("cs"):
    ...     tens(1), tens(3), tens(5)
    ('1 desítka', '3 desítky', '5 desítek')
    """
    return ngettext("%(count)s ten", "%(count)s tens", count) % {"count": count}


def hand_label(hand: MariasHand) -> str:
    """The hand in the players' words, e.g. "Lepší sedma, re na sedmu, flek na hru"."""
    contract = contract_word(hand.contract)
    if hand.trump is None:
        words = [contract]
    elif hand.trump == "hearts":
        # Czech says the red game first ("Lepší sedma"), so hearts get a template of their own.
        words = [pgettext("marias", "%(contract)s in hearts (lepší)") % {"contract": contract}]
    else:
        words = [component_words(contract, hand.trump)]
    flekked = sorted((-level, hand.components.index(name), name) for name, level in hand.flek if level)
    for minus_level, _index, name in flekked:
        level = flek_name(-minus_level)
        words.append(pgettext("marias", FLEK_ON[name]) % {"level": level} if len(hand.components) > 1 else level)
    if hand.alone and hand.contract not in ALONE_CONTRACTS:
        words.append(pgettext("marias", "alone"))
    if hand.laid:
        words.append(pgettext("marias", "laid"))
    elif not hand.played_out and hand.renonc:
        words.append(pgettext("marias", "not played out"))
    elif not hand.played_out and hand.conceded_by == "declarer":
        words.append(pgettext("marias", "conceded by the declarer"))
    elif not hand.played_out:
        words.append(pgettext("marias", "conceded by the defenders"))
    if hand.renonc:
        words.append(pgettext("marias", "renonc"))
    return capitalised(joined(", ", words))


def formula(factors: Sequence[str], amount: Decimal, currency: str) -> str:
    """The factors and their product, e.g. "−0.40 × 2 × 4 = −3.20 Kč"; one factor is the amount itself."""
    money = format_money(amount, currency)
    return money if len(factors) == 1 else concat(joined(" × ", factors), " = ", money)


def points_lines(hand: MariasHand) -> list[Line]:
    """Lines that explain without money: the points each side made, cards + hlášky = total."""
    if not hand.played_out or hand.contract in ALONE_CONTRACTS or hand.points is None:
        return []

    def side(cards: int, marriages: Sequence[int]) -> str:
        return f"{cards} + {sum(marriages)} = {cards + sum(marriages)}" if marriages else str(cards)

    if hand.marriages_declarer or hand.marriages_defenders:
        label = pgettext("marias", "card points + hlášky (marriages)")
    else:
        label = pgettext("marias", "card points")
    detail = pgettext("marias", "declarer's side %(declarer)s, defenders %(defenders)s") % {
        "declarer": side(hand.points, hand.marriages_declarer),
        "defenders": side(CARD_POINTS - hand.points, hand.marriages_defenders),
    }
    return [Line(label, detail)]
