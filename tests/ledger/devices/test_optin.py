"""The opt-in's endpoints (what static/js/push.js posts) and the button on the pages that include it."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ledger.accounts import services as accounts
from ledger.devices.models import PushSubscription
from ledger.devices.phone import COOKIE, device_hash
from tests import factories
from tests.ledger.devices.push_service import FakeBrowser

SUBSCRIBE = reverse("devices:push_subscribe")
UNSUBSCRIBE = reverse("devices:push_unsubscribe")
STATE = reverse("devices:push_state")
ANDROID = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36"
)


def post_json(client: Client, url: str, body: object, **headers: str):
    return client.post(url, json.dumps(body), content_type="application/json", headers=headers)


@pytest.fixture
def endpoint_browser():
    return FakeBrowser("https://fcm.googleapis.com/fcm/send/abc123")


def test_a_phone_without_an_account_opts_in_and_gets_a_device_id(db, vapid, client, endpoint_browser):
    answer = post_json(client, SUBSCRIBE, endpoint_browser.subscription(), **{"User-Agent": ANDROID})

    assert answer.status_code == 201
    assert answer.json() == {"on": True, "label": "Chrome on Android"}
    device = answer.cookies[COOKIE]
    assert device["httponly"] and device["samesite"] == "Lax"
    stored = PushSubscription.objects.get()
    assert (stored.device, stored.user, stored.endpoint, stored.active) == (
        device_hash(device.value),
        None,
        endpoint_browser.endpoint,
        True,
    )
    assert stored.p256dh == endpoint_browser.subscription()["keys"]["p256dh"]
    assert client.get(STATE).json() == {"on": True, "endpoint": endpoint_browser.endpoint}


def test_a_second_tap_finds_the_same_subscription(db, vapid, client, phone, endpoint_browser):
    phone.hold(client)
    first = post_json(client, SUBSCRIBE, endpoint_browser.subscription())
    again = post_json(client, SUBSCRIBE, endpoint_browser.subscription())

    assert (first.status_code, again.status_code) == (201, 200)
    assert PushSubscription.objects.count() == 1


def test_logged_in_the_subscription_is_the_accounts_too(db, vapid, alice_client, alice, phone, endpoint_browser):
    phone.hold(alice_client)
    post_json(alice_client, SUBSCRIBE, endpoint_browser.subscription())

    assert PushSubscription.objects.get().user == alice


def test_a_new_subscription_of_the_phone_replaces_its_old(db, vapid, client, phone):
    phone.hold(client)
    post_json(client, SUBSCRIBE, FakeBrowser("https://fcm.googleapis.com/fcm/send/old").subscription())
    post_json(client, SUBSCRIBE, FakeBrowser("https://fcm.googleapis.com/fcm/send/new").subscription())

    assert dict(PushSubscription.objects.values_list("endpoint", "active")) == {
        "https://fcm.googleapis.com/fcm/send/old": False,
        "https://fcm.googleapis.com/fcm/send/new": True,
    }


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"endpoint": "http://fcm.googleapis.com/fcm/send/x"}, "endpoint"),
        ({"endpoint": "https://169.254.169.254/latest/meta-data"}, "endpoint"),
        ({"endpoint": "https://localhost/push"}, "endpoint"),
        ({"endpoint": None}, "endpoint"),
        ({"keys": {"p256dh": "AAAA", "auth": "AAAAAAAAAAAAAAAAAAAAAA"}}, "keys.p256dh"),
        ({"keys": None}, "keys.p256dh"),
        ({"keys": "x"}, "keys.p256dh"),
        ("auth", "keys.auth"),
    ],
)
def test_a_subscription_that_is_not_one_is_refused_naming_the_field(
    db, vapid, settings, client, endpoint_browser, change, field
):
    settings.WEBPUSH_ALLOW_LOOPBACK = False  # as in production
    body = endpoint_browser.subscription()
    if change == "auth":
        body["keys"]["auth"] = "not base64!"
    else:
        body.update(change)

    answer = post_json(client, SUBSCRIBE, body)

    assert answer.status_code == 400
    assert answer.json()["field"] == field
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize("body", [b"not json", b"[1, 2]", b""])
def test_a_body_that_is_not_a_json_object_is_refused(db, vapid, client, body):
    answer = client.post(SUBSCRIBE, body, content_type="application/json")

    assert (answer.status_code, answer.json()["field"]) == (400, "body")


def test_subscribing_needs_the_csrf_token(db, vapid, endpoint_browser):
    client = Client(enforce_csrf_checks=True)

    assert post_json(client, SUBSCRIBE, endpoint_browser.subscription()).status_code == 403
    assert not PushSubscription.objects.exists()


def test_with_push_off_there_is_nothing_to_subscribe_to(db, client, endpoint_browser):
    assert post_json(client, SUBSCRIBE, endpoint_browser.subscription()).status_code == 404
    assert client.get(STATE).json() == {"on": False, "endpoint": None}


def test_unsubscribing_switches_this_phone_off_and_again_answers_the_same(db, vapid, client, phone, endpoint_browser):
    phone.hold(client)
    post_json(client, SUBSCRIBE, endpoint_browser.subscription())

    for _ in range(2):
        answer = post_json(client, UNSUBSCRIBE, {"endpoint": endpoint_browser.endpoint})
        assert (answer.status_code, answer.json()) == (200, {"on": False})
    assert PushSubscription.objects.get().active is False
    assert client.get(STATE).json() == {"on": False, "endpoint": None}


def test_another_phone_cannot_switch_a_subscription_off_by_its_endpoint(db, vapid, client, phone, endpoint_browser):
    phone.hold(client)
    post_json(client, SUBSCRIBE, endpoint_browser.subscription())

    stranger = Client()
    answer = post_json(stranger, UNSUBSCRIBE, {"endpoint": endpoint_browser.endpoint})

    assert answer.json() == {"on": False}  # says nothing of whose it is
    assert PushSubscription.objects.get().active is True


def test_a_deleted_account_is_heard_by_no_phone(db, vapid, alice_client, alice, phone, endpoint_browser):
    phone.hold(alice_client)
    post_json(alice_client, SUBSCRIBE, endpoint_browser.subscription())

    accounts.account_delete(user=alice)

    stored = PushSubscription.objects.get()
    assert (stored.user, stored.active) == (None, False)


# --------------------------------------------------------------------------------------------------------------
# The button on pages


def test_the_table_page_shows_the_button_without_a_query_more(
    db, settings, alice_client, alice, django_assert_num_queries
):
    table = factories.make_table(factories.make_evening(alice))
    url = reverse("ledger:table_detail", args=[table.pk])
    alice_client.get(url)  # the session and caches warm

    with CaptureQueriesContext(connection) as off:
        without = alice_client.get(url).content.decode()
    settings.WEBPUSH_VAPID_PUBLIC_KEY, settings.WEBPUSH_VAPID_PRIVATE_KEY = "BPUBLIC", "private"
    with django_assert_num_queries(len(off.captured_queries)):
        page = alice_client.get(url).content.decode()

    assert "data-push-optin" not in without and "js/push.js" not in without
    assert 'data-key="BPUBLIC"' in page
    assert f'data-subscribe="{SUBSCRIBE}"' in page
    assert 'src="/static/js/push.js"' in page
