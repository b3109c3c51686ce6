"""The hand form drawn once with every field (ledger/hand_forms/conditions.py): what the page shows at each tap is
what the server reads from the post, and the hands that came with it store and price as RULES.md says.

Each hand here is posted as the page posts it: the table page's form as drawn, the taps applied, only the asked
fields sent (``form_support.page_post``), the record button tapped last. Every amount is worked out by hand.
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest
from django.urls import reverse

from ledger.games import form_class
from ledger.hand_forms.conditions import ALWAYS, AnyOf, When, asked_values
from ledger.models import Hand
from rules import marias, skat
from tests import factories
from tests.ledger.form_support import (
    asked_fields,
    browser_values,
    drawn_form,
    errors_beside,
    hidden_fields,
    holds,
    offered_choices,
    page_asked_values,
    page_post,
    page_shows,
    record_buttons,
    shown_errors,
)

D = Decimal
HX = {"HX-Request": "true"}


def _create(client: Any, table: Any, data: dict[str, str], htmx: bool = False) -> Any:
    return client.post(reverse("ledger:hand_create", args=[table.pk]), data, headers=HX if htmx else {})


def _redraw(client: Any, table: Any, data: dict[str, str]) -> str:
    return client.get(reverse("ledger:hand_form", args=[table.pk]), data, headers=HX).content.decode()


# -- (a) a Mariáš renonc that stopped the hand ---------------------------------------------------------------------

# What only a played-out Mariáš hand asks (beside the result: won, the points, the sedma's outcome).
PLAYED_OUT_ONLY = ["marriages_declarer_20", "marriages_defenders_20", "seven_side", "seven_won", "sedma_outcome"]


def test_a_renonc_that_stopped_the_hand_costs_only_its_fee_and_the_status_names_the_offender(alice_client, evening):
    """Ana chooses a hra in bells with Cyril; Ben (a defender) renonces, other kind, and the hand stops there.

    RULES.md / rules.marias: a renonc that stopped the hand costs only its fee, to each opponent of the offender; an
    "other" renonc is 2.00 (``renonc_other``). Ben's opponents are Ana and Cyril: Ben −4.00, Ana +2.00, Cyril +2.00,
    Dana 0.00. After the chooser: trump, partner, "renonc" (its kind is pre-selected "other"), and Ben's button
    records it.
    """
    table = factories.make_table(evening, "marias")
    factories.record(table)  # the second hand: the answer is the out-of-band swaps with the status line
    page = alice_client.get(table.get_absolute_url()).content.decode()
    assert "renonc_player" in hidden_fields(page) and "renonc_player" not in record_buttons(page)
    assert offered_choices(page, "ending") == ["played", "renonc", "conceded_defenders", "conceded_declarer", "laid"]
    taps = {"declarer": "Ana", "trump": "bells", "partner": "Cyril", "ending": "renonc"}
    shows = page_shows(page, taps)
    assert shows["record-by-renonc_player"] and shows["field-renonc_kind"] and shows["field-renonc_played_out"]
    assert not shows["field-renonc_player"] and not shows["record-by-won"] and not shows["field-points"]
    assert not any(shows[f"field-{name}"] for name in PLAYED_OUT_ONLY)  # nothing of a played-out hand
    posted = page_post(page, taps, button=("renonc_player", "Ben"))
    assert posted["renonc_kind"] == "other" and "won" not in posted and "renonc_played_out" not in posted

    html = _create(alice_client, table, posted, htmx=True).content.decode()

    hand = Hand.objects.get(table=table, number=2)
    assert hand.document == {
        "declarer": "Ana",
        "contract": "hra",
        "trump": "bells",
        "partner": "Cyril",
        "renonc": {"player": "Ben", "kind": "other"},
        "played_out": False,
    }
    assert hand.amounts == {"Ana": D("2.00"), "Ben": D("-4.00"), "Cyril": D("2.00"), "Dana": D("0.00")}
    status = html.split('id="hand-recorded"', 1)[1].split("</p>", 1)[0]
    assert "Hand #2:</strong>" in status
    assert 'Ben <span class="num minus">−4.00</span>' in status  # the offender's money, not the chooser's
    assert "Ana <span" not in status


def test_a_renonc_in_a_hand_played_out_is_the_fee_and_the_hand(alice_client, evening):
    """The harmed side had the hand played out: the hra is priced as played (won: 0.20 each way, M2) and Ben's fee
    comes on top: Ana +0.20 +2.00 = +2.20, Cyril +2.20, Ben −0.20 −4.00 = −4.20, Dana −0.20."""
    table = factories.make_table(evening, "marias")
    page = alice_client.get(table.get_absolute_url()).content.decode()
    taps = {"declarer": "Ana", "trump": "bells", "partner": "Cyril", "ending": "renonc", "renonc_played_out": "on"}
    taps |= {"renonc_player": "Ben"}
    shows = page_shows(page, taps)
    assert shows["field-renonc_player"] and not shows["record-by-renonc_player"]  # a plain choice now
    assert shows["record-by-won"]  # the hand ends as a played-out hra does
    response = _create(alice_client, table, page_post(page, taps, button=("won", "won")))
    assert response.status_code == 302, response.content.decode()[-2000:]
    hand = Hand.objects.get(table=table)
    assert hand.document["renonc"] == {"player": "Ben", "kind": "other"} and "played_out" not in hand.document
    assert hand.document["won"] is True
    assert hand.amounts == {"Ana": D("2.20"), "Ben": D("-4.20"), "Cyril": D("2.20"), "Dana": D("-0.20")}


@pytest.mark.parametrize(
    ("ending", "document"),
    [
        ("conceded_defenders", {"played_out": False}),
        ("conceded_declarer", {"played_out": False, "conceded_by": "declarer"}),
        ("laid", {"laid": True}),
    ],
)
def test_each_ending_writes_the_document_the_engine_reads(alice_client, evening, ending, document):
    table = factories.make_table(evening, "marias")
    page = alice_client.get(table.get_absolute_url()).content.decode()
    taps = {"declarer": "Ana", "trump": "bells", "partner": "Cyril", "ending": ending}
    assert page_shows(page, taps)["field-flekked_by"] is (ending == "laid")
    response = _create(alice_client, table, page_post(page, taps))  # "Record hand": nothing is left to tap
    assert response.status_code == 302, response.content.decode()[-2000:]
    stored = Hand.objects.get(table=table).document
    assert stored == {"declarer": "Ana", "contract": "hra", "trump": "bells", "partner": "Cyril"} | document


# -- (b) a Skat Ramsch with one player's card points left empty ---------------------------------------------------


def test_a_ramsch_with_one_players_points_left_empty_stores_what_is_left_of_120(alice_client, evening):
    """Ana 30, Ben 40, Cyril left empty: 120 − 70 = 50. Cyril has the most and scores −50; everybody pays everybody
    the difference at 0.01 a point (rules.skat): Cyril 0.01 × (3 × −50 − (−50)) = −1.00, Ana and Ben +0.50."""
    table = factories.make_table(evening, "skat", ramsch=True)
    page = alice_client.get(table.get_absolute_url()).content.decode()
    taps = {"contract": "ramsch", "ramsch_points_Ana": "30", "ramsch_points_Ben": "40"}
    posted = page_post(page, taps)
    assert "ramsch_points_Cyril" not in posted and "declarer" not in posted
    response = _create(alice_client, table, posted, htmx=True)
    assert response.status_code == 200
    hand = Hand.objects.get(table=table)
    assert hand.document["ramsch_points"] == {"Ana": 30, "Ben": 40, "Cyril": 50}
    assert hand.amounts == {"Ana": D("0.50"), "Ben": D("0.50"), "Cyril": D("-1.00")}


def test_a_ramsch_with_two_players_points_left_empty_is_refused(alice_client, evening):
    """Only one can be worked out: with two empty, nothing is stored and the form says what is missing."""
    table = factories.make_table(evening, "skat", ramsch=True)
    page = alice_client.get(table.get_absolute_url()).content.decode()
    response = _create(alice_client, table, page_post(page, {"contract": "ramsch", "ramsch_points_Ana": "30"}))
    assert response.status_code == 400
    assert not Hand.objects.exists()


# -- (c) a Grand counts 1 to 4 matadors ----------------------------------------------------------------------------


def test_a_grand_is_offered_and_takes_one_to_four_matadors(alice_client, evening):
    table = factories.make_table(evening, "skat")
    page = alice_client.get(table.get_absolute_url()).content.decode()
    assert offered_choices(page, "matadors") == [str(n) for n in range(1, skat.MOST_MATADORS + 1)]  # clubs
    grand = _redraw(alice_client, table, {"contract": "grand", "matadors": "1", "dealer": "0"})
    assert offered_choices(grand, "matadors") == ["1", "2", "3", "4"]
    taps = {"contract": "grand", "matadors": "5", "declarer_points": "61", "declarer": "Ana", "dealer": "0"}
    for htmx in (False, True):
        response = _create(alice_client, table, taps, htmx=htmx)
        html = response.content.decode()
        assert response.status_code == (200 if htmx else 400)
        assert errors_beside(html, "matadors") == "Grand counts 1 to 4 matadors (with or without); not 5"
        assert shown_errors(html, "matadors") == ["Grand counts 1 to 4 matadors (with or without); not 5"]
    assert not Hand.objects.exists()
    # A tap on Grand after a suit game with 5 takes the 5 back on the page: it is not posted.
    assert "matadors" not in page_post(page, {"matadors": "5", "contract": "grand"}, button=("declarer", "Ben"))


# -- (d) the server's conditions and the page agree ---------------------------------------------------------------


def _expected(layout: Any, drawn_id: str, field: str, correction: bool) -> When:
    """The condition the server means for a wrapper: a field is drawn as a field when asked, less when its buttons
    record a new hand; the record buttons when asked and recording; the dealer always."""
    when = layout.fields.get(field, ALWAYS)
    if drawn_id.startswith("record-by-"):
        return when & layout.record[field]
    if field in layout.record and not correction:
        return when & ~layout.record[field]
    return when


def _assert_agree(html: str, table: Any, correction: bool = False) -> dict[str, bool]:
    """Every wrapper, choice and the "Record hand" button is hidden exactly when the server's condition does not hold
    for the values the page holds (``asked_values``), and says that condition (``data-show``) for the page's
    script, which evaluated on the same values agrees. Returns each wrapper's id → shown."""
    layout = form_class(table.game)(table).layout()
    form = drawn_form(html)
    values = browser_values(html)
    server = asked_values(layout.fields, values)
    page = page_asked_values(form.wrappers, values)
    assert {name: server.get(name, "") for name in layout.fields} == {
        name: page.get(name, "") for name in layout.fields
    }
    drawn_ids = [drawn.id for drawn in form.wrappers]
    assert len(drawn_ids) == len(set(drawn_ids))
    assert {drawn.field for drawn in form.wrappers if not drawn.record} == {*layout.fields, "dealer"}  # all drawn
    bar = {drawn.field for drawn in form.wrappers if drawn.record}
    assert bar == (set() if correction else set(layout.record))
    for drawn in form.wrappers:
        when = _expected(layout, drawn.id, drawn.field, correction)
        assert json.loads(drawn.show) == when.as_json(), drawn.id
        assert drawn.hidden is not when.holds(server), drawn.id
        assert drawn.hidden is not holds(json.loads(drawn.show), page), drawn.id
        for control in drawn.controls:
            choice = layout.choices.get(drawn.field, {}).get(control.value)
            if choice is None:
                assert control.show == "" and control.offered, (drawn.id, control.value)
                continue
            assert json.loads(control.show) == choice.as_json(), (drawn.id, control.value)
            assert control.offered is choice.holds(server), (drawn.id, control.value)
    recording = [layout.fields[name] & when for name, when in layout.record.items()]
    plain = ALWAYS if correction or not recording else ~AnyOf(tuple(recording))
    assert form.record_hand is not None
    assert json.loads(str(form.record_hand["data-show"])) == plain.as_json()
    assert ("hidden" in form.record_hand) is not plain.holds(server)
    # At most one way to record is shown, and one always is.
    assert len(record_buttons(html)) + ("hidden" not in form.record_hand) == 1
    return {drawn.id: not drawn.hidden for drawn in form.wrappers}


