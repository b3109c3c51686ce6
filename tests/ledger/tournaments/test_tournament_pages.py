"""Tournament pages as the three personas: Alice organises (her list, a new tournament, the tournament
page and its htmx parts), a table's phone opens its score-sheet link and is confined to its table, Charlie (and
nobody logged in) is a stranger who gets 404 or the log-in page. Players check in through the door's link."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from ledger import services
from ledger.models import Evening, Hand
from ledger.services import LedgerError
from ledger.tournaments import formats, selectors
from ledger.tournaments import services as tournaments
from ledger.tournaments.forms import TournamentForm, add_tournament_error
from ledger.tournaments.models import Entrant, Tournament, TournamentTable
from tests import factories
from tests.ledger.offline.test_offline import form_fields, tapped

D = Decimal
HX = {"HX-Request": "true"}
DAY = datetime.date(2026, 12, 4)
SIX = ["Ana", "Ben", "Cyril", "Dana", "Emil", "Fero"]


@pytest.fixture
def tournament(alice):
    """A Skat club night of six players (two tables of three), not started."""
    return tournaments.tournament_create(
        owner=alice,
        game="skat",
        name="Skat night",
        players=SIX,
        rounds=2,
        options={"fees": {"entry": "10.00", "lost": {"3": "0.50"}}, "prizes": "top3"},
        date=DAY,
        place="Klubovna",
    )


@pytest.fixture
def running(tournament):
    Entrant.objects.filter(tournament=tournament).update(checked_in=True)
    tournaments.round_start(tournament=tournament, number=1)
    return tournament


def first_table(tournament: Tournament) -> TournamentTable:
    return TournamentTable.objects.filter(round__tournament=tournament).select_related("table").order_by("number")[0]


def detail(tournament: Tournament) -> str:
    return reverse("ledger:tournament_detail", args=[tournament.pk])


def organiser_urls(tournament: Tournament) -> list[tuple[str, str]]:
    entrant = tournament.entrants.first()
    table = TournamentTable.objects.filter(round__tournament=tournament).first()
    urls = [
        ("get", detail(tournament)),
        ("post", reverse("ledger:tournament_entrant_add", args=[tournament.pk])),
        ("post", reverse("ledger:tournament_check_in", args=[tournament.pk, entrant.pk])),
        ("post", reverse("ledger:tournament_round_start", args=[tournament.pk])),
        ("post", reverse("ledger:tournament_finish", args=[tournament.pk])),
    ]
    if table is not None:
        urls.append(("post", reverse("ledger:tournament_table_link_renew", args=[tournament.pk, table.pk])))
    return urls


# --------------------------------------------------------------------------------------------------------------
# Alice, the organiser


def test_the_list_shows_my_tournaments_only(alice_client, tournament, charlie):
    tournaments.tournament_create(owner=charlie, game="skat", name="Charlie's cup", players=[], rounds=1)
    page = alice_client.get(reverse("ledger:tournament_list")).content.decode()
    assert "Skat night" in page and "6 players" in page and "round 0 of 2" in page
    assert "Charlie" not in page


def test_a_tournament_is_created_with_its_format_and_players(alice_client, alice):
    data = {
        "name": "Club night",
        "game": "skat",
        "date": "2026-12-04",
        "place": "Klubovna",
        "currency": "EUR",
        "rounds": "2",
        "entry_fee": "10",
        "table_fee": "2.50",
        "lost_fee_3": "0.50",
        "lost_fee_4": "1",
        "prizes": "winner",
        "minutes": "100",
        "players": "Ana\nBen, Cyril\n\nDana",
    }
    response = alice_client.post(reverse("ledger:tournament_create"), data)
    tournament = Tournament.objects.get(owner=alice)
    assert response.status_code == 302 and response["Location"] == detail(tournament)
    assert (tournament.name, tournament.game, tournament.date, tournament.rounds) == ("Club night", "skat", DAY, 2)
    assert [e.player.name for e in tournament.entrants.order_by("number")] == ["Ana", "Ben", "Cyril", "Dana"]
    chosen = formats.tournament_format(tournament)
    assert (chosen.fees.entry, chosen.fees.table, chosen.fees.lost) == (D("10"), D("2.50"), {3: D("0.50"), 4: D("1")})
    assert (chosen.prizes, chosen.minutes) == ("winner", 100)


def test_a_mariás_tournament_takes_its_placement_points(alice_client, alice):
    data = {"name": "Mariáš cup", "game": "marias", "date": "2026-12-04", "currency": "CZK", "rounds": "3"}
    data |= {"prizes": "top3", "minutes": "60", "placement": "5, 3, 2, 0", "for_money": "on"}
    assert alice_client.post(reverse("ledger:tournament_create"), data).status_code == 302
    chosen = formats.tournament_format(Tournament.objects.get(owner=alice))
    assert chosen.placement == [D(5), D(3), D(2), D(0)] and chosen.for_money


def test_a_mariás_round_starts_at_one_table(alice_client, alice):
    tournament = tournaments.tournament_create(
        owner=alice, game="marias", name="Mariáš cup", players=["Ana", "Ben", "Cyril", "Dana"], rounds=3
    )
    Entrant.objects.filter(tournament=tournament).update(checked_in=True)
    page = alice_client.get(detail(tournament)).content.decode()
    assert "Start round 1: 4 players at 1 table<" in page
    alice_client.post(reverse("ledger:tournament_round_start", args=[tournament.pk]), {"round": "1"})
    page = alice_client.get(detail(tournament)).content.decode()
    assert "Start round 2: 4 players at 1 table<" in page and "Round 1: tables" in page


def test_the_service_refusal_stands_beside_its_field(alice_client, alice):
    data = {"name": "Twice", "game": "skat", "date": "2026-12-04", "currency": "EUR", "rounds": "1"}
    data |= {"prizes": "top3", "minutes": "90", "players": "Ana\nBen\nAna"}
    response = alice_client.post(reverse("ledger:tournament_create"), data)
    assert response.status_code == 400
    page = response.content.decode()
    assert 'id="errors-players"><li>Ana is registered already.' in page
    assert not Tournament.objects.filter(owner=alice).exists()  # all or nothing


@pytest.mark.parametrize(
    ("path", "field"),
    [
        ("options.fees.entry", "entry_fee"),
        ("options.fees.lost.3", "lost_fee_3"),
        ("options.fees.lost.4", "lost_fee_4"),
        ("options.placement.2", "placement"),
        ("options.minutes", "minutes"),
        ("rounds", "rounds"),
        ("options.rules.preset", None),
    ],
)
def test_service_errors_map_to_the_form_fields(path, field):
    form = TournamentForm({})
    form.is_valid()
    form.errors.clear()
    add_tournament_error(form, LedgerError("Wrong.", field=path))
    assert form.errors == {field or "__all__": ["Wrong."]}


def test_the_page_shows_the_players_and_the_next_step(alice_client, tournament):
    page = alice_client.get(detail(tournament)).content.decode()
    assert "Skat night" in page and "0 of 6 checked in" in page
    assert "1.</span> Ana" in page and "6.</span> Fero" in page
    # Nobody checked in: round 1 cannot be seated, and the page says why instead of offering the button.
    assert "0 checked-in players cannot be seated at tables of Skat." in page
    assert "/tournaments/checkin/" in page and "<svg" in page  # the door's QR code


def test_tapping_a_name_checks_in_with_htmx(alice_client, tournament):
    ana = tournament.entrants.get(player__name="Ana")
    url = reverse("ledger:tournament_check_in", args=[tournament.pk, ana.pk])
    stale = alice_client.post(url, headers=HX)  # a tap that names no state (a page from before) changes nothing
    assert "the page was out of date" in stale.content.decode() and not Entrant.objects.get(pk=ana.pk).checked_in
    answer = alice_client.post(url, {"checked_in": "1"}, headers=HX)  # as the name's button posts it
    html = answer.content.decode()
    assert answer.status_code == 200 and html.startswith(f'<li id="entrant-{ana.pk}"')
    assert 'aria-pressed="true"' in html and "1 of 6 checked in" in html and 'hx-swap-oob="true"' in html
    assert Entrant.objects.get(pk=ana.pk).checked_in
    # Tapped again (and without JavaScript): checked out, back to the page.
    plain = alice_client.post(url, {"checked_in": "0"})
    assert plain.status_code == 302 and plain["Location"].endswith("#entrants")
    assert not Entrant.objects.get(pk=ana.pk).checked_in


def test_a_player_added_at_the_door_is_checked_in(alice_client, tournament):
    url = reverse("ledger:tournament_entrant_add", args=[tournament.pk])
    answer = alice_client.post(url, {"name": "Gita", "checked_in": "1"}, headers=HX)
    assert answer.status_code == 200 and "7.</span> Gita" in answer.content.decode()
    assert tournament.entrants.get(player__name="Gita").checked_in
    twice = alice_client.post(url, {"name": "Gita", "checked_in": "1"}, headers=HX)
    # htmx swaps only a 2xx answer: the refusal comes as 200, beside the field; without htmx, 400.
    assert twice.status_code == 200 and 'id="errors-name"><li>Gita is registered already.' in twice.content.decode()
    assert alice_client.post(url, {"name": "Gita"}).status_code == 400
    plain = alice_client.post(url, {"name": "Hana"})
    assert plain.status_code == 302 and tournament.entrants.count() == 8


def test_starting_round_one_draws_the_tables_with_their_links(alice_client, tournament):
    Entrant.objects.filter(tournament=tournament).update(checked_in=True)
    page = alice_client.get(detail(tournament)).content.decode()
    assert "Start series 1: 6 players at 2 tables" in page
    answer = alice_client.post(
        reverse("ledger:tournament_round_start", args=[tournament.pk]), {"round": "1"}, follow=True
    )
    page = answer.content.decode()
    assert "Round 1 has started" in page
    tables = list(TournamentTable.objects.filter(round__tournament=tournament).order_by("number"))
    assert [len(t.table.seat_names) for t in tables] == [3, 3]
    assert sorted(name for t in tables for name in t.table.seat_names) == sorted(SIX)
    for table in tables:
        assert f"/t/{table.token}/" in page and f'href="/tables/{table.table_id}/"' in page
    assert page.count('class="qr"') == 2  # the two tables; the door is shut once a round is drawn
    assert "Start series 2: 6 players at 2 tables" in page


def test_a_round_is_refused_when_the_players_cannot_be_seated(alice_client, tournament):
    Entrant.objects.filter(tournament=tournament, number__lte=5).update(checked_in=True)
    answer = alice_client.post(
        reverse("ledger:tournament_round_start", args=[tournament.pk]), {"round": "1"}, follow=True
    )
    assert "5 players cannot be seated" in answer.content.decode()
    assert not TournamentTable.objects.filter(round__tournament=tournament).exists()


def test_no_round_after_the_last(alice_client, running):
    tournaments.round_start(tournament=running, number=2, confirm_unfinished=True)
    page = alice_client.get(detail(running)).content.decode()
    assert "All 2 rounds have been played." in page and "Start series" not in page
    answer = alice_client.post(reverse("ledger:tournament_round_start", args=[running.pk]), {"round": "3"}, follow=True)
    assert "All 2 rounds have been played." in answer.content.decode()
    assert running.round_set.count() == 2


def test_a_renewed_link_replaces_the_old_one(alice_client, running):
    table = first_table(running)
    old = table.token
    url = reverse("ledger:tournament_table_link_renew", args=[running.pk, table.pk])
    answer = alice_client.post(url, headers=HX)
    html = answer.content.decode()
    table.refresh_from_db()
    assert answer.status_code == 200 and html.startswith(f'<article class="card" id="table-{table.number}">')
    assert table.token != old and f"/t/{table.token}/" in html and "the old one opens nothing" in html
    assert Client().get(reverse("ledger:tournament_sheet", args=[old])).status_code == 404


def test_the_standings_show_a_hand_and_refresh_with_htmx(alice_client, running):
    table = first_table(running)
    declarer = table.table.seat_names[0]
    factories.record(table.table, {"declarer": declarer, "contract": "grand", "matadors": 1, "declarer_points": 61})
    # Grand with 1, game 2 × 24 = 48, won: Seeger-Fabian 48 + 50 = 98 list points.
    answer = alice_client.get(detail(running), headers=HX | {"HX-Target": "standings"})
    html = answer.content.decode()
    assert html.startswith('<section class="card" id="standings">')
    row = html.split(f"<td>1. {declarer}</td>", 1)[1].split("</tr>", 1)[0]
    assert '<td class="num" data-label="Points">98</td>' in row and "1/0" in row
    page = alice_client.get(detail(running)).content.decode()
    card = page.split(f'id="table-{table.number}"', 1)[1].split("</article>", 1)[0]
    hand = Hand.objects.get(table_id=table.table_id)
    # The table's card counts its hands against the series' games (36 at a table of three) and lists them, each
    # with the organiser's way to correct it.
    assert "1 of 36 hands played" in card and f'href="/hands/{hand.pk}/edit/"' in card and "Correct hand #1" in card


def test_finishing_shows_the_prizes(alice_client, running):
    table = first_table(running)
    declarer = table.table.seat_names[0]
    factories.record(table.table, {"declarer": declarer, "contract": "grand", "matadors": 1, "declarer_points": 61})
    answer = alice_client.post(reverse("ledger:tournament_finish", args=[running.pk]), {"confirm": "1"}, follow=True)
    page = answer.content.decode()
    running.refresh_from_db()
    assert running.status == Tournament.Status.FINISHED
    # 6 × 10 € entry: 60 € paid 50/30/20 %; the winner takes 30 €.
    board = page.split('id="standings"', 1)[1].split("</section>", 1)[0]
    assert "Prize" in board and "Money in EUR." in board
    first = board.split(f"<td>1. {declarer}</td>", 1)[1].split("</tr>", 1)[0]
    assert '<td class="num" data-label="Prize">30.00</td>' in first
    # The three who tied for second share the 30 % and 20 % places: 10 € each.
    assert board.count('<td class="num" data-label="Prize">10.00</td>') == 3
    assert "Start series" not in page and "Finish the tournament" not in page


def test_the_tables_evenings_stay_off_the_evening_lists(alice_client, alice, running):
    factories.make_evening(alice, place="Friday pub")
    home = alice_client.get("/").content.decode()
    listed = alice_client.get(reverse("ledger:evening_list")).content.decode()
    for page in (home, listed):
        assert "Friday pub" in page and "round 1" not in page and "Skat night" not in page
        assert reverse("ledger:tournament_list") in page  # and the way to the tournaments


# --------------------------------------------------------------------------------------------------------------
# The table's phone


@pytest.fixture
def phone(running):
    """A second browser: the table's phone, logged in through its score-sheet link."""
    client = Client()
    table = first_table(running)
    answer = client.get(reverse("ledger:tournament_sheet", args=[table.token]))
    assert answer.status_code == 302 and answer["Location"] == f"/tables/{table.table_id}/"
    return client


