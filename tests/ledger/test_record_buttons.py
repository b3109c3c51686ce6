"""The last choice of a common hand records it at once (won/lost, the category, the declarer).

Each record button is a submit button with the field's name and value, so what it posts is what a plain form posts:
these tests post exactly that and check the stored hand, its money (RULES.md's numbers), the page without
JavaScript and the htmx answer, and the error beside the field when the choice is missing (nothing stored).
"""

from __future__ import annotations

import re
from decimal import Decimal
from html import unescape

import pytest
from django.urls import reverse

from ledger.models import Hand
from tests import factories
from tests.ledger.form_support import (
    asked_fields,
    errors_beside,
    hidden_fields,
    post_hand,
    record_buttons,
    record_hand_shown,
    shown_errors,
)

D = Decimal

# The status line after Record: the hand's line inside the page's one live region (role="status").
STATUS_LINE = re.compile(r'<div id="table-status" role="status"[^>]*>\s*<div class="recorded card" id="hand-recorded"')

MARIAS = {"declarer": "Ana", "contract": "hra", "trump": "bells", "partner": "Cyril", "ending": "played"}
SNAPSER = {"declarer": "Ana", "announcement": "hram", "trump": "leaves", "winner": "declarer", "raises": "0"}
SKAT = {"contract": "grand", "matadors": "1", "declarer_points": "61"}

# (game, posted taps with the tapped button last, the stored hand part that matters, each player's money)
BUTTONS = [
    pytest.param(
        "marias",
        MARIAS | {"won": "won"},
        {"contract": "hra", "won": True},
        {"Ana": "0.20", "Ben": "-0.20", "Cyril": "0.20", "Dana": "-0.20"},  # M2 won
        id="marias-hra-won",
    ),
    pytest.param(
        "marias",
        MARIAS | {"won": "lost", "flek_hra": "1"},
        {"contract": "hra", "won": False, "flek": {"hra": 1}},
        {"Ana": "-0.40", "Ben": "0.40", "Cyril": "-0.40", "Dana": "0.40"},  # M2 lost, flekked
        id="marias-hra-flek-lost",
    ),
    pytest.param(
        "marias",
        MARIAS | {"contract": "sedma", "sedma_outcome": "won/won"},
        {"contract": "sedma", "won": True, "seven": {"side": "declarer", "won": True}},
        {"Ana": "0.60", "Ben": "-0.60", "Cyril": "0.60", "Dana": "-0.60"},  # M3
        id="marias-sedma-both-won",
    ),
    pytest.param(
        "marias",
        MARIAS | {"contract": "sedma", "trump": "hearts", "sedma_outcome": "won/lost"},
        {"contract": "sedma", "won": True, "seven": {"side": "declarer", "won": False}},
        {"Ana": "-0.40", "Ben": "0.40", "Cyril": "-0.40", "Dana": "0.40"},  # M4
        id="marias-sedma-seven-killed",
    ),
    pytest.param(
        "marias",
        {"declarer": "Ben", "contract": "betl", "ending": "played", "won": "won", "flek_betl": "1"},
        {"contract": "betl", "won": True, "flek": {"betl": 1}},
        {"Ana": "-4.00", "Ben": "12.00", "Cyril": "-4.00", "Dana": "-4.00"},  # M11 betl with flek won, alone
        id="marias-betl-won",
    ),
    pytest.param(
        "snapser",
        SNAPSER | {"result": "s_vodou"},
        {"announcement": "hram", "result": "s_vodou", "winner": "declarer"},
        {"Ana": "0.40", "Ben": "-0.20", "Cyril": "-0.20"},  # N1
        id="snapser-s-vodou",
    ),
    pytest.param(
        "snapser",
        SNAPSER | {"trump": "hearts", "raises": "2", "result": "bez_vody"},
        {"announcement": "hram", "result": "bez_vody", "raises": 2},
        {"Ana": "6.40", "Ben": "-3.20", "Cyril": "-3.20"},  # N4
        id="snapser-bez-vody-kontra-re",
    ),
    pytest.param(
        "snapser",
        SNAPSER | {"announcement": "za12", "winner": "defenders"},
        {"announcement": "za12", "winner": "defenders"},
        {"Ana": "-2.40", "Ben": "1.20", "Cyril": "1.20"},  # N5
        id="snapser-za12-failed",
    ),
    pytest.param(
        "skat",
        SKAT | {"declarer": "Ana"},
        {"contract": "grand", "declarer": "Ana", "declarer_points": 61},
        {"Ana": "0.96", "Ben": "-0.48", "Cyril": "-0.48"},  # S1 at 0.01 a point
        id="skat-grand-ana",
    ),
    pytest.param(
        "skat",
        {"contract": "clubs", "matadors": "2", "declarer_points": "59", "declarer": "Cyril"},
        {"contract": "clubs", "declarer": "Cyril", "declarer_points": 59},
        {"Ana": "0.72", "Ben": "0.72", "Cyril": "-1.44"},  # clubs with 2 lost: −2 × 36
        id="skat-clubs-lost-with-59",
    ),
]


