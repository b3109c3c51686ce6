"""Tournaments (issue 20): registering, seating each round, the tables' results and the standings.

The pure parts (table sizes, draw, seeding, the movement, Seeger-Fabian series, fees, prizes, placement points,
standings) are ``rules.tournament``; this module keeps the books of them. Each table of each round is an evening of
its own with one table (see ``ledger.models.Tournament``): its hands are recorded, corrected, undone and queued
offline like any evening's, by the organiser and by the table's phone.

The standings are read from each table's result, stored on the ``TournamentTable`` and recomputed only for the
tables whose revision moved on (at most one series of hands each), so they cost a fixed number of queries however
many hands the tournament has; after every stored hand they are pushed to the tournament's viewers.
"""

from __future__ import annotations

import dataclasses
import datetime
import functools
import random
import secrets
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date as Date
from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Count, Sum
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ledger import push, services
from ledger.models import (
    Entrant,
    Evening,
    Hand,
    Posting,
    Round,
    Table,
    Tournament,
    TournamentTable,
    new_share_token,
)
from ledger.services import LedgerError
from ledger.texts import text_tidy
from rules import tournament as rt

# The rules a tournament's tables play by, unless its format says otherwise: Skat's tournament list.
DEFAULT_RULES: Mapping[str, Mapping[str, Any]] = {"skat": {"preset": "seeger-fabian"}, "marias": {}, "snapser": {}}
DEFAULT_HANDS = 24  # hands per round at a Mariáš or Šnapser table
DEFAULT_MINUTES = 90  # the round clock
MOST_ROUNDS = 20
MOST_PLAYERS = 400
MONEY_WHOLE_DIGITS = 10
PLACES = 4  # the placement points a format gives: one per place at a four-seat table


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
    rules_asked = options.get("rules", DEFAULT_RULES.get(game, {}))
    if not isinstance(rules_asked, Mapping):
        raise LedgerError(_("Give the tables' rules as an object: a preset and overrides."), field="options.rules")
    fees = _fees(options.get("fees", {}))
    prizes = _prize_scheme(options.get("prizes", "top3"))
    return Format(
        rules=dict(rules_asked),
        games=_games(options.get("games", {})),
        hands=_whole(options.get("hands", DEFAULT_HANDS), "options.hands", 1, 200),
        fees=fees,
        prizes=prizes,
        placement=_placement_scheme(options.get("placement")),
        for_money=_flag(options.get("for_money", False), "options.for_money"),
        minutes=_whole(options.get("minutes", DEFAULT_MINUTES), "options.minutes", 1, 600),
    )


def _whole(value: object, name: str, least: int, most: int) -> int:
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
        games[int(seats)] = _whole(count, f"options.games.{seats}", 1, 200)
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
    """The games of a Skat series at a table of ``seats`` (48 at four, 36 at three unless the format says
    otherwise), or the hands of a Mariáš or Šnapser round."""
    chosen = chosen or tournament_format(tournament)
    return chosen.games.get(seats, rt.SERIES_GAMES[4]) if tournament.game == "skat" else chosen.hands


# --------------------------------------------------------------------------------------------------------------
# Registering


@transaction.atomic
def tournament_create(
    *,
    owner: Any,
    game: str,
    name: str,
    players: Sequence[str],
    rounds: int,
    options: Mapping[str, Any] | None = None,
    date: Date | None = None,
    place: str = "",
    currency: str = "EUR",
    coin: Decimal | None = None,
    start: bool = False,
) -> Tournament:
    """Register a tournament and its players (known players reused, numbered in the order given); with ``start``,
    everybody is checked in and the first round is drawn."""
    if game not in DEFAULT_RULES:
        raise LedgerError(_("Unknown game; one of: %(games)s") % {"games": ", ".join(DEFAULT_RULES)}, field="game")
    refused = _("A tournament's name can have at most 80 letters, none of them hidden.")
    name = text_tidy(name or "", field="name", most=80, empty=refused, too_long=refused, hidden=refused)
    chosen = format_from(game, options)
    _whole(rounds, "rounds", 1, MOST_ROUNDS)
    # An evening of the same date, place and currency stands for each table: its checks apply here too.
    sample = services.evening_create(
        owner=owner, date=date or timezone.localdate(), place=place, currency=currency, coin=coin
    )
    tournament = Tournament.objects.create(
        owner=owner,
        name=name,
        game=game,
        date=sample.date,
        place=sample.place,
        currency=sample.currency,
        coin=sample.coin,
        rounds=rounds,
        options=chosen.as_options(),
        seed=secrets.randbelow(2**31),
    )
    sample.delete()
    _check_rules(tournament)
    for player in players:
        entrant_add(tournament=tournament, name=player)
    if start:
        Entrant.objects.filter(tournament=tournament).update(checked_in=True)
        round_start(tournament=tournament, number=1)
    return tournament


