"""The tournaments' services (ledger.tournaments): the format, seating, the tables' results and the standings.

Hands go through ``services.hand_record`` / ``hand_correct`` / ``hand_void`` as at any table; the expected numbers
are worked out by hand from RULES.md §1 (Seeger-Fabian: won value + 50; lost −(2 × value + 50) and +40 to each
other player at three seats, +30 at four).
"""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

import rules
from ledger import services
from ledger.live import fanout
from ledger.services import LedgerError
from ledger.tournaments import formats, selectors
from ledger.tournaments import services as tournaments
from ledger.tournaments.models import Entrant, Round, Tournament, TournamentTable
from rules import tournament as rt

SEVEN = ["Ana", "Ben", "Cyril", "Dora", "Emil", "Fany", "Gustav"]
DAY = datetime.date(2026, 11, 27)


def skat_night(owner: Any, **kwargs: Any) -> Tournament:
    kwargs.setdefault("options", {"fees": {"entry": "10", "lost": {"3": "0.50", "4": "1.00"}}})
    return tournaments.tournament_create(
        owner=owner, game="skat", name="Club night", players=SEVEN, rounds=2, date=DAY, start=True, **kwargs
    )


def tables_of(tournament: Tournament, number: int = 1) -> list[TournamentTable]:
    return list(
        TournamentTable.objects.filter(round__tournament=tournament, round__number=number)
        .select_related("table", "evening")
        .order_by("number")
    )


def by_player(tournament: Tournament) -> dict[str, Any]:
    return {row.player: row for row in selectors.standings(tournament)}


# --------------------------------------------------------------------------------------------------------------
# The format


def test_the_format_fills_in_defaults_and_reads_back_its_own_options():
    chosen = formats.format_from("skat", None)
    assert chosen.rules == {"preset": "seeger-fabian"}
    assert chosen.games == {3: 36, 4: 48} and chosen.prizes == "top3" and chosen.placement is None
    asked = {
        "fees": {"entry": "12.50", "table": "1", "lost": {"3": "0.50"}, "lost_to_prizes": True},
        "prizes": ["50", "30", "20"],
        "placement": ["5", "3", "2", "0"],
        "games": {"4": 40},
        "minutes": 100,
    }
    chosen = formats.format_from("skat", asked)
    assert chosen.fees.entry == Decimal("12.50") and chosen.fees.lost == {3: Decimal("0.50"), 4: Decimal("1.00")}
    assert chosen.games == {3: 36, 4: 40} and chosen.placement == [Decimal(5), Decimal(3), Decimal(2), Decimal(0)]
    assert formats.format_from("skat", chosen.as_options()) == chosen


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"prizes": ["10", "20"]}, "options.prizes"),
        ({"prizes": []}, "options.prizes"),
        ({"placement": ["1", "4"]}, "options.placement"),
        ({"placement": "4321"}, "options.placement"),
        ({"hands": 0}, "options.hands"),
        ({"for_money": "yes"}, "options.for_money"),
        ({"rules": "pub"}, "options.rules"),
    ],
)
def test_a_format_that_could_only_fail_later_is_refused_now(options, field):
    with pytest.raises(LedgerError) as refused:
        formats.format_from("marias", options)
    assert refused.value.field == field


# --------------------------------------------------------------------------------------------------------------
# Registering and seating


def test_registered_players_have_no_round_until_seated(alice):
    tournament = tournaments.tournament_create(
        owner=alice, game="skat", name="Club night", players=SEVEN, rounds=2, date=DAY
    )
    assert tournament.status == Tournament.Status.REGISTERING and not Round.objects.exists()
    rows = selectors.standings(tournament)
    assert [(row.rank, row.points, row.rounds) for row in rows] == [(1, 0, 0)] * 7
    assert selectors.prize_list(tournament, rows) == {}  # no fees, no pool
    # Checked in at the door: only they are drawn.
    for entrant in Entrant.objects.filter(tournament=tournament, number__lte=6):
        tournaments.entrant_check_in(entrant=entrant)
    tournaments.round_start(tournament=tournament, number=1)
    assert [len(table.table.seat_names) for table in tables_of(tournament)] == [3, 3]
    rows = by_player(tournament)
    assert rows["Gustav"].rounds == 0 and rows["Ana"].rounds == 1


