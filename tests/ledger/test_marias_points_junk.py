"""Mariáš card points that are not a whole number: refused beside the field, never a server error, on Record (plain
and htmx), from the offline queue and on a redraw of the form."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ledger.models import Hand
from tests import factories
from tests.ledger.form_support import errors_beside, post_hand

HRA = {
    "declarer": "Ana",
    "contract": "hra",
    "trump": "bells",
    "partner": "Cyril",
    "marriages_declarer_20": "1",
    "marriages_defenders_20": "0",
    "ending": "played",
}
JUNK = ["abc", "1.5", "1e400", "-", " "]
# Without a hláška the points matter only when given: the form asked the posted value itself whether it was.
PLAIN = {name: value for name, value in HRA.items() if not name.startswith("marriages")}


@pytest.mark.parametrize("points", JUNK)
@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize("taps", [HRA, PLAIN], ids=["hlaska", "plain"])
def test_points_that_are_no_whole_number_are_refused_beside_the_field(alice_client, evening, points, htmx, taps):
    table = factories.make_table(evening, "marias")
    response = post_hand(alice_client, table, taps | {"points": points}, htmx=htmx)
    assert response.status_code in (200, 400)
    if points.strip():
        assert errors_beside(response.content.decode(), "points")
    assert not Hand.objects.filter(table=table).exists()


@pytest.mark.parametrize("points", JUNK)
def test_the_offline_queue_refuses_them_with_the_reason(alice_client, evening, points):
    table = factories.make_table(evening, "marias")
    response = alice_client.post(
        reverse("ledger:hand_queued", args=[table.pk]), PLAIN | {"points": points, "dealer": "0", "key": "k1"}
    )
    assert response.status_code == 200
    assert response.json()["stored"] is False
    assert not Hand.objects.filter(table=table).exists()


@pytest.mark.parametrize("points", JUNK)
@pytest.mark.parametrize("contract", ["hra", "stovka", "betl"])
def test_a_redraw_draws_the_form(alice_client, evening, points, contract):
    table = factories.make_table(evening, "marias")
    data = PLAIN | {"contract": contract, "points": points, "dealer": "0"}
    assert alice_client.get(reverse("ledger:hand_form", args=[table.pk]), data).status_code == 200
    response = alice_client.post(reverse("ledger:hand_create", args=[table.pk]), data | {"_refresh": "1"})
    assert response.status_code == 200
    assert not Hand.objects.filter(table=table).exists()
