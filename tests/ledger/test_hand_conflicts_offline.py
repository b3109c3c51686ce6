"""A hand kept on a phone without a network names the hands the phone showed (``after``); synced later, it goes
through the same check: a hand another phone recorded meanwhile is answered with both versions for the queue, and
nothing is stored until the scorekeeper chooses. Its key still makes every retry the same hand."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from ledger import services
from ledger.models import Hand
from ledger.offline import pricing as offline
from tests import factories
from tests.ledger.offline.test_offline import HANDS, form_fields, offline_state, tapped

pytestmark = pytest.mark.django_db


@pytest.fixture
def marias(evening):
    return factories.make_table(evening, "marias")


def _queued(client, table, fields):
    return client.post(reverse("ledger:hand_queued", args=[table.pk]), fields)


def _page_fields(client, table, taps):
    return dict(tapped(form_fields(client.get(table.get_absolute_url()).content.decode()), taps))


def test_a_kept_hand_synced_after_another_phones_hand_is_a_conflict(alice_client, alice, marias):
    fields = _page_fields(alice_client, marias, HANDS["marias"][0])  # M2 won: Ana −0.40, Ben +0.40 …
    assert fields["after"] == "0"
    theirs = services.hand_record(table=marias, hand=factories.MARIAS_M2, by=alice, key="other-phone", after=0)
    answer = _queued(alice_client, marias, fields)
    assert answer.status_code == 200
    body = answer.json()
    assert body["stored"] is False
    assert body["conflict"]["number"] == theirs.number == 1
    assert body["conflict"]["message"] == "Hand #1 was just recorded by alice."
    assert body["errors"] == [body["conflict"]["message"]]  # a page from before conflicts: refused, with the reason
    panel = body["conflict"]["panel"]
    assert f'data-queue-agree="{fields["key"]}"' in panel
    assert f'data-queue-another="{fields["key"]}" data-after="1"' in panel
    assert "Mine is another hand: record it as #2" in panel and "Theirs is right: drop mine" in panel
    assert "<form" not in panel.split('<div class="actions no-print">')[1]  # the queue's buttons, no post
    assert Hand.objects.filter(table=marias).count() == 1
    stored = _queued(alice_client, marias, fields | {"after": "1"})  # "another hand", as offline.js sends it
    assert stored.status_code == 201 and stored.json()["number"] == 2
    assert stored.json()["amounts"] == {"Ana": "-0.40", "Ben": "0.40", "Cyril": "-0.40", "Dana": "0.40"}
    again = _queued(alice_client, marias, fields)  # the answer was lost: sent again with its first after
    assert again.status_code == 201 and again.json() == stored.json()
    assert Hand.objects.filter(table=marias).count() == 2


def test_the_worker_draws_the_next_form_after_the_kept_hands(alice_client, alice, marias):
    """The form the phone draws after two kept hands names the server's hands and the two; a refused kept hand's
    form keeps the count it was tapped on."""
    factories.record(marias)
    page = alice_client.get(marias.get_absolute_url()).content.decode()
    state, fields = offline_state(page), form_fields(page)
    assert dict(fields)["after"] == "1"
    first = {"key": "a" * 32, "fields": tapped(fields, HANDS["marias"][0] | {"key": "a" * 32}), "status": "waiting"}
    second = {
        "key": "b" * 32,
        "fields": tapped(fields, HANDS["marias"][1] | {"key": "b" * 32, "after": "2"}),
        "status": "waiting",
    }
    answer = json.loads(offline.dispatch(json.dumps({"call": "queue", "state": state, "queued": [first, second]})))
    assert dict(form_fields(answer["form"]))["after"] == "3"
    bad = {"key": "c" * 32, "fields": tapped(fields, {"won": "won", "key": "c" * 32}), "status": "waiting"}
    refused = json.loads(
        offline.dispatch(json.dumps({"call": "queue", "state": state, "queued": [bad], "tapped": bad["key"]}))
    )
    assert refused["refused"] and dict(form_fields(refused["form"]))["after"] == "1"
    redrawn = json.loads(offline.dispatch(json.dumps({"call": "redraw", "state": state, "fields": second["fields"]})))
    assert re.search(r'name="after" value="2"', redrawn["form"])


def test_kept_hands_one_after_another_are_no_conflict(alice_client, marias):
    """Two hands kept in a row (the second tapped after the first: after + 1) are stored as #1 and #2."""
    fields = _page_fields(alice_client, marias, HANDS["marias"][0])
    second = _page_fields(alice_client, marias, HANDS["marias"][1]) | {"key": "b" * 32, "after": "1"}
    assert _queued(alice_client, marias, fields).json()["number"] == 1
    assert _queued(alice_client, marias, second).json()["number"] == 2


def test_a_stranger_syncs_nothing(charlie_client, marias, alice):
    factories.record(marias)
    fields = {"trump": "hearts", "partner": "Dana", "won": "won", "declarer": "Ben", "contract": "hra", "after": "0"}
    assert _queued(charlie_client, marias, fields).status_code == 404
    assert Hand.objects.filter(table=marias).count() == 1
