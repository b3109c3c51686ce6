"""The tournament API: who sees what, bad input, and two whole tournaments played through it.

The club night and the Mariáš tournament are played the way a club plays them: the organiser registers the players
and gets the draw, each table's phone (the table's guest, logged in by its score-sheet link) posts the table's hands
to /api/tables/<id>/hands/, the organiser asks for the standings and the next round. Each table records a few hands,
not the format's 48 or 24: the format's count is informational, the tables' hands are whatever they record.

The draw is random, so the expected numbers are worked out by hand per seat (what the seat at table t scores) and
read onto the players through the seats the API handed out.
"""

from __future__ import annotations

import itertools
from decimal import Decimal
from typing import Any

import pytest
from rest_framework.test import APIClient

from ledger.models import Evening, Hand, Player, Table
from ledger.tournaments import services as tournaments
from ledger.tournaments.models import Entrant, Round, Tournament, TournamentTable
from tests.ledger.api_support import anonymous_client, token_client

SEVEN = ["Ana", "Ben", "Cyril", "Dora", "Emil", "Fany", "Gustav"]


def create(client: APIClient, **body: Any) -> Any:
    return client.post("/api/tournaments/", body, format="json")


def phone(table_id: int) -> APIClient:
    """The table's phone: it opens the table's score-sheet link (the QR code), which logs it in (a session) as
    the table's guest; from then on it speaks to the API with that session, as the score sheet's page does."""
    seated = TournamentTable.objects.get(table_id=table_id)
    client = APIClient()
    opened = client.get(f"/t/{seated.token}/")
    assert opened.status_code == 302 and opened["Location"] == f"/tables/{table_id}/"
    return client


def post_hand(client: APIClient, table_id: int, hand: dict[str, Any], dealer: int) -> dict[str, Any]:
    response = client.post(f"/api/tables/{table_id}/hands/", {"hand": hand, "dealer": dealer}, format="json")
    assert response.status_code == 201, response.json()
    answer: dict[str, Any] = response.json()
    return answer


# --------------------------------------------------------------------------------------------------------------
# Who sees what


@pytest.fixture
def club(alice):
    client = token_client(alice)
    response = create(client, game="skat", name="Club night", players=SEVEN, rounds=2, options={"prizes": "winner"})
    assert response.status_code == 201, response.json()
    return client, response.json()


def test_the_organiser_gets_the_draw_and_every_view(club):
    client, made = club
    assert made["round"] == 1 and made["rounds"] == 2 and made["status"] == "running" and made["game"] == "skat"
    assert made["players"] == SEVEN  # by start number
    # 7 players: a table of 4 and one of 3, everybody seated once.
    assert [len(row["players"]) for row in made["draw"]] == [4, 3]
    assert sorted(itertools.chain.from_iterable(row["players"] for row in made["draw"])) == sorted(SEVEN)
    for row in made["draw"]:
        seated = TournamentTable.objects.get(table_id=row["table"])
        assert row["sheet"] == f"http://testserver/t/{seated.token}/"
        assert Table.objects.get(pk=row["table"]).seat_names == row["players"]
    assert made["options"]["rules"] == {"preset": "seeger-fabian"}
    tid = made["id"]
    assert client.get(f"/api/tournaments/{tid}/").json()["draw"] == made["draw"]
    tables = client.get(f"/api/tournaments/{tid}/tables/").json()
    assert [(row["id"], row["number"], row["round"]) for row in tables] == [
        (row["table"], row["number"], 1) for row in made["draw"]
    ]
    listed = client.get("/api/tournaments/").json()
    assert [(row["id"], row["round"]) for row in listed] == [(tid, 1)]
    standings = client.get(f"/api/tournaments/{tid}/standings/").json()
    assert [row["points"] for row in standings["rows"]] == ["0"] * 7
    assert all(row["rank"] == 1 and row["rounds"] == 1 for row in standings["rows"])
    assert standings["prizes"] == {}  # no entry fee, nothing to pay out


