"""Properties of Skat pricing over random valid hands (strategies in tests/rules/strategies.py)."""

from __future__ import annotations

import copy
from decimal import Decimal
from typing import Any

from hypothesis import assume, given
from hypothesis import strategies as st

import rules
from rules.skat import TRUMP_GAMES
from tests.rules.strategies import skat_documents

DECLARED = (*TRUMP_GAMES, "null")


def with_rules(document: dict[str, Any], **overrides: Any) -> dict[str, Any]:
    changed = copy.deepcopy(document)
    changed["rules"] |= overrides
    return changed


def with_hand(document: dict[str, Any], **fields: Any) -> dict[str, Any]:
    changed = copy.deepcopy(document)
    changed["hand"] |= fields
    return changed


@given(skat_documents())
def test_amounts_sum_to_exactly_zero(document: dict[str, Any]) -> None:
    result = rules.score(document)
    assert sum(result.amounts.values(), Decimal(0)) == 0
    assert list(result.amounts) == document["players"]


@given(skat_documents())
def test_amounts_are_the_pairwise_differences_of_the_list_points(document: dict[str, Any]) -> None:
    result = rules.score(document)
    assert result.score is not None
    stake = Decimal(document["rules"]["stake"])
    total = sum(result.score.values())
    n = len(document["players"])
    assert result.amounts == {p: stake * (n * s - total) for p, s in result.score.items()}


@given(skat_documents(DECLARED))
def test_a_lost_game_scores_minus_twice_its_value(document: dict[str, Any]) -> None:
    result = rules.score(with_rules(document, scoring="classic"))
    assert result.score is not None
    declarer = document["hand"]["declarer"]
    expected = result.value if result.won else -2 * result.value
    assert result.score[declarer] == expected
    assert all(s == 0 for p, s in result.score.items() if p != declarer)


@given(skat_documents(("null",)))
def test_a_lost_null_scores_minus_twice_the_same_null_won(document: dict[str, Any]) -> None:
    document = with_rules(document, scoring="classic")
    declarer = document["hand"]["declarer"]
    won, lost = (rules.score(with_hand(document, won=flag)).score for flag in (True, False))
    assert won is not None and lost is not None
    assert lost[declarer] == -2 * won[declarer]


@given(skat_documents(TRUMP_GAMES), st.integers(61, 89), st.integers(31, 60))
def test_a_lost_suit_or_grand_scores_minus_twice_the_same_game_won(
    document: dict[str, Any], winning: int, losing: int
) -> None:
    # Between 31 and 89 card points neither side is Schneider, so only the result differs, never the value.
    plain = {"schwarz": False, "schneider_announced": False, "schwarz_announced": False, "ouvert": False}
    document = with_hand(with_rules(document, scoring="classic"), **plain)
    declarer = document["hand"]["declarer"]
    won = rules.score(with_hand(document, declarer_points=winning))
    assume(won.won)  # an overbid game is lost either way
    lost = rules.score(with_hand(document, declarer_points=losing))
    assert won.score is not None and lost.score is not None
    assert (lost.won, lost.value) == (False, won.value)
    assert lost.score[declarer] == -2 * won.score[declarer]


@given(skat_documents(TRUMP_GAMES), st.integers(61, 120))
def test_more_matadors_never_lower_a_won_games_value(document: dict[str, Any], points: int) -> None:
    hand = document["hand"]
    assume(hand["matadors"] < (4 if hand["contract"] == "grand" else 11))
    # Random card points would lose most games; make this one reach what it announced.
    if hand["schwarz_announced"]:
        points = 120
    elif hand["schneider_announced"]:
        points = max(points, 90)
    document = with_hand(document, declarer_points=points, schwarz=points == 120 and hand["schwarz_announced"])
    fewer = rules.score(document)
    assume(fewer.won)  # not overbid
    more = rules.score(with_hand(document, matadors=hand["matadors"] + 1))
    assert more.won
    assert more.value > fewer.value


@given(skat_documents())
def test_seeger_fabian_is_the_classic_score_plus_its_fixed_bonuses(document: dict[str, Any]) -> None:
    classic = rules.score(with_rules(document, scoring="classic"))
    seeger = rules.score(with_rules(document, scoring="seeger-fabian"))
    assert classic.score is not None and seeger.score is not None
    declarer = document["hand"].get("declarer")
    bonus = {p: 0 for p in document["players"]}
    if declarer is not None and classic.won:
        bonus[declarer] = 50
    elif declarer is not None:
        each = 40 if len(document["players"]) == 3 else 30
        bonus = {p: -50 if p == declarer else each for p in bonus}
    assert seeger.score == {p: s + bonus[p] for p, s in classic.score.items()}
    assert (seeger.won, seeger.value, seeger.label) == (classic.won, classic.value, classic.label)


@given(skat_documents())
def test_one_more_pending_bock_doubles_every_list_score(document: dict[str, Any]) -> None:
    document = with_rules(document, bock=True, scoring="classic")
    before = rules.score(document)
    after = rules.score(with_hand(document, bock=document["hand"].get("bock", 0) + 1))
    assert before.score is not None and after.score is not None
    assert after.score == {p: 2 * s for p, s in before.score.items()}
    assert after.bock_rounds <= before.bock_rounds


@given(skat_documents(seats=(4,)))
def test_the_sitting_dealer_scores_nothing_in_the_classic_list(document: dict[str, Any]) -> None:
    result = rules.score(with_rules(document, scoring="classic"))
    assert result.score is not None
    assert result.score[document["hand"]["dealer"]] == 0
