"""Accounts: sign-up, log-in by user name or e-mail, password reset and change, next= safety, the account page, the
API token and account deletion, as the scorekeeper (Alice), another user (Charlie) and nobody logged in."""

from __future__ import annotations

import datetime
import re

import pytest
from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse
from django.utils import timezone
from rest_framework.authtoken.models import Token

from ledger import hooks
from ledger.accounts import services as account_services
from ledger.models import Invitation, Posting
from tests import factories

LOGIN = "/accounts/login/"
SIGNUP = "/accounts/signup/"
NEW_PASSWORD = "a-new-and-long-passphrase"


def _logged_in_as(client):
    user_id = client.session.get("_auth_user_id")
    return get_user_model().objects.get(pk=user_id).username if user_id else None


# --------------------------------------------------------------------------------------------------------------
# Sign-up


def test_signing_up_with_a_name_and_a_password_stores_the_user_and_logs_them_in(client, db):
    page = client.get(SIGNUP)
    assert page.status_code == 200
    assert "Sign up with a passkey instead" in page.content.decode()
    response = client.post(SIGNUP, {"username": "dora", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    dora = get_user_model().objects.get(username="dora")
    assert dora.check_password(NEW_PASSWORD)
    assert dora.email == ""  # no e-mail address needed
    assert not EmailAddress.objects.filter(user=dora).exists()
    assert _logged_in_as(client) == "dora"
    assert len(mail.outbox) == 0


def test_signing_up_with_an_e_mail_sends_its_confirmation(client, db):
    form = {"username": "dora", "email": "dora@example.org", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD}
    assert client.post(SIGNUP, form).status_code == 302
    assert _logged_in_as(client) == "dora"  # optional verification: playing does not wait for the mail
    address = EmailAddress.objects.get(user__username="dora")
    assert (address.email, address.verified) == ("dora@example.org", False)
    assert [message.to for message in mail.outbox] == [["dora@example.org"]]


def test_a_taken_user_name_is_refused(client, alice):
    response = client.post(SIGNUP, {"username": "Alice", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert response.status_code == 200
    assert "already" in response.content.decode()
    assert get_user_model().objects.filter(username__iexact="alice").count() == 1


def test_a_logged_in_user_is_sent_home_from_the_sign_up_page(alice_client):
    assert alice_client.get(SIGNUP)["Location"] == reverse("home")


# --------------------------------------------------------------------------------------------------------------
# Log-in and log-out


def test_log_in_by_user_name(client, alice):
    response = client.post(LOGIN, {"login": "alice", "password": factories.PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    assert _logged_in_as(client) == "alice"


def test_log_in_by_e_mail_address(client, alice):
    alice.email = "alice@example.org"
    alice.save()
    EmailAddress.objects.create(user=alice, email="alice@example.org", verified=True, primary=True)
    response = client.post(LOGIN, {"login": "Alice@Example.org", "password": factories.PASSWORD})
    assert response.status_code == 302
    assert _logged_in_as(client) == "alice"


def test_a_wrong_password_is_refused_and_counted_by_the_log_in_limit(client, alice, settings):
    for _ in range(settings.LOGIN_RATE_LIMIT):
        wrong = client.post(LOGIN, {"login": "alice", "password": "wrong"})
        assert wrong.status_code == 200
        assert "are not correct" in wrong.content.decode()
    blocked = client.post(LOGIN, {"login": "alice", "password": factories.PASSWORD})
    assert blocked.status_code == 429
    assert "Too many failed log-ins. Wait a few minutes and try again." in blocked.content.decode()
    assert _logged_in_as(client) is None


def test_the_log_in_page_is_the_one_named_login(client, db):
    assert reverse("login") == reverse("account_login") == LOGIN
    page = client.get(LOGIN).content.decode()
    assert 'name="login"' in page
    assert "Log in with a passkey" in page


def test_log_out_is_a_post(alice_client):
    assert alice_client.get(reverse("logout")).status_code == 200  # a page asking to confirm, still logged in
    assert _logged_in_as(alice_client) == "alice"
    assert alice_client.post(reverse("logout"))["Location"] == reverse("home")
    assert _logged_in_as(alice_client) is None


def test_next_leads_back_to_the_page_asked_for(client, alice):
    evening = factories.make_evening(alice)
    asked = client.get(evening.get_absolute_url())
    assert asked.status_code == 302 and asked["Location"].startswith(LOGIN + "?next=")
    form = {"login": "alice", "password": factories.PASSWORD, "next": evening.get_absolute_url()}
    assert client.post(LOGIN, form)["Location"] == evening.get_absolute_url()


@pytest.mark.parametrize("elsewhere", ["https://evil.example/", "//evil.example/x", "http://evil.example"])
def test_an_off_site_next_is_ignored(client, alice, elsewhere):
    form = {"login": "alice", "password": factories.PASSWORD, "next": elsewhere}
    response = client.post(LOGIN, form)
    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    assert _logged_in_as(client) == "alice"


def test_a_deactivated_account_cannot_log_in(client, alice):
    alice.is_active = False
    alice.save()
    response = client.post(LOGIN, {"login": "alice", "password": factories.PASSWORD}, follow=True)
    assert _logged_in_as(client) is None
    assert "inactive" in response.content.decode().lower()


# --------------------------------------------------------------------------------------------------------------
# Passwords


def test_a_password_reset_mail_is_sent_and_its_link_sets_a_new_password(client, alice):
    EmailAddress.objects.create(user=alice, email="alice@example.org", verified=True, primary=True)
    alice.email = "alice@example.org"
    alice.save()
    sent = client.post("/accounts/password/reset/", {"email": "alice@example.org"})
    assert sent.status_code == 302
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["alice@example.org"]
    link = re.search(r"http://testserver(/accounts/password/reset/key/\S+/)", mail.outbox[0].body).group(1)
    form_page = client.get(link, follow=True)
    assert form_page.status_code == 200
    action = form_page.redirect_chain[-1][0] if form_page.redirect_chain else link
    done = client.post(action, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert done.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)
    assert not alice.check_password(factories.PASSWORD)
    client.logout()
    assert client.post(LOGIN, {"login": "alice", "password": NEW_PASSWORD}).status_code == 302


def test_a_reset_asked_for_an_unknown_address_sends_nothing_to_anybody_but_that_address(client, alice):
    assert client.post("/accounts/password/reset/", {"email": "nobody@example.org"}).status_code == 302
    assert all(message.to == ["nobody@example.org"] for message in mail.outbox)
    alice.refresh_from_db()
    assert alice.check_password(factories.PASSWORD)


def test_changing_the_password(alice_client, alice):
    form = {"oldpassword": factories.PASSWORD, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD}
    response = alice_client.post("/accounts/password/change/", form)
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)
    assert _logged_in_as(alice_client) == "alice"  # still logged in here


def test_the_password_change_asks_for_the_old_password(alice_client, alice):
    form = {"oldpassword": "not-it", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD}
    assert alice_client.post("/accounts/password/change/", form).status_code == 200
    alice.refresh_from_db()
    assert alice.check_password(factories.PASSWORD)


@pytest.mark.parametrize("url", ["/accounts/password/change/", "/accounts/email/", "/accounts/2fa/webauthn/"])
def test_the_account_pages_of_allauth_are_for_the_logged_in(client, db, url):
    response = client.get(url)
    assert response.status_code == 302 and response["Location"].startswith(LOGIN)


# --------------------------------------------------------------------------------------------------------------
# The account page and the API token


def test_the_account_page_shows_what_the_account_holds(alice_client, alice):
    page = alice_client.get("/accounts/")
    html = page.content.decode()
    assert page.status_code == 200
    for text in [
        "Your account",
        "No e-mail address",
        "Change password",
        "No passkey yet",
        "You have no token.",
        "Talon speaks English",
        "Delete my account",
    ]:
        assert text in html
    assert "<strong>alice</strong>" in html


def test_another_user_sees_their_own_account_page(charlie_client, alice):
    Token.objects.create(user=alice)
    html = charlie_client.get("/accounts/").content.decode()
    assert "<strong>charlie</strong>" in html
    assert "You have no token." in html
    assert "alice" not in html


def test_nobody_logged_in_is_sent_to_log_in_from_the_account_pages(client, db):
    for url in ["/accounts/", "/accounts/delete/"]:
        response = client.get(url)
        assert response.status_code == 302 and response["Location"] == f"{LOGIN}?next={url}"
    for url in ["/accounts/token/", "/accounts/token/revoke/"]:
        assert client.post(url)["Location"].startswith(LOGIN)
    assert not Token.objects.exists()


@pytest.fixture
def alice_fresh(alice_client):
    """Alice, her password given again just now: making a token asks for it, as deleting the account does."""
    reauth = alice_client.post("/accounts/reauthenticate/", {"password": factories.PASSWORD})
    assert reauth.status_code == 302
    return alice_client


def test_making_a_token_asks_for_the_password_again(alice_client, alice):
    response = alice_client.post("/accounts/token/")
    assert response["Location"] == "/accounts/reauthenticate/?next=%2Faccounts%2Ftoken%2F"
    assert not Token.objects.filter(user=alice).exists()
    assert alice_client.post(response["Location"], {"password": "not-it"}).status_code == 200
    assert not Token.objects.filter(user=alice).exists()
    done = alice_client.post(response["Location"], {"password": factories.PASSWORD})
    assert done["Location"] == "/accounts/"  # the token asked for is made once the password is given
    key = Token.objects.get(user=alice).key
    assert key in alice_client.get("/accounts/").content.decode()


def test_a_token_is_made_shown_once_and_works_on_the_api(alice_fresh, alice, client):
    assert alice_fresh.post("/accounts/token/")["Location"] == "/accounts/"
    key = Token.objects.get(user=alice).key
    first = alice_fresh.get("/accounts/").content.decode()
    assert key in first and "shown only this once" in first
    again = alice_fresh.get("/accounts/").content.decode()
    assert key not in again and "You have a token, made" in again
    evening = factories.make_evening(alice)
    api = client.get(f"/api/evenings/{evening.pk}/", HTTP_AUTHORIZATION=f"Token {key}")
    assert api.status_code == 200 and api.json()["id"] == evening.pk


def test_a_new_token_replaces_the_old_one(alice_fresh, alice, client):
    alice_fresh.post("/accounts/token/")
    old = Token.objects.get(user=alice).key
    alice_fresh.post("/accounts/token/")
    new = Token.objects.get(user=alice).key
    assert new != old
    assert client.get("/api/evenings/", HTTP_AUTHORIZATION=f"Token {old}").status_code == 401
    assert client.get("/api/evenings/", HTTP_AUTHORIZATION=f"Token {new}").status_code == 200


def test_a_revoked_token_no_longer_works(alice_fresh, alice, client):
    alice_fresh.post("/accounts/token/")
    key = Token.objects.get(user=alice).key
    assert alice_fresh.post("/accounts/token/revoke/")["Location"] == "/accounts/"
    assert not Token.objects.filter(user=alice).exists()
    assert client.get("/api/evenings/", HTTP_AUTHORIZATION=f"Token {key}").status_code == 401
    assert "You have no token." in alice_fresh.get("/accounts/").content.decode()


def test_the_token_is_changed_by_post_only(alice_client, alice):
    assert alice_client.get("/accounts/token/").status_code == 405
    assert not Token.objects.filter(user=alice).exists()


def test_one_user_cannot_touch_anothers_token(charlie_client, alice):
    token = Token.objects.create(user=alice)
    charlie_client.post("/accounts/token/revoke/")
    charlie_client.post("/accounts/token/")
    assert Token.objects.get(user=alice).key == token.key


# --------------------------------------------------------------------------------------------------------------
# Deleting an account


@pytest.fixture
def kept_together(alice, charlie):
    """An evening Alice owns and Charlie keeps score of with her, closed and shared, and a hand Alice entered."""
    evening = factories.make_evening(alice)
    evening.scorekeepers.add(charlie)
    table = factories.make_table(evening, "snapser")
    factories.record(table, times=3)
    from ledger import services

    services.evening_close(evening=evening, by=alice)
    services.evening_share_reset(evening=evening)
    evening.refresh_from_db()
    return evening


def _log_in_with_password(client, name="alice"):
    assert client.post(LOGIN, {"login": name, "password": factories.PASSWORD}).status_code == 302


def _ready_to_delete(client, name="alice"):
    """Logged in, and the password given again just now (deleting always asks for it, even after a log-in)."""
    _log_in_with_password(client, name)
    reauth = client.post("/accounts/reauthenticate/?next=/accounts/delete/", {"password": factories.PASSWORD})
    assert reauth["Location"] == "/accounts/delete/"


@pytest.mark.parametrize("logged_in", ["by force", "with the password"])
def test_deleting_asks_for_the_password_again(client, alice, logged_in):
    if logged_in == "by force":
        client.force_login(alice)
    else:
        _log_in_with_password(client)
    response = client.get("/accounts/delete/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/reauthenticate/")
    wrong = client.post(response["Location"], {"password": "not-it"})
    assert wrong.status_code == 200 and client.get("/accounts/delete/").status_code == 302
    reauth = client.post(response["Location"], {"password": factories.PASSWORD})
    assert reauth["Location"] == "/accounts/delete/"
    page = client.get("/accounts/delete/")
    assert page.status_code == 200 and "Type your user name to confirm" in page.content.decode()


def test_deleting_needs_the_user_name_typed(client, alice):
    _ready_to_delete(client)
    response = client.post("/accounts/delete/", {"confirmation": "yes"})
    assert response.status_code == 400
    assert "That is not your user name: nothing was deleted." in response.content.decode()
    alice.refresh_from_db()
    assert alice.is_active and alice.username == "alice"


def test_deleting_anonymizes_the_account_and_keeps_the_books(client, alice, charlie, kept_together):
    EmailAddress.objects.create(user=alice, email="alice@example.org", verified=True, primary=True)
    alice.email = "alice@example.org"
    alice.save()
    Token.objects.create(user=alice)
    other_device = type(client)()
    _log_in_with_password(other_device)
    told = []
    hooks.account_deleting.connect(told.append)
    try:
        _ready_to_delete(client)
        response = client.post("/accounts/delete/", {"confirmation": "Alice"})
    finally:
        hooks.account_deleting.disconnect(told.append)
    assert response["Location"] == reverse("home")
    assert [event.user.pk for event in told] == [alice.pk]
    alice.refresh_from_db()
    assert alice.username == f"deleted-{alice.pk}"
    assert (alice.email, alice.is_active, alice.has_usable_password()) == ("", False, False)
    assert not EmailAddress.objects.filter(user=alice).exists()
    assert not Token.objects.filter(user=alice).exists()
    assert not Authenticator.objects.filter(user=alice).exists()
    assert _logged_in_as(client) is None
    # Logged out on the other device too, at its next request (no session of anybody's is read to delete it).
    assert other_device.get("/accounts/")["Location"] == f"{LOGIN}?next=/accounts/"
    assert "Log in" in other_device.get(reverse("home")).content.decode()
    # The evening stays, balanced, for the co-scorekeeper and the share link.
    kept_together.refresh_from_db()
    assert kept_together.owner_id == alice.pk
    postings = Posting.objects.filter(hand__table__evening=kept_together)
    assert postings.count() == 9 and postings.total() == 0  # three hands of three players
    assert set(postings.totals("hand").values()) == {0}
    assert kept_together.settlement.transfers.exists()
    client.force_login(charlie)
    assert client.get(kept_together.get_absolute_url()).status_code == 200
    client.logout()
    shared = client.get(reverse("ledger:shared_evening", args=[kept_together.share_token]))
    assert shared.status_code == 200
    # Nobody logs in as the deleted account, by its old name or its new one.
    for name in ["alice", f"deleted-{alice.pk}", "alice@example.org"]:
        client.post(LOGIN, {"login": name, "password": factories.PASSWORD})
        assert _logged_in_as(client) is None


def test_a_new_user_may_take_a_deleted_accounts_old_name(client, alice):
    _ready_to_delete(client)
    client.post("/accounts/delete/", {"confirmation": "alice"})
    response = client.post(SIGNUP, {"username": "alice", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert response.status_code == 302
    assert _logged_in_as(client) == "alice"
    assert get_user_model().objects.get(username="alice").pk != alice.pk


@pytest.mark.parametrize(
    ("url", "heading"),
    [
        ("/accounts/password/change/", "Change Password"),
        ("/accounts/email/", "Email Addresses"),
        ("/accounts/2fa/webauthn/", "Security Keys"),
        ("/accounts/password/reset/", "Password Reset"),
    ],
)
def test_allauths_pages_are_drawn_in_talons_page(alice_client, url, heading):
    html = alice_client.get(url).content.decode()
    assert f"<h1>{heading}</h1>" in html.replace("\n", "").replace("  ", "")
    assert 'class="narrow account-page"' in html and "talon.css" in html and "accounts.css" in html


def test_allauths_pages_speak_the_readers_language(client, db):
    html = client.get("/accounts/password/reset/", headers={"Accept-Language": "de"}).content.decode()
    assert '<html lang="de"' in html
    assert "Passwort" in html


def test_the_demo_login_that_make_run_prints_logs_in(client, db):
    from ledger.demo.management.commands.load_demo import DEMO_PASSWORD, DEMO_USER, _demo_user

    _demo_user()
    response = client.post(LOGIN, {"login": DEMO_USER, "password": DEMO_PASSWORD})
    assert response["Location"] == reverse("home")
    assert _logged_in_as(client) == DEMO_USER


def test_a_deleted_account_is_never_offered_as_a_scorekeeper(alice, charlie):
    charlie.is_active = False  # as deleting leaves it
    charlie.save()
    bob = factories.make_user("bob")
    listed = hooks.accounts_listed(get_user_model().objects.all())
    assert set(listed.values_list("username", flat=True)) == {"alice", bob.username}


@pytest.mark.parametrize("url", [SIGNUP, "/accounts/signup/passkey/"])
def test_nobody_signs_up_under_a_deleted_accounts_name(client, db, url):
    form = {"username": "Deleted-7", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD}
    response = client.post(url, form)
    assert response.status_code in (200, 400)
    assert "Names starting with “deleted-” are kept for deleted accounts." in response.content.decode()
    assert not get_user_model().objects.exists()


# --------------------------------------------------------------------------------------------------------------
# Invitations by user name: a name freed by a deletion brings its new owner none of the old one's


def _invite(evening, username):
    return Invitation.objects.create(evening=evening, username=username, invited_by=evening.owner)


def test_deleting_drops_the_invitations_addressed_to_the_old_name(alice, charlie):
    evening = factories.make_evening(charlie)
    _invite(evening, "Alice")
    account_services.account_delete(user=alice)
    assert not Invitation.objects.exists()


def test_whoever_signs_up_under_a_freed_name_sees_no_invitation_older_than_the_account(client, alice, charlie):
    _invite(factories.make_evening(charlie), "dora")
    Invitation.objects.update(created_at=timezone.now() - datetime.timedelta(minutes=5))
    form = {"username": "dora", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD}
    assert client.post(SIGNUP, form).status_code == 302
    dora = get_user_model().objects.get(username="dora")
    assert not Invitation.objects.for_user(dora).exists()
    assert "U Fleků" not in client.get(reverse("home")).content.decode()


def test_an_invitation_finds_its_user_whatever_the_case_of_the_name(alice, charlie):
    invitation = _invite(factories.make_evening(charlie), "ALICE")
    assert list(Invitation.objects.for_user(alice)) == [invitation]


# --------------------------------------------------------------------------------------------------------------
# The shell's link to the account page


def test_the_top_bar_links_the_users_name_to_the_account_page(alice_client):
    html = alice_client.get(reverse("home")).content.decode()
    assert '<a class="who" href="/accounts/">alice</a>' in html


def test_the_shell_the_books_extend_names_no_url_of_accounts():
    from ledger.accounts import urls

    shell = (settings.BASE_DIR / "templates" / "base.html").read_text()
    named = set(re.findall(r"""{%\s*url\s+['"]([\w:-]+)['"]""", shell))
    assert named and not named & {pattern.name for pattern in urls.urlpatterns}


@pytest.mark.parametrize("answer", ["accept", "decline"])
def test_an_invitation_to_the_name_in_another_case_is_answered_by_its_user(client, alice, charlie, answer):
    evening = factories.make_evening(charlie)
    invitation = _invite(evening, "Alice")
    client.force_login(alice)
    response = client.post(reverse(f"ledger:invitation_{answer}", args=[invitation.pk]))
    assert response.status_code == 302
    assert not Invitation.objects.exists()
    assert evening.scorekeepers.filter(pk=alice.pk).exists() == (answer == "accept")


# --------------------------------------------------------------------------------------------------------------
# A name is checked as it is stored (NFKC); a deletion's name never collides


@pytest.mark.parametrize("url", [SIGNUP, "/accounts/signup/passkey/"])
def test_a_full_width_letter_passes_for_no_deleted_accounts_name(client, alice, url):
    form = {"username": f"ｄeleted-{alice.pk}", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD}
    response = client.post(url, form)
    assert "Names starting with “deleted-” are kept for deleted accounts." in response.content.decode()
    assert list(get_user_model().objects.values_list("username", flat=True)) == ["alice"]
    account_services.account_delete(user=alice)
    assert get_user_model().objects.get(pk=alice.pk).username == f"deleted-{alice.pk}"


def test_a_name_with_a_full_width_letter_is_stored_as_django_stores_it(client, db):
    form = {"username": "ｄora", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD}
    assert client.post(SIGNUP, form).status_code == 302
    assert list(get_user_model().objects.values_list("username", flat=True)) == ["dora"]


def test_deleting_takes_another_name_when_the_deleted_name_is_held(alice):
    get_user_model().objects.create_user(username=f"Deleted-{alice.pk}")  # made by an administrator, say
    account_services.account_delete(user=alice)
    assert get_user_model().objects.get(pk=alice.pk).username == f"deleted-{alice.pk}-2"


def test_a_deleted_account_keeps_score_of_nothing_and_its_evenings_stay(alice, charlie):
    from ledger.circles.models import Circle

    theirs = factories.make_evening(charlie)
    theirs.scorekeepers.add(alice)
    own = factories.make_evening(alice)
    own.scorekeepers.add(charlie)
    circle = Circle.objects.create(owner=charlie, name="Thursdays")
    circle.scorekeepers.add(alice)
    account_services.account_delete(user=alice)
    assert not theirs.scorekeepers.exists()
    assert not circle.scorekeepers.exists()
    own.refresh_from_db()
    assert own.owner == alice and list(own.scorekeepers.all()) == [charlie]


def test_a_double_tap_on_make_a_token_makes_one(alice_fresh, alice):
    """Both taps name the token the page showed (none): the second finds it replaced and makes no other."""
    alice_fresh.post("/accounts/token/", {"replaces": ""})
    first = Token.objects.get(user=alice).key
    alice_fresh.post("/accounts/token/", {"replaces": ""})
    assert Token.objects.get(user=alice).key == first
    page = alice_fresh.get("/accounts/").content.decode()
    assert first in page  # the key the first tap made, shown once
    replaces = Token.objects.get(user=alice).created.isoformat()
    assert f'name="replaces" value="{replaces}"' in page
    alice_fresh.post("/accounts/token/", {"replaces": replaces})  # a deliberate replacement names the token shown
    assert Token.objects.get(user=alice).key != first
