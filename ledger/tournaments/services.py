"""A tournament's books kept: registering and checking in, starting each round (its tables are evenings of their
own, with one table each), finishing, the tables' score-sheet links and the standings' link, and the tables'
results stored after each change.

The pure parts (table sizes, draw, seeding, the movement, Seeger-Fabian series, fees, prizes, placement points,
standings) are ``rules.tournament``. Each table of each round is an evening of its own with one table (see
``ledger.tournaments.models``): its hands are recorded, corrected, undone and queued offline like any evening's, by
the organiser and by the table's phone. After each change to a table's hands (``listeners``, after the commit) and
each new round, the stale results are stored (``refresh_results``) and the standings pushed to their viewers.
"""

from __future__ import annotations

import datetime
import functools
import random
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date as Date
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import rules
from ledger import services as books
from ledger.errors import LedgerError
from ledger.live import fanout
from ledger.models import Evening, Table, new_share_token
from ledger.texts import text_tidy
from ledger.tournaments import formats, selectors
from ledger.tournaments.models import Entrant, Round, Tournament, TournamentTable
from ledger.tournaments.results import with_results
from ledger.tournaments.selectors import Unfinished
from rules import tournament as rt

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
    formats.game_play(game)  # one the registry has, and that plays tournaments
    refused = _("A tournament's name can have at most 80 letters, none of them hidden.")
    name = text_tidy(name or "", field="name", most=80, empty=refused, too_long=refused, hidden=refused)
    chosen = formats.format_from(game, options)
    formats.whole_number(rounds, "rounds", 1, formats.MOST_ROUNDS)
    # An evening of the same date, place and currency stands for each table: its checks apply here too.
    sample = books.evening_create(
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
    try:
        rules.resolve(tournament.game, dict(formats.tournament_format(tournament).rules))
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
    player = books.player_get_or_create(owner=tournament.owner, name=name)
    if Entrant.objects.filter(tournament=tournament, player=player).exists():
        raise LedgerError(_("%(name)s is registered already.") % {"name": player.name}, field="players")
    if Entrant.objects.filter(tournament=tournament).count() >= formats.MOST_PLAYERS:
        most = formats.MOST_PLAYERS
        raise LedgerError(_("A tournament takes at most %(most)s players.") % {"most": most}, field="players")
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


@transaction.atomic
def round_start(*, tournament: Tournament, number: int | None = None, confirm_unfinished: bool = False) -> Started:
    """Seat series or round ``number``: the first series drawn at random and a later one seated by the standings
    (Skat), or each round from the movement planned with the first (Mariáš, Šnapser), as the game plays its
    tournaments (``Tournament.play``); a table each, with its evening and link.

    Idempotent by intent: under the tournament's row lock, a round that has started already is answered as it is
    (a double tap, a retried request); a number that is neither that nor the next is refused. While tables of the
    running round have fewer hands than planned, ``TablesUnfinished`` names them unless ``confirm_unfinished``.
    ``number`` None means the next one, for a caller that is itself the intent (a new tournament's first round,
    the demo); a request from a page or the API always names it."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    played_already = selectors.rounds_played(locked)
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
        unfinished = selectors.unfinished_tables(locked)
        if unfinished:
            raise TablesUnfinished(unfinished, number)
    players = selectors.player_names(locked, checked_in=True)
    try:
        seating = _seating(locked, number, players)
    except rt.TournamentError as error:
        raise LedgerError(error.message, field=error.field) from error
    Round.objects.filter(tournament=locked, ends_at__isnull=True).update(ends_at=timezone.now())
    _retire_links(locked)  # the last round's phones and printed links score no more: the organiser corrects
    minutes = formats.tournament_format(locked).minutes
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
    if tournament.play.series:
        if number == 1:
            return rt.draw(players, tournament.game, rng)
        present = set(players)
        # Who played a series goes by the standings; who checked in late (no series yet) sits after them all,
        # not at 0 points above the players who lost points.
        ranked = [row.player for row in selectors.standings(tournament) if row.player in present and row.rounds]
        ranked += [player for player in players if player not in ranked]
        return rt.seed(ranked, tournament.game)
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
    chosen = formats.tournament_format(tournament)
    # An opponent confirms each hand at a tournament's table, as a table terminal has the opposing side verify a
    # score before it counts: the standings rest on hands no single phone wrote alone.
    table = books.table_create(
        evening=evening,
        game=tournament.game,
        players=seats,
        rules_override=dict(chosen.rules),
        confirmation=Table.Confirmation.OPPONENT,
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
    and the live lines opened through it end once this is committed (``ledger.live.streams.event_stream``)."""
    tournament.share_token = new_share_token()
    tournament.save(update_fields=["share_token"])
    fanout.link_changed(selectors.topic(tournament.pk), tournament.share_token)
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
# Results


def refresh_results(tournament: Tournament) -> list[TournamentTable]:
    """Every table of the tournament with its result as of its revision, the stale ones recomputed
    (``results.with_results``) and stored: one query when none is stale, four otherwise."""
    tables, stale = with_results(tournament)
    if stale:
        TournamentTable.objects.bulk_update(stale, ["result", "result_revision"])
    return tables


def results_changed(tournament_id: int) -> None:
    """After the commit of a change to a tournament table's hands: its result stored, and the standings pushed to
    every viewer."""
    _publish_standings(tournament_id)


def _announce_round(tournament: Tournament) -> None:
    """After the commit of a new round or the end: the projector's clock and the phones' round line move on."""
    transaction.on_commit(functools.partial(_publish_standings, tournament.pk), robust=True)


def _publish_standings(tournament_id: int) -> None:
    tournament = Tournament.objects.get(pk=tournament_id)
    refresh_results(tournament)  # stored here, after the change: the pages that show them only read
    fanout.publish(selectors.topic(tournament_id), selectors.standings_message(tournament))