def test_a_long_name_is_shortened_in_the_tables_places(alice):
    long_name = "Ž" * 80
    made = tournaments.tournament_create(
        owner=alice, game="skat", name=long_name, players=SEVEN, rounds=1, date=DAY, start=True
    )
    places = [table.evening.place for table in tables_of(made)]
    assert [len(place) for place in places] == [80, 80]
    assert places[0].endswith("… · round 1 · table 1") and places[1].endswith("… · round 1 · table 2")


def test_no_round_after_the_last_nor_after_the_end(alice):
    tournament = skat_night(alice)
    tournaments.round_start(tournament=tournament, number=2, confirm_unfinished=True)
    with pytest.raises(LedgerError, match="All 2 rounds have been played"):
        tournaments.round_start(tournament=tournament, number=3, confirm_unfinished=True)
    tournaments.tournament_finish(tournament=tournament)
    assert Round.objects.filter(tournament=tournament, ends_at__isnull=True).count() == 0
    with pytest.raises(LedgerError, match="The tournament is over"):
        tournaments.entrant_add(tournament=tournament, name="Hana")


# --------------------------------------------------------------------------------------------------------------
# A table's results: Skat at three and four seats, corrections, voids


def skat(table: TournamentTable, dealer: int, declarer: int, points: int, **extra: Any) -> dict[str, Any]:
    seats = table.table.seat_names
    hand = {"declarer": seats[declarer], "contract": "grand", "matadors": 1, "declarer_points": points, **extra}
    if len(seats) == 4:
        hand["dealer"] = seats[dealer]
    return hand


def test_skat_tables_of_four_and_three_pay_their_own_bonuses_and_fees(alice):
    tournament = skat_night(alice)
    four, three = tables_of(tournament)
    f, t = four.table.seat_names, three.table.seat_names
    # Four seats, S19: f1 loses Grand with 1 at 60: −146, +30 to f0, f2, f3 (the sitting dealer f0 included).
    services.hand_record(table=four.table, hand=skat(four, 0, 1, 60), by=alice, dealer=0)
    # Three seats, S18: t0 wins Grand with 1: +98; then t1 loses it: −146, +40 to t0 and t2.
    services.hand_record(table=three.table, hand=skat(three, 0, 0, 61), by=alice)
    services.hand_record(table=three.table, hand=skat(three, 1, 1, 60), by=alice)
    rows = by_player(tournament)
    assert {name: rows[name].points for name in f} == dict(zip(f, [30, -146, 30, 30], strict=True))
    assert {name: rows[name].points for name in t} == dict(zip(t, [138, -146, 40], strict=True))
    # Lost-game fees by table size: 1.00 at four seats, 0.50 at three.
    assert rows[f[1]].fees == Decimal("1.00") and rows[t[1]].fees == Decimal("0.50")
    assert (rows[t[0]].won, rows[t[0]].lost, rows[t[1]].won, rows[t[1]].lost) == (1, 0, 0, 1)
    # Money at 0.01 a point, 3 seats: 0.01 × (3 × points − sum 32): t0 +3.82, t1 −4.70, t2 +0.88.
    assert [rows[name].money for name in t] == [Decimal("3.82"), Decimal("-4.70"), Decimal("0.88")]
    # The pool: 7 × 10 entry (the lost-game fees stay with the organiser), top3 in cents: 35, 21, and the 14 of
    # 3rd place shared by f0, f2, f3 (30 points and 1.76 each: tied) at 4.66, the 0.02 left over to the winner.
    table = selectors.standings(tournament)
    assert [(row.rank, row.player) for row in table[:5]] == [
        (1, t[0]),
        (2, t[2]),
        *[(3, n) for n in sorted(f[::2] + f[3:])],
    ]
    paid = selectors.prize_list(tournament, table)
    assert sum(paid.values()) == Decimal(70)
    assert {name: amount for name, amount in paid.items() if amount} == {
        t[0]: Decimal("35.02"),
        t[2]: Decimal("21.00"),
        f[0]: Decimal("4.66"),
        f[2]: Decimal("4.66"),
        f[3]: Decimal("4.66"),
    }