MARIAS_STATES = [
    {"contract": "betl", "ending": "played"},
    {"contract": "hra", "ending": "played", "marriages_declarer_20": "1"},
    {"contract": "hra", "ending": "played", "marriages_defenders_40": "on"},
    {"contract": "sedma", "ending": "played"},
    {"contract": "stosedm", "ending": "played"},
    {"contract": "stovka", "ending": "conceded_declarer"},
    {"contract": "hra", "ending": "renonc", "renonc_kind": "other"},
    {"contract": "durch", "ending": "renonc", "renonc_kind": "talon", "renonc_played_out": "on"},
    {"contract": "hra", "ending": "laid"},
]
SKAT_STATES = [
    {"contract": "null"},
    {"contract": "grand", "matadors": "2"},
    {"contract": "passed"},
    {"contract": "ramsch"},
    {"contract": "ramsch", "dealer": "2"},
    {"contract": "spades", "dealer": "3"},
]
SNAPSER_STATES = [
    {"announcement": "za12"},
    {"announcement": "durch", "winner": "defenders"},
    {"announcement": "nehram"},
    {"announcement": "hram", "result": "za_6"},
]
GAMES = [
    ("marias", ["Ana", "Ben", "Cyril", "Dana"], {}, MARIAS_STATES),
    ("skat", ["Ana", "Ben", "Cyril"], {"preset": "pub"}, SKAT_STATES),
    ("skat", ["Ana", "Ben", "Cyril", "Dora"], {"preset": "pub"}, SKAT_STATES),
    ("snapser", ["Ana", "Ben", "Cyril"], {}, SNAPSER_STATES),
    ("snapser", ["Ana", "Ben", "Cyril", "Dana"], {}, SNAPSER_STATES),
]


