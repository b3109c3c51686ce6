"""The hand form is a faithful view of the hand document (DESIGN.md, "Decisions after the first release").

For every hand the engine accepts (drawn by the strategies of ``tests/rules/``), at a real table with the
document's players and ruleset: the correction form drawn from the document, posted as a browser posts it, gives
the document back; and recording that post stores exactly the amounts ``rules.score`` gives the document.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from ledger import services
from ledger.games import form_class
from ledger.models import Hand, Table
from tests.ledger.test_hand_forms import _as_posted
from tests.rules.strategies import skat_documents
from tests.rules.strategies_marias import marias_documents
from tests.rules.strategies_snapser import snapser_documents

DOCUMENTS = {"marias": marias_documents(), "skat": skat_documents(), "snapser": snapser_documents()}
GAMES = sorted(DOCUMENTS)
# Hypothesis runs every example inside the test's one transaction, so a function-scoped fixture (the evening, the
# logged-in client) is shared by the examples on purpose; each example seats its own table.
EXAMPLES = {"deadline": None, "suppress_health_check": [HealthCheck.function_scoped_fixture]}

# What each engine reads the same whether written out or left out (its defaults, rules/<game>.py): the only
# difference allowed between a drawn document and the form's rendering of it, which writes the short form.
SKAT_FLAGS = ("hand", "ouvert", "without", "schneider_announced", "schwarz_announced", "schwarz")
DEFAULTS: dict[str, dict[str, Any]] = {
    "marias": {"laid": False, "conceded_by": "defenders"},
    "skat": {"bid": 18, "kontra": 0, "bock": 0, "jungfrau": []} | dict.fromkeys(SKAT_FLAGS, False),
    "snapser": {"raises": 0},
}


def _short(table: Table, hand: dict[str, Any]) -> dict[str, Any]:
    """The hand with the engine's defaults left out; nothing that the engine tells apart is changed."""
    defaults = DEFAULTS[table.game] | {"played_out": not hand.get("laid", False)}  # Mariáš: laid is not played
    if hand.get("end") == "false_dost":
        defaults["result"] = table.ruleset["false_dost"]  # Šnapser: a table may fix what a false dosť costs
    short = {key: value for key, value in hand.items() if key not in defaults or value != defaults[key]}
    if short.get("partner") == short.get("declarer"):
        short.pop("partner", None)  # the chooser called his own card: he plays alone, as without a partner
    if "flek" in short:
        short["flek"] = {component: level for component, level in short["flek"].items() if level}  # 0: no flek
    if "marriages" in short:
        # The engine adds a side's hlášky up and takes the largest: their order and an empty side mean nothing.
        short["marriages"] = {side: sorted(values) for side, values in short["marriages"].items() if values}
    if "jungfrau" in short:
        # A browser posts ticked boxes in screen (seat) order, so no form can keep another; the engine counts them.
        short["jungfrau"] = [player for player in table.seat_names if player in short["jungfrau"]]
    return {key: value for key, value in short.items() if key not in ("flek", "marriages") or value}


def _seat(evening: Any, document: dict[str, Any]) -> Table:
    """A real table (through the service, as the new-table page makes it) seated and ruled as the document says."""
    return services.table_create(
        evening=evening, game=document["game"], players=document["players"], rules_override=document["rules"]
    )


def _hand_and_dealer(table: Table, document: dict[str, Any], data: st.DataObject) -> tuple[dict[str, Any], int]:
    """The hand part, and the dealer the form is drawn for: the one the hand names, else any seat.

    At a three-seat Skat table the ledger keeps the dealer as the hand's seat number, not in the document (the form
    writes ``dealer`` only where the dealer sits out); the strategy may name him in the document, so he moves there.
    """
    hand = copy.deepcopy(document["hand"])
    if "dealer" in hand:
        seat = table.seat_names.index(hand["dealer"])
        if len(table.seat_names) == 3:
            del hand["dealer"]
        return hand, seat
    return hand, data.draw(st.integers(0, len(table.seat_names) - 1), label="dealer")