def test_the_link_opens_the_tables_page_and_a_hand_is_recorded(phone, running):
    table = first_table(running)
    page = phone.get(f"/tables/{table.table_id}/").content.decode()
    assert table.table.seat_names[0] in page
    declarer = table.table.seat_names[1]
    taps = {"declarer": declarer, "contract": "grand", "matadors": "1", "declarer_points": "61"}
    fields = dict(tapped(form_fields(page), taps))
    answer = phone.post(reverse("ledger:hand_create", args=[table.table_id]), fields, headers=HX)
    assert answer.status_code == 200
    hand = Hand.objects.get(table_id=table.table_id)
    assert hand.document["declarer"] == declarer and hand.entered_by == TournamentTable.objects.get(pk=table.pk).guest
    # The standings read it: the declarer leads with 98 list points.
    assert selectors.standings(running)[0].player == declarer
    assert selectors.standings(running)[0].points == D(98)


def test_the_offline_queue_sends_the_guests_hand(phone, running):
    table = first_table(running)
    page = phone.get(f"/tables/{table.table_id}/").content.decode()
    taps = {"declarer": table.table.seat_names[2], "contract": "hearts", "declarer_points": "70"}
    fields = dict(tapped(form_fields(page), taps))
    answer = phone.post(reverse("ledger:hand_queued", args=[table.table_id]), fields)
    assert answer.status_code == 201 and answer.json()["stored"]
    assert Hand.objects.filter(table_id=table.table_id).count() == 1


