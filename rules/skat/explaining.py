"""The words of a Skat hand's explanation: the game as players call it, the multiplier counted out ("with 2, game
3, hand 4 …"), why a game was lost, and the money line."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal

from rules.i18n import _, concat, format_money, format_number, joined, ngettext, pgettext
from rules.results import Line
from rules.seating import Table
from rules.skat.contracts import CARD_POINTS, SCHNEIDER_POINTS, WIN_POINTS, SkatHand, contract_name
from rules.skat.options import setting


def card_points_text(points: int) -> str:
    """The card points a side took, said: "61 card points"."""
    return ngettext("%(points)s card point", "%(points)s card points", points) % {"points": points}


def and_joined(players: Sequence[str]) -> str:
    """Players named the way a sentence lists them: "Ana and Ben"."""
    return joined(concat(" ", _("and"), " "), players)


def signed(amount: int | Decimal) -> str:
    """A list score with its sign, as the list writes it: "+48", "−96", "0"."""
    text = format_number(Decimal(amount), places=0)
    return concat("+", text) if amount > 0 else text


def multiplier_steps(h: SkatHand, schneider: bool, schwarz: bool) -> list[tuple[str, int]]:
    """The levels as players count them out: "with 2, game 3, hand 4, Schneider 5" ("mit 2, Spiel 3, Hand 4 …").

    An announcement follows the level it promises, as players say it: "Schneider 5, announced 6" ("angesagt").
    """
    matadors = pgettext("skat count", "without") if h.without else pgettext("skat count", "with")
    steps: list[tuple[str, int]] = [(matadors, h.matadors), (pgettext("skat count", "game"), 1)]
    if h.hand:
        steps.append((pgettext("skat count", "hand"), 1))
    if schneider:
        steps.append((pgettext("skat count", "Schneider"), 1))
    if h.schneider_announced:
        steps.append((pgettext("skat count", "announced"), 1))
    if schwarz:
        steps.append((pgettext("skat count", "Schwarz"), 1))
    if h.schwarz_announced:
        steps.append((pgettext("skat count", "announced"), 1))
    if h.ouvert:
        steps.append((pgettext("skat count", "ouvert"), 1))
    return steps


def count_out(contract: str, steps: Sequence[tuple[str, int]], base: int) -> str:
    """The multiplier counted out level by level, then the game value it gives.

    >>> count_out("Grand", [("with", 2), ("game", 1), ("Schneider", 1)], 24)
    'Grand with 2, game 3, Schneider 4 × 24 = 96'
    """
    total = 0
    said = []
    for name, levels in steps:
        total += levels
        said.append(concat(name, f" {total}"))
    return concat(contract, " ", joined(", ", said), f" × {base} = {total * base}")


def trump_label(h: SkatHand) -> str:
    """The game as players call it. Schneider and Schwarz are named for the side that made them: a declarer who is
    himself Schneider or Schwarz on a loss is "Hearts with 1, declarer Schneider", never "Hearts Schneider with 1".

    >>> trump_label(SkatHand("hearts", ("Ana", "Ben", "Cyril"), "Ana", matadors=1, declarer_points=25))
    'Hearts with 1, declarer Schneider'
    """
    points = h.declarer_points
    made_schwarz = h.schwarz and points == CARD_POINTS
    words = [contract_name(h.contract)]
    if h.ouvert:
        # ouvert promises hand, Schneider and Schwarz: saying it says all of them
        words.append(pgettext("skat label", "Ouvert"))
    else:
        words += [pgettext("skat label", "Hand")] if h.hand else []
        if h.schwarz_announced:
            words.append(pgettext("skat label", "Schwarz announced"))
        else:
            words += [pgettext("skat label", "Schneider announced")] if h.schneider_announced else []
            if made_schwarz:
                words.append(pgettext("skat label", "Schwarz"))
            elif points >= SCHNEIDER_POINTS and not h.schneider_announced:
                words.append(pgettext("skat label", "Schneider"))
    count = {"count": h.matadors}
    words.append(pgettext("skat label", "without %(count)s") % count if h.without else _with(count))
    game = {"game": joined(" ", words)}
    if h.schwarz and not made_schwarz:
        return pgettext("skat label", "%(game)s, declarer Schwarz") % game
    if points <= CARD_POINTS - SCHNEIDER_POINTS:
        return pgettext("skat label", "%(game)s, declarer Schneider") % game
    return game["game"]


def _with(count: dict[str, int]) -> str:
    return pgettext("skat label", "with %(count)s") % count


def trump_failure(h: SkatHand) -> str | None:
    """Why the declarer's play lost the game, or None: the first condition missed (the later ones follow from it).

    An overbid is not among them: its own line says so.
    """
    points = h.declarer_points
    if points < WIN_POINTS:
        return _("%(needed)s needed") % {"needed": WIN_POINTS}
    if h.schneider_announced and points < SCHNEIDER_POINTS:
        return _("Schneider announced, %(needed)s needed") % {"needed": SCHNEIDER_POINTS}
    if h.schwarz_announced and not (h.schwarz and points == CARD_POINTS):
        return _("Schwarz announced, the defenders took a trick")
    return None


def bock_factor(bock: int) -> str:
    """The Bocks a hand is played under and their factor: "2 Bocks × 4"."""
    name = _("Bock") if bock == 1 else ngettext("%(count)s Bock", "%(count)s Bocks", bock) % {"count": bock}
    return concat(name, f" × {2**bock}")


def game_value_text(value: int) -> str:
    """The detail of a line that multiplies the game value: "game value 96"."""
    return _("game value %(value)s") % {"value": value}


def each_signed(amounts: Mapping[str, int | Decimal], places: int = 0) -> str:
    """Every player's number, signed: "Ana +0.96 · Ben −0.48 · Cyril −0.48"."""
    said = [concat(p, " ", "+" if a > 0 else "", format_number(Decimal(a), places)) for p, a in amounts.items()]
    return joined(" · ", said)


def money_line(table: Table, amounts: Mapping[str, Decimal]) -> Line:
    """The list turned into money at the table's stake, every player's amount signed."""
    currency = setting(table.settings, "currency")
    places = max(2, -min(int(a.as_tuple().exponent) for a in [table.stake, *amounts.values()]))
    return Line(
        _("Money at %(stake)s a point") % {"stake": format_money(table.stake, currency)}, each_signed(amounts, places)
    )
