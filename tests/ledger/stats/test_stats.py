"""Statistics against numbers worked out by hand (the circle in tests/ledger/stats/stats_data.py)."""

from __future__ import annotations

import datetime
from decimal import Decimal as D

import pytest
from django.test import override_settings

from ledger.models import Evening, Player
from ledger.stats import selectors as stats
from tests.ledger.stats.stats_data import small_circle


@pytest.fixture
def friday(alice):
    return small_circle(alice)


def test_ben_in_the_circle_as_worked_out_by_hand(friday):
    ben = stats.player_stats(friday.players["Ben"], circle=friday.circle)
    assert (ben["evenings"], ben["hands"], ben["net"]) == (3, 10, D("7.88"))
    assert [(row["date"].day, row["net"], row["cumulative"]) for row in ben["net_series"]] == [
        (8, D("-1.20"), D("-1.20")),
        (15, D("7.40"), D("6.20")),
        (22, D("1.68"), D("7.88")),
    ]
    assert ben["declared"] == {
        "sedma": {"played": 1, "won": 1},
        "hram": {"played": 1, "won": 1},
        "grand": {"played": 1, "won": 1},
    }
    assert ben["declared_by_game"] == {
        "marias": {"sedma": {"played": 1, "won": 1}},
        "snapser": {"hram": {"played": 1, "won": 1}},
        "skat": {"grand": {"played": 1, "won": 1}},
    }
    # Mariáš 3: the defenders' flek, won; Šnapser 2: Ben's re on the defenders' kontra, won.
    assert ben["flek"] == {"given": 2, "won": 2}
    assert ben["partners"] == {
        "Cyril": {"hands": 2, "net": D("0.16"), "won": 1},
        "Dana": {"hands": 6, "net": D("-0.44"), "won": 3},
        "Ana": {"hands": 2, "net": D("-0.80"), "won": 1},
    }
    assert ben["opponents"] == {
        "Dana": {"hands": 4, "net": D("8.32"), "won": 3},
        "Ana": {"hands": 5, "net": D("7.00"), "won": 3},
        "Cyril": {"hands": 5, "net": D("0.32"), "won": 3},
    }
    assert (ben["biggest_win"], ben["biggest_loss"]) == (D("6.40"), D("-2.00"))
    highest = ben["records"]["highest_hand"]
    assert (highest["amount"], highest["date"], highest["game"]) == (D("6.40"), datetime.date(2026, 1, 15), "snapser")
    assert (ben["records"]["best_evening"]["net"], ben["records"]["worst_evening"]["net"]) == (D("7.40"), D("-1.20"))
    # Hands: -, +, +, -, -, +, +, +, +, - → four in a row; evenings: -, +, + → two.
    assert ben["streaks"] == {"hands": 4, "evenings": 2}


def test_ana_gave_a_kontra_and_lost_it_and_declared_twice(friday):
    ana = stats.player_stats(friday.players["Ana"], circle=friday.circle)
    assert (ana["evenings"], ana["hands"], ana["net"]) == (2, 7, D("-5.20"))
    assert ana["declared"] == {"hra": {"played": 2, "won": 1}, "hram": {"played": 1, "won": 1}}
    # Her own hra was flekked by the others (not her side's raise); in Šnapser 2 she was a defender who gave kontra.
    assert ana["flek"] == {"given": 1, "won": 0}
    assert ana["streaks"] == {"hands": 1, "evenings": 0}


def test_cyril_and_dana(friday):
    cyril = stats.player_stats(friday.players["Cyril"], circle=friday.circle)
    dana = stats.player_stats(friday.players["Dana"], circle=friday.circle)
    assert (cyril["evenings"], cyril["hands"], cyril["net"]) == (2, 7, D("3.36"))
    assert cyril["declared"] == {"betl": {"played": 1, "won": 1}, "grand": {"played": 1, "won": 0}}
    assert (dana["evenings"], dana["hands"], dana["net"]) == (3, 10, D("-6.04"))
    assert dana["declared"] == {"clubs": {"played": 1, "won": 1}, "za12": {"played": 1, "won": 0}}
    assert dana["biggest_loss"] == D("-3.20")


