"""notify() through the loopback push service: what arrives is encrypted for the browser and signed with the
server's VAPID key, sent after the caller's commit, and what the push service answers is written down."""

from __future__ import annotations

import json
import logging
import queue

import pytest
from django.db import transaction

from ledger.devices import push, services
from ledger.devices.models import PushSubscription
from tests import factories
from tests.ledger.devices.conftest import SUBJECT, Phone
from tests.ledger.devices.push_service import FakeBrowser, vapid_claims

pytestmark = pytest.mark.django_db(transaction=True)  # the pool's threads read what the test committed

HAND = {"title": "Hand #9 needs your OK", "body": "Ana played Hra: +0.40 each", "url": "/seat/12/", "tag": "hand-41"}


def subscribe(browser: FakeBrowser, device: str, user: object = None, agent: str = "") -> PushSubscription:
    stored, _ = services.push_subscribe(device=device, user=user, subscription=browser.subscription(), user_agent=agent)
    return stored


def test_a_notification_arrives_encrypted_for_the_browser_and_signed(vapid, push_service, fake_browser, phone):
    subscription = subscribe(fake_browser, phone.hash)

    with transaction.atomic():
        queued = push.notify(devices=[phone.hash], **HAND)
        assert queued == 1
        assert push_service.received == []  # not before the commit
    push.wait_for_sends()

    [request] = push_service.to("phone")
    assert fake_browser.read(request) == HAND
    claims = vapid_claims(request, vapid)
    assert (claims["aud"], claims["sub"]) == (push_service.origin, SUBJECT)
    assert request.headers["ttl"] == str(push.TTL)
    assert request.headers["urgency"] == "high"
    assert request.headers["topic"] == "hand-41"
    subscription.refresh_from_db()
    assert subscription.last_sent_at is not None
    assert (subscription.last_error, subscription.active) == ("", True)


def test_nothing_is_sent_for_work_rolled_back(vapid, push_service, fake_browser, phone):
    subscribe(fake_browser, phone.hash)

    with pytest.raises(ZeroDivisionError), transaction.atomic():
        push.notify(devices=[phone.hash], **HAND)
        1 / 0  # noqa: B018 - the caller fails after asking
    push.wait_for_sends()

    assert push_service.received == []


def test_a_user_with_two_phones_gets_both(vapid, push_service, alice):
    pocket, tablet = FakeBrowser(push_service.endpoint("pocket")), FakeBrowser(push_service.endpoint("tablet"))
    subscribe(pocket, Phone().hash, user=alice)
    subscribe(tablet, Phone().hash, user=alice)
    stranger = FakeBrowser(push_service.endpoint("stranger"))
    subscribe(stranger, Phone().hash, user=factories.make_user("charlie"))

    assert push.notify(users=[alice.pk], **HAND) == 2
    push.wait_for_sends()

    assert pocket.read(push_service.to("pocket")[0]) == HAND
    assert tablet.read(push_service.to("tablet")[0]) == HAND
    assert push_service.to("stranger") == []


def test_a_phone_named_and_its_account_named_gets_one_notification(vapid, push_service, fake_browser, phone, alice):
    subscribe(fake_browser, phone.hash, user=alice)

    assert push.notify(devices=[phone.hash], users=[alice.pk], **HAND) == 1
    push.wait_for_sends()

    assert len(push_service.to("phone")) == 1


@pytest.mark.parametrize("status", [404, 410])
def test_a_subscription_the_push_service_forgot_is_switched_off(vapid, push_service, fake_browser, phone, status):
    subscription = subscribe(fake_browser, phone.hash)
    push_service.answer("phone", status)

    push.notify(devices=[phone.hash], **HAND)
    push.wait_for_sends()

    subscription.refresh_from_db()
    assert subscription.active is False
    assert subscription.last_error.startswith(f"{status}:")
    assert push.notify(devices=[phone.hash], **HAND) == 0  # never tried again
    push.wait_for_sends()
    assert len(push_service.to("phone")) == 1


def test_another_refusal_is_written_down_and_the_subscription_kept(vapid, push_service, fake_browser, phone, caplog):
    subscription = subscribe(fake_browser, phone.hash)
    push_service.answer("phone", 429)

    with caplog.at_level(logging.WARNING, logger="ledger.devices.push"):
        assert push.notify(devices=[phone.hash], **HAND) == 1  # the caller hears nothing of the failure
        push.wait_for_sends()

    subscription.refresh_from_db()
    assert (subscription.active, subscription.last_sent_at) == (True, None)
    assert "429" in subscription.last_error
    assert [record.levelname for record in caplog.records] == ["WARNING"]


def test_a_push_service_that_does_not_answer_is_written_down(vapid, push_service, phone, caplog):
    closed = FakeBrowser("http://127.0.0.1:9/push/nobody")  # the discard port: nothing listens
    subscription = subscribe(closed, phone.hash)

    push.notify(devices=[phone.hash], **HAND)
    push.wait_for_sends()

    subscription.refresh_from_db()
    assert subscription.active is True
    assert "ConnectionError" in subscription.last_error


def test_a_phone_switched_off_gets_nothing(vapid, push_service, fake_browser, phone):
    services.push_switch_off(subscription=subscribe(fake_browser, phone.hash))

    assert push.notify(devices=[phone.hash], **HAND) == 0
    push.wait_for_sends()

    assert push_service.received == []


def test_without_vapid_keys_nothing_is_asked_or_sent(
    settings, push_service, fake_browser, phone, django_assert_num_queries
):
    settings.WEBPUSH_ALLOW_LOOPBACK = True
    subscribe(fake_browser, phone.hash)
    settings.WEBPUSH_VAPID_PUBLIC_KEY = settings.WEBPUSH_VAPID_PRIVATE_KEY = ""

    with django_assert_num_queries(0):
        assert push.notify(devices=[phone.hash], **HAND) == 0
    push.wait_for_sends()

    assert push_service.received == []


def test_nobody_named_or_nobody_subscribed_is_zero(vapid, push_service, phone, django_assert_num_queries):
    with django_assert_num_queries(0):
        assert push.notify(**HAND) == 0
    with django_assert_num_queries(1):
        assert push.notify(devices=[phone.hash], users=[7], **HAND) == 0
    push.wait_for_sends()

    assert push_service.received == []


def test_the_message_is_the_json_the_service_worker_reads():
    message = push.Message(title="Večer je uzavřen", body="Platíte Otovi 45 Kč", url="/evenings/3/", tag="close-3")

    assert json.loads(message.payload()) == {
        "title": "Večer je uzavřen",
        "body": "Platíte Otovi 45 Kč",
        "url": "/evenings/3/",
        "tag": "close-3",
    }


def test_past_the_bound_of_waiting_sends_more_are_dropped_and_logged(vapid, monkeypatch, caplog):
    push._start_workers()  # the pool's threads take from the real queue, not from the full one below
    full: queue.Queue = queue.Queue(maxsize=1)
    monkeypatch.setattr(push, "_sends", full)
    targets = [push._Target(number, f"https://push.example.org/{number}", "key", "auth") for number in (1, 2, 3)]

    with caplog.at_level(logging.WARNING, logger="ledger.devices.push"):
        push._queue(targets, push.Message(**HAND))

    assert [target.subscription_id for target, _ in full.queue] == [1]
    assert [record.getMessage() for record in caplog.records] == [
        f"Web Push: {push.MAX_WAITING} sends waiting; subscription 2 skipped",
        f"Web Push: {push.MAX_WAITING} sends waiting; subscription 3 skipped",
    ]
