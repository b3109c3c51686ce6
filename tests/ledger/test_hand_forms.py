"""Each game's hand form, posted as a browser posts it, stores the hand RULES.md prices; corrections round-trip."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from ledger.games import form_class
from ledger.models import Hand
from tests import factories
from tests.ledger.form_support import asked_fields, hidden_fields, offered_choices, record_buttons, wrapper

D = Decimal

# (game, what the scorekeeper taps, amounts RULES.md gives)
CASES = [
    (
        "snapser",
        {
            "declarer": "Ana",
            "trump": "hearts",
            "announcement": "hram",
            "winner": "declarer",
            "result": "bez_vody",
            "raises": "0",
        },
        {"Ana": D("1.60"), "Ben": D("-0.80"), "Cyril": D("-0.80")},  # N3
    ),
    (
        "snapser",
        {"declarer": "Ana", "trump": "leaves", "announcement": "nehram", "winner": "declarer", "raises": "0"},
        {"Ana": D("-1.20"), "Ben": D("0.60"), "Cyril": D("0.60")},  # N7: winner and raises are not sent for nehrám
    ),
    (
        "snapser",
        {"declarer": "Ana", "trump": "leaves", "announcement": "za12", "winner": "defenders", "raises": "0"},
        {"Ana": D("-2.40"), "Ben": D("1.20"), "Cyril": D("1.20")},  # N5: a za 12 needs no result
    ),
    (
        "snapser",
        {"declarer": "Ana", "trump": "leaves", "announcement": "za12", "winner": "defenders", "raises": "0"}
        | {"result": "tichy_durch"},
        {"Ana": D("-3.60"), "Ben": D("1.80"), "Cyril": D("1.80")},  # the defenders took every trick: tichý durch
    ),
    (
        "skat",
        {"declarer": "Ana", "contract": "grand", "matadors": "1", "declarer_points": "61", "bid": "18"},
        {"Ana": D("0.96"), "Ben": D("-0.48"), "Cyril": D("-0.48")},  # S1/S20
    ),
    (
        "skat",
        {"declarer": "Cyril", "contract": "clubs", "matadors": "4", "without": "on", "declarer_points": "75"},
        {"Ana": D("-0.60"), "Ben": D("-0.60"), "Cyril": D("1.20")},  # S11: Clubs without 4, won, +60
    ),
    (
        "skat",
        {"declarer": "Ben", "contract": "null", "won": "lost", "hand": "on", "bid": "18"},
        {"Ana": D("0.70"), "Ben": D("-1.40"), "Cyril": D("0.70")},  # S16: Null hand lost −70
    ),
    (
        "marias",
        {
            "declarer": "Ana",
            "contract": "hra",
            "trump": "bells",
            "partner": "Cyril",
            "points": "60",
            "marriages_declarer_20": "0",
            "marriages_defenders_20": "0",
            "ending": "played",
        },
        {"Ana": D("0.20"), "Ben": D("-0.20"), "Cyril": D("0.20"), "Dana": D("-0.20")},  # M2 won
    ),
    (
        "marias",
        {
            "declarer": "Ana",
            "contract": "sedma",
            "trump": "hearts",
            "partner": "Cyril",
            "points": "40",
            "marriages_declarer_20": "2",
            "marriages_declarer_40": "on",
            "marriages_defenders_20": "0",
            "seven_won": "lost",
            "flek_hra": "1",
            "flek_sedma": "2",
            "ending": "played",
        },
        {"Ana": D("3.20"), "Ben": D("-3.20"), "Cyril": D("3.20"), "Dana": D("-3.20")},  # M1 (seed)
    ),
    (
        "marias",
        {"declarer": "Ben", "contract": "durch", "won": "lost", "partner": "Dana", "ending": "played"},
        {"Ana": D("4.00"), "Ben": D("-12.00"), "Cyril": D("4.00"), "Dana": D("4.00")},  # M11 durch lost, alone
    ),
]


def _amounts(hand: Hand) -> dict[str, Decimal]:
    return {p.player.name: p.amount for p in hand.postings.select_related("player")}


@pytest.mark.parametrize(("game", "taps", "expected"), CASES)
def test_the_form_stores_the_hand_rules_md_prices(alice_client, evening, game, taps, expected):
    table = factories.make_table(evening, game)
    response = alice_client.post(reverse("ledger:hand_create", args=[table.pk]), taps | {"dealer": "0"})
    assert response.status_code == 302, response.content.decode()[-3000:]
    assert _amounts(Hand.objects.get(table=table)) == expected


@pytest.mark.parametrize(("game", "taps", "expected"), CASES)
def test_a_correction_form_starts_from_the_stored_hand(alice_client, evening, game, taps, expected):
    table = factories.make_table(evening, game)
    alice_client.post(reverse("ledger:hand_create", args=[table.pk]), taps | {"dealer": "0"})
    hand = Hand.objects.get(table=table)
    cls = form_class(game)
    initial = cls.from_document(table, hand.document) | {"dealer": hand.dealer}
    browser = _as_posted(cls(table, initial=initial, correction=True))
    again = cls(table, browser)
    assert again.is_valid(), again.errors
    assert again.document() == hand.document


def _as_posted(form) -> dict[str, str | list[str]]:
    """What a browser submits for a rendered form: each shown field's initial value."""
    data: dict[str, str | list[str]] = {}
    for drawn in [*form.shown(), *form.shown_more()]:
        if not drawn.asked:
            continue  # hidden and disabled on the page: not posted
        bound = drawn.bound
        value = bound.value()
        if isinstance(value, list | tuple):
            # Ticked boxes (Jungfrau): one value each, in the order of the boxes on the screen.
            ticked = [str(choice) for choice, _label in bound.field.choices if choice in value]
            if ticked:
                data[bound.name] = ticked
        elif value is True:
            data[bound.name] = "on"
        # Not ``value not in (None, False, "")``: 0 == False, and a browser posts a tapped 0 (points, kontra, flek).
        elif value is not None and value is not False and value != "":
            data[bound.name] = str(value)
    return data


