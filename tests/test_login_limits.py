"""Log-in limits that stop guessing without locking the owner out.

Failures count per user name and client address together, so somebody guessing from elsewhere never locks the
owner out; racing attempts never check more passwords than the limit; with CACHE_URL at Redis every worker and
app server counts on the same counters. The other log-in tests (one page counts on the other, proxies, the admin)
are in tests/test_security.py.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from allauth.account.auth_backends import AuthenticationBackend
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from ledger import auth, services
from tests import factories
from tests.ledger.api_support import token_client
from tests.servers import need_redis

ROOT = Path(__file__).resolve().parent.parent
ACCOUNTS = "/accounts/login/"
ADMIN = "/admin/login/"
GUESSER = {"REMOTE_ADDR": "203.0.113.66"}
OWNER = {"REMOTE_ADDR": "198.51.100.7"}
# A Redis database of each test worker's own (15 without xdist, 14, 13… for gw0, gw1…), emptied by the tests that
# use it: two workers never empty each other's counters mid-test.
REDIS_URL = "redis://127.0.0.1:6379/{database}"


@pytest.fixture(autouse=True)
def _fresh_counters():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def redis_location(worker_id):
    database = 15 if worker_id == "master" else 14 - int(worker_id.removeprefix("gw"))
    return REDIS_URL.format(database=database)


@pytest.fixture
def redis_cache(settings, redis_location):
    """The counters in Redis, as with CACHE_URL: skipped without Redis, failed if CI requires it (tests/servers.py)."""
    need_redis(redis_location, "the log-in counters shared between processes")
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": redis_location}
    }
    cache.clear()
    yield cache
    cache.clear()


def _name_field(url):
    """The log-in page's form (allauth's) takes a user name or an e-mail address as "login"; the admin's, "username"."""
    return "login" if url == ACCOUNTS else "username"


def _guess(client, url=ACCOUNTS, times=5, username="alice", **extra):
    """Wrong passwords: the first five are checked (200, "wrong password"), the others refused unchecked (429)."""
    statuses = [
        client.post(url, {_name_field(url): username, "password": f"guess-{number}"}, **(GUESSER | extra)).status_code
        for number in range(times)
    ]
    assert statuses == [200] * min(times, 5) + [429] * (times - 5)


def _log_in(client, url=ACCOUNTS, **extra):
    form = {_name_field(url): "alice", "password": factories.PASSWORD, "next": "/"}
    return client.post(url, form, **(OWNER | extra))


# --------------------------------------------------------------------------------------------------------------
# Nobody locks the owner out


def test_guesses_from_elsewhere_do_not_lock_the_owner_out(client, alice):
    _guess(client, times=8)
    response = _log_in(client)
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(alice.pk)


def test_the_guesser_is_stopped_even_with_the_right_password(client, alice):
    _guess(client)
    blocked = _log_in(client, **GUESSER)
    assert blocked.status_code == 429
    assert "Too many failed log-ins" in blocked.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_admin_log_in_is_not_locked_by_guesses_from_elsewhere(client, alice):
    alice.is_staff = True
    alice.save()
    _guess(client, ADMIN, times=8)
    assert _log_in(client, ADMIN, **GUESSER).status_code == 429
    response = _log_in(client, ADMIN)
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(alice.pk)


def test_the_api_token_keeps_working_while_the_name_is_guessed_at(client, alice):
    # The token is the API's only credential (no password is checked there): guessing the password elsewhere, up
    # to the limit and past it, changes nothing for scripts holding it. A wrong token is 401, as before.
    evening = factories.make_evening(alice)
    _guess(client, times=8)
    response = token_client(alice).get(f"/api/evenings/{evening.pk}/")
    assert response.status_code == 200
    assert response.json()["id"] == evening.pk
    stranger = token_client(alice)
    stranger.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    assert stranger.get(f"/api/evenings/{evening.pk}/").status_code == 401


def test_a_successful_log_in_does_not_use_up_an_attempt(client, alice):
    for _ in range(8):
        assert _log_in(client).status_code == 302
        client.logout()
    _guess(client, times=4, **OWNER)
    assert _log_in(client).status_code == 302


def test_the_share_page_names_nobody(client, alice):
    evening = factories.make_evening(alice)
    table = factories.make_table(evening, "snapser")
    factories.record(table)
    settlement = services.evening_close(evening=evening, by=alice)
    for transfer in settlement.transfers.all():
        services.transfer_mark_paid(transfer=transfer, by=alice)
    html = client.get(reverse("ledger:shared_evening", args=[evening.share_token])).content.decode()
    assert "Marked paid" in html
    assert "alice" not in html


# --------------------------------------------------------------------------------------------------------------
# Racing attempts: 40 at once on the log-in page never check more passwords than the limit


@pytest.fixture
def slow_password_checks(monkeypatch):
    """Every password check (allauth's, by user name or e-mail, which LoginLimitBackend calls once the limit let the
    attempt through) takes 50 ms and is counted: racing attempts all arrive while the first is checked."""
    checked = []
    lock = threading.Lock()

    def check(self, request, **credentials):
        time.sleep(0.05)
        with lock:
            checked.append(credentials.get("password"))
        return None

    monkeypatch.setattr(AuthenticationBackend, "authenticate", check)
    return checked