def test_a_correction_and_a_void_reach_the_standings(alice):
    tournament = skat_night(alice)
    _four, three = tables_of(tournament)
    t = three.table.seat_names
    hand = services.hand_record(table=three.table, hand=skat(three, 0, 0, 61), by=alice)
    assert by_player(tournament)[t[0]].points == 98
    # Corrected to 60 points: lost, −146, and +40 to the two others.
    hand = services.hand_correct(hand=hand, document=skat(three, 0, 0, 60), by=alice, version=hand.version)
    rows = by_player(tournament)
    assert (rows[t[0]].points, rows[t[1]].points, rows[t[0]].fees) == (-146, 40, Decimal("0.50"))
    services.hand_void(hand=hand, by=alice)
    rows = by_player(tournament)
    assert (rows[t[0]].points, rows[t[1]].points, rows[t[0]].lost, rows[t[0]].fees) == (0, 0, 0, Decimal("0.00"))


def test_only_changed_tables_are_recomputed(alice, django_assert_num_queries):
    tournament = skat_night(alice)
    four, three = tables_of(tournament)
    services.hand_record(table=three.table, hand=skat(three, 0, 0, 61), by=alice)
    tournaments.refresh_results(tournament)
    before = TournamentTable.objects.get(pk=four.pk).result
    with django_assert_num_queries(1):  # nothing changed: the tables and nothing else
        tournaments.refresh_results(tournament)
    services.hand_record(table=three.table, hand=skat(three, 1, 1, 61), by=alice)
    tables = {table.pk: table for table in tournaments.refresh_results(tournament)}
    assert tables[four.pk].result == before
    assert tables[three.pk].result_revision == tables[three.pk].table.revision
    assert tables[three.pk].result[three.table.seat_names[1]]["points"] == "98"


def test_the_second_series_is_seated_by_the_standings_and_late_comers_last(alice):
    tournament = skat_night(alice)
    four, three = tables_of(tournament)
    t = three.table.seat_names
    services.hand_record(table=three.table, hand=skat(three, 0, 2, 61), by=alice)  # t2 +98
    services.hand_record(table=four.table, hand=skat(four, 0, 3, 60), by=alice, dealer=0)  # f3 −146, others +30
    late = tournaments.entrant_add(tournament=tournament, name="Hana")
    tournaments.entrant_check_in(entrant=late, for_next_round=True)
    tournaments.round_start(tournament=tournament, number=2, confirm_unfinished=True)
    f = four.table.seat_names
    ranked = [row.player for row in selectors.standings(tournament)]
    # 98 t2; 30 f0, f1, f2 (equal money too: by name); 0 Hana, who came late (money 0), then t0 and t1 (money
    # 0.01 × (0 − 98) = −0.98 each: by name); −146 f3.
    assert ranked == [t[2], *sorted(f[:3]), "Hana", *sorted(t[:2]), f[3]]
    seats = [table.table.seat_names for table in tables_of(tournament, 2)]
    # Seated by the standings of those who played series 1; Hana, who did not, sits last (not at her 0 points
    # above t0, t1 and f3, who lost some).
    seeded = [name for name in ranked if name != "Hana"] + ["Hana"]
    assert seats == [seeded[:4], seeded[4:]]  # 8 players: two tables of four


# --------------------------------------------------------------------------------------------------------------
# Mariáš and Šnapser: placement points; the movement; the table's phone