def test_a_table_phone_posts_to_its_own_table_and_sees_nothing_else(club):
    organiser, made = club
    own, other = made["draw"][0], made["draw"][1]
    table_phone = phone(own["table"])
    seats = own["players"]
    hand = {"dealer": seats[0], "declarer": seats[1], "contract": "grand", "matadors": 1, "declarer_points": 61}
    posted = post_hand(table_phone, own["table"], hand, dealer=0)
    assert posted["score"][seats[1]] == 98  # RULES.md S18/S19: Grand with 1 won, 48 + 50
    assert table_phone.get(f"/api/tables/{own['table']}/hands/").status_code == 200
    # Another table, and the tournament itself, are not there for the phone.
    other_hand = {"declarer": other["players"][0], "contract": "grand", "matadors": 1, "declarer_points": 61}
    posted_there = table_phone.post(f"/api/tables/{other['table']}/hands/", {"hand": other_hand}, format="json")
    assert posted_there.status_code == 404
    assert table_phone.get(f"/api/tables/{other['table']}/").status_code == 404
    tid = made["id"]
    for path in ("/api/tournaments/", f"/api/tournaments/{tid}/", f"/api/tournaments/{tid}/tables/",
                 f"/api/tournaments/{tid}/standings/"):  # fmt: skip
        assert table_phone.get(path).status_code == 404, path
    assert table_phone.post(f"/api/tournaments/{tid}/next-round/").status_code == 404
    assert create(table_phone, game="skat", name="Mine", players=SEVEN, rounds=1).status_code == 404
    assert Round.objects.filter(tournament_id=tid).count() == 1
    # The API knows the guest account itself, not only the session its link made (a token, say).
    guest = TournamentTable.objects.get(table_id=own["table"]).guest
    assert token_client(guest).get(f"/api/tournaments/{tid}/").status_code == 404
    assert token_client(guest).get("/api/tournaments/").status_code == 404
    # The organiser sees the phone's hand in the standings.
    rows = {row["player"]: row for row in organiser.get(f"/api/tournaments/{tid}/standings/").json()["rows"]}
    assert rows[seats[1]]["points"] == "98" and rows[seats[1]]["won"] == 1


def test_a_stranger_gets_404_and_nobody_logged_in_401(club, charlie):
    _organiser, made = club
    tid = made["id"]
    stranger = token_client(charlie)
    for path in (f"/api/tournaments/{tid}/", f"/api/tournaments/{tid}/tables/", f"/api/tournaments/{tid}/standings/",
                 f"/api/tables/{made['draw'][0]['table']}/hands/"):  # fmt: skip
        assert stranger.get(path).status_code == 404, path
        assert anonymous_client().get(path).status_code == 401, path
    assert stranger.post(f"/api/tournaments/{tid}/next-round/").status_code == 404
    assert anonymous_client().post(f"/api/tournaments/{tid}/next-round/").status_code == 401
    assert stranger.get("/api/tournaments/").json() == []
    assert Round.objects.filter(tournament_id=tid).count() == 1


def test_a_renewed_link_logs_the_old_phone_out(club):
    _organiser, made = club
    own = made["draw"][0]
    table_phone = phone(own["table"])
    tournaments.table_link_renew(table=TournamentTable.objects.get(table_id=own["table"]))
    answer = table_phone.get(f"/api/tables/{own['table']}/hands/")
    assert answer.status_code == 410 and "ask the organiser for the new QR code" in answer.json()["error"]


# --------------------------------------------------------------------------------------------------------------
# Bad input: 400 naming the field, nothing stored


GOOD = {"game": "skat", "name": "Club night", "players": SEVEN, "rounds": 2}


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"game": "poker"}, "game"),
        ({"players": SEVEN[:5]}, "players"),  # 5 Skat players fit no tables of 4 and 3
        ({"players": ["Ana", "Ben", "Cyril", "Ana"]}, "players"),
        ({"players": [*SEVEN[:6], "Ana\u202e"]}, "players"),
        ({"game": "marias", "players": SEVEN[:5]}, "players"),
        ({"rounds": 0}, "rounds"),
        ({"name": ""}, "name"),
        ({"coin": "0.001"}, "coin"),
        ({"options": {"colour": "red"}}, "options.colour"),
        ({"options": {"fees": {"entry": "-10"}}}, "options.fees.entry"),
        ({"options": {"fees": {"entry": "10.005"}}}, "options.fees.entry"),
        ({"options": {"fees": {"entry": 10.5}}}, "options.fees.entry"),
        ({"options": {"fees": {"lost": {"5": "1"}}}}, "options.fees.lost.5"),
        ({"options": {"fees": {"lost": {"4": "x"}}}}, "options.fees.lost.4"),
        ({"options": {"fees": "10"}}, "options.fees"),
        ({"options": {"prizes": "all"}}, "options.prizes"),
        ({"options": {"prizes": ["20", "30"]}}, "options.prizes"),  # a worse place paid more
        ({"options": {"prizes": ["0"]}}, "options.prizes"),
        ({"options": {"placement": ["1", "2", "3", "4"]}}, "options.placement"),
        ({"options": {"games": {"4": 0}}}, "options.games.4"),
        ({"options": {"minutes": True}}, "options.minutes"),
        ({"options": {"rules": {"preset": "nope"}}}, "options.rules.preset"),
    ],
)
def test_bad_input_answers_400_naming_the_field_and_stores_nothing(alice, change, field):
    response = create(token_client(alice), **(GOOD | change))
    assert response.status_code == 400, response.json()
    assert response.json()["field"] == field, response.json()
    assert response.json()["error"]
    assert not Tournament.objects.exists()
    assert not Entrant.objects.exists() and not Round.objects.exists()
    assert not Evening.objects.exists() and not Table.objects.exists()
    assert not Player.objects.exists()


