"""Hardening with DEBUG off: deploy checks, headers, a Content-Security-Policy the pages pass, limited log-ins."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.contrib.auth import authenticate
from django.core.cache import cache
from django.urls import reverse

from tests import factories

ROOT = Path(__file__).resolve().parent.parent


def test_the_deploy_checks_pass_with_production_settings():
    unset = {"DEBUG", "DATABASE_URL", "SECURE_SSL_REDIRECT", "SECRET_KEY", "DJANGO_SETTINGS_MODULE"}
    env = {k: v for k, v in os.environ.items() if k not in unset}
    env |= {
        "SECRET_KEY": "a" * 20 + "-Production-Secret-Key-With-Enough-Entropy-1234",
        "ALLOWED_HOSTS": "talon.example",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_pages_carry_the_security_headers(client, db):
    response = client.get("/")
    assert "script-src 'self'" in response["Content-Security-Policy"]
    assert "'unsafe-inline'" not in response["Content-Security-Policy"]
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"


INLINE = [
    # A JSON data block (the table's offline state) is never run: the policy does not apply to it.
    (r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>", "an inline script"),
    (r"<style\b", "an inline style sheet"),
    (r"\sstyle=", "a style attribute"),
    (r"\son[a-z]+=", "an inline event handler"),
    (r"hx-on", "an hx-on handler (needs eval)"),
    (r"hx-trigger=\"[^\"]*\[", "an hx-trigger filter (needs eval)"),
]


@pytest.mark.parametrize("game", ["marias", "snapser", "skat"])
def test_the_table_page_needs_nothing_the_policy_forbids(alice_client, evening, game):
    table = factories.make_table(evening, game)
    factories.record(table)
    pages = [
        alice_client.get(table.get_absolute_url()).content.decode(),
        alice_client.get(evening.get_absolute_url()).content.decode(),
        alice_client.get(reverse("ledger:table_create", args=[evening.pk])).content.decode(),
        alice_client.get(reverse("ledger:shared_evening", args=[evening.share_token])).content.decode(),
    ]
    for html in pages:
        for pattern, what in INLINE:
            assert not re.search(pattern, html), f"the page has {what}: {re.search(pattern, html).group(0)}"


@pytest.fixture(autouse=True)
def _fresh_login_counters():
    """The failed log-in counters live in the cache: every test starts and ends with none."""
    cache.clear()
    yield
    cache.clear()


ACCOUNTS = "/accounts/login/"
ADMIN = "/admin/login/"


def _name_field(url):
    """The log-in page's form (allauth's) takes a user name or an e-mail address as "login"; the admin's, "username"."""
    return "login" if url == ACCOUNTS else "username"


def _fail(client, url, username="alice", times=5, **extra):
    for _ in range(times):
        response = client.post(url, {_name_field(url): username, "password": "wrong"}, **extra)
        assert response.status_code == 200, response.status_code


def test_log_in_is_refused_after_five_failures(client, alice):
    _fail(client, ACCOUNTS)
    blocked = client.post(ACCOUNTS, {"login": "alice", "password": factories.PASSWORD})
    assert blocked.status_code == 429
    assert "Too many failed log-ins" in blocked.content.decode()
    assert "are not correct" not in blocked.content.decode()  # not "wrong password": it was not even checked
    assert "_auth_user_id" not in client.session
    cache.clear()
    assert client.post(ACCOUNTS, {"login": "alice", "password": factories.PASSWORD}).status_code == 302
    assert client.session["_auth_user_id"] == str(alice.pk)


def test_the_admin_log_in_works_and_is_refused_after_five_failures(client, alice):
    alice.is_staff = True
    alice.save()
    ok = client.post(ADMIN, {"username": "alice", "password": factories.PASSWORD, "next": "/admin/"})
    assert ok.status_code == 302 and client.session["_auth_user_id"] == str(alice.pk)
    client.logout()
    _fail(client, ADMIN)
    blocked = client.post(ADMIN, {"username": "alice", "password": factories.PASSWORD, "next": "/admin/"})
    assert blocked.status_code == 429  # not the redirect into the admin: the right password is not even checked
    assert "Too many failed log-ins" in blocked.content.decode()
    assert "_auth_user_id" not in client.session
    assert client.get("/admin/").status_code == 302  # still sent to the log-in page


def test_failures_on_one_page_count_on_the_other(client, alice):
    alice.is_staff = True
    alice.save()
    _fail(client, ADMIN, times=3)
    _fail(client, ACCOUNTS, times=2)
    assert client.post(ACCOUNTS, {"login": "alice", "password": factories.PASSWORD}).status_code == 429