def test_a_player_across_circles_and_filters(friday):
    ben = friday.players["Ben"]
    everything = stats.player_stats(ben)
    assert (everything["evenings"], everything["hands"], everything["net"]) == (4, 11, D("8.84"))
    assert everything["declared"]["grand"] == {"played": 2, "won": 2}
    assert stats.player_stats(ben, game="skat")["net"] == D("2.64")
    assert stats.player_stats(ben, game="marias")["declared"] == {"sedma": {"played": 1, "won": 1}}
    january = stats.player_stats(ben, since=datetime.date(2026, 1, 10), until=datetime.date(2026, 1, 31))
    assert (january["evenings"], january["net"]) == (2, D("9.08"))
    nothing = stats.player_stats(ben, since=datetime.date(2027, 1, 1))
    assert (nothing["hands"], nothing["net"], nothing["biggest_win"], nothing["streaks"]) == (
        0,
        D(0),
        None,
        {"hands": 0, "evenings": 0},
    )


def test_the_season_table_and_records(friday):
    season = stats.circle_stats(friday.circle)
    assert (season["evenings"], season["hands"]) == (3, 10)
    assert [(row["rank"], row["player"], row["evenings"], row["hands"], row["net"]) for row in season["table"]] == [
        (1, "Ben", 3, 10, D("7.88")),
        (2, "Cyril", 2, 7, D("3.36")),
        (3, "Ana", 2, 7, D("-5.20")),
        (4, "Dana", 3, 10, D("-6.04")),
    ]
    assert sum(row["net"] for row in season["table"]) == 0
    records = season["records"]
    assert (records["highest_hand"]["player"], records["highest_hand"]["amount"]) == ("Ben", D("6.40"))
    assert (records["biggest_loss"]["player"], records["biggest_loss"]["amount"]) == ("Ana", D("-3.20"))
    assert (records["best_evening"]["player"], records["best_evening"]["net"]) == ("Ben", D("7.40"))
    assert (records["worst_evening"]["player"], records["worst_evening"]["net"]) == ("Dana", D("-5.80"))
    skat = stats.circle_stats(friday.circle, game="skat")
    assert [(row["player"], row["net"]) for row in skat["table"]] == [
        ("Ben", D("1.68")),
        ("Dana", D("0.96")),
        ("Ana", D("0")),
        ("Cyril", D("-2.64")),
    ]


def test_a_hidden_player_leaves_every_table_but_their_own(friday):
    Player.objects.filter(pk=friday.players["Dana"].pk).update(hide_stats=True)
    ben = stats.player_stats(friday.players["Ben"], circle=friday.circle)
    assert "Dana" not in ben["partners"] and "Dana" not in ben["opponents"]
    assert ben["net"] == D("7.88")  # his own money is his, whoever he won it from
    season = stats.circle_stats(friday.circle)
    assert [row["player"] for row in season["table"]] == ["Ben", "Cyril", "Ana"]
    assert season["records"]["worst_evening"]["player"] == "Ana"
    dana = stats.player_stats(Player.objects.get(pk=friday.players["Dana"].pk), circle=friday.circle)
    assert dana["hidden"] is True and dana["net"] == D("-6.04")


def test_an_evening_counted_again_comes_back(friday):
    Evening.objects.filter(pk=friday.evenings[3].pk).update(counted=True)
    ana = stats.player_stats(friday.players["Ana"], circle=friday.circle)
    # The 36-times durch in leaves at 0.10: Ana +7.20 with 3 evenings now.
    assert (ana["evenings"], ana["net"]) == (3, D("2.00"))


def test_the_statistics_answer_while_the_redis_cache_is_away(friday):
    # Nothing listens on port 1: every cache call fails, as when Redis stops. The answer is computed, not kept.
    away = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": "redis://127.0.0.1:1/0"}}
    with override_settings(CACHES=away):
        ben = stats.player_stats(friday.players["Ben"], circle=friday.circle)
        season = stats.circle_stats(friday.circle)
    assert (ben["evenings"], ben["hands"], ben["net"]) == (3, 10, D("7.88"))
    assert season == stats.circle_stats(friday.circle)
