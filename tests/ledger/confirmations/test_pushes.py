"""After the commit the phones hear of it: the evening's live line redraws them, Web Push asks the players whose OK
is needed and tells the scorekeepers of a dispute."""

from __future__ import annotations

import pytest

from ledger import hooks
from ledger.confirmations import services
from tests import factories
from tests.ledger.confirmations.support import asking_table, player, seat_phone


@pytest.fixture
def heard(monkeypatch):
    """What was published on the live line and sent by Web Push."""
    told: dict[str, list] = {"published": [], "pushed": []}
    monkeypatch.setattr("ledger.live.fanout.publish", lambda topic, data: told["published"].append((topic, data)))

    def notify(**message):
        told["pushed"].append(message)
        return 1

    monkeypatch.setattr("ledger.devices.push.notify", notify)
    return told


@pytest.fixture
def table(alice):
    return asking_table(factories.make_evening(alice), "skat", "opponent")


def _stored(hand, change="recorded"):
    return hooks.HandStored(
        hand_id=hand.pk,
        table_id=hand.table_id,
        evening_id=hand.table.evening_id,
        number=hand.number,
        version=hand.version,
        change=change,
        by_id=hand.changed_by_id,
    )


def test_a_recorded_hand_asks_the_phones_of_the_players_whose_ok_it_needs(table, heard):
    ben, ana = seat_phone(table, "Ben"), seat_phone(table, "Ana")
    hand = factories.record(table)[0]
    hooks.hand_stored.send(_stored(hand))
    assert heard["published"] == [
        (f"evening:{table.evening_id}", {"table": table.pk, "confirmations": {"hand": 1, "state": "awaiting"}})
    ]
    (pushed,) = heard["pushed"]
    assert pushed["devices"] == [ben.device]  # not the declarer's phone; Cyril holds no seat
    assert pushed["title"] == "Hand #1 needs your OK"
    assert pushed["url"] == f"/seat/{table.pk}/"
    assert ana.device not in pushed["devices"]


def test_a_hand_at_a_table_that_asks_nobody_is_not_pushed(alice, heard):
    plain = factories.make_table(factories.make_evening(alice), "skat")
    hooks.hand_stored.send(_stored(factories.record(plain)[0]))
    assert heard == {"published": [], "pushed": []}


def test_a_voided_hand_redraws_the_phones_and_asks_nobody(table, alice, heard):
    from ledger import services as books

    seat_phone(table, "Ben")
    voided = books.hand_void(hand=factories.record(table)[0], by=alice, version=1)
    hooks.hand_stored.send(_stored(voided, "voided"))
    assert [data["confirmations"]["state"] for _topic, data in heard["published"]] == [""]
    assert heard["pushed"] == []


def test_a_dispute_is_told_to_the_scorekeepers(table, alice, heard, django_capture_on_commit_callbacks):
    vera = factories.make_user("vera")
    table.evening.scorekeepers.add(vera)
    hand = factories.record(table)[0]
    with django_capture_on_commit_callbacks(execute=True):
        services.dispute(hand=hand, version=1, player=player(table, "Ben"), by=alice, reason="It was a null")
    (pushed,) = heard["pushed"]
    assert pushed["users"] == sorted([alice.pk, vera.pk])
    assert (pushed["title"], pushed["body"]) == ("Hand #1 was disputed by Ben", "It was a null")
    assert heard["published"][-1][1] == {"table": table.pk, "confirmations": {"hand": 1, "state": "disputed"}}


def test_an_ok_redraws_the_phones_and_pushes_nobody(table, alice, heard, django_capture_on_commit_callbacks):
    hand = factories.record(table)[0]
    with django_capture_on_commit_callbacks(execute=True):
        services.confirm(hand=hand, version=1, player=player(table, "Ben"), by=alice)
    assert heard["published"] == [
        (f"evening:{table.evening_id}", {"table": table.pk, "confirmations": {"hand": 1, "state": "ok"}})
    ]
    assert heard["pushed"] == []


def test_a_double_tap_pushes_once(table, alice, heard, django_capture_on_commit_callbacks):
    hand = factories.record(table)[0]
    with django_capture_on_commit_callbacks(execute=True):
        services.confirm(hand=hand, version=1, player=player(table, "Ben"), by=alice)
        services.confirm(hand=hand, version=1, player=player(table, "Ben"), by=alice)
    assert len(heard["published"]) == 1