def test_a_long_name_still_fits_the_tables_places(alice):
    response = create(token_client(alice), **(GOOD | {"name": "N" * 80}))
    assert response.status_code == 201, response.json()
    places = list(Evening.objects.order_by("id").values_list("place", flat=True))
    assert places and all(len(place) <= 80 and place.endswith(f"· table {n}") for n, place in enumerate(places, 1))


def test_no_round_past_the_last(club):
    client, made = club
    tid = made["id"]
    next_round = f"/api/tournaments/{tid}/next-round/"
    assert client.post(next_round, {"round": 2, "confirm_unfinished": True}, format="json").status_code == 201
    response = client.post(next_round, {"round": 3, "confirm_unfinished": True}, format="json")
    assert response.status_code == 400
    assert response.json() == {"field": "non_field_errors", "error": "All 2 rounds have been played."}
    assert Round.objects.filter(tournament_id=tid).count() == 2


# --------------------------------------------------------------------------------------------------------------
# A Skat club night: 24 players, two series, entry fee 10, lost-game fees 1.00 (4 seats) paid into the prizes, top3


def skat(seats: list[str], dealer: int, declarer: int | None, contract: str, matadors: int = 1, points: int = 61):
    """A hand at a four-seat table: the dealer sits out."""
    if declarer is None:
        return {"dealer": seats[dealer], "declarer": None, "contract": "passed"}
    return {
        "dealer": seats[dealer],
        "declarer": seats[declarer],
        "contract": contract,
        "matadors": matadors,
        "declarer_points": points,
    }


def series_one(seats: list[str], t: int) -> list[tuple[dict[str, Any], int]]:
    """Table t's first series, seats s0..s3, each dealing once (Seeger-Fabian, RULES.md §1: won value + 50; lost
    −(2 × value + 50) and +30 to each of the three others at four seats).

    1. s0 deals, s1 wins Clubs with t (value 12 × (t + 1)):   s1 +(12t + 12 + 50) = 12t + 62
    2. s1 deals, s2 loses Grand with 1 at 60 (value 48):      s2 −146; s0, s1, s3 +30
    3. s2 deals, s3 wins Grand with 1 at 61:                  s3 +98
    4. s3 deals, s0 wins Diamonds with 1 (value 18):          s0 +68
    Series: s0 98 (won 1), s1 12t + 92 (won 1), s2 −146 (lost 1), s3 128 (won 1); the table's sum 172 + 12t.
    Money at 0.01 a point, 4 seats: 0.01 × (4 × points − sum): s0 2.20 − 0.12t, s1 1.96 + 0.36t,
    s2 −7.56 − 0.12t, s3 3.40 − 0.12t (zero in all).
    """
    return [
        (skat(seats, 0, 1, "clubs", matadors=t), 0),
        (skat(seats, 1, 2, "grand", points=60), 1),
        (skat(seats, 2, 3, "grand"), 2),
        (skat(seats, 3, 0, "diamonds"), 3),
    ]