@pytest.mark.parametrize(("game", "players", "ruleset"), [game[:3] for game in GAMES])
def test_the_table_page_hides_exactly_what_the_servers_conditions_do_not_ask(
    alice_client, evening, game, players, ruleset
):
    """The form as the table page first draws it: a new table, the first seat deals."""
    table = factories.make_table(evening, game, players, **ruleset)
    _assert_agree(alice_client.get(table.get_absolute_url()).content.decode(), table)


@pytest.mark.parametrize(("game", "players", "ruleset", "states"), GAMES)
def test_a_redraw_hides_exactly_what_the_servers_conditions_do_not_ask(
    alice_client, evening, game, players, ruleset, states
):
    """The form drawn again for other values (the no-JavaScript "Update", a refused hand drawn as posted)."""
    table = factories.make_table(evening, game, players, **ruleset)
    for state in states:
        state = {"dealer": "1"} | state
        if int(state["dealer"]) < len(players):
            _assert_agree(_redraw(alice_client, table, state), table)


@pytest.mark.parametrize(("game", "players", "ruleset", "states"), GAMES)
def test_taps_on_the_form_drawn_once_show_what_the_server_draws_for_them(
    alice_client, evening, game, players, ruleset, states
):
    """The page evaluates the conditions of the form drawn once at each tap; the server, asked for the same values,
    draws the same fields shown and hidden, and reads the same fields into the hand."""
    table = factories.make_table(evening, game, players, **ruleset)
    page = alice_client.get(table.get_absolute_url()).content.decode()
    for state in states:
        if int(state.get("dealer", "0")) >= len(players):
            continue
        shows = page_shows(page, state)
        posted = page_post_values(page, state)
        assert shows == _assert_agree(_redraw(alice_client, table, posted), table), state
        # The fields the server reads into the hand from that post are those the page shows, and the one that
        # records it is the one whose buttons the page shows.
        form = form_class(game)(table, posted)
        shown = {drawn_id.removeprefix("field-").removeprefix("record-by-") for drawn_id, on in shows.items() if on}
        assert {*form.shown_names(), "dealer"} == shown, state
        recording = [drawn_id.removeprefix("record-by-") for drawn_id, on in shows.items() if on and "by-" in drawn_id]
        assert recording == ([form.record_name()] if form.record_name() else []), state


