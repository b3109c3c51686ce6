"""Settling an evening (RULES.md §4), by example: amounts worked out by hand."""

from __future__ import annotations

from decimal import Decimal

import pytest

from rules.base import RulesError
from rules.settlement import Settlement, Transfer, after_paying, plan_transfers, round_balances, settle


def _money(**balances: str) -> dict[str, Decimal]:
    return {player: Decimal(amount) for player, amount in balances.items()}


def _texts(transfers: tuple[Transfer, ...]) -> list[str]:
    return [str(transfer) for transfer in transfers]


EVENING = {"Ana": "12.40", "Ben": "-7.30", "Cyril": "-5.10"}


@pytest.mark.parametrize(
    ("balances", "coin", "rounded"),
    [
        # CZK: 12.40 / −8 r .70 / −6 r .90 rounded down leaves two crowns, for the two largest remainders.
        (EVENING, "1.00", {"Ana": "12.00", "Ben": "-7.00", "Cyril": "-5.00"}),
        # Half-crown coin: remainders .40 / .20 / .40, two coins left over go to Ana and Cyril.
        (EVENING, "0.50", {"Ana": "12.50", "Ben": "-7.50", "Cyril": "-5.00"}),
        (EVENING, "0.01", EVENING),
        (EVENING, "5", {"Ana": "10", "Ben": "-5", "Cyril": "-5"}),
        # Nothing to round: a balance that is a whole number of coins never moves.
        ({"Ana": "3", "Ben": "-1", "Cyril": "-2"}, "1.00", {"Ana": "3.00", "Ben": "-1.00", "Cyril": "-2.00"}),
        ({"Ana": "0", "Ben": "0"}, "1.00", {"Ana": "0.00", "Ben": "0.00"}),
        ({"Ana": "0"}, "0.01", {"Ana": "0.00"}),
        ({}, "1.00", {}),
        # A coin written as 1E+1 still rounds to tens, printed plainly.
        ({"Ana": "14", "Ben": "-14"}, "1E+1", {"Ana": "10", "Ben": "-10"}),
    ],
)
def test_it_rounds_balances_to_the_coin_keeping_the_sum_at_zero(
    balances: dict[str, str], coin: str, rounded: dict[str, str]
) -> None:
    result = round_balances(_money(**balances), Decimal(coin))
    assert {player: str(amount) for player, amount in result.items()} == rounded
    assert sum(result.values(), Decimal(0)) == 0


@pytest.mark.parametrize(
    ("balances", "coin", "rounded"),
    [
        # Ben and Cyril both lose 1.60: remainders .40 each, one crown to hand out, Ben sorts first.
        ({"Ana": "3.20", "Ben": "-1.60", "Cyril": "-1.60"}, "1", {"Ana": "3", "Ben": "-1", "Cyril": "-2"}),
        ({"Ana": "0.50", "Ben": "0.50", "Cyril": "-1.00"}, "1.00", {"Ana": "1.00", "Ben": "0.00", "Cyril": "-1.00"}),
        ({"Ana": "-0.50", "Ben": "-0.50", "Cyril": "1.00"}, "1.00", {"Ana": "0.00", "Ben": "-1.00", "Cyril": "1.00"}),
        # Plain code point order, not Czech collation: "Z" (U+005A) sorts before "Č" (U+010C).
        (
            {"Čeněk": "0.005", "Zdeněk": "0.005", "Ana": "-0.010"},
            "0.01",
            {"Čeněk": "0.00", "Zdeněk": "0.01", "Ana": "-0.01"},
        ),
    ],
)
def test_equal_remainders_round_up_in_name_order_whatever_the_seat_order(
    balances: dict[str, str], coin: str, rounded: dict[str, str]
) -> None:
    for seating in (balances, dict(reversed(balances.items()))):
        result = round_balances(_money(**seating), Decimal(coin))
        assert {player: str(amount) for player, amount in result.items()} == rounded