def test_a_name_guessed_at_from_many_addresses_is_limited_per_address_and_the_owner_gets_in(client, alice, settings):
    # A limit on the name alone let anybody lock its owner out; each address gets its own five, and
    # the account, past its own ten, one check per LOGIN_RATE_ACCOUNT_SPACING seconds: the owner waits, then is in.
    settings.LOGIN_RATE_ACCOUNT_SPACING = 1
    for number in range(5):
        _fail(client, ACCOUNTS, times=2, REMOTE_ADDR=f"10.0.0.{number}")  # ten checked
    _fail(client, ACCOUNTS, times=1, REMOTE_ADDR="10.0.0.9")  # the eleventh: checked, and the next only in 1 s
    guess = client.post(ACCOUNTS, {"login": "alice", "password": "guess"}, REMOTE_ADDR="10.0.0.8")
    assert guess.status_code == 429  # not checked
    waiting = client.post(ACCOUNTS, {"login": "alice", "password": factories.PASSWORD})
    assert waiting.status_code == 429 and waiting["Retry-After"] == "1"
    assert "Wait 1 seconds" in waiting.content.decode()
    time.sleep(1.1)
    assert client.post(ACCOUNTS, {"login": "alice", "password": factories.PASSWORD}).status_code == 302
    assert client.session["_auth_user_id"] == str(alice.pk)


def test_rotating_user_names_from_one_address_is_limited_by_the_address(client, alice, settings):
    for number in range(settings.LOGIN_RATE_ADDRESS_LIMIT):
        _fail(client, ACCOUNTS, username=f"guess{number}", times=1, REMOTE_ADDR="10.0.0.7")
    blocked = client.post(ACCOUNTS, {"login": "alice", "password": factories.PASSWORD}, REMOTE_ADDR="10.0.0.7")
    assert blocked.status_code == 429
    assert "_auth_user_id" not in client.session
    # Alice herself, from elsewhere, is not locked out by somebody else's guesses.
    assert client.post(ACCOUNTS, {"login": "alice", "password": factories.PASSWORD}).status_code == 302


def test_behind_a_trusted_proxy_the_forwarded_address_is_counted(client, alice, settings):
    settings.LOGIN_RATE_PROXIES = 1
    # Every request comes from the proxy (the test client's REMOTE_ADDR); the proxy appends the address it saw.
    _fail(client, ACCOUNTS, HTTP_X_FORWARDED_FOR="6.6.6.6, 10.0.0.1")
    # The guesser's address is locked out whatever it forges before it; the client's forged part is ignored.
    forged = {"HTTP_X_FORWARDED_FOR": "1.2.3.4, 10.0.0.1"}
    assert client.post(ACCOUNTS, {"login": "alice", "password": factories.PASSWORD}, **forged).status_code == 429
    # Alice behind the same proxy, from her own address, is not.
    elsewhere = {"HTTP_X_FORWARDED_FOR": "6.6.6.6, 10.0.0.2"}
    assert client.post(ACCOUNTS, {"login": "alice", "password": factories.PASSWORD}, **elsewhere).status_code == 302
    assert client.session["_auth_user_id"] == str(alice.pk)


def test_without_a_trusted_proxy_a_forwarded_address_is_ignored(client, alice, settings):
    settings.LOGIN_RATE_PROXIES = 0
    _fail(client, ACCOUNTS, HTTP_X_FORWARDED_FOR="10.0.0.1")
    # A guesser cannot escape its limit by sending a header of its own: its own address is counted.
    forged = {"HTTP_X_FORWARDED_FOR": "10.0.0.2"}
    assert client.post(ACCOUNTS, {"login": "alice", "password": factories.PASSWORD}, **forged).status_code == 429


def test_every_caller_of_authenticate_is_limited(alice, rf):
    request = rf.post(ACCOUNTS)
    for _ in range(5):
        assert authenticate(request, username="alice", password="wrong") is None
    assert authenticate(request, username="alice", password=factories.PASSWORD) is None
    # Without a request (code on the server) the attempts count per name, with no address: never unlimited.
    for _ in range(4):
        assert authenticate(username="alice", password="wrong") is None
    assert authenticate(username="ALICE ", password="wrong") is None  # the same name, however it is typed
    assert authenticate(None, username="alice", password=factories.PASSWORD) is None
    cache.clear()
    assert authenticate(None, username="alice", password=factories.PASSWORD) == alice
    assert authenticate(rf.post(ACCOUNTS), username="alice", password=factories.PASSWORD) == alice


def test_no_other_backend_checks_passwords_around_the_limit():
    from axes.backends import AxesStandaloneBackend
    from django.conf import settings
    from django.utils.module_loading import import_string

    assert settings.AUTHENTICATION_BACKENDS == ["ledger.auth.LoginLimitBackend"]
    assert issubclass(import_string(settings.AUTHENTICATION_BACKENDS[0]), AxesStandaloneBackend)