def series_two(seats: list[str], u: int) -> list[tuple[dict[str, Any], int]]:
    """Table u's second series:

    1. s0 deals, s1 loses Clubs with 1 at 60 (value 24):      s1 −98; s0, s2, s3 +30
    2. s1 deals, s2 wins Grand with 2 (value 72):             s2 +122
    3. s2 deals, all pass:                                    nothing
    4. s3 deals, s0 wins Spades with u (value 11 × (u + 1)):  s0 +(11u + 61)
    Series: s0 11u + 91 (won 1), s1 −98 (lost 1), s2 152 (won 1), s3 30; sum 11u + 175.
    Money: s0 1.89 + 0.33u, s1 −5.67 − 0.11u, s2 4.33 − 0.11u, s3 −0.55 − 0.11u.
    """
    return [
        (skat(seats, 0, 1, "clubs", points=60), 0),
        (skat(seats, 1, 2, "grand", matadors=2), 1),
        (skat(seats, 2, None, "passed"), 2),
        (skat(seats, 3, 0, "spades", matadors=u), 3),
    ]


def play(draw: list[dict[str, Any]], script) -> None:
    for row in draw:
        table_phone = phone(row["table"])
        for hand, dealer in script(row["players"], row["number"]):
            post_hand(table_phone, row["table"], hand, dealer)


def rows_of(client: APIClient, tid: int) -> tuple[list[dict[str, Any]], dict[str, str]]:
    answer = client.get(f"/api/tournaments/{tid}/standings/").json()
    return answer["rows"], answer["prizes"]


