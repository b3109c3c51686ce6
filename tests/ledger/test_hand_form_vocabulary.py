"""The hand forms offer what the engine allows and say it in the engine's words.

The counts come from the game modules (``skat.MOST_MATADORS``, ``marias.MOST_TWENTIES``, ``snapser.raise_name``),
so a form cannot offer a value the engine refuses, nor call a raise differently from the hand's explanation; who
sits out at a four-seat Skat table is the game's ``next_hand``, not a check of the form's own.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

import rules
from ledger.games import form_class
from ledger.models import Hand
from rules import marias, skat, snapser
from tests import factories
from tests.ledger.form_support import asked_fields, hidden_fields, offered_choices, record_buttons

HX = {"HX-Request": "true"}
SKAT_FOUR = ["Ana", "Ben", "Cyril", "Dora"]


def _segment_labels(html: str, field: str) -> dict[str, str]:
    """{value: label} of the segment buttons of one field, as the page shows them."""
    found = re.findall(rf'name="{field}" value="([^"]*)"[^>]*><span>([^<]*)</span>', html)
    return dict(found)


def test_the_skat_form_offers_the_matadors_the_engine_counts(evening):
    form = form_class("skat")(factories.make_table(evening, "skat"))
    assert [value for value, _label in form.fields["matadors"].choices] == list(range(1, 12))
    assert skat.MOST_MATADORS == 11
    hand = {"declarer": "Ana", "contract": "clubs", "declarer_points": 61}
    players = ["Ana", "Ben", "Cyril"]
    assert rules.score({"game": "skat", "players": players, "hand": hand | {"matadors": 11}}).value
    with pytest.raises(rules.RulesError) as refused:
        rules.score({"game": "skat", "players": players, "hand": hand | {"matadors": 12}})
    assert refused.value.field == "matadors"


def test_the_marias_form_offers_zero_to_three_hlasky_of_20_as_the_engine_allows(evening):
    form = form_class("marias")(factories.make_table(evening, "marias", ["Ana", "Ben", "Cyril", "Dora"]))
    for side in ("declarer", "defenders"):
        assert [value for value, _label in form.fields[f"marriages_{side}_20"].choices] == [0, 1, 2, 3]
    hand = {"declarer": "Ana", "contract": "hra", "trump": "bells", "points": 60, "partner": "Ben"}
    players = ["Ana", "Ben", "Cyril", "Dora"]
    too_many = {"declarer": [20] * (marias.MOST_TWENTIES + 1)}
    with pytest.raises(rules.RulesError) as refused:
        rules.score({"game": "marias", "players": players, "hand": hand | {"marriages": too_many}})
    assert refused.value.field.startswith("marriages")


@pytest.mark.parametrize(
    ("language", "names"),
    [("en", ["kontra", "re", "tuti", "boty"]), ("de", ["Kontra", "Re", "Tutti", "Boty"])],
)
def test_the_snapser_raises_read_as_the_hands_explanation_says_them(alice_client, evening, language, names):
    table = factories.make_table(evening, "snapser")
    url = reverse("ledger:table_detail", args=[table.pk])
    html = alice_client.get(url, headers={"Accept-Language": language}).content.decode()
    assert _segment_labels(html, "raises") == {"0": "—", "1": names[0], "2": names[1], "3": names[2], "4": names[3]}
    with rules.i18n.override(language):
        assert [snapser.raise_name(level) for level in range(1, snapser.MAX_RAISES + 1)] == names


def test_at_a_four_seat_skat_table_the_dealer_sits_out_of_the_form_and_is_named_in_the_hand(alice_client, evening):
    table = factories.make_table(evening, "skat", SKAT_FOUR, ramsch=True)
    form = form_class("skat")(table, dealer=2)
    assert form.initial["declarer"] == "Dora"  # on Cyril's left: leads and bids first
    # Every seat is drawn (the dealer changes at a tap); the page offers the three who play: Cyril deals.
    html = alice_client.get(
        reverse("ledger:hand_form", args=[table.pk]), {"contract": "grand", "dealer": "2"}, headers=HX
    ).content.decode()
    assert record_buttons(html) == {"declarer": ["Ana", "Ben", "Dora"]}
    ramsch = alice_client.get(
        reverse("ledger:hand_form", args=[table.pk]), {"contract": "ramsch", "dealer": "2"}, headers=HX
    ).content.decode()
    assert [name for name in asked_fields(ramsch) if name.startswith("ramsch_points_")] == [
        "ramsch_points_Ana",
        "ramsch_points_Ben",
        "ramsch_points_Dora",
    ]
    assert "ramsch_points_Cyril" in hidden_fields(ramsch)
    for name in ("ramsch_loser", "durchmarsch"):
        assert offered_choices(ramsch, name) == ["", "Ana", "Ben", "Dora"]
    assert offered_choices(ramsch, "jungfrau") == ["Ana", "Ben", "Dora"]
    taps = {"declarer": "Dora", "contract": "grand", "matadors": "2", "declarer_points": "70", "dealer": "2"}
    response = alice_client.post(reverse("ledger:hand_create", args=[table.pk]), taps)
    assert response.status_code == 302
    stored = Hand.objects.get(table=table)
    assert stored.dealer == 2 and stored.document["dealer"] == "Cyril"
    # The correction form reads the dealer back from the hand.
    assert form_class("skat").from_document(table, stored.document)["dealer"] == 2


def test_at_a_three_seat_skat_table_everybody_plays_and_the_hand_names_no_dealer(alice_client, evening):
    table = factories.make_table(evening, "skat", ["Ana", "Ben", "Cyril"])
    form = form_class("skat")(table, dealer=2)
    assert [value for value, _label in form.fields["declarer"].choices] == ["Ana", "Ben", "Cyril"]
    taps = {"declarer": "Ana", "contract": "grand", "matadors": "2", "declarer_points": "70", "dealer": "2"}
    alice_client.post(reverse("ledger:hand_create", args=[table.pk]), taps)
    stored = Hand.objects.get(table=table)
    assert stored.dealer == 2 and "dealer" not in stored.document
