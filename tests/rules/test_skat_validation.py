"""Bad Skat input: every error names the field (a hand key) and says what is allowed; nothing is priced."""

from __future__ import annotations

from typing import Any

import pytest

import rules
from rules import RulesError
from rules.i18n import override

THREE = ["Ana", "Ben", "Cyril"]
FOUR = ["Ana", "Ben", "Cyril", "Dora"]
GRAND = {"declarer": "Ana", "contract": "grand", "matadors": 1, "declarer_points": 61}
NULL = {"declarer": "Ana", "contract": "null", "won": True}
RAMSCH = {"contract": "ramsch", "ramsch_points": {"Ana": 62, "Ben": 40, "Cyril": 18}}


def error(hand: Any, players: list[str] | None = None, **table_rules: Any) -> RulesError:
    document = {"game": "skat", "players": players or THREE, "rules": table_rules, "hand": hand}
    with pytest.raises(RulesError) as caught:
        rules.score(document)
    return caught.value


def test_it_rejects_an_unknown_player() -> None:
    err = error(GRAND | {"declarer": "Zed"})
    assert err.field == "declarer"
    assert "'Zed' is not at this table; players: Ana, Ben, Cyril" in err.message


def test_it_rejects_a_sitting_dealer_as_declarer() -> None:
    err = error(GRAND | {"declarer": "Dora", "dealer": "Dora"}, FOUR)
    assert (err.field, err.message) == ("declarer", "Dora deals and sits out this hand; choose one of: Ana, Ben, Cyril")


def test_it_requires_the_dealer_at_a_four_seat_table() -> None:
    err = error(GRAND, FOUR)
    assert err.field == "dealer"
    assert "required at a 4-seat table" in err.message


def test_it_rejects_five_players() -> None:
    assert error(GRAND, [*FOUR, "Eva"]).field == "players"


@pytest.mark.parametrize("points", [-1, 121, "61", 60.5, None])
def test_it_rejects_card_points_outside_0_to_120(points: object) -> None:
    err = error(GRAND | {"declarer_points": points})
    assert err.field == "declarer_points"
    assert "from 0 to 120" in err.message


@pytest.mark.parametrize(
    ("contract", "matadors", "allowed"),
    [("grand", 5, "1 to 4"), ("grand", 0, "1 to 4"), ("clubs", 12, "1 to 11"), ("hearts", None, "1 to 11")],
)
def test_it_rejects_matadors_out_of_range_for_the_contract(contract: str, matadors: object, allowed: str) -> None:
    err = error(GRAND | {"contract": contract, "matadors": matadors})
    assert err.field == "matadors"
    assert allowed in err.message


@pytest.mark.parametrize("announcement", ["schneider_announced", "schwarz_announced"])
def test_it_rejects_an_announcement_without_hand(announcement: str) -> None:
    err = error(GRAND | {announcement: True})
    assert (err.field, err.message.split(" (")[0]) == (announcement, "needs a hand game")


def test_it_rejects_schwarz_with_points_that_no_schwarz_leaves() -> None:
    err = error(GRAND | {"declarer_points": 100, "schwarz": True})
    assert err.field == "schwarz"
    assert "not 100" in err.message


# --------------------------------------------------------------------------------------------------------------
# Impossible hands are refused, not priced (RULES.md): what no deal can produce


@pytest.mark.parametrize("hand", [{"hand": False}, {}], ids=["hand false", "hand left out"])
@pytest.mark.parametrize("contract", ["grand", "clubs", "diamonds"])
def test_it_refuses_an_ouvert_suit_or_grand_game_that_is_not_a_hand_game(contract: str, hand: dict[str, Any]) -> None:
    document = GRAND | {"contract": contract, "ouvert": True, "declarer_points": 120, "schwarz": True} | hand
    err = error(document)
    assert (err.field, err.message) == (
        "hand",
        "must be true (hand: true): an ouvert suit or grand game is always a hand game",
    )


def test_a_null_ouvert_may_pick_up_the_skat() -> None:
    assert rules.score({"game": "skat", "players": THREE, "hand": NULL | {"ouvert": True}}).label == "Null Ouvert"


@pytest.mark.parametrize("points", [1, 119])
def test_it_refuses_card_points_no_cards_add_up_to(points: int) -> None:
    err = error(GRAND | {"declarer_points": points})
    assert (err.field, err.message) == (
        "declarer_points",
        f"cannot be {points}: no cards add up to exactly 1; allowed: 0, 2–118, 120",
    )


@pytest.mark.parametrize("points", [9, 16, 17, 18, 19, 23, 60])
def test_it_refuses_schwarz_with_points_the_skat_cannot_hold(points: int) -> None:
    err = error(GRAND | {"declarer_points": points, "schwarz": True})
    assert (err.field, err.message) == (
        "schwarz",
        "means one side took no trick: the declarer holds all 120 card points or only the Skat's two cards "
        f"(0, 2–8, 10–15, 20–22), not {points}",
    )


