"""The statistics API and an evening's hands as CSV: shapes, exact money, bad parameters, who may read."""

from __future__ import annotations

import csv
import io

import pytest

from tests.ledger.api_support import anonymous_client, token_client
from tests.ledger.stats.stats_data import small_circle


@pytest.fixture
def friday(alice):
    return small_circle(alice)


def test_a_players_statistics_over_every_evening(friday):
    ben = friday.players["Ben"]
    answer = token_client(friday.owner).get(f"/api/players/{ben.pk}/stats/")
    assert answer.status_code == 200
    data = answer.json()
    assert (data["player"], data["evenings"], data["hands"], data["net"]) == ("Ben", 4, 11, "8.84")
    assert data["declared"] == {
        "sedma": {"played": 1, "won": 1},
        "hram": {"played": 1, "won": 1},
        "grand": {"played": 2, "won": 2},
    }
    assert data["partners"] == {
        "Cyril": {"hands": 2, "net": "0.16", "won": 1},
        "Dana": {"hands": 6, "net": "-0.44", "won": 3},
        "Ana": {"hands": 2, "net": "-0.80", "won": 1},
    }
    assert data["opponents"]["Ana"] == {"hands": 6, "net": "7.96", "won": 4}
    assert (data["biggest_win"], data["biggest_loss"]) == ("6.40", "-2.00")
    assert data["net_series"][-1] == {
        "date": "2026-02-05",
        "evening": friday.evenings[4].pk,
        "net": "0.96",
        "cumulative": "8.84",
    }
    assert data["streaks"] == {"hands": 4, "evenings": 3}  # the evening outside the circle won too
    assert data["flek"] == {"given": 2, "won": 2}
    assert data["records"]["highest_hand"]["amount"] == "6.40"


def test_a_game_and_dates_narrow_the_statistics(friday):
    client = token_client(friday.owner)
    ben = friday.players["Ben"].pk
    assert client.get(f"/api/players/{ben}/stats/?game=skat").json()["net"] == "2.64"
    january = client.get(f"/api/players/{ben}/stats/?from=2026-01-10&to=2026-01-31").json()
    assert (january["evenings"], january["hands"], january["net"]) == (2, 6, "9.08")
    assert client.get(f"/api/players/{ben}/stats/?from=2027-01-01").json()["biggest_win"] is None


@pytest.mark.parametrize(
    ("query", "field"),
    [("game=poker", "game"), ("from=yesterday", "from"), ("to=2026-13-01", "to"), ("from=2026-01-01&to=1.1.", "to")],
)
def test_a_bad_parameter_is_a_400_naming_it(friday, query, field):
    client = token_client(friday.owner)
    for url in (f"/api/players/{friday.players['Ben'].pk}/stats/", f"/api/circles/{friday.circle.pk}/stats/"):
        answer = client.get(f"{url}?{query}")
        assert answer.status_code == 400, url
        assert answer.json()["field"] == field


def test_the_circles_season_table(friday):
    answer = token_client(friday.owner).get(f"/api/circles/{friday.circle.pk}/stats/")
    assert answer.status_code == 200
    data = answer.json()
    assert (data["evenings"], data["hands"]) == (3, 10)
    assert [(row["rank"], row["player"], row["net"]) for row in data["table"]] == [
        (1, "Ben", "7.88"),
        (2, "Cyril", "3.36"),
        (3, "Ana", "-5.20"),
        (4, "Dana", "-6.04"),
    ]
    assert data["records"]["best_evening"] == {
        "player": "Ben",
        "date": "2026-01-15",
        "evening": friday.evenings[1].pk,
        "net": "7.40",
    }


def test_an_evenings_hands_as_csv(friday):
    evening = friday.evenings[1]
    answer = token_client(friday.owner).get(f"/api/evenings/{evening.pk}/hands.csv")
    assert answer.status_code == 200
    assert answer["Content-Type"] == "text/csv; charset=utf-8"
    assert "attachment" in answer["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(answer.content.decode())))
    assert [(row["hand"], row["status"], row["declarer"], row["contract"]) for row in rows] == [
        ("1", "counted", "Ana", "hram"),
        ("2", "counted", "Ben", "hram"),
        ("3", "counted", "Dana", "za12"),
        ("4", "voided", "Ana", "durch"),
    ]
    assert [(row["Ana"], row["Ben"], row["Dana"]) for row in rows[:3]] == [
        ("0.40", "-0.20", "-0.20"),
        ("-3.20", "6.40", "-3.20"),
        ("1.20", "1.20", "-2.40"),
    ]
    assert "Cyril" not in rows[0]


def test_strangers_and_the_anonymous_get_404_or_401(friday, charlie):
    stranger = token_client(charlie)
    for url in (
        f"/api/players/{friday.players['Ben'].pk}/stats/",
        f"/api/circles/{friday.circle.pk}/stats/",
        f"/api/evenings/{friday.evenings[0].pk}/hands.csv",
    ):
        assert stranger.get(url).status_code == 404, url
        assert anonymous_client().get(url).status_code in (401, 403), url