@pytest.mark.parametrize(("game", "taps", "stored", "money"), BUTTONS)
def test_each_record_button_stores_the_hand_it_says_without_javascript(
    alice_client, evening, game, taps, stored, money
):
    table = factories.make_table(evening, game)
    response = post_hand(alice_client, table, taps)
    assert response.status_code == 302, response.content.decode()[-2000:]
    hand = Hand.objects.get(table=table)
    assert {key: hand.document[key] for key in stored} == stored
    assert "points" not in hand.document  # nothing the scorekeeper did not tap
    assert {name: str(amount) for name, amount in hand.amounts.items()} == money
    page = alice_client.get(response["Location"]).content.decode()
    status = page.split('id="hand-recorded"', 1)[1].split("</div>", 1)[0]
    chooser = hand.document.get("declarer")
    assert f"{chooser} <span" in status and money[chooser].lstrip("-") in status


@pytest.mark.parametrize(("game", "taps", "stored", "money"), BUTTONS)
def test_each_record_button_answers_htmx_with_the_status_line(alice_client, evening, game, taps, stored, money):
    table = factories.make_table(evening, game)
    factories.record(table)  # the second hand: the answer is the out-of-band swaps (a first hand redraws it all)
    table.refresh_from_db()
    seen = {"table_revision": str(table.revision)}  # the form says which state of the table it was drawn on
    html = post_hand(alice_client, table, taps | seen, htmx=True).content.decode()
    hand = Hand.objects.get(table=table, number=2)
    assert {name: str(amount) for name, amount in hand.amounts.items()} == money
    assert STATUS_LINE.search(html) and "Hand #2:</strong>" in html
    assert 'hx-swap-oob="afterbegin:#log-list"' in html and 'id="hand-2"' in html
    assert 'id="hand-form"' in html and 'hx-swap-oob="true"' in html  # a fresh form for the next hand


@pytest.mark.parametrize(
    ("game", "taps", "field", "message"),
    [
        ("marias", MARIAS, "won", "Tap one: won, lost."),
        (
            "marias",
            MARIAS | {"contract": "sedma"},
            "sedma_outcome",
            "Tap one: hra won, sedma won; hra won, sedma lost; hra lost, sedma won; hra lost, sedma lost.",
        ),
        ("marias", {"declarer": "Ana", "contract": "durch", "ending": "played"}, "won", "Tap one: won, lost."),
        ("snapser", SNAPSER, "result", "Tap one: s vodou, bez vody, za 6, tichý durch."),
        (
            "snapser",
            {key: value for key, value in SNAPSER.items() if key != "winner"} | {"announcement": "durch"},
            "winner",
            "Tap one: the chooser&#x27;s side, the defenders.",  # HTML-escaped
        ),
        ("skat", SKAT, "declarer", "Tap one: Ana, Ben, Cyril."),
    ],
)
def test_a_missing_record_choice_is_an_error_beside_its_buttons(alice_client, evening, game, taps, field, message):
    """Posted without the button (Enter in a field, a bare client): nothing stored, the reason beside the buttons."""
    table = factories.make_table(evening, game)
    for htmx in (False, True):
        response = post_hand(alice_client, table, taps, htmx=htmx)
        html = response.content.decode()
        assert errors_beside(html, f"record-by-{field}") == message
        assert field in record_buttons(html)  # the buttons are shown, the error beside them
        assert shown_errors(html, field) == [unescape(message)]
        record = html.split('class="field record has-error"', 1)[1]
        assert record.startswith(f' id="record-by-{field}"')
        assert " autofocus>" in record.split("</fieldset>", 1)[0]  # the cursor on its first button
    assert not Hand.objects.exists()


