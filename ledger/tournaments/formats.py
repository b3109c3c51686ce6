"""A tournament's format: what ``Tournament.options`` says (the tables' rules, games per series or hands per round,
fees, prizes, placement points, money or not, the round clock), read and checked field by field.

A request's options are read by ``format_from``, which names the option it cannot read (``options.fees.entry`` …) in
a ``LedgerError``; the stored options by ``tournament_format``. What differs from game to game (series or rounds,
the tables' default rules) is asked of the game (``rules.tournament.play``), never of its name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from django.utils.translation import gettext as _

from ledger.errors import LedgerError
from ledger.tournaments.models import Tournament
from rules import tournament as rt

DEFAULT_HANDS = 24  # hands per round at a Mariáš or Šnapser table
DEFAULT_MINUTES = 90  # the round clock
MOST_ROUNDS = 20
MOST_PLAYERS = 400
MONEY_WHOLE_DIGITS = 10
PLACES = 4  # the placement points a format gives: one per place at a four-seat table


def game_play(game: str) -> rt.TournamentPlay:
    """How ``game`` plays its tournaments; ``LedgerError`` naming ``game`` for one that has none."""
    try:
        return rt.play(game)
    except rt.TournamentError as error:
        allowed = ", ".join(rt.tournament_games())
        raise LedgerError(_("Unknown game; one of: %(games)s") % {"games": allowed}, field="game") from error


@dataclass(frozen=True)
class Format:
    """A tournament's format, read from ``Tournament.options`` (and written back by ``as_options``).

    - ``rules``: the tables' preset and overrides (``{"preset": "seeger-fabian"}`` for Skat by default);
    - ``games``: Skat games per series by table size (48 at four seats, 36 at three); ``hands``: hands per round
      at a Mariáš or Šnapser table;
    - ``fees``: ``rules.tournament.Fees`` (entry, table, lost-game fees by table size);
    - ``prizes``: the prize scheme (``rules.tournament.PRIZE_SCHEMES`` or shares, best place first);
    - ``placement``: Mariáš / Šnapser placement points per place at a four-seat table (None: 4, 3, 2, 1 and the
      same line at three seats);
    - ``for_money``: the tables' money is settled per table, as an evening's (else only points count);
    - ``minutes``: the length of a round on the projector's clock.
    """

    rules: Mapping[str, Any] = field(default_factory=dict)
    games: Mapping[int, int] = field(default_factory=lambda: dict(rt.SERIES_GAMES))
    hands: int = DEFAULT_HANDS
    fees: rt.Fees = field(default_factory=rt.Fees)
    prizes: str | list[Decimal] = "top3"
    placement: list[Decimal] | None = None
    for_money: bool = False
    minutes: int = DEFAULT_MINUTES

    def as_options(self) -> dict[str, Any]:
        """JSON for ``Tournament.options``: money and points as strings, exact."""
        fees = self.fees
        return {
            "rules": dict(self.rules),
            "games": {str(seats): games for seats, games in self.games.items()},
            "hands": self.hands,
            "fees": {
                "entry": str(fees.entry),
                "table": str(fees.table),
                "lost": {str(seats): str(fee) for seats, fee in fees.lost.items()},
                "table_to_prizes": fees.table_to_prizes,
                "lost_to_prizes": fees.lost_to_prizes,
            },
            "prizes": self.prizes if isinstance(self.prizes, str) else [str(share) for share in self.prizes],
            "placement": None if self.placement is None else [str(points) for points in self.placement],
            "for_money": self.for_money,
            "minutes": self.minutes,
        }


def format_from(game: str, options: Mapping[str, Any] | None) -> Format:
    """The format a request's ``options`` ask for (absent keys take the defaults); ``LedgerError`` naming the
    option (``options.fees.entry`` …) that cannot be read."""
    options = dict(options or {})
    known = {"rules", "games", "hands", "fees", "prizes", "placement", "for_money", "minutes"}
    unknown = sorted(set(options) - known)
    if unknown:
        raise LedgerError(
            _("Unknown option %(name)s; allowed: %(allowed)s")
            % {"name": unknown[0], "allowed": ", ".join(sorted(known))},
            field=f"options.{unknown[0]}",
        )
    rules_asked = options["rules"] if "rules" in options else dict(game_play(game).rules)
    if not isinstance(rules_asked, Mapping):
        raise LedgerError(_("Give the tables' rules as an object: a preset and overrides."), field="options.rules")
    fees = _fees(options.get("fees", {}))
    prizes = _prize_scheme(options.get("prizes", "top3"))
    return Format(
        rules=dict(rules_asked),
        games=_games(options.get("games", {})),
        hands=whole_number(options.get("hands", DEFAULT_HANDS), "options.hands", 1, 200),
        fees=fees,
        prizes=prizes,
        placement=_placement_scheme(options.get("placement")),
        for_money=_flag(options.get("for_money", False), "options.for_money"),
        minutes=whole_number(options.get("minutes", DEFAULT_MINUTES), "options.minutes", 1, 600),
    )


def whole_number(value: object, name: str, least: int, most: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not least <= value <= most:
        raise LedgerError(
            _("Enter a whole number from %(least)s to %(most)s.") % {"least": least, "most": most}, field=name
        )
    return value


def _flag(value: object, name: str) -> bool:
    if not isinstance(value, bool):
        raise LedgerError(_("Enter true or false."), field=name)
    return value


def _money(value: object, name: str) -> Decimal:
    try:
        amount = Decimal(str(value)) if isinstance(value, (str, int)) and not isinstance(value, bool) else None
    except InvalidOperation:
        amount = None
    # Ten whole digits at most, as the books keep money (14 digits, 4 of them places); past that quantize fails.
    if amount is None or not amount.is_finite() or amount < 0 or amount.adjusted() >= MONEY_WHOLE_DIGITS:
        raise LedgerError(_("Enter an amount of money, 0 or more, in cents at most."), field=name)
    if amount != amount.quantize(Decimal("0.01")):
        raise LedgerError(_("Enter an amount of money, 0 or more, in cents at most."), field=name)
    return amount


def _amounts(values: object, name: str) -> list[Decimal]:
    if not isinstance(values, list) or not values:
        raise LedgerError(_("Give a list of numbers, best place first."), field=name)
    return [_money(value, f"{name}.{index}") for index, value in enumerate(values)]


def _games(values: object) -> dict[int, int]:
    if not isinstance(values, Mapping):
        raise LedgerError(_('Give the games per series by table size, e.g. {"4": 48, "3": 36}.'), field="options.games")
    games = dict(rt.SERIES_GAMES)
    for seats, count in values.items():
        if str(seats) not in {"3", "4"}:
            raise LedgerError(_("A table seats 3 or 4 players."), field=f"options.games.{seats}")
        games[int(seats)] = whole_number(count, f"options.games.{seats}", 1, 200)
    return games


def _fees(values: object) -> rt.Fees:
    if not isinstance(values, Mapping):
        raise LedgerError(_("Give the fees as an object: entry, table, lost."), field="options.fees")
    lost_asked = values.get("lost", {})
    if not isinstance(lost_asked, Mapping):
        raise LedgerError(_('Give the lost-game fees by table size, e.g. {"3": "0.50"}.'), field="options.fees.lost")
    lost = dict(rt.DEFAULT_LOST_FEES)
    for seats, fee in lost_asked.items():
        if str(seats) not in {"3", "4"}:
            raise LedgerError(_("A table seats 3 or 4 players."), field=f"options.fees.lost.{seats}")
        lost[int(seats)] = _money(fee, f"options.fees.lost.{seats}")
    return rt.Fees(
        entry=_money(values.get("entry", "0"), "options.fees.entry"),
        table=_money(values.get("table", "0"), "options.fees.table"),
        lost=lost,
        table_to_prizes=_flag(values.get("table_to_prizes", False), "options.fees.table_to_prizes"),
        lost_to_prizes=_flag(values.get("lost_to_prizes", False), "options.fees.lost_to_prizes"),
    )


def _prize_scheme(value: object) -> str | list[Decimal]:
    if isinstance(value, str):
        if value not in rt.PRIZE_SCHEMES:
            allowed = ", ".join(rt.PRIZE_SCHEMES)
            raise LedgerError(
                _("Unknown prize scheme; one of: %(allowed)s") % {"allowed": allowed}, field="options.prizes"
            )
        return value
    shares = _amounts(value, "options.prizes")
    try:  # refused now, not when the standings first pay out (a worse place paid more, nothing paid at all)
        rt.prizes(["-"], Decimal(1), shares, Decimal(1))
    except rt.TournamentError as error:
        raise LedgerError(error.message, field="options.prizes") from error
    return shares


def _placement_scheme(value: object) -> list[Decimal] | None:
    if value is None:
        return None
    points = _amounts(value, "options.placement")
    if len(points) != PLACES:
        # The points of a four-seat table's places; a shorter table takes the same line from the best to the worst.
        raise LedgerError(
            _("Give the points of the %(places)s places at a four-seat table, best first.") % {"places": PLACES},
            field="options.placement",
        )
    try:  # refused now, not when a table's first hand is turned into placement points
        rt.placement_points(dict.fromkeys(map(str, range(len(points))), Decimal(0)), points)
    except rt.TournamentError as error:
        raise LedgerError(error.message, field="options.placement") from error
    return points


def tournament_format(tournament: Tournament) -> Format:
    return format_from(tournament.game, tournament.options)


def planned_hands(tournament: Tournament, seats: int, chosen: Format | None = None) -> int:
    """The games of a series at a table of ``seats`` (Skat: 48 at four, 36 at three unless the format says
    otherwise), or the hands of a round (Mariáš, Šnapser): as the game plays its tournaments (``Tournament.play``)."""
    chosen = chosen or tournament_format(tournament)
    if not tournament.play.series:
        return chosen.hands
    return chosen.games.get(seats, rt.SERIES_GAMES[4])
