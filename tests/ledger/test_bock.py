"""Skat pub rules: the ledger keeps the Bock queue and offers the pending factor for the next hand."""

from __future__ import annotations

from decimal import Decimal
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from ledger import selectors, services
from ledger.models import Hand
from tests import factories
from tests.ledger.form_support import asked_fields, record_buttons

LOST_60_60 = {"declarer": "Ana", "contract": "clubs", "matadors": 1, "declarer_points": 60}
PLAIN = {"declarer": "Ben", "contract": "clubs", "matadors": 1, "declarer_points": 70}


def _pending(table):
    counted = list(Hand.objects.filter(table=table, status="counted").order_by("number"))
    return selectors.bock_pending(table, counted)


def test_a_game_lost_60_60_starts_a_round_of_one_hand_per_seat(evening):
    table = factories.make_table(evening, "skat", preset="pub")
    factories.record(table, LOST_60_60)
    pending = []
    for _ in range(4):
        pending.append(_pending(table))
        services.hand_record(table=table, hand=PLAIN | {"bock": pending[-1]}, by=evening.owner)
    assert pending == [1, 1, 1, 0]
    hands = list(Hand.objects.filter(table=table).order_by("number"))
    # clubs with 1, game 2 × 12 = 24, doubled inside the Bock round: Ben +48 list points at 0.01 → +0.96 Ben
    assert [h.amounts["Ben"] for h in hands[1:]] == [Decimal("0.96")] * 3 + [Decimal("0.48")]


def test_a_voided_trigger_takes_its_round_back(evening):
    table = factories.make_table(evening, "skat", preset="pub")
    trigger = factories.record(table, LOST_60_60)[0]
    services.hand_void(hand=trigger, by=evening.owner)
    assert _pending(table) == 0


def test_the_table_page_offers_the_pending_bock(alice_client, evening):
    table = factories.make_table(evening, "skat", preset="pub")
    factories.record(table, LOST_60_60)
    html = alice_client.get(table.get_absolute_url()).content.decode()
    assert 'name="bock" value="1"' in html


def test_the_ledger_gives_a_hand_without_bock_its_pending_factor(evening):
    table = factories.make_table(evening, "skat", preset="pub")
    factories.record(table, LOST_60_60)
    hand = services.hand_record(table=table, hand=PLAIN, by=evening.owner)  # as an API client might send it
    assert hand.document["bock"] == 1
    assert hand.amounts["Ben"] == Decimal("0.96")


def test_a_form_drawn_before_the_trigger_is_refused_not_priced_single(evening):
    table = factories.make_table(evening, "skat", preset="pub")
    factories.record(table, LOST_60_60)
    with pytest.raises(services.LedgerError) as caught:
        services.hand_record(table=table, hand=PLAIN | {"bock": 0}, by=evening.owner)
    assert caught.value.field == "bock"
    assert "1 Bock rounds are pending" in caught.value.message
    assert Hand.objects.filter(table=table).count() == 1


# A Grand Hand won, worth 72: it fires two triggers (Grand Hand won, game value ≥ 72).
GRAND_HAND_WON = {"declarer": "Ana", "contract": "grand", "matadors": 1, "declarer_points": 70, "hand": True}


def test_a_hand_that_fires_two_triggers_starts_one_round(evening):
    table = factories.make_table(evening, "skat", preset="pub")
    trigger = factories.record(table, GRAND_HAND_WON)[0]
    assert trigger.result["bock_rounds"] == 1
    pending = []
    for _ in range(4):
        pending.append(_pending(table))
        factories.record(table, PLAIN)
    assert pending == [1, 1, 1, 0]


def test_with_bock_per_trigger_each_trigger_starts_a_round(evening):
    table = factories.make_table(evening, "skat", preset="pub", bock_per_trigger=True)
    factories.record(table, GRAND_HAND_WON)
    pending = []
    for _ in range(4):
        pending.append(_pending(table))
        factories.record(table, PLAIN)
    assert pending == [2, 2, 2, 0]
    hands = list(Hand.objects.filter(table=table).order_by("number"))
    # clubs with 1 (24) inside two rounds: ×4, Ben +96 list points at 0.01 → +1.92
    assert [h.amounts["Ben"] for h in hands[1:]] == [Decimal("1.92")] * 3 + [Decimal("0.48")]


class _Where(HTMLParser):
    """For each input, whether it is inside a closed ``<details>`` (hidden until tapped open)."""

    def __init__(self) -> None:
        super().__init__()
        self.details: list[bool] = []  # open or not, innermost last
        self.hidden: dict[str, bool] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        if tag == "details":
            self.details.append("open" in names)
        elif tag == "input" and names.get("name"):
            self.hidden[str(names["name"])] = not all(self.details)

    def handle_endtag(self, tag: str) -> None:
        if tag == "details":
            self.details.pop()


def _hidden(html: str) -> dict[str, bool]:
    where = _Where()
    where.feed(html.split('id="hand-form"', 1)[1].split("</form>", 1)[0])
    return where.hidden


def test_a_pending_bock_is_on_the_screen_above_the_record_buttons(alice_client, evening):
    """The declarer's button records a hand the Bock doubles: the Bock is not hidden in a closed "More"."""
    table = factories.make_table(evening, "skat", preset="pub")
    html = alice_client.get(table.get_absolute_url()).content.decode()
    assert _hidden(html)["bock"] is True  # nothing pending: out of the way under "More"
    assert "Each pending Bock round doubles this hand." not in html
    factories.record(table, LOST_60_60)
    redraw = reverse("ledger:hand_form", args=[table.pk])
    for url, query in [
        (table.get_absolute_url(), {}),
        (redraw, {"contract": "null", "bock": "1", "dealer": "1"}),  # the game changed: htmx posts the form back
    ]:
        html = alice_client.get(url, query, headers={"HX-Request": "true"} if query else {}).content.decode()
        assert 'name="bock" value="1"' in html
        assert _hidden(html)["bock"] is False
        assert "bock" in asked_fields(html) and "declarer" in record_buttons(html)
        assert html.index('id="field-bock"') < html.index('id="record-by-declarer"')  # above the buttons
        assert "Each pending Bock round doubles this hand." in html
    bock_0 = alice_client.get(redraw, {"contract": "clubs", "bock": "0", "dealer": "1"}, headers={"HX-Request": "true"})
    assert _hidden(bock_0.content.decode())["bock"] is True  # set to 0 by hand: back under "More"
    # The next hand (Ben declares clubs with 1, 70 points) is doubled: +0.96, the form's 1 posted back.
    response = alice_client.post(
        reverse("ledger:hand_create", args=[table.pk]),
        {"contract": "clubs", "matadors": "1", "declarer_points": "70", "bock": "1", "declarer": "Ben", "dealer": "1"},
    )
    assert response.status_code == 302
    assert Hand.objects.get(table=table, number=2).amounts["Ben"] == Decimal("0.96")
