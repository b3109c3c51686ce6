"""The payment line: every hand's explanation ends with who is due what, in one sentence."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rules
from rules.base import Line, payment_line
from rules.i18n import format_list
from tests.rules.strategies import skat_documents
from tests.rules.strategies_marias import marias_documents
from tests.rules.strategies_snapser import snapser_documents

NBSP = "\N{NO-BREAK SPACE}"


def said(currency: str = "EUR", **amounts: str) -> str:
    line = payment_line({player: Decimal(amount) for player, amount in amounts.items()}, currency)
    assert (line.detail, line.amount) == ("", None)
    return line.label


@pytest.mark.parametrize(
    ("amounts", "sentence"),
    [
        pytest.param(
            {"Franta": "-0.40", "Pepa": "0.40", "Jarda": "-0.40", "Mirek": "0.40"},
            "Franta and Jarda pay Pepa and Mirek €0.40 each",
            id="two-against-two",
        ),
        pytest.param(
            {"Ana": "-0.20", "Ben": "0.60", "Cyril": "-0.20", "Dana": "-0.20"},
            "Ana, Cyril and Dana pay Ben €0.20 each",
            id="one-receives",
        ),
        pytest.param(
            {"Ana": "-2.40", "Ben": "1.20", "Cyril": "1.20"}, "Ana pays Ben and Cyril €1.20 each", id="one-pays"
        ),
        pytest.param({"Ana": "0.60", "Ben": "-0.60"}, "Ben pays Ana €0.60", id="two-players"),
        pytest.param(
            {"Ana": "0.96", "Ben": "-0.48", "Cyril": "-0.48", "Dora": "0"},
            "Ben and Cyril pay Ana €0.48 each",
            id="who-sits-out-is-not-named",
        ),
        pytest.param(
            {"Ana": "0.40", "Ben": "-0.50", "Cyril": "0.40", "Dana": "-0.30"},
            "Ben pays €0.50 and Dana pays €0.30; Ana and Cyril get €0.40 each",
            id="payers-differ",
        ),
        pytest.param(
            {"Ana": "-0.90", "Ben": "0.50", "Cyril": "0.40"},
            "Ana pays €0.90; Ben gets €0.50 and Cyril gets €0.40",
            id="payees-differ",
        ),
        pytest.param(
            {"Ana": "-0.30", "Ben": "-0.30", "Cyril": "0.20", "Dana": "0.20", "Eva": "0.20"},
            "Ana and Ben pay €0.30 each; Cyril, Dana and Eva get €0.20 each",
            id="uneven-sides",
        ),
        pytest.param({"Ana": "0.00", "Ben": "0", "Cyril": "0"}, "Nobody pays anything", id="nothing-moves"),
        pytest.param({"Ana": "-0.005", "Ben": "0.005"}, "Ana pays Ben €0.005", id="exact-beyond-the-cent"),
    ],
)
def test_it_says_who_pays_whom_in_one_sentence(amounts: dict[str, str], sentence: str) -> None:
    assert said(**amounts) == sentence


def test_it_writes_money_as_the_table_does() -> None:
    assert said("CZK", Ana="-4", Ben="2", Cyril="2") == f"Ana pays Ben and Cyril 2.00{NBSP}Kč each"


@pytest.mark.parametrize(
    ("names", "joined"),
    [([], ""), (["Ana"], "Ana"), (["Ana", "Ben"], "Ana and Ben"), (["Ana", "Ben", "Cyril"], "Ana, Ben and Cyril")],
)
def test_it_lists_names_as_players_say_them(names: list[str], joined: str) -> None:
    assert format_list(names) == joined


# --------------------------------------------------------------------------------------------------------------
# In every game: the last line of the explanation, appended once by rules.score


@given(st.one_of(skat_documents(), marias_documents(), snapser_documents()))
def test_every_hand_of_every_game_ends_with_the_payment_line(document: dict[str, Any]) -> None:
    score = rules.score(document)
    currency = rules.resolve(document["game"], document.get("rules"))["currency"]
    assert score.lines[-1] == payment_line(score.amounts, currency)
    assert sum(isinstance(line, Line) and line == score.lines[-1] for line in score.lines) == 1
    for player, amount in score.amounts.items():
        assert bool(re.search(rf"\b{player}\b", score.lines[-1].label)) == (amount != 0)