def test_a_hlaska_brings_the_card_points_back_and_won_alone_is_refused(alice_client, evening):
    """With a hláška the points can make a silent hundred: the form asks for them, and a posted won is not enough."""
    table = factories.make_table(evening, "marias")
    response = post_hand(alice_client, table, MARIAS | {"marriages_declarer_20": "1", "won": "won"})
    assert response.status_code == 400
    html = response.content.decode()
    assert errors_beside(html, "record-by-points") == "Enter a number from 0 to 90."
    assert "points" in record_buttons(html) and "won" not in record_buttons(html) and "won" in hidden_fields(html)
    assert not Hand.objects.exists()
    response = post_hand(alice_client, table, MARIAS | {"marriages_declarer_20": "1", "points": "60"})
    assert response.status_code == 302
    hand = Hand.objects.get()
    assert hand.document["points"] == 60 and hand.document["marriages"] == {"declarer": [20]}
    assert hand.amounts["Ana"] == D("0.20")


HRA_WITH_A_20 = MARIAS | {"marriages_declarer_20": "1"}


@pytest.mark.parametrize(
    ("points", "money"),
    [
        # 80 + the 20 = 100: a tichá stovka doubles the hra (RULES.md §2: × 2 × 2^0), M2's 0.20 becomes 0.40
        ("80", {"Ana": "0.40", "Ben": "-0.40", "Cyril": "0.40", "Dana": "-0.40"}),
        # 60 + 20 = 80 against 30: won, plain M2
        ("60", {"Ana": "0.20", "Ben": "-0.20", "Cyril": "0.20", "Dana": "-0.20"}),
        # 30 + 20 = 50 against 60: lost
        ("30", {"Ana": "-0.20", "Ben": "0.20", "Cyril": "-0.20", "Dana": "0.20"}),
    ],
)
def test_a_card_points_button_records_a_hra_with_a_hlaska(alice_client, evening, points, money):
    """Trump, partner, the 20, then one card-points button: the hand as posted, priced from those points."""
    table = factories.make_table(evening, "marias")
    response = post_hand(alice_client, table, HRA_WITH_A_20 | {"points": points})
    assert response.status_code == 302, response.content.decode()[-2000:]
    hand = Hand.objects.get(table=table)
    assert hand.document["points"] == int(points) and hand.document["marriages"] == {"declarer": [20]}
    assert "won" not in hand.document  # the points decide, not a won/lost tap
    assert {name: str(amount) for name, amount in hand.amounts.items()} == money
    assert sum(hand.amounts.values()) == 0
    status = alice_client.get(response["Location"]).content.decode().split('id="hand-recorded"', 1)[1]
    assert "Ana <span" in status.split("</div>", 1)[0] and money["Ana"].lstrip("-") in status.split("</div>", 1)[0]


def test_a_card_points_button_answers_htmx_with_the_status_line(alice_client, evening):
    table = factories.make_table(evening, "marias")
    factories.record(table)  # the second hand: the answer is the out-of-band swaps
    table.refresh_from_db()
    taps = HRA_WITH_A_20 | {"points": "80", "table_revision": str(table.revision)}
    html = post_hand(alice_client, table, taps, htmx=True).content.decode()
    hand = Hand.objects.get(table=table, number=2)
    assert hand.amounts["Ana"] == D("0.40") and hand.document["points"] == 80
    assert STATUS_LINE.search(html) and "Hand #2:</strong>" in html
    assert 'hx-swap-oob="afterbegin:#log-list"' in html and 'id="hand-2"' in html
    # The fresh form for the next hand: no hláška tapped, so it ends with won/lost again, not the points.
    assert record_buttons(html) == {"won": ["won", "lost"]}
    assert "points" in hidden_fields(html) and "points" not in asked_fields(html)