def test_a_skat_club_night_through_the_api(alice):
    organiser = token_client(alice)
    players = [f"Player {n:02d}" for n in range(1, 25)]
    options = {
        "games": {"4": 4, "3": 3},  # informational: each table records its four hands below
        "fees": {"entry": "10", "lost": {"3": "0.50", "4": "1.00"}, "lost_to_prizes": True},
        "prizes": "top3",
    }
    made = create(organiser, game="skat", name="Club night", players=players, rounds=2, options=options, coin="1")
    assert made.status_code == 201, made.json()
    tid, draw = made.json()["id"], made.json()["draw"]
    assert [len(row["players"]) for row in draw] == [4] * 6
    at = {(row["number"], seat): name for row in draw for seat, name in enumerate(row["players"])}  # (t, s) → name

    play(draw, series_one)
    rows, prizes = rows_of(organiser, tid)
    # Series 1 by hand (series_one's docstring), best first: more points, then more won, fewer lost, more money.
    #   164 t6s1 · 152 t5s1 · 140 t4s1 · 128: t1s3 (money 3.28), t2s3 (3.16), t3s1 and t3s3 (both 3.04: tied 6th),
    #   t4s3 (2.92), t5s3 (2.80), t6s3 (2.68) · 116 t2s1 · 104 t1s1 · 98: t1s0 (2.08) … t6s0 (1.48) ·
    #   −146: t1s2 (−7.68) … t6s2 (−8.28)
    tied = sorted([at[3, 1], at[3, 3]])
    expected_one = [
        (1, at[6, 1], "164", 1, 0, "4.12"),
        (2, at[5, 1], "152", 1, 0, "3.76"),
        (3, at[4, 1], "140", 1, 0, "3.40"),
        (4, at[1, 3], "128", 1, 0, "3.28"),
        (5, at[2, 3], "128", 1, 0, "3.16"),
        (6, tied[0], "128", 1, 0, "3.04"),
        (6, tied[1], "128", 1, 0, "3.04"),
        (8, at[4, 3], "128", 1, 0, "2.92"),
        (9, at[5, 3], "128", 1, 0, "2.80"),
        (10, at[6, 3], "128", 1, 0, "2.68"),
        (11, at[2, 1], "116", 1, 0, "2.68"),
        (12, at[1, 1], "104", 1, 0, "2.32"),
        *[(12 + t, at[t, 0], "98", 1, 0, str(Decimal("2.20") - Decimal("0.12") * t)) for t in range(1, 7)],
        *[(18 + t, at[t, 2], "-146", 0, 1, str(Decimal("-7.56") - Decimal("0.12") * t)) for t in range(1, 7)],
    ]
    assert [(r["rank"], r["player"], r["points"], r["won"], r["lost"], r["money"]) for r in rows] == expected_one
    assert {r["player"]: r["fees"] for r in rows if r["fees"] != "0.00"} == {at[t, 2]: "1.00" for t in range(1, 7)}
    assert all(r["rounds"] == 1 for r in rows)
    # The pool so far: 24 × 10 entry + 6 lost games × 1.00 = 246; top3 50/30/20 % in whole euros: 123, 73.8 → 73,
    # 49.2 → 49, the remainder 1 to the winner: 124, 73, 49.
    assert {name: amount for name, amount in prizes.items() if amount != "0.00"} == {
        at[6, 1]: "124.00",
        at[5, 1]: "73.00",
        at[4, 1]: "49.00",
    }

    # Series 2 is seated by the standings: ranks 1–4 at table 1, 5–8 at table 2 …
    response = organiser.post(
        f"/api/tournaments/{tid}/next-round/", {"round": 2, "confirm_unfinished": True}, format="json"
    )
    assert response.status_code == 201, response.json()
    second = response.json()["draw"]
    assert response.json()["round"] == 2
    assert [row["players"] for row in second] == [
        [at[6, 1], at[5, 1], at[4, 1], at[1, 3]],  # the top 4 at table 1
        [at[2, 3], tied[0], tied[1], at[4, 3]],
        [at[5, 3], at[6, 3], at[2, 1], at[1, 1]],
        [at[1, 0], at[2, 0], at[3, 0], at[4, 0]],
        [at[5, 0], at[6, 0], at[1, 2], at[2, 2]],
        [at[3, 2], at[4, 2], at[5, 2], at[6, 2]],
    ]
    assert organiser.get(f"/api/tournaments/{tid}/tables/").json()[0]["id"] == second[0]["table"]
    assert not {row["table"] for row in second} & {row["table"] for row in draw}  # new tables

    play(second, series_two)
    rows, prizes = rows_of(organiser, tid)
    # Both series by hand: series 1 + series 2's seat (series_two's docstring: s0 11u + 91, s1 −98, s2 152, s3 30),
    # money likewise; fees 1.00 per game lost as declarer.
    x, y = tied  # x sits s1 at table 2 of series 2, y s2
    expected_two = {
        #  player:     points  won lost  money                      fees
        at[4, 1]: (292, 2, 0, "3.40 + 4.22", "0.00"),  # 140 + 152 (u1 s2)
        y: (280, 2, 0, "3.04 + 4.11", "0.00"),  # 128 + 152 (u2 s2)
        at[2, 1]: (268, 2, 0, "2.68 + 4.00", "0.00"),  # 116 + 152 (u3 s2)
        at[6, 1]: (266, 2, 0, "4.12 + 2.22", "0.00"),  # 164 + 102 (u1 s0)
        at[5, 3]: (252, 2, 0, "2.80 + 2.88", "0.00"),  # 128 + 124 (u3 s0)
        at[3, 0]: (250, 2, 0, "1.84 + 3.89", "0.00"),  # 98 + 152 (u4 s2)
        at[5, 0]: (244, 2, 0, "1.60 + 3.54", "0.00"),  # 98 + 146 (u5 s0)
        at[2, 3]: (241, 2, 0, "3.16 + 2.55", "0.00"),  # 128 + 113 (u2 s0)
        at[1, 0]: (233, 2, 0, "2.08 + 3.21", "0.00"),  # 98 + 135 (u4 s0)
        at[1, 3]: (158, 1, 0, "3.28 - 0.66", "0.00"),  # 128 + 30 (u1 s3): ahead of the next on money
        at[4, 3]: (158, 1, 0, "2.92 - 0.77", "0.00"),  # 128 + 30 (u2 s3)
        at[1, 1]: (134, 1, 0, "2.32 - 0.88", "0.00"),  # 104 + 30 (u3 s3)
        at[4, 0]: (128, 1, 0, "1.72 - 0.99", "0.00"),  # 98 + 30 (u4 s3)
        at[5, 1]: (54, 1, 1, "3.76 - 5.78", "1.00"),  # 152 − 98 (u1 s1)
        x: (30, 1, 1, "3.04 - 5.89", "1.00"),  # 128 − 98 (u2 s1)
        at[6, 3]: (30, 1, 1, "2.68 - 6.00", "1.00"),  # 128 − 98 (u3 s1)
        at[3, 2]: (11, 1, 1, "-7.92 + 3.87", "1.00"),  # −146 + 157 (u6 s0)
        at[1, 2]: (6, 1, 1, "-7.68 + 3.78", "1.00"),  # −146 + 152 (u5 s2)
        at[5, 2]: (6, 1, 1, "-8.16 + 3.67", "1.00"),  # −146 + 152 (u6 s2)
        at[2, 0]: (0, 1, 1, "1.96 - 6.11", "1.00"),  # 98 − 98 (u4 s1)
        at[6, 0]: (0, 1, 1, "1.48 - 6.22", "1.00"),  # 98 − 98 (u5 s1)
        at[2, 2]: (-116, 0, 1, "-7.80 - 1.10", "1.00"),  # −146 + 30 (u5 s3)
        at[6, 2]: (-116, 0, 1, "-8.28 - 1.21", "1.00"),  # −146 + 30 (u6 s3)
        at[4, 2]: (-244, 0, 2, "-8.04 - 6.33", "2.00"),  # −146 − 98 (u6 s1)
    }
    got = {r["player"]: (int(r["points"]), r["won"], r["lost"], Decimal(r["money"]), r["fees"]) for r in rows}
    want = {
        name: (points, won, lost, sum(Decimal(part.replace(" ", "")) for part in _terms(money)), fees)
        for name, (points, won, lost, money, fees) in expected_two.items()
    }
    assert got == want
    # No two rows equal in points, won, lost and money: the ranks run 1 … 24 in the order above.
    assert [(r["rank"], r["player"]) for r in rows] == list(enumerate(expected_two, start=1))
    assert all(r["rounds"] == 2 for r in rows)
    # The pool: 24 × 10 + 12 lost games × 1.00 = 252; 50/30/20 %: 126, 75.6 → 75, 50.4 → 50, remainder 1: 127.
    paid = {name: amount for name, amount in prizes.items() if amount != "0.00"}
    assert paid == {at[4, 1]: "127.00", y: "75.00", at[2, 1]: "50.00"}
    assert sum(Decimal(amount) for amount in prizes.values()) == Decimal(252)
    # Every table's money sums to zero; every hand stored once.
    for row in draw + second:
        balances = organiser.get(f"/api/tables/{row['table']}/").json()["balances"]
        assert sum(Decimal(amount) for amount in balances.values()) == 0
    assert Hand.objects.filter(table__tournament_table__round__tournament_id=tid).count() == 48