@pytest.mark.parametrize("points", [0, 2, 8, 10, 15, 20, 22, 120])
def test_it_accepts_schwarz_with_what_the_skat_can_hold_or_every_card(points: int) -> None:
    hand = GRAND | {"declarer_points": points, "schwarz": True}
    score = rules.score({"game": "skat", "players": THREE, "hand": hand})
    # Priced as Schwarz, by whichever side took every trick: with 1, game, Schneider, Schwarz: 4 × 24.
    assert score.value == 96
    assert score.won is (points == 120)
    assert score.label == ("Grand Schwarz with 1" if points == 120 else "Grand with 1, declarer Schwarz")


@pytest.mark.parametrize("contract", ["passed", "ramsch"])
@pytest.mark.parametrize("bid", [20, 59, "18"])
def test_it_refuses_a_bid_when_everybody_passed(contract: str, bid: object) -> None:
    hand = {"contract": "passed"} if contract == "passed" else RAMSCH
    err = error(hand | {"bid": bid}, preset="pub")
    assert err.field == "bid"
    assert err.message.startswith("does not apply to")


@pytest.mark.parametrize("contract", ["passed", "ramsch"])
def test_a_bid_left_at_18_is_no_bid(contract: str) -> None:
    hand = {"contract": "passed"} if contract == "passed" else RAMSCH
    with_18 = rules.score({"game": "skat", "players": THREE, "rules": {"preset": "pub"}, "hand": hand | {"bid": 18}})
    without = rules.score({"game": "skat", "players": THREE, "rules": {"preset": "pub"}, "hand": hand})
    assert with_18 == without
    assert with_18.label == ("Passed in" if contract == "passed" else "Ramsch")


def test_it_says_what_does_not_apply_in_the_readers_language() -> None:
    with override("de"):
        err = error({"contract": "passed", "declarer": "Ana"})
    assert err.message == "gilt nicht für ein eingepasstes Spiel; weglassen"


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        ({"bid": 30}, "Null is worth 23, below the bid of 30; the lowest legal Null is Null Hand (35)"),
        ({"bid": 36, "hand": True}, "Null Hand is worth 35, below the bid of 36; the lowest legal Null is Null Ouvert"),
        ({"bid": 48, "ouvert": True}, "the lowest legal Null is Null Ouvert Hand (59)"),
        ({"bid": 60}, "no Null covers a bid of 60"),
    ],
)
def test_it_rejects_a_null_below_the_bid_naming_the_lowest_legal_null(hand: dict[str, Any], message: str) -> None:
    err = error(NULL | hand)
    assert err.field == "contract"
    assert message in err.message


def test_it_requires_the_result_of_a_null_game() -> None:
    err = error(NULL | {"won": None})
    assert (err.field, err.message.split(":")[0]) == ("won", "is required for a Null game")


@pytest.mark.parametrize("bid", [17, 19, 265, "18"])
def test_it_rejects_a_bid_no_game_is_worth(bid: object) -> None:
    assert error(GRAND | {"bid": bid}).field == "bid"


def test_it_names_the_nearest_bids() -> None:
    assert error(GRAND | {"bid": 19}).message == "19 is not a game value anyone can bid; the nearest bids are 18 and 20"


@pytest.mark.parametrize(
    ("hand", "field"),
    [
        (GRAND | {"won": True}, "won"),
        (GRAND | {"jungfrau": ["Ben"]}, "jungfrau"),
        (NULL | {"matadors": 2}, "matadors"),
        (NULL | {"declarer_points": 10}, "declarer_points"),
        ({"contract": "passed", "declarer": "Ana"}, "declarer"),
        ({"contract": "passed", "declarer_points": 60}, "declarer_points"),
    ],
)
def test_it_rejects_fields_that_do_not_apply_to_the_contract(hand: dict[str, Any], field: str) -> None:
    err = error(hand)
    assert err.field == field
    assert "does not apply to" in err.message


def test_it_accepts_fields_left_at_their_defaults() -> None:
    hand = NULL | {"matadors": None, "declarer_points": None, "schwarz": False, "jungfrau": []}
    assert rules.score({"game": "skat", "players": THREE, "hand": hand}).label == "Null"


def test_it_rejects_an_unknown_field() -> None:
    err = error(GRAND | {"trump": "clubs"})
    assert err.field == "trump"
    assert "unknown field; allowed: bid, bock" in err.message


def test_it_rejects_an_unknown_contract() -> None:
    err = error(GRAND | {"contract": "solo"})
    assert err.field == "contract"
    assert "allowed: clubs, spades, hearts, diamonds, grand, null, ramsch, passed" in err.message


def test_it_rejects_an_unknown_option() -> None:
    err = error(GRAND, schieberamsch=True)
    assert err.field == "rules.schieberamsch"
    assert "unknown option" in err.message