def test_snapser_placement_points_at_a_three_seat_table(alice):
    tournament = tournaments.tournament_create(
        owner=alice, game="snapser", name="Šnapser", players=SEVEN[:6], rounds=2, date=DAY, start=True
    )
    first, second = tables_of(tournament)
    seats = first.table.seat_names
    # Šnapser N1: the chooser hrá s vodou and wins: +0.40, −0.20 each (RULES.md). Placement at 3 seats: 4, 2.5, 1
    # (the opponents tie for 2nd and 3rd: (2.5 + 1) / 2 = 1.75 each).
    hand = {"declarer": seats[1], "trump": "leaves", "announcement": "hram", "winner": "declarer", "result": "s_vodou"}
    services.hand_record(table=first.table, hand=hand, by=alice)
    rows = by_player(tournament)
    assert [rows[name].points for name in seats] == [Decimal("1.75"), Decimal(4), Decimal("1.75")]
    assert all(rows[name].points == 0 for name in second.table.seat_names)  # no hand yet: nothing
    assert rows[seats[1]].money == Decimal("0.40")


def test_a_marias_movement_is_replanned_when_somebody_leaves(alice):
    players = [f"Hráč {n:02d}" for n in range(1, 17)]
    tournament = tournaments.tournament_create(
        owner=alice, game="marias", name="Mariáš", players=players, rounds=3, date=DAY, start=True
    )
    assert len(tournament.plan) == 3
    gone = [Entrant.objects.get(tournament=tournament, player__name=name) for name in players[:4]]
    for entrant in gone:
        tournaments.entrant_check_in(entrant=entrant, checked_in=False, for_next_round=True)
    tournaments.round_start(tournament=tournament, number=2, confirm_unfinished=True)
    tournament.refresh_from_db()
    seated = sorted(name for table in tables_of(tournament, 2) for name in table.table.seat_names)
    assert seated == sorted(players[4:]) and len(tournament.plan) == 3


def test_a_tables_phone_keeps_score_of_its_table_alone(alice):
    tournament = skat_night(alice)
    four, three = tables_of(tournament)
    found, guest = tournaments.table_guest(token=four.token)
    assert found == four and tournaments.table_guest(token=four.token)[1] == guest  # made once
    assert list(four.evening.scorekeepers.all()) == [guest]
    assert guest not in three.evening.scorekeepers.all()
    renewed = tournaments.table_link_renew(table=four)
    guest.refresh_from_db()
    assert not guest.is_active and renewed.token != found.token
    with pytest.raises(LookupError):
        tournaments.table_guest(token=found.token)
    tournaments.tournament_finish(tournament=tournament)
    with pytest.raises(LookupError):  # the links open nothing once the tournament is over
        tournaments.table_guest(token=three.token)


def test_every_stored_hand_pushes_the_standings(alice, monkeypatch, django_capture_on_commit_callbacks):
    tournament = skat_night(alice)
    _four, three = tables_of(tournament)
    sent: list[tuple[str, dict[str, Any]]] = []
    monkeypatch.setattr(fanout, "publish", lambda topic, message: sent.append((topic, message)))
    with django_capture_on_commit_callbacks(execute=True):
        services.hand_record(table=three.table, hand=skat(three, 0, 0, 61), by=alice)
    pushed = [message for topic, message in sent if topic == selectors.topic(tournament.pk)]
    first = pushed[-1]["standings"][0]
    # t0 won Grand with 1 at three seats: 98 points; money 0.01 × (3 × 98 − 98) = 1.96.
    assert (first["rank"], first["player"], first["points"], first["won"], first["rounds"]) == (
        1,
        three.table.seat_names[0],
        "98",
        1,
        1,
    )
    assert Decimal(first["money"]) == Decimal("1.96")


# --------------------------------------------------------------------------------------------------------------
# After review: rounds over score no more, money within the books' digits, placement of four places, versions