def _terms(text: str) -> list[str]:
    """ "3.40 + 4.11" → ["3.40", "+4.11"]; "3.28 - 0.66" → ["3.28", "-0.66"]."""
    parts = text.split()
    return [parts[0]] + [sign + amount for sign, amount in zip(parts[1::2], parts[2::2], strict=True)]


# --------------------------------------------------------------------------------------------------------------
# A Mariáš tournament: 32 players, 4 rounds, placement points 4/3/2/1 per table, ties shared


def marias(seats: list[str], declarer: int, partner: int | None, contract: str, **extra: Any) -> dict[str, Any]:
    hand = {"declarer": seats[declarer], "contract": contract, **extra}
    if partner is not None:
        hand["partner"] = seats[partner]
    return hand


# RULES.md §2, preset ctyrka-dvacetnik (stake 0.20 CZK): the hands every table plays, seats s0..s3.
HRA_WITH_PARTNER = ("hra", 0, 2, {"trump": "bells", "points": 60})  # s0 + s2 win hra: +0.20, +0.20, −0.20, −0.20
HRA_ALONE = ("hra", 1, None, {"trump": "leaves", "points": 60})  # s1 alone wins: +0.60, the others −0.20
RED_HRA_LOST = ("hra", 1, 3, {"trump": "hearts", "points": 30})  # s1 + s3 lose red hra: −0.40 each, +0.40 each
BETL_LOST = ("betl", 3, None, {"won": False})  # s3 loses betl: −6.00, +2.00 to each other
ROUNDS = {
    # round: hands;  money per seat  →  placement points per seat (4/3/2/1, tied places share their points)
    1: [HRA_WITH_PARTNER, HRA_ALONE],  # 0, +0.40, 0, −0.40  →  2.5, 4, 2.5, 1
    2: [HRA_WITH_PARTNER, HRA_ALONE, RED_HRA_LOST],  # +0.40, 0, +0.40, −0.80  →  3.5, 2, 3.5, 1
    3: [BETL_LOST],  # +2, +2, +2, −6  →  3, 3, 3, 1
    4: [HRA_ALONE],  # −0.20, +0.60, −0.20, −0.20  →  2, 4, 2, 2
}
PLACEMENT = {1: ["2.5", "4", "2.5", "1"], 2: ["3.5", "2", "3.5", "1"], 3: ["3", "3", "3", "1"], 4: ["2", "4", "2", "2"]}
MONEY = {
    1: ["0", "0.40", "0", "-0.40"],
    2: ["0.40", "0", "0.40", "-0.80"],
    3: ["2", "2", "2", "-6"],
    4: ["-0.20", "0.60", "-0.20", "-0.20"],
}
WON = {1: [1, 1, 0, 0], 2: [1, 1, 0, 0], 3: [0, 0, 0, 0], 4: [0, 1, 0, 0]}  # games won as declarer, per seat
LOST = {1: [0, 0, 0, 0], 2: [0, 1, 0, 0], 3: [0, 0, 0, 1], 4: [0, 0, 0, 0]}