def _check_rules(tournament: Tournament) -> None:
    """The tables' rules resolve (a bad preset or override is refused before any round is drawn)."""
    import rules

    try:
        rules.resolve(tournament.game, dict(tournament_format(tournament).rules))
    except rules.RulesError as error:
        # The engine names the override as a table's request does (``rules.preset``): here it sits in options.
        name = (error.field or "").removeprefix("rules").lstrip(".")
        raise LedgerError(error.message, field="options.rules" + (f".{name}" if name else "")) from error


@transaction.atomic
def entrant_add(*, tournament: Tournament, name: str) -> Entrant:
    """Register a player (the organiser's player of that name, made if new) with the next start number."""
    # The tournament's row first, as check-in and the draw lock it: two adds at once (two organisers' phones, a
    # double tap) take their numbers one after the other instead of failing on the same one.
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status == Tournament.Status.FINISHED:
        raise LedgerError(_("The tournament is over."), field="players")
    player = services.player_get_or_create(owner=tournament.owner, name=name)
    if Entrant.objects.filter(tournament=tournament, player=player).exists():
        raise LedgerError(_("%(name)s is registered already.") % {"name": player.name}, field="players")
    if Entrant.objects.filter(tournament=tournament).count() >= MOST_PLAYERS:
        raise LedgerError(_("A tournament takes at most %(most)s players.") % {"most": MOST_PLAYERS}, field="players")
    last = Entrant.objects.filter(tournament=tournament).order_by("-number").values_list("number", flat=True).first()
    return Entrant.objects.create(tournament=tournament, player=player, number=(last or 0) + 1)


@transaction.atomic
def entrant_check_in(*, entrant: Entrant, checked_in: bool = True, for_next_round: bool = False) -> Entrant:
    """Set whether the player is here (the state asked for, not a toggle: two taps agree). Once the first round
    is drawn the list is locked, so a stray tap cannot drop a seated player from the next draw: a late arrival
    or a player leaving is checked in or out ``for_next_round``, an action of its own."""
    locked = Tournament.objects.select_for_update().get(pk=entrant.tournament_id)
    if locked.status == Tournament.Status.FINISHED:
        raise LedgerError(_("The tournament is over."), field="checked_in")
    if locked.status == Tournament.Status.RUNNING and not for_next_round:
        raise LedgerError(
            _("Check-in is locked while the tournament runs: check a late arrival in, or a leaving player out, "
              "for the next round."),
            field="checked_in",
        )  # fmt: skip
    Entrant.objects.filter(pk=entrant.pk).update(checked_in=checked_in)
    entrant.checked_in = checked_in
    return entrant


# --------------------------------------------------------------------------------------------------------------
# Rounds


def rounds_played(tournament: Tournament) -> int:
    return Round.objects.filter(tournament=tournament).count()


@dataclass(frozen=True)
class Unfinished:
    """A table of the running round with fewer hands than planned (``planned_hands``)."""

    number: int
    played: int
    planned: int

    def __str__(self) -> str:
        text = ngettext(
            "table %(number)s (%(played)s of %(planned)s hand)",
            "table %(number)s (%(played)s of %(planned)s hands)",
            self.planned,
        )
        return text % {
            "number": self.number,
            "played": self.played,
            "planned": self.planned,
        }


class TablesUnfinished(LedgerError):
    """The next round was asked for while tables of the running one still play; ``tables`` names them."""

    def __init__(self, tables: Sequence[Unfinished], number: int) -> None:
        self.tables = list(tables)
        self.number = number
        super().__init__(
            _(
                "These tables have not finished: %(tables)s. Confirm to start the next round all the same: their "
                "phones are logged out."
            )
            % {"tables": ", ".join(map(str, tables))},
            field="confirm_unfinished",
        )