def test_it_rejects_an_unknown_preset() -> None:
    assert error(GRAND, preset="vienna").field == "rules.preset"


def test_it_rejects_a_float_stake() -> None:
    assert error(GRAND, stake=0.01).field == "rules.stake"


def test_it_rejects_kontra_when_the_ruleset_has_none() -> None:
    err = error(GRAND | {"kontra": 1})
    assert (err.field, err.message.split(" (")[0]) == ("kontra", "Kontra is off in this ruleset")


def test_it_rejects_kontra_beyond_re() -> None:
    err = error(GRAND | {"kontra": 3}, preset="pub")
    assert (err.field, err.message) == ("kontra", "must be a whole number from 0 to 2")


def test_it_rejects_bock_when_the_ruleset_has_none() -> None:
    err = error(GRAND | {"bock": 1})
    assert (err.field, err.message.split(" (")[0]) == ("bock", "Bock rounds are off in this ruleset")


def test_it_rejects_ramsch_when_the_ruleset_has_none() -> None:
    err = error(RAMSCH)
    assert err.field == "contract"
    assert "Ramsch is off in this ruleset" in err.message


@pytest.mark.parametrize("cyril", [28, 8, 0])
def test_it_refuses_ramsch_points_that_do_not_add_up_to_120(cyril: int) -> None:
    err = error(RAMSCH | {"ramsch_points": {"Ana": 62, "Ben": 40, "Cyril": cyril}}, preset="pub")
    total = 102 + cyril
    assert (err.field, err.message) == (
        "ramsch_points",
        f"add up to {total}, not 120: every card point goes to one of the players, the Skat's too",
    )


@pytest.mark.parametrize(("points", "player"), [((1, 59, 60), "Ana"), ((119, 1, 0), "Ana"), ((60, 59, 1), "Cyril")])
def test_it_refuses_a_ramsch_share_no_cards_add_up_to(points: tuple[int, int, int], player: str) -> None:
    err = error(RAMSCH | {"ramsch_points": dict(zip(THREE, points, strict=True))}, preset="pub")
    assert err.field == f"ramsch_points.{player}"
    assert err.message.endswith("no cards add up to exactly 1; allowed: 0, 2–118, 120")


def test_it_names_the_player_whose_ramsch_points_are_wrong() -> None:
    err = error(RAMSCH | {"ramsch_points": {"Ana": 121, "Ben": 0, "Cyril": 0}}, preset="pub")
    assert (err.field, err.message) == ("ramsch_points.Ana", "must be a whole number from 0 to 120")
    assert error(RAMSCH | {"ramsch_points": {"Ana": 62, "Ben": 40}}, preset="pub").field == "ramsch_points.Cyril"


def test_it_rejects_ramsch_points_for_the_sitting_dealer() -> None:
    points = {"Ana": 62, "Ben": 40, "Cyril": 18, "Dora": 0}
    err = error(RAMSCH | {"ramsch_points": points, "dealer": "Dora"}, FOUR, preset="pub")
    assert err.field == "ramsch_points.Dora"
    assert err.message.startswith("deals and sits out this hand")


def test_it_asks_who_lost_a_tied_ramsch() -> None:
    err = error(RAMSCH | {"ramsch_points": {"Ana": 50, "Ben": 50, "Cyril": 20}}, preset="pub")
    assert err.field == "ramsch_loser"
    assert "Ana and Ben tie with 50 card points" in err.message


def test_it_rejects_a_ramsch_loser_without_the_most_points() -> None:
    err = error(RAMSCH | {"ramsch_loser": "Ben"}, preset="pub")
    assert (err.field, err.message.split(" (")[0]) == ("ramsch_loser", "Ben does not have the most card points")


def test_it_rejects_a_jungfrau_who_took_points() -> None:
    err = error(RAMSCH | {"jungfrau": ["Cyril"]}, preset="pub")
    assert (err.field, err.message) == ("jungfrau", "Cyril has 18 card points, so took a trick")


def test_it_calls_two_jungfrau_a_durchmarsch() -> None:
    hand = RAMSCH | {"ramsch_points": {"Ana": 120, "Ben": 0, "Cyril": 0}, "jungfrau": ["Ben", "Cyril"]}
    err = error(hand, preset="pub")
    assert err.field == "jungfrau"
    assert "Ana took every trick" in err.message


def test_it_rejects_jungfrau_and_durchmarsch_when_they_are_off() -> None:
    assert error(RAMSCH | {"jungfrau": ["Cyril"]}, preset="pub", jungfrau=False).field == "jungfrau"
    err = error({"contract": "ramsch", "durchmarsch": "Ana"}, preset="pub", durchmarsch=False)
    assert err.field == "durchmarsch"
    assert "off in this ruleset" in err.message


def test_it_rejects_a_hand_that_is_not_an_object() -> None:
    assert error(["grand"]).field == "hand"