def test_a_marias_tournament_through_the_api(alice):
    organiser = token_client(alice)
    players = [f"Hráč {n:02d}" for n in range(1, 33)]
    options = {"hands": 4, "for_money": True}
    made = create(organiser, game="marias", name="Mariášový turnaj", players=players, rounds=4, options=options,
                  currency="CZK")  # fmt: skip
    assert made.status_code == 201, made.json()
    tid = made.json()["id"]
    seat_of: dict[str, list[int]] = {name: [] for name in players}  # each round's seat, s0..s3
    met: set[frozenset[str]] = set()
    for number in range(1, 5):
        if number > 1:
            asked = {"round": number, "confirm_unfinished": True}  # 2 of the format's 4 hands a table
            response = organiser.post(f"/api/tournaments/{tid}/next-round/", asked, format="json")
            assert response.status_code == 201, response.json()
        tables = organiser.get(f"/api/tournaments/{tid}/tables/").json()
        assert [row["round"] for row in tables] == [number] * 8 and [len(row["players"]) for row in tables] == [4] * 8
        for row in tables:
            seats = row["players"]
            pairs = {frozenset(pair) for pair in itertools.combinations(seats, 2)}
            assert not pairs & met, f"round {number}: a pair meets again"
            met |= pairs
            table_phone = phone(row["id"])
            for hand_number, (contract, declarer, partner, extra) in enumerate(ROUNDS[number]):
                post_hand(table_phone, row["id"], marias(seats, declarer, partner, contract, **extra), hand_number % 4)
            balances = organiser.get(f"/api/tables/{row['id']}/").json()["balances"]
            assert [Decimal(balances[name]) for name in seats] == [Decimal(m) for m in MONEY[number]]
            assert sum(Decimal(amount) for amount in balances.values()) == 0  # money per table sums to zero
            for seat, name in enumerate(seats):
                seat_of[name].append(seat)
        rows, _prizes = rows_of(organiser, tid)
        by_player = {r["player"]: r for r in rows}
        for name, seats_taken in seat_of.items():
            expected = sum(Decimal(PLACEMENT[r][seat]) for r, seat in enumerate(seats_taken, start=1))
            assert Decimal(by_player[name]["points"]) == expected, name
            assert by_player[name]["rounds"] == number
    assert len(met) == 8 * 6 * 4  # 8 tables × 6 pairs × 4 rounds: 192 pairs, all different

    rows, prizes = rows_of(organiser, tid)
    by_player = {r["player"]: r for r in rows}
    # A few players by hand: whoever sat s1 in round 1 has 4 from it; the round-4 seats give 2, 4, 2, 2.
    for name, seats_taken in list(seat_of.items())[:4]:
        points = sum(Decimal(PLACEMENT[r][s]) for r, s in enumerate(seats_taken, start=1))
        money = sum(Decimal(MONEY[r][s]) for r, s in enumerate(seats_taken, start=1))
        won = sum(WON[r][s] for r, s in enumerate(seats_taken, start=1))
        lost = sum(LOST[r][s] for r, s in enumerate(seats_taken, start=1))
        row = by_player[name]
        assert (Decimal(row["points"]), Decimal(row["money"]), row["won"], row["lost"]) == (points, money, won, lost)
    # The best possible: s1, s0 or s2, s0 or s2, s1 → 4 + 3.5 + 3 + 4 = 14.5; the worst: s3 in rounds 1–3, 2 in 4.
    assert all(Decimal("5") <= Decimal(r["points"]) <= Decimal("14.5") for r in rows)
    assert sum(Decimal(r["points"]) for r in rows) == 8 * 4 * 10  # every table hands out 4 + 3 + 2 + 1 a round
    assert sum(Decimal(r["money"]) for r in rows) == 0
    ranks = [r["rank"] for r in rows]
    assert ranks[0] == 1 and ranks == sorted(ranks)
    assert prizes == {}  # no fees, no prizes
