"""The devices page and API for the three personas: Alice (logged in, two phones), a phone without an account, and
Charlie (a stranger): nobody sees or switches off another's phone."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token

from ledger.devices import services
from ledger.devices.models import PushSubscription
from tests.ledger.devices.conftest import Phone
from tests.ledger.devices.push_service import FakeBrowser

LIST = reverse("devices:device_list")
HTMX = {"HX-Request": "true"}
ANDROID = "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36"
IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Version/17.5 Mobile Safari/604.1"
FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0"


def subscribe(device: str, name: str, agent: str, user: object = None) -> PushSubscription:
    browser = FakeBrowser(f"https://push.example.org/{name}")
    stored, _ = services.push_subscribe(device=device, user=user, subscription=browser.subscription(), user_agent=agent)
    return stored


def switch_off(subscription: PushSubscription) -> str:
    return reverse("devices:device_switch_off", args=[subscription.pk])


@pytest.fixture
def world(db, alice):
    alices_phone, alices_tablet, anonymous = Phone(), Phone(), Phone()
    return {
        "alices_phone": alices_phone,
        "pocket": subscribe(alices_phone.hash, "pocket", ANDROID, user=alice),
        "tablet": subscribe(alices_tablet.hash, "tablet", IPHONE, user=alice),
        "anonymous": anonymous,
        "kitchen": subscribe(anonymous.hash, "kitchen", FIREFOX),
    }


def listed(html: str) -> list[str]:
    """The phones the list shows (the messages name them too: not counted)."""
    labels = ("Chrome on Android", "Safari on iPhone", "Firefox on Linux")
    return [label for label in labels if f"<strong>{label}</strong>" in html]


def test_the_owner_sees_every_phone_of_her_account(world, alice_client):
    world["alices_phone"].hold(alice_client)

    page = alice_client.get(LIST).content.decode()

    assert listed(page) == ["Chrome on Android", "Safari on iPhone"]
    assert "Chrome on Android</strong> (this phone)" in page
    assert "Safari on iPhone</strong> (this phone)" not in page
    assert page.count(">Switch off<") == 2
    assert "<html" in page


def test_the_list_alone_for_htmx(world, alice_client):
    part = alice_client.get(LIST, headers=HTMX).content.decode()

    assert "<html" not in part and 'id="devices"' in part
    assert listed(part) == ["Chrome on Android", "Safari on iPhone"]


def test_a_phone_without_an_account_sees_its_own_only(world, client):
    world["anonymous"].hold(client)

    for page in (client.get(LIST).content.decode(), client.get(LIST, headers=HTMX).content.decode()):
        assert listed(page) == ["Firefox on Linux"]
    assert client.get(LIST)["Cache-Control"].startswith("max-age=0")


def test_a_stranger_sees_none_and_cannot_switch_others_off(world, client, charlie):
    client.force_login(charlie)
    Phone().hold(client)

    assert listed(client.get(LIST).content.decode()) == []
    assert "No device gets notifications." in client.get(LIST, headers=HTMX).content.decode()
    for name in ("pocket", "tablet", "kitchen"):
        assert client.post(switch_off(world[name])).status_code == 404
        assert client.post(switch_off(world[name]), headers=HTMX).status_code == 404
    assert PushSubscription.objects.filter(active=True).count() == 3


def test_a_phone_without_an_account_cannot_switch_the_accounts_phones_off(world, client):
    world["anonymous"].hold(client)

    assert client.post(switch_off(world["pocket"])).status_code == 404
    assert Client().post(switch_off(world["kitchen"])).status_code == 404  # no device id at all


def test_the_owner_switches_a_phone_off_and_again_hears_it_was_off(world, alice_client):
    url = switch_off(world["tablet"])

    first = alice_client.post(url, follow=True).content.decode()
    assert "Notifications switched off for Safari on iPhone." in first
    assert listed(first) == ["Chrome on Android"]

    again = alice_client.post(url, headers=HTMX).content.decode()
    assert "Notifications were already off for Safari on iPhone." in again
    assert "<html" not in again and listed(again) == ["Chrome on Android"]
    assert PushSubscription.objects.get(pk=world["tablet"].pk).active is False


def test_a_phone_without_an_account_switches_itself_off_with_htmx(world, client):
    world["anonymous"].hold(client)

    part = client.post(switch_off(world["kitchen"]), headers=HTMX).content.decode()

    assert "Notifications switched off for Firefox on Linux." in part
    assert "No device gets notifications." in part


def test_the_page_says_when_the_server_sends_nothing(world, alice_client, settings):
    assert "This server sends no notifications." in alice_client.get(LIST).content.decode()
    settings.WEBPUSH_VAPID_PUBLIC_KEY, settings.WEBPUSH_VAPID_PRIVATE_KEY = "BKEY", "private"
    page = alice_client.get(LIST).content.decode()
    assert "This server sends no notifications." not in page
    assert 'data-key="BKEY"' in page  # this phone's button


# --------------------------------------------------------------------------------------------------------------
# The API


def api(user) -> Client:
    return Client(headers={"Authorization": f"Token {Token.objects.create(user=user).key}"})


def test_the_api_lists_the_accounts_phones(world, alice):
    answer = api(alice).get(reverse("api:devices"))

    assert answer.status_code == 200
    rows = answer.json()
    assert [row["label"] for row in rows] == ["Safari on iPhone", "Chrome on Android"]  # newest first
    assert set(rows[0]) == {"id", "label", "created_at", "last_sent_at", "last_error"}
    assert "endpoint" not in answer.content.decode() and "push.example.org" not in answer.content.decode()


def test_the_api_switches_a_phone_off_idempotently(world, alice):
    client = api(alice)
    url = reverse("api:device", args=[world["pocket"].pk])

    assert client.delete(url).status_code == 204
    assert client.delete(url).status_code == 204
    assert [row["label"] for row in client.get(reverse("api:devices")).json()] == ["Safari on iPhone"]


def test_the_api_hides_other_accounts_phones(world, charlie):
    client = api(charlie)

    assert client.get(reverse("api:devices")).json() == []
    for name in ("pocket", "kitchen"):
        answer = client.delete(reverse("api:device", args=[world[name].pk]))
        assert (answer.status_code, answer.json()["field"]) == (404, None)
    assert PushSubscription.objects.filter(active=True).count() == 3


def test_the_api_needs_an_account(world):
    assert Client().get(reverse("api:devices")).status_code in {401, 403}


@pytest.mark.parametrize("phones", [2, 10])
def test_the_page_reads_the_same_queries_however_many_phones(
    db, alice, alice_client, django_assert_num_queries, phones
):
    for number in range(phones):
        subscribe(Phone().hash, f"phone-{number}", ANDROID, user=alice)
    alice_client.get(LIST)  # the session read once

    with django_assert_num_queries(3):  # the session, the user, the subscriptions
        page = alice_client.get(LIST).content.decode()

    assert page.count(">Switch off<") == phones