@pytest.mark.parametrize(
    ("balances", "transfers"),
    [
        ({"Ana": "12", "Ben": "-7", "Cyril": "-5"}, ["Ben → Ana 7", "Cyril → Ana 5"]),
        # One group: largest possible transfer first (Dora settles in full with Ana), then the rest.
        (
            {"Ana": "25", "Ben": "10", "Cyril": "-15", "Dora": "-20"},
            ["Dora → Ana 20", "Cyril → Ben 10", "Cyril → Ana 5"],
        ),
        # Ben and Cyril are even between themselves: 5 players − 2 groups = 3 transfers (greedy would use 4).
        (
            {"Ana": "4", "Ben": "3", "Cyril": "-3", "Dora": "-2", "Eva": "-2"},
            ["Cyril → Ben 3", "Dora → Ana 2", "Eva → Ana 2"],
        ),
        # Two ways to pair off; the tie goes to the payer, then the payee, whose name sorts first.
        ({"Ana": "1", "Ben": "1", "Cyril": "-1", "Dora": "-1"}, ["Cyril → Ana 1", "Dora → Ben 1"]),
        ({"Ana": "0.00", "Ben": "3.50", "Cyril": "-3.50"}, ["Cyril → Ben 3.50"]),
        ({"Ana": "0", "Ben": "0"}, []),
        ({"Ana": "0"}, []),
        ({}, []),
    ],
)
def test_fewest_transfers(balances: dict[str, str], transfers: list[str]) -> None:
    assert _texts(plan_transfers(_money(**balances))) == transfers


def test_greedy_is_what_a_big_table_gets_and_can_use_more_transfers() -> None:
    balances = _money(Ana="4", Ben="3", Cyril="-3", Dora="-2", Eva="-2")
    # Cyril pays Ana rather than Ben (same amount, Ana sorts first), which breaks up the even Ben–Cyril pair.
    assert _texts(plan_transfers(balances, exact_limit=0)) == [
        "Cyril → Ana 3",
        "Dora → Ben 2",
        "Eva → Ana 1",
        "Eva → Ben 1",
    ]


def test_twelve_players_get_the_exact_plan() -> None:
    # Two copies of the table above plus an even pair: 12 players − 5 groups = 7 transfers.
    balances = _money(
        Ana="4", Ben="3", Cyril="-3", Dora="-2", Eva="-2",
        Filip="4", Gita="3", Hana="-3", Ivan="-2", Jana="-2",
        Karel="1", Lida="-1",
    )  # fmt: skip
    exact = plan_transfers(balances)
    assert len(exact) == 7
    assert len(plan_transfers(balances, exact_limit=0)) > 7


@pytest.mark.parametrize(
    ("balances", "banker", "transfers"),
    [
        ({"Ana": "12", "Ben": "-7", "Cyril": "-5"}, "Ana", ["Ben → Ana 7", "Cyril → Ana 5"]),
        ({"Ana": "12", "Ben": "-7", "Cyril": "-5"}, "Ben", ["Ben → Ana 12", "Cyril → Ben 5"]),
        # A banker who is even still collects and pays out.
        ({"Ana": "5", "Ben": "0", "Cyril": "-5"}, "Ben", ["Ben → Ana 5", "Cyril → Ben 5"]),
        ({"Ana": "0", "Ben": "0"}, "Ana", []),
    ],
)
def test_via_one_banker(balances: dict[str, str], banker: str, transfers: list[str]) -> None:
    assert _texts(plan_transfers(_money(**balances), "banker", banker)) == transfers


@pytest.mark.parametrize(
    ("balances", "transfers"),
    [
        # Skat, Grand with 1 at 0.01 a point: each defender owes the declarer (0.96 + 0.48) / 3.
        ({"Ana": "0.96", "Ben": "-0.48", "Cyril": "-0.48"}, ["Ben → Ana 0.48", "Cyril → Ana 0.48"]),
        # Exact shares 3.33 / 6.67 / 3.33. Rounding to 3 / 7 / 3 is off by 1.00 in all, 4 / 6 / 4 by 2.00.
        ({"Ana": "10", "Ben": "0", "Cyril": "-10"}, ["Cyril → Ana 7", "Ben → Ana 3", "Cyril → Ben 3"]),
        # Exact shares: Ben → Ana 1, Cyril → Ana 2.25, Dora → Ana 2.75, Cyril → Ben 1.25, Dora → Ben 1.75,
        # Dora → Cyril 0.50. Every one rounds to its nearer coin except Dora → Cyril, which must go to 0.
        (
            {"Ana": "6", "Ben": "2", "Cyril": "-3", "Dora": "-5"},
            ["Dora → Ana 3", "Cyril → Ana 2", "Dora → Ben 2", "Ben → Ana 1", "Cyril → Ben 1"],
        ),
        ({"Ana": "0", "Ben": "0", "Cyril": "0"}, []),
        ({}, []),
    ],
)
def test_everybody_with_everybody(balances: dict[str, str], transfers: list[str]) -> None:
    assert _texts(plan_transfers(_money(**balances), "pairwise")) == transfers


