"""No silent default decides who pays; every missing choice is named beside its field, all at once; the
page says what Record stored; the pre-selected contract is the everyday one on a tie."""

from __future__ import annotations

import re
from collections import Counter
from decimal import Decimal

import pytest
from django.urls import reverse

import rules
from ledger.games import form_class
from ledger.hand_forms.fields import ALONE
from ledger.models import Hand
from tests import factories
from tests.ledger.form_support import errors_beside, post_hand, record_buttons, shown_errors

D = Decimal


MARIAS_HRA = {"declarer": "Ana", "contract": "hra", "trump": "bells", "points": "60", "ending": "played"}


@pytest.mark.parametrize(
    ("game", "taps", "field", "message"),
    [
        ("marias", MARIAS_HRA, "partner", "Tap one: Ana, Ben, Cyril, Dana, nobody: alone."),
        ("marias", {"declarer": "Ana", "contract": "betl", "ending": "played"}, "won", "Tap one: won, lost."),
        ("marias", {"declarer": "Ana", "contract": "durch", "ending": "played"}, "won", "Tap one: won, lost."),
        (
            "marias",
            {"declarer": "Ana", "contract": "stosedm", "trump": "bells", "partner": "Cyril", "points": "70"}
            | {"ending": "played"},
            "seven_won",
            "Tap one: won, lost.",
        ),
        ("skat", {"declarer": "Ana", "contract": "null"}, "won", "Tap one: won, lost."),
        (
            "snapser4",
            {"declarer": "Ana", "trump": "hearts", "announcement": "hram", "winner": "declarer", "result": "s_vodou"},
            "partner",
            "Tap one: Ana, Ben, Cyril, Dana, nobody: alone.",
        ),
    ],
)
def test_a_choice_that_decides_the_money_is_never_taken_for_granted(alice_client, evening, game, taps, field, message):
    players = ["Ana", "Ben", "Cyril", "Dana"] if game == "snapser4" else None
    table = factories.make_table(evening, game.removesuffix("4"), players=players)
    response = post_hand(alice_client, table, taps)
    assert response.status_code == 400
    assert shown_errors(response.content.decode(), field) == [message]  # beside the field or its record buttons
    assert not Hand.objects.exists()


def test_every_missing_choice_is_shown_at_once_beside_its_field(alice_client, evening):
    table = factories.make_table(evening, "marias")
    html = post_hand(alice_client, table, {"declarer": "Ana", "contract": "hra", "ending": "played"}).content.decode()
    assert errors_beside(html, "trump") == "Tap one: ♥ hearts, bells, leaves, acorns."
    assert errors_beside(html, "partner") == "Tap one: Ana, Ben, Cyril, Dana, nobody: alone."
    # No hláška tapped: the hra is won or lost, asked by the buttons that record it.
    assert errors_beside(html, "record-by-won") == "Tap one: won, lost."
    assert record_buttons(html) == {"won": ["won", "lost"]}
    assert errors_beside(html, "points") == "" and errors_beside(html, "record-by-points") == ""
    # The cursor goes to the first of them, also without JavaScript.
    assert html.count("autofocus") == 4  # the four trump segments of the first field in error
    assert 'name="trump" value="hearts" required autofocus' in html or 'value="hearts" autofocus' in html


def test_the_errors_speak_the_readers_language(alice_client, evening):
    table = factories.make_table(evening, "marias")
    html = alice_client.post(
        reverse("ledger:hand_create", args=[table.pk]),
        {"declarer": "Ana", "contract": "hra", "ending": "played", "dealer": "0"},
        headers={"Accept-Language": "cs"},
    ).content.decode()
    # The short trump label (60494d2: "♥ hearts", the lepší left out) in Czech, as the hand log says the suit.
    assert errors_beside(html, "trump") == "Ťukněte na jedno: ♥ červené, kule, zelené, žaludy."
    assert errors_beside(html, "partner") == "Ťukněte na jedno: Ana, Ben, Cyril, Dana, nikdo: sám."
    assert "allowed" not in html and "hearts, bells" not in html


def test_alone_is_an_explicit_choice_and_pays_as_rules_md_says(alice_client, evening):
    table = factories.make_table(evening, "marias")
    response = post_hand(alice_client, table, MARIAS_HRA | {"partner": ALONE})
    assert response.status_code == 302
    hand = Hand.objects.get()
    assert "partner" not in hand.document
    doc = {"game": "marias", "players": table.seat_names, "rules": table.ruleset, "hand": hand.document}
    assert hand.amounts == rules.score(doc).amounts
    assert hand.amounts["Ana"] == 3 * -hand.amounts["Ben"]  # alone: each defender pays the chooser


def test_stosedm_with_the_seven_won_is_stored_with_the_seven_won(alice_client, evening):
    """Point 1 of the issue: the seven tapped as won used to be stored as lost unless a tichá-sedma answer came too."""
    table = factories.make_table(evening, "marias")
    taps = {"declarer": "Ana", "contract": "stosedm", "trump": "bells", "partner": "Cyril", "points": "90"}
    response = post_hand(alice_client, table, taps | {"seven_won": "won", "ending": "played"})
    assert response.status_code == 302, response.content.decode()[-2000:]
    hand = Hand.objects.get()
    assert hand.document["seven"] == {"side": "declarer", "won": True}
    # The stovka is lost (90 < 100), the sedma won: −0.80 + 0.40 each; the bug stored −0.80 − 0.40.
    assert hand.amounts == {"Ana": D("-0.40"), "Ben": D("0.40"), "Cyril": D("-0.40"), "Dana": D("0.40")}