def _race(count=40, address="203.0.113.66"):
    """``count`` wrong passwords posted to the log-in page at once, each from its own client (thread): the statuses."""
    start = threading.Barrier(count, timeout=10)

    def attempt(number):
        client = Client()
        start.wait()
        form = {"login": "alice", "password": f"guess-{number}"}
        return client.post(ACCOUNTS, form, REMOTE_ADDR=address).status_code

    with ThreadPoolExecutor(count) as pool:
        return [future.result(timeout=60) for future in [pool.submit(attempt, n) for n in range(count)]]


# The threads' requests reach the database (sessions) outside the test's transaction.
@pytest.mark.django_db(transaction=True)
def test_racing_attempts_check_no_more_passwords_than_the_limit(settings, slow_password_checks):
    statuses = _race()
    assert len(slow_password_checks) == settings.LOGIN_RATE_LIMIT
    assert sorted(statuses) == [200] * settings.LOGIN_RATE_LIMIT + [429] * (40 - settings.LOGIN_RATE_LIMIT)


@pytest.mark.django_db(transaction=True)
def test_racing_attempts_against_redis_check_no_more_passwords_than_the_limit(
    settings, redis_cache, slow_password_checks
):
    # Every thread opens its own Redis connection, as every gunicorn worker does. Never more checks than the
    # limit; under a loaded machine one fewer may come: an attempt refused on the address counter gives its slot on
    # the name counter back a moment after another attempt found that counter full.
    statuses = _race()
    assert 0 < len(slow_password_checks) <= settings.LOGIN_RATE_LIMIT
    assert statuses.count(200) == len(slow_password_checks)
    assert statuses.count(429) == 40 - len(slow_password_checks)


# --------------------------------------------------------------------------------------------------------------
# Shared across processes through Redis; per process without it

# Another process (another gunicorn worker, another app server) fails to log in, with the password check stubbed
# (it has no test database): the failures it counts are the ones this process reads.
OTHER_WORKER = """
import django
django.setup()
from allauth.account.auth_backends import AuthenticationBackend
from django.contrib.auth import authenticate
from django.test import RequestFactory
AuthenticationBackend.authenticate = lambda *args, **kwargs: None
for number in range(5):
    authenticate(RequestFactory().post("/accounts/login/", REMOTE_ADDR="203.0.113.66"), username="alice",
                 password=f"guess-{number}")
"""


def _other_worker(cache_url: str) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"} | {
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "CACHE_URL": cache_url,
    }
    subprocess.run([sys.executable, "-c", OTHER_WORKER], cwd=ROOT, env=env, check=True, timeout=60)


def test_failures_counted_by_another_worker_count_here_through_redis(client, alice, redis_cache, redis_location):
    _other_worker(redis_location)
    assert _log_in(client, **GUESSER).status_code == 429
    assert _log_in(client).status_code == 302  # the owner, elsewhere, still gets in


def test_the_limit_holds_per_process_when_redis_is_down(client, alice, settings):
    # CACHE_URL names a Redis that does not answer: each process counts on its own, log-ins still work.
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": "redis://127.0.0.1:9/0"}
    }
    _guess(client)
    assert _log_in(client, **GUESSER).status_code == 429
    assert _log_in(client).status_code == 302
    auth._local.clear()


@pytest.mark.parametrize(
    ("url", "backend"),
    [
        ("", "django.core.cache.backends.locmem.LocMemCache"),
        ("redis://127.0.0.1:6379/0", "django.core.cache.backends.redis.RedisCache redis://127.0.0.1:6379/0"),
        ("memcached://127.0.0.1:11211", "CACHE_URL='memcached://127.0.0.1:11211': expected redis://"),
    ],
)
def test_cache_url_chooses_redis_or_a_cache_per_process(url, backend):
    env = {k: v for k, v in os.environ.items() if k not in {"DJANGO_SETTINGS_MODULE", "DATABASE_URL"}}
    code = "import config.settings as s; c = s.CACHES['default']; print(c['BACKEND'], c.get('LOCATION', ''))"
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env | {"DEBUG": "1", "CACHE_URL": url},
        check=False,
    )
    assert backend in result.stdout + result.stderr


# --------------------------------------------------------------------------------------------------------------
# A user name and its e-mail address are one account: one counter


def test_guesses_by_e_mail_count_on_the_user_names_counter(client, alice):
    from allauth.account.models import EmailAddress

    EmailAddress.objects.create(user=alice, email="alice@example.org", verified=True, primary=True)
    _guess(client)
    by_e_mail = client.post(ACCOUNTS, {"login": " Alice@Example.org", "password": "guess-6"}, **GUESSER)
    assert by_e_mail.status_code == 429
    assert _log_in(client).status_code == 302  # the owner, elsewhere, still gets in


def test_an_e_mail_address_on_the_account_alone_counts_on_the_user_names_counter(client, alice):
    alice.email = "alice@example.org"  # no allauth address: an account made by an administrator, say
    alice.save()
    _guess(client)
    by_e_mail = client.post(ACCOUNTS, {"login": "Alice@Example.org", "password": "guess-6"}, **GUESSER)
    assert by_e_mail.status_code == 429
    assert auth.login_name(None, {"login": " ALICE@example.org"}) == "alice"


def test_an_unknown_e_mail_counts_as_typed(client, alice):
    _guess(client, username="nobody@example.org")
    assert _log_in(client, **GUESSER).status_code == 302  # tells nothing about which addresses exist
    assert auth.login_name(None, {"username": " Nobody@Example.org"}) == "nobody@example.org"