def test_missing_card_points_are_an_error_beside_their_buttons(alice_client, evening):
    """A hra with a 20 posted without a points button (a bare client): nothing stored, the error beside the row of
    points buttons, the 20 still tapped, the cursor on the first button; the same for htmx."""
    table = factories.make_table(evening, "marias")
    for htmx in (False, True):
        html = post_hand(alice_client, table, HRA_WITH_A_20, htmx=htmx).content.decode()
        assert errors_beside(html, "record-by-points") == "Enter a number from 0 to 90."
        assert list(record_buttons(html)) == ["points"]
        record = html.split('class="field record has-error"', 1)[1]
        assert record.startswith(' id="record-by-points"')
        buttons = record.split("</fieldset>", 1)[0]
        assert 'value="0" aria-label="0 points" autofocus>0</button>' in buttons
        assert 'aria-describedby="errors-record-by-points"' in buttons
        assert re_checked(html, "marriages_declarer_20", "1")
    assert not Hand.objects.exists()


def test_a_correction_keeps_the_card_points_as_a_field(alice_client, evening):
    table = factories.make_table(evening, "marias")
    post_hand(alice_client, table, HRA_WITH_A_20 | {"points": "60"})
    hand = Hand.objects.get()
    html = alice_client.get(reverse("ledger:hand_edit", args=[hand.pk])).content.decode()
    assert 'name="points" value="60"' in html and "a tap records the hand" not in html
    assert "points" in asked_fields(html) and record_buttons(html) == {}
    assert "Save the correction" in html and record_hand_shown(html)
    edit = MARIAS | {"marriages_declarer_20": "1", "points": "80", "dealer": "0", "version": str(hand.version)}
    response = alice_client.post(reverse("ledger:hand_edit", args=[hand.pk]), edit)
    assert response.status_code == 302
    hand.refresh_from_db()
    assert hand.amounts["Ana"] == D("0.40")  # now a tichá stovka


def test_the_form_draws_the_record_buttons_in_place_of_record_hand(alice_client, evening):
    table = factories.make_table(evening, "marias")
    html = alice_client.get(table.get_absolute_url()).content.decode()
    form = html.split('id="hand-form"', 1)[1].split("</form>", 1)[0]
    assert record_buttons(html) == {"won": ["won", "lost"]}
    assert not record_hand_shown(html) and "points" not in asked_fields(html) and "points" in hidden_fields(html)
    assert "a tap records the hand" in form
    # A hláška tapped: the form asks for the card points, a button a ten that records, the hláška above them.
    redraw = alice_client.get(
        reverse("ledger:hand_form", args=[table.pk]),
        {"contract": "hra", "ending": "played", "marriages_declarer_20": "1", "dealer": "0"},
        headers={"HX-Request": "true"},
    ).content.decode()
    assert record_buttons(redraw) == {"points": [str(points) for points in range(0, 91, 10)]}
    assert 'aria-label="60 points">60</button>' in redraw  # read out as points, shown as the number
    assert not record_hand_shown(redraw) and "won" not in asked_fields(redraw) and "won" in hidden_fields(redraw)
    assert "marriages_declarer_20" in asked_fields(redraw)
    assert redraw.index('id="field-marriages_declarer_20"') < redraw.index('id="record-by-points"')
    assert re_checked(redraw, "marriages_declarer_20", "1")


@pytest.mark.parametrize(
    ("game", "contract", "name", "values"),
    [
        ("skat", {}, "declarer", ["Ana", "Ben", "Cyril"]),
        ("skat", {"contract": "null"}, "declarer", ["Ana", "Ben", "Cyril"]),
        ("snapser", {}, "result", ["s_vodou", "bez_vody", "za_6", "tichy_durch"]),
        ("snapser", {"announcement": "za12"}, "winner", ["declarer", "defenders"]),
        (
            "marias",
            {"contract": "sedma", "ending": "played"},
            "sedma_outcome",
            ["won/won", "won/lost", "lost/won", "lost/lost"],
        ),
        ("marias", {"contract": "betl", "ending": "played"}, "won", ["won", "lost"]),
        # a stovka is priced from its card points: they are its record buttons
        ("marias", {"contract": "stovka", "ending": "played"}, "points", [str(p) for p in range(0, 91, 10)]),
    ],
)
def test_each_game_ends_its_common_hands_with_record_buttons(alice_client, evening, game, contract, name, values):
    table = factories.make_table(evening, game)
    if contract:  # the form drawn for these taps
        html = alice_client.get(
            reverse("ledger:hand_form", args=[table.pk]), contract | {"dealer": "0"}, headers={"HX-Request": "true"}
        ).content.decode()
    else:  # the form as the table page first draws it, its everyday contract pre-selected
        html = alice_client.get(table.get_absolute_url()).content.decode()
    assert record_buttons(html) == {name: values}  # the one record field shown, and only its buttons
    assert not record_hand_shown(html)