def _posted(table: Table, hand: dict[str, Any], dealer: int) -> dict[str, Any]:
    """What the browser posts for the correction form of ``hand``, untouched: the fields it asks (the record field
    drawn as a field, as a correction draws it)."""
    cls = form_class(table.game)
    return _as_posted(cls(table, initial=cls.from_document(table, hand) | {"dealer": dealer}, correction=True))


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=150, **EXAMPLES)
@given(data=st.data())
def test_a_hand_goes_through_its_form_unchanged(evening, game, data):
    document = data.draw(DOCUMENTS[game], label="document")
    table = _seat(evening, document)
    hand, dealer = _hand_and_dealer(table, document, data)
    rules.score(table.document(hand))  # the table's frozen ruleset accepts what the strategy drew
    form = form_class(game)(table, data=_posted(table, hand, dealer))
    assert form.is_valid(), form.errors
    assert form.document() == _short(table, hand)


MARIAS_HRA = {"declarer": "Ana", "contract": "hra", "trump": "hearts"}
SNAPSER_FALSE_DOST = {"declarer": "Ana", "trump": "hearts", "announcement": "hram", "winner": "declarer"}
# What the properties found, kept as examples so that they run every time, whatever Hypothesis draws.
FOUND = [
    # A declarer schwarz with 0 card points lost the 0 (0 == False) and the engine refused the hand.
    (
        "skat",
        ["Ana", "Ben", "Cyril"],
        {},
        {"declarer": "Ana", "contract": "clubs", "matadors": 1, "declarer_points": 0},
    ),
    # A passed-in hand inside a Bock round lost its Bock count.
    ("skat", ["Ana", "Ben", "Cyril", "Dora"], {"preset": "pub"}, {"dealer": "Ana", "contract": "passed", "bock": 1}),
    # A laid game wrote "played_out": false, the engine's default for it.
    ("marias", ["Ana", "Ben", "Cyril", "Dana"], {}, {"declarer": "Ana", "contract": "betl", "laid": True}),
    # A false dosť at a table that fixes its category: the form showed s vodou, which the engine refuses there.
    ("snapser", ["Ana", "Ben"], {"false_dost": "bez_vody"}, SNAPSER_FALSE_DOST | {"end": "false_dost"}),
    # A laid hra stopped by a renonc (the engine takes both): the one "ending" choice of the form drawn once.
    (
        "marias",
        ["Ana", "Ben", "Cyril", "Dana"],
        {},
        MARIAS_HRA | {"laid": True, "renonc": {"player": "Ana", "kind": "talon"}},
    ),
    # A hra stored with 0 card points (no hláška): the points given are kept and priced, a 0 included.
    ("marias", ["Ana", "Ben", "Cyril", "Dana"], {}, MARIAS_HRA | {"partner": "Cyril", "points": 0}),
]


@pytest.mark.parametrize(("game", "players", "ruleset", "hand"), FOUND)
def test_what_the_properties_found_stays_fixed(evening, game, players, ruleset, hand):
    table = _seat(evening, {"game": game, "players": players, "rules": ruleset})
    rules.score(table.document(hand))
    dealer = table.seat_names.index(hand.get("dealer", players[0]))
    form = form_class(game)(table, data=_posted(table, hand, dealer))
    assert form.is_valid(), form.errors
    assert form.document() == hand


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=40, **EXAMPLES)
@given(data=st.data())
def test_recording_the_form_stores_what_the_engine_prices(alice_client, evening, game, data):
    document = data.draw(DOCUMENTS[game], label="document")
    table = _seat(evening, document)
    hand, dealer = _hand_and_dealer(table, document, data)
    if table.ruleset.get("bock"):
        # A new table has no Bock round pending, and the ledger refuses any other count (its queue, not the
        # client's, decides; tests/ledger/test_bock.py). It writes the count into the stored document.
        hand["bock"] = 0
    expected = rules.score(table.document(hand)).amounts

    response = alice_client.post(reverse("ledger:hand_create", args=[table.pk]), _posted(table, hand, dealer))

    assert response.status_code == 302, response.content.decode()[-2000:]
    stored = Hand.objects.get(table=table)
    assert _short(table, stored.document) == _short(table, hand)
    assert stored.dealer == dealer
    postings = {posting.player.name: posting.amount for posting in stored.postings.select_related("player")}
    assert postings == expected
    assert stored.amounts == expected  # what the status line after Record shows
