"""Signing up with a passkey and a user name alone: the steps the server takes before and after the browser makes the
passkey (the browser's part is in tests/e2e/test_accounts.py, with Chromium's virtual authenticator)."""

from __future__ import annotations

import datetime
import json

import pytest
from allauth.mfa.models import Authenticator
from django.contrib.auth import get_user_model
from django.utils import timezone

from ledger.accounts.models import PasskeySignup
from tests import factories

START = "/accounts/signup/passkey/"
CREATE = "/accounts/signup/passkey/create/"


def test_the_name_step_makes_an_account_nobody_can_log_in_to_yet(client, db):
    page = client.get(START)
    assert page.status_code == 200 and "Sign up with a passkey" in page.content.decode()
    response = client.post(START, {"username": "Erika"})
    assert response["Location"] == CREATE
    erika = get_user_model().objects.get(username="erika")  # names are kept in lower case, as allauth keeps them
    assert not erika.is_active and not erika.has_usable_password()
    assert PasskeySignup.objects.filter(user=erika).exists()
    assert "_auth_user_id" not in client.session
    assert client.post("/accounts/login/", {"login": "erika", "password": ""}).status_code == 200
    assert "_auth_user_id" not in client.session


def test_the_passkey_step_asks_the_browser_for_a_resident_user_verified_passkey(client, db):
    client.post(START, {"username": "erika"})
    html = client.get(CREATE).content.decode()
    options = json.loads(html.split('<script id="js_data" type="application/json">', 1)[1].split("</script>", 1)[0])
    public_key = options["creation_options"]["publicKey"]
    assert public_key["user"]["name"] == "erika"
    assert public_key["rp"]["id"] == "testserver"
    assert public_key["authenticatorSelection"]["residentKey"] == "required"
    assert public_key["authenticatorSelection"]["userVerification"] == "required"
    assert "Make the passkey" in html


def test_a_forged_passkey_is_refused_and_the_account_stays_inactive(client, db):
    client.post(START, {"username": "erika"})
    client.get(CREATE)
    forged = {"id": "AAAA", "rawId": "AAAA", "type": "public-key", "response": {"clientDataJSON": "AAAA"}}
    response = client.post(CREATE, {"name": "mine", "credential": json.dumps(forged)})
    assert response.status_code == 400
    assert "The passkey could not be made." in response.content.decode()
    erika = get_user_model().objects.get(username="erika")
    assert not erika.is_active and not Authenticator.objects.filter(user=erika).exists()
    assert "_auth_user_id" not in client.session


def test_the_passkey_step_without_a_name_goes_back_to_the_name(client, db):
    assert client.get(CREATE)["Location"] == START


def test_a_taken_name_is_refused(client, alice):
    response = client.post(START, {"username": "ALICE"})
    assert response.status_code == 400
    assert "already" in response.content.decode()
    assert not PasskeySignup.objects.exists()


def test_a_name_left_half_way_is_free_again_after_an_hour(client, db):
    client.post(START, {"username": "erika"})
    other = type(client)()
    assert other.post(START, {"username": "erika"}).status_code == 400  # somebody is making its passkey now
    PasskeySignup.objects.update(started=timezone.now() - datetime.timedelta(hours=2))
    assert other.post(START, {"username": "erika"})["Location"] == CREATE
    assert get_user_model().objects.filter(username="erika").count() == 1
    assert client.get(CREATE)["Location"] == START  # the first browser's half-made account is gone


def test_an_old_inactive_account_that_is_no_passkey_sign_up_is_never_removed(client, alice):
    alice.is_active = False
    alice.save()
    factories.make_evening(alice)
    assert client.post(START, {"username": "alice"}).status_code == 400
    assert get_user_model().objects.filter(pk=alice.pk).exists()


def test_a_logged_in_user_is_sent_home(alice_client):
    assert alice_client.get(START)["Location"] == "/"
    assert alice_client.get(CREATE)["Location"] == START


def _passkey(user, name="Phone"):
    return Authenticator.objects.create(user=user, type=Authenticator.Type.WEBAUTHN, data={"name": name})


def test_the_only_passkey_of_an_account_without_a_password_is_not_removed(client, db):
    erika = get_user_model().objects.create_user(username="erika", password=None)
    passkey = _passkey(erika)
    client.force_login(erika)
    assert "Phone" in client.get("/accounts/").content.decode()
    response = client.post(f"/accounts/2fa/webauthn/keys/{passkey.pk}/remove/", follow=True)
    assert "This passkey is your only way to log in" in response.content.decode()
    assert Authenticator.objects.filter(pk=passkey.pk).exists()


@pytest.mark.parametrize("has", ["a password", "another passkey"])
def test_a_passkey_is_removable_when_there_is_another_way_in(client, db, has):
    erika = get_user_model().objects.create_user(
        username="erika", password=factories.PASSWORD if has == "a password" else None
    )
    passkey = _passkey(erika)
    if has == "another passkey":
        _passkey(erika, "Laptop")
    client.force_login(erika)
    response = client.post(f"/accounts/2fa/webauthn/keys/{passkey.pk}/remove/")
    # allauth's removal, which asks for the password or a passkey again first
    assert "/reauthenticate/?next=" in response["Location"]


def test_nobody_removes_anothers_passkey(charlie_client, alice):
    passkey = _passkey(alice)
    alice.set_unusable_password()
    alice.save()
    charlie_client.post(f"/accounts/2fa/webauthn/keys/{passkey.pk}/remove/")
    assert Authenticator.objects.filter(pk=passkey.pk).exists()


def test_choosing_another_name_halfway_leaves_no_account_under_the_first(client, db):
    client.post(START, {"username": "erika"})
    assert client.post(START, {"username": "erik"})["Location"] == CREATE
    assert list(get_user_model().objects.values_list("username", flat=True)) == ["erik"]
    assert PasskeySignup.objects.get().user.username == "erik"
