"""Signing up with a passkey and a user name alone: the steps the server takes before and after the browser makes the
passkey (the browser's part is in tests/e2e/test_accounts.py, with Chromium's virtual authenticator)."""

from __future__ import annotations

import datetime
import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from allauth.account.adapter import DefaultAccountAdapter
from allauth.mfa.models import Authenticator
from allauth.mfa.webauthn import views as webauthn_views
from allauth.mfa.webauthn.internal import flows as webauthn_flows
from django.contrib.auth import get_user_model
from django.db import connection
from django.http import HttpResponseRedirect
from django.test import Client
from django.utils import timezone

from ledger.accounts import views
from ledger.accounts.adapter import AccountAdapter
from ledger.accounts.models import PasskeySignup
from tests import factories

START = "/accounts/signup/passkey/"
CREATE = "/accounts/signup/passkey/create/"
SIGNUP = "/accounts/signup/"


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


def _left_half_way_two_hours_ago(client, username):
    client.post(START, {"username": username})
    PasskeySignup.objects.update(started=timezone.now() - datetime.timedelta(hours=2))
    return get_user_model().objects.get(username=username)


@pytest.mark.parametrize("used", ["logged_in", "passkey"])
def test_an_account_once_used_then_made_inactive_is_never_removed_as_a_sign_up(client, db, used):
    erika = _left_half_way_two_hours_ago(client, "erika")
    if used == "logged_in":
        get_user_model().objects.filter(pk=erika.pk).update(last_login=timezone.now())
    else:
        Authenticator.objects.create(user=erika, type=Authenticator.Type.WEBAUTHN, data={})
    assert type(client)().post(START, {"username": "erika"}).status_code == 400
    assert get_user_model().objects.filter(pk=erika.pk).exists()


def test_an_account_made_active_is_a_sign_up_no_more(client, db):
    erika = _left_half_way_two_hours_ago(client, "erika")
    erika.is_active = True  # an administrator's doing
    erika.save()
    assert not PasskeySignup.objects.exists()
    erika.is_active = False
    erika.save()
    assert type(client)().post(START, {"username": "erika"}).status_code == 400
    assert get_user_model().objects.filter(pk=erika.pk).exists()


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


# --------------------------------------------------------------------------------------------------------------
# allauth's sign-up rules hold for the passkey sign-up too


def test_passkey_starts_count_on_allauths_sign_up_limit(client, db, settings):
    settings.ACCOUNT_RATE_LIMITS = {"login": None, "login_failed": None, "signup": "2/m/ip"}
    assert client.post(SIGNUP, {"username": "dora"}).status_code == 200  # a password sign-up, not finished
    assert client.post(START, {"username": "erika"})["Location"] == CREATE
    refused = client.post(START, {"username": "otto"})
    assert refused.status_code == 429
    assert not get_user_model().objects.filter(username="otto").exists()


def test_no_passkey_sign_up_while_the_site_takes_none(client, db, monkeypatch):
    monkeypatch.setattr(AccountAdapter, "is_open_for_signup", lambda self, request: False)
    for response in [client.get(START), client.post(START, {"username": "erika"}), client.get(CREATE)]:
        assert "the sign up is currently closed" in response.content.decode()
    assert not get_user_model().objects.exists()


# --------------------------------------------------------------------------------------------------------------
# Names held by sign-ups left half-way are freed


def _half_made(*names, hours=2):
    for name in names:
        Client().post(START, {"username": name})
    PasskeySignup.objects.update(started=timezone.now() - datetime.timedelta(hours=hours))


def test_every_start_removes_every_sign_up_left_half_way_over_an_hour_ago(client, db):
    _half_made("erika", "otto")
    _half_made("paula", hours=0)
    assert client.post(START, {"username": "zoe"})["Location"] == CREATE
    assert set(get_user_model().objects.values_list("username", flat=True)) == {"paula", "zoe"}


def test_the_password_sign_up_takes_a_name_left_half_way_over_an_hour_ago(client, db):
    _half_made("erika")
    form = {"username": "erika", "password1": "a-new-and-long-passphrase", "password2": "a-new-and-long-passphrase"}
    assert client.post(SIGNUP, form).status_code == 302
    erika = get_user_model().objects.get(username="erika")
    assert erika.is_active and erika.has_usable_password()
    assert not PasskeySignup.objects.exists()