def test_the_guest_reaches_its_table_only(phone, running, alice):
    table = first_table(running)
    other = TournamentTable.objects.filter(round__tournament=running).exclude(pk=table.pk).get()
    own_evening = factories.make_evening(alice, place="Alice's own")
    # Pages of no evening: back to the table.
    for path in ("/", "/evenings/", "/evenings/new/", "/circles/", "/tournaments/", detail(running)):
        answer = phone.get(path)
        assert answer.status_code == 302 and answer["Location"] == f"/tables/{table.table_id}/", path
    # Other tables and evenings, forms and the API beyond its table: nothing there.
    assert phone.get(f"/tables/{other.table_id}/").status_code in (302, 404)
    assert phone.post(f"/tables/{other.table_id}/hands/", {}).status_code == 404
    assert phone.post(reverse("ledger:evening_create"), {"date": "2026-12-04", "currency": "EUR"}).status_code == 404
    assert phone.post(reverse("ledger:tournament_round_start", args=[running.pk])).status_code == 404
    assert phone.get(f"/evenings/{own_evening.pk}/").status_code == 302
    assert phone.get("/api/evenings/").status_code == 404
    assert phone.get(f"/api/tables/{other.table_id}/hands/").status_code == 404
    assert phone.get(f"/evenings/{table.evening_id}/tables/new/").status_code == 302
    # Its own table, its evening and its table in the API.
    assert phone.get(f"/tables/{table.table_id}/").status_code == 200
    assert phone.get(f"/evenings/{table.evening_id}/")["Location"] == f"/tables/{table.table_id}/"  # the organiser's
    assert phone.get(f"/api/tables/{table.table_id}/hands/").status_code == 200
    assert running.round_set.count() == 1 and Evening.objects.filter(owner=alice).count() == 3