def test_pairwise_shares_are_rounded_to_the_coin_not_to_the_cent() -> None:
    # Rounded to 0.50: shares 1.67 / 3.33 / 1.67 become 1.50 / 3.50 / 1.50 (off by 0.50 in all).
    balances = _money(Ana="5.00", Ben="0.00", Cyril="-5.00")
    assert _texts(plan_transfers(balances, "pairwise", coin=Decimal("0.50"))) == [
        "Cyril → Ana 3.50",
        "Ben → Ana 1.50",
        "Cyril → Ben 1.50",
    ]


def test_settle_shows_the_rounding_and_the_plan() -> None:
    result = settle(_money(**EVENING), Decimal("1.00"))
    assert result == Settlement(
        coin=Decimal("1.00"),
        mode="fewest",
        exact=_money(**EVENING),
        rounded=_money(Ana="12.00", Ben="-7.00", Cyril="-5.00"),
        transfers=(Transfer("Ben", "Ana", Decimal("7.00")), Transfer("Cyril", "Ana", Decimal("5.00"))),
    )
    assert result.adjustment == _money(Ana="-0.40", Ben="0.30", Cyril="0.10")
    assert result.as_dict() == {
        "coin": "1.00",
        "mode": "fewest",
        "banker": None,
        "balances": [
            {"player": "Ana", "exact": "12.40", "rounded": "12.00", "adjustment": "-0.40"},
            {"player": "Ben", "exact": "-7.30", "rounded": "-7.00", "adjustment": "0.30"},
            {"player": "Cyril", "exact": "-5.10", "rounded": "-5.00", "adjustment": "0.10"},
        ],
        "transfers": [
            {"payer": "Ben", "payee": "Ana", "amount": "7.00"},
            {"payer": "Cyril", "payee": "Ana", "amount": "5.00"},
        ],
    }


def test_settle_via_a_banker_rounds_first() -> None:
    result = settle(_money(**EVENING), Decimal("0.50"), mode="banker", banker="Cyril")
    assert _texts(result.transfers) == ["Cyril → Ana 12.50", "Ben → Cyril 7.50"]
    assert result.banker == "Cyril"


def test_paying_a_transfer_leaves_the_rest_of_the_plan() -> None:
    balances = _money(Ana="25", Ben="10", Cyril="-15", Dora="-20")
    plan = plan_transfers(balances)
    paid = after_paying(balances, plan[1])
    assert paid == _money(Ana="25", Ben="0", Cyril="-5", Dora="-20")
    assert plan_transfers(paid) == (plan[0], plan[2])


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda: settle(_money(**EVENING), Decimal(0)), "coin"),
        (lambda: settle(_money(**EVENING), Decimal("-0.50")), "coin"),
        (lambda: settle(_money(**EVENING), Decimal("NaN")), "coin"),
        (lambda: round_balances(_money(**EVENING), 0.5), "coin"),  # type: ignore[arg-type]
        (lambda: settle(_money(Ana="1.00", Ben="-0.99"), Decimal(1)), "balances"),
        (lambda: round_balances(_money(Ana="1"), Decimal(1)), "balances"),
        (lambda: plan_transfers(_money(Ana="1", Ben="-2")), "balances"),
        (lambda: plan_transfers({"Ana": 1.5, "Ben": Decimal("-1.5")}), "balances.Ana"),  # type: ignore[dict-item]
        (lambda: plan_transfers(_money(Ana="1", Ben="-1"), "cheapest"), "mode"),
        (lambda: settle(_money(**EVENING), Decimal(1), mode="cheapest"), "mode"),
        (lambda: plan_transfers(_money(Ana="1", Ben="-1"), "banker"), "banker"),
        (lambda: plan_transfers(_money(Ana="1", Ben="-1"), "banker", "Dora"), "banker"),
        (lambda: settle(_money(**EVENING), Decimal(1), "banker", "Dora"), "banker"),
        (lambda: plan_transfers({}, "banker", "Ana"), "banker"),
        (lambda: plan_transfers(_money(Ana="1.50", Ben="-1.50"), coin=Decimal(1)), "balances.Ana"),
        (lambda: plan_transfers(_money(Ana="1", Ben="-1"), coin=Decimal(0)), "coin"),
    ],
)
def test_it_names_the_field_in_every_error(call: object, field: str) -> None:
    assert callable(call)
    with pytest.raises(RulesError) as caught:
        call()
    assert caught.value.field == field


def test_the_error_says_what_is_wrong() -> None:
    with pytest.raises(RulesError) as caught:
        plan_transfers(_money(Ana="1", Ben="-2"))
    assert caught.value.as_dict() == {"field": "balances", "error": "must sum to exactly 0, not −1"}
    with pytest.raises(RulesError) as caught:
        plan_transfers(_money(Ana="1", Ben="-1"), "banker", "Dora")
    assert caught.value.message == "'Dora' is not at this table; players: Ana, Ben"