def test_the_password_sign_up_leaves_a_passkey_sign_up_under_way_alone(client, db):
    _half_made("erika", hours=0)
    form = {"username": "erika", "password1": "a-new-and-long-passphrase", "password2": "a-new-and-long-passphrase"}
    response = client.post(SIGNUP, form)
    assert response.status_code == 200 and "already" in response.content.decode()
    assert PasskeySignup.objects.get().user.username == "erika"


def test_two_starts_of_one_name_at_once_answer_taken(client, alice, monkeypatch):
    # The second start's form checked the name before the first one's account was stored: the database refuses it.
    monkeypatch.setattr(DefaultAccountAdapter, "clean_username", lambda self, username, shallow=False: username)
    response = client.post(START, {"username": "alice"})
    assert response.status_code == 400
    assert "A user with that username already exists." in response.content.decode()
    assert get_user_model().objects.filter(username="alice").count() == 1
    assert not PasskeySignup.objects.exists()


# --------------------------------------------------------------------------------------------------------------
# next= is carried through: an invited person lands on the invitation once signed up

INVITATION = "/invite/abc123/"


@pytest.fixture
def passkey_checked(monkeypatch):
    """The browser's passkey taken as checked: the WebAuthn check itself is allauth's (the e2e test makes a real
    one)."""

    class Checked:
        def __init__(self, *args, **kwargs):
            self.cleaned_data = {"name": "Phone", "credential": {}}
            self.errors = {}

        def is_valid(self):
            return True

    def stored(request, user, name, credential):
        return Authenticator.objects.create(user=user, type=Authenticator.Type.WEBAUTHN, data={"name": name})

    monkeypatch.setattr(views, "SignupWebAuthnForm", Checked)
    monkeypatch.setattr(webauthn_flows, "signup_authenticator", stored)


def test_the_sign_up_page_passes_next_on_to_the_passkey_sign_up(client, db):
    html = client.get(SIGNUP, {"next": INVITATION}).content.decode()
    assert f'href="{START}?next=/invite/abc123/"' in html
    page = client.get(START, {"next": INVITATION}).content.decode()
    assert '<input type="hidden" name="next" value="/invite/abc123/">' in page


def test_a_passkey_sign_up_lands_on_the_page_next_names(client, db, passkey_checked):
    assert client.post(START, {"username": "erika", "next": INVITATION})["Location"] == CREATE
    done = client.post(CREATE, {"name": "Phone"})
    assert done["Location"] == INVITATION
    assert client.session["_auth_user_id"] == str(get_user_model().objects.get(username="erika").pk)


@pytest.mark.parametrize("elsewhere", ["https://evil.example/", "//evil.example/x"])
def test_an_off_site_next_is_ignored_by_the_passkey_sign_up(client, db, passkey_checked, elsewhere):
    assert f'name="next" value="{elsewhere}"' not in client.get(START, {"next": elsewhere}).content.decode()
    client.post(START, {"username": "erika", "next": elsewhere})
    assert client.post(CREATE, {"name": "Phone"})["Location"] == "/"


def test_without_next_a_passkey_sign_up_lands_home(client, db, passkey_checked):
    client.post(START, {"username": "erika", "next": INVITATION})
    client.post(START, {"username": "erik"})  # started again, from a page with no next
    assert client.post(CREATE, {"name": "Phone"})["Location"] == "/"


# The threads' requests reach the database outside the test's transaction; SQLite has no row locks to wait on.
@pytest.mark.django_db(transaction=True)
def test_two_removals_at_once_leave_the_last_passkey(monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("row locks (select_for_update) need PostgreSQL")
    erika = get_user_model().objects.create_user(username="erika", password=None)
    passkeys = [_passkey(erika, "Phone"), _passkey(erika, "Laptop")]
    start = threading.Barrier(2, timeout=10)

    def slow_removal(request, pk):  # allauth's removal (after its re-authentication), slow: both check first
        time.sleep(0.3)
        Authenticator.objects.filter(pk=pk).delete()
        return HttpResponseRedirect("/accounts/2fa/webauthn/")

    monkeypatch.setattr(webauthn_views, "remove_webauthn", slow_removal)

    def remove(passkey):
        browser = Client()
        browser.force_login(erika)
        start.wait()
        browser.post(f"/accounts/2fa/webauthn/keys/{passkey.pk}/remove/")
        connection.close()

    with ThreadPoolExecutor(2) as pool:
        list(pool.map(remove, passkeys))
    assert Authenticator.objects.filter(user=erika).count() == 1