@pytest.mark.parametrize(
    ("game", "contract"),
    [
        ("skat", {"contract": "passed"}),
        ("snapser", {"announcement": "nehram"}),
        ("marias", {"contract": "stovka", "ending": "conceded_defenders"}),
        ("marias", {"contract": "hra", "ending": "laid"}),
    ],
)
def test_hands_that_end_otherwise_keep_record_hand(alice_client, evening, game, contract):
    table = factories.make_table(evening, game)
    html = alice_client.get(
        reverse("ledger:hand_form", args=[table.pk]), contract | {"dealer": "0"}, headers={"HX-Request": "true"}
    ).content.decode()
    assert record_hand_shown(html) and record_buttons(html) == {}


def test_the_pre_selected_values_a_button_uses_are_on_the_screen(alice_client, evening):
    """Skat: 61 card points and with 1 are pre-selected and shown; Šnapser: the chooser's side and no raise."""
    skat = factories.make_table(evening, "skat")
    html = alice_client.get(skat.get_absolute_url()).content.decode()
    assert 'name="declarer_points" value="61"' in html
    assert re_checked(html, "matadors", "1")
    snapser = factories.make_table(evening, "snapser")
    html = alice_client.get(snapser.get_absolute_url()).content.decode()
    assert re_checked(html, "winner", "declarer") and re_checked(html, "raises", "0")
    assert not any(re_checked(html, "result", value) for value in ("s_vodou", "bez_vody"))  # buttons, not a default


def re_checked(html: str, name: str, value: str) -> bool:
    """Whether the radio ``name`` = ``value`` is drawn checked."""
    for tag in html.split("<input")[1:]:
        tag = tag.split(">", 1)[0]
        if f'name="{name}"' in tag and f'value="{value}"' in tag:
            return " checked" in tag
    return False


def test_a_correction_shows_the_record_field_as_a_field(alice_client, evening):
    table = factories.make_table(evening, "marias")
    post_hand(alice_client, table, MARIAS | {"contract": "sedma", "sedma_outcome": "lost/won"})
    hand = Hand.objects.get()
    html = alice_client.get(reverse("ledger:hand_edit", args=[hand.pk])).content.decode()
    assert re_checked(html, "sedma_outcome", "lost/won")
    assert "sedma_outcome" in asked_fields(html) and record_buttons(html) == {}
    assert "Save the correction" in html and "a tap records the hand" not in html and record_hand_shown(html)
    response = alice_client.post(
        reverse("ledger:hand_edit", args=[hand.pk]),
        MARIAS | {"contract": "sedma", "sedma_outcome": "won/won", "dealer": "0", "version": str(hand.version)},
    )
    assert response.status_code == 302
    hand.refresh_from_db()
    assert hand.amounts["Ana"] == D("0.60")  # M3


def test_a_double_tap_records_one_hand(alice_client, evening):
    """The same form posted twice (a second tap before the answer): its key makes it one hand."""
    table = factories.make_table(evening, "snapser")
    taps = SNAPSER | {"result": "bez_vody", "key": "f" * 32}
    first = post_hand(alice_client, table, taps, htmx=True)
    second = post_hand(alice_client, table, taps, htmx=True)
    assert first.status_code == second.status_code == 200
    assert Hand.objects.filter(table=table).count() == 1
    assert Hand.objects.get().amounts["Ana"] == D("0.80")  # N2