def test_a_renewed_link_logs_the_old_phone_out(phone, running):
    table = first_table(running)
    tournaments.table_link_renew(table=table)
    answer = phone.get(f"/tables/{table.table_id}/")
    # Said on the phone, not the log-in page its player has no account for (test_tournament_intents.py).
    assert answer.status_code == 410 and "ask the organiser for the new QR code" in answer.content.decode()


def test_the_organiser_opening_a_tables_link_stays_herself(alice_client, alice, running):
    table = first_table(running)
    answer = alice_client.get(reverse("ledger:tournament_sheet", args=[table.token]))
    assert answer.status_code == 302 and answer["Location"] == f"/tables/{table.table_id}/"
    assert alice_client.get(detail(running)).status_code == 200  # not confined to the table


def test_a_bad_link_or_a_finished_tournament_opens_nothing(client, running):
    assert client.get(reverse("ledger:tournament_sheet", args=["nothing-here"])).status_code == 404
    token = first_table(running).token
    tournaments.tournament_finish(tournament=running)
    assert client.get(reverse("ledger:tournament_sheet", args=[token])).status_code == 404


# --------------------------------------------------------------------------------------------------------------
# Players at the door


def test_a_player_checks_in_at_the_door(client, tournament):
    url = reverse("ledger:tournament_checkin", args=[tournament.share_token])
    page = client.get(url)
    assert page.status_code == 200 and "Tap your own name" in page.content.decode()
    assert page["Referrer-Policy"] == "same-origin"
    ben = tournament.entrants.get(player__name="Ben")
    tap = reverse("ledger:tournament_checkin_entrant", args=[tournament.share_token, ben.pk])
    answer = client.post(tap, headers=HX)
    assert answer.status_code == 200 and "Ben is checked in. Good luck!" in answer.content.decode()
    assert Entrant.objects.get(pk=ben.pk).checked_in
    # Tapped again: still checked in (nobody checks another player out from the door).
    client.post(tap)
    assert Entrant.objects.get(pk=ben.pk).checked_in