def test_the_marias_form_hides_points_for_betl(alice_client, evening):
    table = factories.make_table(evening, "marias")
    html = alice_client.get(
        reverse("ledger:hand_form", args=[table.pk]),
        {"contract": "betl", "ending": "played", "dealer": "0"},
        headers={"HX-Request": "true"},
    ).content.decode()
    assert record_buttons(html) == {"won": ["won", "lost"]}  # won or lost, tapped last
    # Drawn (the page shows them at a tap on another contract) but not asked for a betl.
    assert {"points", "trump", "partner", "flek_hra"} <= set(hidden_fields(html))
    assert not {"points", "trump", "partner", "flek_hra"} & set(asked_fields(html))
    assert "flek_betl" in asked_fields(html)


def test_a_sedma_without_the_seven_result_asks_for_it(alice_client, evening):
    table = factories.make_table(evening, "marias")
    taps = {
        "declarer": "Ana",
        "contract": "sedma",
        "trump": "bells",
        "partner": "Cyril",
        "points": "60",
        "ending": "played",
        "dealer": "0",
    }
    response = alice_client.post(reverse("ledger:hand_create", args=[table.pk]), taps)
    assert response.status_code == 400
    assert '<ul class="errorlist" role="alert" id="errors-seven_won"><li>Tap one: won, lost.</li>' in (
        response.content.decode()
    )
    assert not Hand.objects.exists()


def test_a_hand_stored_with_a_null_hlaska_side_still_opens_for_correction(alice_client, evening):
    """The API once took ``"marriages": {"declarer": null}``; such a hand's edit page answered 500."""
    table = factories.make_table(evening, "marias")
    hand = factories.record(table)[0]
    Hand.objects.filter(pk=hand.pk).update(document=dict(hand.document, marriages={"declarer": None}))
    response = alice_client.get(reverse("ledger:hand_edit", args=[hand.pk]))
    assert response.status_code == 200
    assert 'name="marriages_declarer_20" value="0"' in response.content.decode().replace(" checked", "")


def test_the_snapser_form_offers_a_za12_only_tichy_durch_and_preselects_nothing(alice_client, evening):
    table = factories.make_table(evening, "snapser")
    # Tapping za 12 after hrám redraws the form with hrám's result (s vodou) still posted.
    html = alice_client.get(
        reverse("ledger:hand_form", args=[table.pk]),
        {"announcement": "za12", "result": "s_vodou", "winner": "declarer", "dealer": "0", "_refresh": "1"},
        headers={"HX-Request": "true"},
    ).content.decode()
    assert "result" in asked_fields(html) and "result" not in record_buttons(html)  # the winner records a za 12
    assert offered_choices(html, "result") == ["", "tichy_durch"]  # s vodou, bez vody, za 6 drawn hidden
    checked = [control.value for control in wrapper(html, "field-result").controls if control.checked]
    assert "tichy_durch" not in checked


def test_a_skat_ouvert_game_not_ticked_hand_is_refused_beside_hand(alice_client, evening):
    """Ouvert suit and grand games are always hand games (RULES.md): the form says so where Hand is ticked."""
    table = factories.make_table(evening, "skat")
    taps = {"declarer": "Ana", "contract": "grand", "matadors": "4", "declarer_points": "120", "schwarz": "on"}
    response = alice_client.post(reverse("ledger:hand_create", args=[table.pk]), taps | {"ouvert": "on", "dealer": "0"})
    assert response.status_code == 400
    assert "an ouvert suit or grand game is always a hand game" in response.content.decode()
    assert 'id="errors-hand"' in response.content.decode()
    assert not Hand.objects.exists()
    response = alice_client.post(
        reverse("ledger:hand_create", args=[table.pk]), taps | {"ouvert": "on", "hand": "on", "dealer": "0"}
    )
    assert response.status_code == 302
    assert _amounts(Hand.objects.get(table=table))["Ana"] == D("5.28")  # S17: Grand ouvert with 4, +264