def test_the_last_rounds_phones_are_logged_out_when_the_next_round_starts(alice):
    tournament = skat_night(alice)
    four, _three = tables_of(tournament)
    _found, guest = tournaments.table_guest(token=four.token)
    tournaments.round_start(tournament=tournament, number=2, confirm_unfinished=True)
    guest.refresh_from_db()
    assert not guest.is_active and guest not in four.evening.scorekeepers.all()
    with pytest.raises(LookupError):  # the printed draw of series 1 opens nothing any more
        tournaments.table_guest(token=four.token)
    new_four, _new_three = tables_of(tournament, 2)
    assert tournaments.table_guest(token=new_four.token)[1].is_active


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"fees": {"entry": "1e300"}}, "options.fees.entry"),
        ({"fees": {"table": "99999999999"}}, "options.fees.table"),
        ({"prizes": ["1e400"]}, "options.prizes.0"),
        ({"placement": ["4", "3", "1"]}, "options.placement"),
        ({"placement": ["4", "3", "2", "1", "0"]}, "options.placement"),
    ],
)
def test_money_past_the_books_digits_and_placement_not_of_four_places_are_refused(options, field):
    with pytest.raises(LedgerError) as refused:
        formats.format_from("marias", options)
    assert refused.value.field == field


def test_the_standings_version_grows_with_every_change(alice, django_capture_on_commit_callbacks):
    tournament = skat_night(alice)
    _four, three = tables_of(tournament)
    first = selectors.standings_version(tournament)
    services.hand_record(table=three.table, hand=skat(three, 0, 0, 61), by=alice)
    after_hand = selectors.standings_version(tournament)
    tournaments.round_start(tournament=tournament, number=2, confirm_unfinished=True)
    after_round = selectors.standings_version(tournament)
    tournaments.tournament_finish(tournament=tournament)
    after_end = selectors.standings_version(Tournament.objects.get(pk=tournament.pk))
    assert first < after_hand < after_round < after_end
    assert selectors.standings_message(tournament)["version"] == after_end


# --------------------------------------------------------------------------------------------------------------
# The standings are stored after a change, never by a page that shows them


def test_the_standings_pages_only_read_and_a_change_stores_the_results(
    alice, client, django_capture_on_commit_callbacks
):
    tournament = skat_night(alice)
    _four, three = tables_of(tournament)
    services.hand_record(table=three.table, hand=skat(three, 0, 0, 61), by=alice)  # its commit never comes
    stale = TournamentTable.objects.get(pk=three.pk)
    assert stale.result_revision != stale.table.revision
    client.force_login(alice)
    pages = [
        reverse("ledger:tournament_detail", args=[tournament.pk]),
        reverse("ledger:tournament_live", args=[tournament.share_token]),
        reverse("ledger:tournament_projector", args=[tournament.pk]),
        reverse("api:tournament_standings", args=[tournament.pk]),
    ]
    for page in pages:
        with CaptureQueriesContext(connection) as queries:
            answer = client.get(page)
        assert answer.status_code == 200, page
        assert ">98<" in answer.text or '"98"' in answer.text, page  # the hand is in the standings shown
        writes = [query["sql"] for query in queries if query["sql"].lstrip().upper().startswith(("UPDATE", "INSERT"))]
        assert writes == [], page
    assert TournamentTable.objects.get(pk=three.pk).result_revision == stale.result_revision
    with django_capture_on_commit_callbacks(execute=True):
        services.hand_record(table=three.table, hand=skat(three, 1, 1, 61), by=alice)
    stored = TournamentTable.objects.select_related("table").get(pk=three.pk)
    assert stored.result_revision == stored.table.revision
    assert stored.result[three.table.seat_names[1]]["points"] == "98"


def test_every_registered_game_says_how_it_plays_a_tournament():
    for name in rules.GAMES:
        chosen = formats.format_from(name, None)
        assert dict(chosen.rules) == dict(rt.play(name).rules)
    assert [name for name in rules.GAMES if rt.play(name).series] == ["skat"]