def test_the_door_link_switched_off_opens_nothing(client, tournament, charlie):
    token = tournament.share_token
    Tournament.objects.filter(pk=tournament.pk).update(share_token=None)
    assert client.get(reverse("ledger:tournament_checkin", args=[token])).status_code == 404
    ben = tournament.entrants.get(player__name="Ben")
    assert client.post(reverse("ledger:tournament_checkin_entrant", args=[token, ben.pk])).status_code == 404
    # Nor does another tournament's door check in this one's players.
    theirs = tournaments.tournament_create(owner=charlie, game="skat", name="Other", players=["Zed"], rounds=1)
    wrong = reverse("ledger:tournament_checkin_entrant", args=[theirs.share_token, ben.pk])
    assert client.post(wrong).status_code == 404 and not Entrant.objects.get(pk=ben.pk).checked_in


# --------------------------------------------------------------------------------------------------------------
# Strangers


def test_a_stranger_finds_nothing(charlie_client, running):
    for method, url in organiser_urls(running):
        assert getattr(charlie_client, method)(url).status_code == 404, url
    assert charlie_client.get(reverse("ledger:tournament_list")).content.decode().count("Skat night") == 0
    running.refresh_from_db()
    assert running.round_set.count() == 1 and running.status == Tournament.Status.RUNNING