def test_a_redraw_shows_no_error_before_anything_was_submitted(alice_client, evening):
    table = factories.make_table(evening, "marias")
    html = alice_client.get(
        reverse("ledger:hand_form", args=[table.pk]),
        {"contract": "sedma", "declarer": "Ana", "ending": "played", "dealer": "0"},
        headers={"HX-Request": "true"},
    ).content.decode()
    # No hláška: the hra and the seven, won or lost, in one tap.
    assert record_buttons(html) == {"sedma_outcome": ["won/won", "won/lost", "lost/won", "lost/lost"]}
    assert "errorlist" not in html and "has-error" not in html


def test_after_record_the_page_says_what_was_stored_with_an_undo(alice_client, evening):
    table = factories.make_table(evening, "skat")
    factories.record(table, times=2)
    taps = {"declarer": "Ben", "contract": "grand", "matadors": "1", "declarer_points": "61"}
    html = post_hand(alice_client, table, taps, htmx=True).content.decode()
    # The hand's line in the page's one live region, which stays in the page (the answer swaps what is inside).
    assert re.search(
        r'<div id="table-status" role="status"[^>]*>\s*<div class="recorded card" id="hand-recorded"', html
    )
    status = html.split('id="hand-recorded"', 1)[1].split("</div>", 1)[0]
    assert "Hand #3:</strong>" in status and "Ben <span" in status and "+0.96" in status
    assert 'name="number" value="3"' in status and ">Undo</button>" in status


def test_without_javascript_record_redirects_to_the_same_status_line(alice_client, evening):
    table = factories.make_table(evening, "skat")
    taps = {"declarer": "Ana", "contract": "grand", "matadors": "1", "declarer_points": "61"}
    response = post_hand(alice_client, table, taps)
    assert response.status_code == 302
    assert response["Location"] == f"{table.get_absolute_url()}?recorded=1#table-live"
    html = alice_client.get(response["Location"]).content.decode()
    assert 'id="hand-recorded"' in html and "Hand #1:" in html and "+0.96" in html


def test_a_hand_nobody_chose_shows_everybodys_money(alice_client, evening):
    table = factories.make_table(evening, "skat", ramsch=True)
    taps = {"contract": "ramsch", "ramsch_points_Ana": "30", "ramsch_points_Ben": "40", "ramsch_points_Cyril": "50"}
    html = post_hand(alice_client, table, taps, htmx=True).content.decode()
    status = html.split('id="hand-recorded"', 1)[1].split("</div>", 1)[0]
    assert "Ana <span" in status and "Ben <span" in status and "Cyril <span" in status


def test_the_refused_hand_is_not_confirmed(alice_client, evening):
    table = factories.make_table(evening, "skat")
    html = post_hand(alice_client, table, {"declarer": "Ana", "contract": "null"}, htmx=True).content.decode()
    assert 'id="hand-recorded"' not in html and errors_beside(html, "won")


def _docs(*contracts: str) -> list[tuple[str, int]]:
    """What the table played, newest hand first, as ``usual_contract`` reads it: (contract, count), latest first."""
    counts = Counter(contracts)
    return [(contract, counts[contract]) for contract in dict.fromkeys(contracts)]


@pytest.mark.parametrize(
    ("game", "newest_first", "expected"),
    [
        ("skat", [], "clubs"),
        ("skat", _docs("passed", "grand", "null"), "clubs"),  # the case: a tie of rare games
        ("skat", _docs("null", "null", "hearts"), "null"),  # a clear leader is what this table plays
        ("skat", _docs("grand", "hearts", "spades", "grand", "hearts", "spades"), "hearts"),  # latest suit of a tie
        ("marias", _docs("stosedm", "hra", "betl"), "hra"),
        ("marias", _docs("betl", "durch"), "hra"),
        ("marias", _docs("sedma", "sedma", "hra"), "sedma"),
        ("snapser", _docs("za12", "nehram"), "hram"),
    ],
)
def test_the_preselected_contract_is_the_everyday_one_on_a_tie(game, newest_first, expected):
    assert form_class(game).usual_contract(newest_first) == expected


def test_the_table_page_preselects_the_everyday_contract_after_a_tie(alice_client, evening):
    table = factories.make_table(evening, "skat")
    factories.record(table, {"declarer": "Ana", "contract": "null", "won": True})
    factories.record(table, {"declarer": "Ben", "contract": "grand", "matadors": 1, "declarer_points": 61})
    factories.record(table, {"contract": "passed"})
    html = alice_client.get(table.get_absolute_url()).content.decode()
    checked = re.findall(r'<input type="radio" name="contract" value="(\w+)"[^>]* checked>', html)
    assert checked == ["clubs"]