def page_post_values(page: str, taps: dict[str, str]) -> dict[str, str]:
    """What the page would post after the taps, without a record button (only the values, for a redraw)."""
    form = drawn_form(page)
    values = page_asked_values(form.wrappers, browser_values(page) | taps)
    shown = {drawn.field for drawn in form.wrappers if holds(json.loads(drawn.show), values)}
    return {name: value for name, value in values.items() if name in shown and value != ""}


# A sedma entered as won or lost (its one record field), a Grand (its declarer), a hrám s vodou (its category).
SEDMA = {"declarer": "Ana", "contract": "sedma", "trump": "bells", "partner": "Cyril", "won": True}
CORRECTED = [
    ("marias", SEDMA | {"seven": {"side": "declarer", "won": False}}, "sedma_outcome"),
    ("skat", None, "declarer"),
    ("snapser", None, "result"),
]


@pytest.mark.parametrize(("game", "hand", "record"), CORRECTED)
def test_a_correction_draws_the_record_field_as_a_field_and_agrees_too(alice_client, evening, game, hand, record):
    table = factories.make_table(evening, game)
    (stored,) = factories.record(table, hand)
    html = alice_client.get(reverse("ledger:hand_edit", args=[stored.pk])).content.decode()
    shows = _assert_agree(html, table, correction=True)
    assert shows[f"field-{record}"] and record in asked_fields(html)  # the record field, shown as a field
    assert record_buttons(html) == {}


def test_the_marias_form_lists_every_field_of_every_ending(evening):
    """The ending's values, and the renonc's kinds in the engine's words with their fee at this table."""
    table = factories.make_table(evening, "marias")
    form = form_class("marias")(table)
    assert [value for value, _label in form.fields["ending"].choices] == [
        "played",
        "renonc",
        "conceded_defenders",
        "conceded_declarer",
        "laid",
    ]
    assert [value for value, _label in form.fields["renonc_kind"].choices] == [
        "other",
        *(kind for kind in marias.RENONC_KINDS if kind != "other"),
    ]
    assert form.initial["ending"] == "played" and form.initial["renonc_kind"] == "other"