def test_nobody_logged_in_is_sent_to_log_in(client, running):
    for method, url in [*organiser_urls(running), ("get", reverse("ledger:tournament_list"))]:
        answer = getattr(client, method)(url)
        assert answer.status_code == 302 and "/accounts/login/" in answer["Location"], url


def test_a_table_is_corrected_by_the_organiser_on_the_table_page(alice_client, running):
    table = first_table(running)
    declarer = table.table.seat_names[0]
    recorded = services.hand_record(
        table=table.table,
        hand={"declarer": declarer, "contract": "grand", "matadors": 1, "declarer_points": 61},
        by=running.owner,
    )
    assert alice_client.get(f"/tables/{table.table_id}/").status_code == 200
    assert alice_client.get(reverse("ledger:hand_edit", args=[recorded.pk])).status_code == 200


def _queries_for_page(client, tournament) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.get(detail(tournament))  # the tables' results brought up to date first
    with CaptureQueriesContext(connection) as queries:
        assert client.get(detail(tournament)).status_code == 200
    return len(queries)


def test_the_page_costs_the_same_queries_however_many_tables_and_hands(alice_client, alice):
    counts = []
    for size in (6, 9):  # two and three tables of three
        names = [f"Player {number}" for number in range(size)]
        tournament = tournaments.tournament_create(
            owner=alice, game="skat", name=f"Night {size}", players=names, rounds=2, start=True
        )
        for table in TournamentTable.objects.filter(round__tournament=tournament).select_related("table"):
            hand = {"declarer": table.table.seat_names[0], "contract": "grand", "matadors": 1, "declarer_points": 61}
            factories.record(table.table, hand, times=2)
        counts.append(_queries_for_page(alice_client, tournament))
    assert counts[0] == counts[1]