@dataclass(frozen=True)
class Started:
    """What a request for round ``number`` did: ``created`` when it started it, False when it had started
    already (a double tap or a retry is answered with that round, nothing changed)."""

    round: Round
    created: bool


def unfinished_tables(tournament: Tournament, played: Round | None = None) -> list[Unfinished]:
    """The tables of the tournament's newest round (or ``played``) with fewer counted hands than planned."""
    played = played or Round.objects.filter(tournament=tournament).order_by("-number").first()
    if played is None:
        return []
    tables = list(TournamentTable.objects.filter(round=played).select_related("table").order_by("number"))
    counts = dict(
        Hand.objects.filter(table_id__in=[table.table_id for table in tables], status=Hand.Status.COUNTED)
        .values_list("table_id")
        .annotate(count=Count("id"))
        .values_list("table_id", "count")
    )
    chosen = tournament_format(tournament)
    found = []
    for table in tables:
        planned = planned_hands(tournament, len(table.table.seat_names), chosen)
        if counts.get(table.table_id, 0) < planned:
            found.append(Unfinished(table.number, counts.get(table.table_id, 0), planned))
    return found


@transaction.atomic
def round_start(*, tournament: Tournament, number: int | None = None, confirm_unfinished: bool = False) -> Started:
    """Seat series or round ``number``: the first drawn at random, a later Skat series by the standings, a Mariáš
    or Šnapser round from the movement planned with the first; a table each, with its evening and link.

    Idempotent by intent: under the tournament's row lock, a round that has started already is answered as it is
    (a double tap, a retried request); a number that is neither that nor the next is refused. While tables of the
    running round have fewer hands than planned, ``TablesUnfinished`` names them unless ``confirm_unfinished``.
    ``number`` None means the next one, for a caller that is itself the intent (a new tournament's first round,
    the demo); a request from a page or the API always names it."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    played_already = rounds_played(locked)
    if number is None:
        number = played_already + 1
    if 1 <= number <= played_already:
        return Started(Round.objects.get(tournament=locked, number=number), created=False)
    if locked.status == Tournament.Status.FINISHED or played_already >= locked.rounds:
        raise LedgerError(
            _("All %(rounds)s rounds have been played.") % {"rounds": locked.rounds}, field="non_field_errors"
        )
    if number != played_already + 1:
        raise LedgerError(
            _("Round %(asked)s cannot start: %(played)s rounds have started, the next is round %(next)s.")
            % {"asked": number, "played": played_already, "next": played_already + 1},
            field="round",
        )
    if not confirm_unfinished:
        unfinished = unfinished_tables(locked)
        if unfinished:
            raise TablesUnfinished(unfinished, number)
    players = list(
        Entrant.objects.filter(tournament=locked, checked_in=True)
        .order_by("number")
        .values_list("player__name", flat=True)
    )
    try:
        seating = _seating(locked, number, players)
    except rt.TournamentError as error:
        raise LedgerError(error.message, field=error.field) from error
    Round.objects.filter(tournament=locked, ends_at__isnull=True).update(ends_at=timezone.now())
    _retire_links(locked)  # the last round's phones and printed links score no more: the organiser corrects
    minutes = tournament_format(locked).minutes
    started = timezone.now()
    played = Round.objects.create(
        tournament=locked, number=number, started_at=started, ends_at=started + datetime.timedelta(minutes=minutes)
    )
    for table_number, seats in enumerate(seating, start=1):
        _table_open(locked, played, table_number, seats)
    locked.status = Tournament.Status.RUNNING
    locked.save(update_fields=["status", "plan"])
    tournament.status, tournament.plan = locked.status, locked.plan
    _announce_round(locked)
    return Started(played, created=True)


def _seating(tournament: Tournament, number: int, players: list[str]) -> list[list[str]]:
    rng = random.Random(tournament.seed * 1000 + number)  # noqa: S311 - a draw to replay, not a secret
    if tournament.game == "skat":
        if number == 1:
            return rt.draw(players, "skat", rng)
        present = set(players)
        # Who played a series goes by the standings; who checked in late (no series yet) sits after them all,
        # not at 0 points above the players who lost points.
        ranked = [row.player for row in standings(tournament) if row.player in present and row.rounds]
        ranked += [player for player in players if player not in ranked]
        return rt.seed(ranked, "skat")
    if number == 1 or sorted(name for table in tournament.plan[number - 1] for name in table) != sorted(players):
        # Planned with the first round, or again from this round on when somebody came or left.
        planned = rt.movement(players, tournament.rounds - number + 1, tournament.game, rng)
        tournament.plan = list(tournament.plan[: number - 1]) + planned
    return [list(table) for table in tournament.plan[number - 1]]


def _table_open(tournament: Tournament, played: Round, number: int, seats: list[str]) -> TournamentTable:
    evening = Evening.objects.create(
        owner=tournament.owner,
        date=tournament.date,
        place=_table_place(tournament.name, played.number, number),
        currency=tournament.currency,
        coin=tournament.coin,
        share_token=None,
        counted=False,  # a tournament's tables stay out of the players' evening statistics
    )
    chosen = tournament_format(tournament)
    table = services.table_create(
        evening=evening, game=tournament.game, players=seats, rules_override=dict(chosen.rules)
    )
    return TournamentTable.objects.create(round=played, number=number, evening=evening, table=table)


def _table_place(name: str, round_number: int, table_number: int) -> str:
    """The table's evening's place: the tournament, round and table, the name shortened to fit the place's 80
    characters (a tournament's name may have 80 itself; PostgreSQL refuses a longer place)."""

    def place(shown: str) -> str:
        return _("%(tournament)s · round %(round)s · table %(table)s") % {
            "tournament": shown,
            "round": round_number,
            "table": table_number,
        }

    longest = Evening._meta.get_field("place").max_length or 80
    excess = len(place(name)) - longest
    return place(name) if excess <= 0 else place(name[: max(0, len(name) - excess - 1)] + "…")


@transaction.atomic
def tournament_finish(*, tournament: Tournament) -> Tournament:
    """End the tournament: its last round's clock stops and its tables' links are retired. Under the tournament's
    row lock, as a round starts: twice (a double tap, a retry) finishes it once, and no round starts meanwhile."""
    status = Tournament.objects.select_for_update().values_list("status", flat=True).get(pk=tournament.pk)
    if status == Tournament.Status.FINISHED:
        tournament.status = status
        return tournament
    Round.objects.filter(tournament=tournament, ends_at__isnull=True).update(ends_at=timezone.now())
    _retire_links(tournament)
    tournament.status = Tournament.Status.FINISHED
    tournament.save(update_fields=["status"])
    _announce_round(tournament)
    return tournament


# --------------------------------------------------------------------------------------------------------------
# The table's phone


def table_guest(*, token: str) -> tuple[TournamentTable, Any]:
    """The table a score-sheet link opens and its guest account (made on first use), who keeps score of that
    table's evening and of nothing else. ``LookupError`` for a link that is not (or no longer) one."""
    found = (
        TournamentTable.objects.select_related("round__tournament", "evening", "guest")
        .filter(token=token, round__tournament__status=Tournament.Status.RUNNING)
        .first()
    )
    if found is None:
        raise LookupError(token)
    if found.guest is None:
        guest = get_user_model().objects.create_user(username=f"table-{found.pk}-{secrets.token_hex(4)}", password=None)
        found.guest = guest
        found.save(update_fields=["guest"])
        found.evening.scorekeepers.add(guest)
    return found, found.guest


def _retire_links(tournament: Tournament) -> None:
    """Every table's link so far renewed (its phone logged out): a round over is corrected by the organiser only."""
    for table in TournamentTable.objects.filter(round__tournament=tournament).select_related("evening"):
        table_link_renew(table=table)


def standings_link_renew(*, tournament: Tournament) -> Tournament:
    """A new link for the players' standings (and the door's check-in, which shares it): the old one opens nothing,
    and the live lines opened through it end once this is committed (``push.event_stream``)."""
    tournament.share_token = new_share_token()
    tournament.save(update_fields=["share_token"])
    push.link_changed(topic(tournament.pk), tournament.share_token)
    return tournament


def table_link_renew(*, table: TournamentTable) -> TournamentTable:
    """A new link for the table; the old one opens nothing, and the phone logged in through it is logged out
    (its guest account is replaced)."""
    table.refresh_from_db(fields=["guest"])  # the phone may have logged in since the caller read the table
    if table.guest is not None:
        old = table.guest
        table.guest = None
        old.is_active = False
        old.save(update_fields=["is_active"])
        table.evening.scorekeepers.remove(old)
    table.token = new_share_token()
    table.save(update_fields=["token", "guest"])
    return table


# --------------------------------------------------------------------------------------------------------------
# Results and standings


def table_result(
    table: TournamentTable, hands: Sequence[Hand], balances: Mapping[str, Decimal], chosen: Format
) -> dict[str, Any]:
    """One table's result so far, per seat (JSON): ``points`` (Skat: Seeger-Fabian list points; Mariáš and
    Šnapser: placement points of the money), ``won``/``lost`` (games as declarer), ``money`` (the table's balance)
    and ``fees`` (Skat: the lost-game fees)."""
    seats = list(table.table.seat_names)
    if table.table.game == "skat":
        rows = rt.skat_series([_skat_hand(hand) for hand in hands], seats, chosen.fees)
        return {
            name: {"points": str(row.points), "won": row.won, "lost": row.lost, "money": str(balances.get(name, 0)),
                   "fees": str(row.lost_fee)}
            for name, row in rows.items()
        }  # fmt: skip
    won: dict[str, int] = defaultdict(int)
    lost: dict[str, int] = defaultdict(int)
    for hand in hands:
        declarer = hand.document.get("declarer")
        if declarer in seats:
            (won if hand.result.get("won") else lost)[declarer] += 1
    money = {name: balances.get(name, Decimal(0)) for name in seats}
    placement = _placement(chosen.placement, len(seats))
    points = rt.placement_points(money, placement) if hands else dict.fromkeys(seats, Decimal(0))
    return {
        name: {
            "points": str(points[name]),
            "won": won[name],
            "lost": lost[name],
            "money": str(money[name]),
            "fees": "0",
        }
        for name in seats
    }


def _placement(scheme: list[Decimal] | None, seats: int) -> list[Decimal] | None:
    """The placement points for a table of ``seats``: the format's (given for four seats: a shorter table takes
    the same line from the best place to the worst), or None for ``rules.tournament.placement_scheme``."""
    if scheme is None:
        return None
    if len(scheme) == seats:
        return scheme
    return list(rt.placement_scheme(seats, top=scheme[0], bottom=scheme[-1]))


def _skat_hand(hand: Hand) -> rt.SkatHandResult:
    declarer = hand.document.get("declarer")
    score = {name: int(points) for name, points in (hand.result.get("score") or {}).items()}
    if not declarer:
        return rt.SkatHandResult(score)
    return rt.SkatHandResult(score, declarer, bool(hand.result.get("won")))


def refresh_results(tournament: Tournament) -> list[TournamentTable]:
    """Every table of the tournament with its result as of its revision: those whose revision moved on are
    recomputed from their counted hands (two queries for all of them) and stored. Four queries in all."""
    # Only what the results need: after every hand this reads all the tables, and their rules, the tournament's
    # plan and the hands' explanations are large JSON that nothing here reads.
    tables = list(
        TournamentTable.objects.filter(round__tournament=tournament)
        .select_related("table")
        .only("round_id", "number", "result", "result_revision", "table__revision", "table__seat_names", "table__game")
        .order_by("round__number", "number")
    )
    stale = [table for table in tables if table.result_revision != table.table.revision]
    if not stale:
        return tables
    chosen = tournament_format(tournament)
    ids = [table.table_id for table in stale]
    hands: dict[int, list[Hand]] = defaultdict(list)
    counted = Hand.objects.filter(table_id__in=ids, status=Hand.Status.COUNTED).only("table_id", "document", "result")
    for hand in counted.order_by("table_id", "number"):
        hands[hand.table_id].append(hand)
    balances: dict[int, dict[str, Decimal]] = defaultdict(dict)
    rows = Posting.objects.filter(hand__table_id__in=ids).counted().totals("hand__table_id", "player__name")
    for (table_id, name), amount in rows.items():
        balances[table_id][name] = amount
    for table in stale:
        table.result = table_result(table, hands[table.table_id], balances[table.table_id], chosen)
        table.result_revision = table.table.revision
    TournamentTable.objects.bulk_update(stale, ["result", "result_revision"])
    return tables


def standings(tournament: Tournament) -> list[rt.Standing]:
    """The standings over every series or round played so far, best first (``rules.tournament.standings``)."""
    rounds: list[rt.PlayerRound] = []
    for table in refresh_results(tournament):
        for name, row in table.result.items():
            rounds.append(
                rt.PlayerRound(
                    player=name,
                    points=Decimal(row["points"]),
                    won=row["won"],
                    lost=row["lost"],
                    money=Decimal(row["money"]),
                    fees=Decimal(row["fees"]),
                )
            )
    registered = Entrant.objects.filter(tournament=tournament).values_list("player__name", flat=True)
    seen = {row.player for row in rounds}
    # A registered player without a table yet is listed at nothing, and with no round played (rt.standings
    # counts each row given as a round).
    unseated = {name for name in registered if name not in seen}
    rounds += [rt.PlayerRound(player=name, points=Decimal(0)) for name in sorted(unseated)]
    return [dataclasses.replace(row, rounds=0) if row.player in unseated else row for row in rt.standings(rounds)]


def prize_list(tournament: Tournament, table: Sequence[rt.Standing]) -> dict[str, Decimal]:
    """The prizes by the standings ``table``: the pool of the fees (``rules.tournament.prize_pool``) paid out by
    the format's scheme, each a whole number of the tournament's coin."""
    chosen = tournament_format(tournament)
    seatings = sum(row.rounds for row in table)
    lost_money = sum((row.fees for row in table), Decimal(0))
    pool = rt.prize_pool(chosen.fees, len(table), seatings=seatings, lost_money=lost_money)
    if not table or not pool:
        return {}
    return rt.prizes(
        [row.player for row in table],
        pool,
        chosen.prizes,
        tournament.coin,
        ranks={row.player: row.rank for row in table},
    )


def tournament_of(table: Table) -> Tournament | None:
    """The tournament a table belongs to, if any."""
    found = TournamentTable.objects.filter(table=table).select_related("round__tournament").first()
    return None if found is None else found.round.tournament


def topic(tournament_id: int) -> str:
    """The push topic of a tournament's standings viewers (the projector, the players' phones)."""
    return f"tournament:{tournament_id}"


def standings_rows(tournament: Tournament) -> list[dict[str, object]]:
    return [row.as_dict() for row in standings(tournament)]


def standings_message(tournament: Tournament) -> dict[str, Any]:
    """What the standings' viewers are sent (pushed, and first on every live line): the rows, and the round the
    projector's clock counts down (None before the first), so that a new round reaches them as a hand does."""
    current = Round.objects.filter(tournament=tournament).order_by("-number").first()
    version = standings_version(tournament)  # read first: standings read after it are as new or newer
    return {
        "version": version,
        "standings": standings_rows(tournament),
        "round": None
        if current is None
        else {
            "number": current.number,
            "rounds": tournament.rounds,
            "ends_at": None if current.ends_at is None else current.ends_at.isoformat(timespec="seconds"),
        },
        "status": tournament.status,
    }


def standings_version(tournament: Tournament) -> list[int]:
    """The version of the books the standings are drawn from: rounds started, the tables' revisions summed (every
    change to a hand raises its table's), finished or not. It only grows, so a viewer keeps the newest message of
    two published in the other order (two tables storing a hand at once)."""
    books = TournamentTable.objects.filter(round__tournament=tournament).aggregate(
        rounds=Count("round", distinct=True), revisions=Sum("table__revision")
    )
    finished = int(tournament.status == Tournament.Status.FINISHED)
    return [int(books["rounds"] or 0), int(books["revisions"] or 0), finished]


def announce(table: Table) -> None:
    """After the commit of a change to a tournament table's hands: the standings, pushed to every viewer."""
    found = TournamentTable.objects.filter(table_id=table.pk).values_list("round__tournament_id", flat=True).first()
    if found is None:
        return
    transaction.on_commit(functools.partial(_publish_standings, found), robust=True)


def _announce_round(tournament: Tournament) -> None:
    """After the commit of a new round or the end: the projector's clock and the phones' round line move on."""
    transaction.on_commit(functools.partial(_publish_standings, tournament.pk), robust=True)


def _publish_standings(tournament_id: int) -> None:
    tournament = Tournament.objects.get(pk=tournament_id)
    push.publish(topic(tournament_id), standings_message(tournament))


__all__ = [
    "Format",
    "Started",
    "TablesUnfinished",
    "announce",
    "entrant_add",
    "entrant_check_in",
    "format_from",
    "prize_list",
    "refresh_results",
    "round_start",
    "standings",
    "standings_message",
    "table_guest",
    "table_link_renew",
    "table_result",
    "topic",
    "tournament_create",
    "tournament_finish",
    "unfinished_tables",
]
