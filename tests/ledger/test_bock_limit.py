"""The Bock queue stops at the engine's most Bocks: a table where triggers pile up keeps taking hands."""

from __future__ import annotations

from django.urls import reverse

import rules.skat
from ledger import selectors, services
from ledger.models import Hand
from tests import factories

# A Grand Hand won with Re given and worth 72 fires three triggers (Re, Grand Hand won, a big game): with one
# round per trigger, three of them in a row leave nine rounds pending at three seats.
RE_GRAND_HAND = {
    "declarer": "Ana",
    "contract": "grand",
    "matadors": 1,
    "declarer_points": 70,
    "hand": True,
    "kontra": 2,
}
PLAIN = {"declarer": "Ben", "contract": "clubs", "matadors": 1, "declarer_points": 70}


def _piled_up(evening):
    table = factories.make_table(evening, "skat", preset="pub", bock_per_trigger=True)
    for _ in range(3):
        services.hand_record(table=table, hand=dict(RE_GRAND_HAND), by=evening.owner)
    return table


def test_the_pending_bocks_stop_at_the_most_a_hand_takes(evening):
    table = _piled_up(evening)
    assert selectors.table_pending_bock(table) == rules.skat.MOST_BOCKS
    hand = services.hand_record(table=table, hand=dict(PLAIN), by=evening.owner)
    assert hand.document["bock"] == rules.skat.MOST_BOCKS


def test_the_form_records_the_next_hand_of_a_piled_up_table(alice_client, evening):
    table = _piled_up(evening)
    html = alice_client.get(table.get_absolute_url()).content.decode()
    assert f'name="bock" value="{rules.skat.MOST_BOCKS}"' in html
    taps = {name: str(value) for name, value in PLAIN.items()} | {"bock": str(rules.skat.MOST_BOCKS), "dealer": "0"}
    response = alice_client.post(reverse("ledger:hand_create", args=[table.pk]), taps)
    assert response.status_code == 302, response.content.decode()[-2000:]
    assert Hand.objects.filter(table=table).count() == 4
