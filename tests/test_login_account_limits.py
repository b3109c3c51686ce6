"""Log-in limits per account and for a shared address.

Per account, whatever the addresses: twelve addresses with five guesses each checked sixty passwords of one account
a minute; past LOGIN_RATE_ACCOUNT_LIMIT only one every LOGIN_RATE_ACCOUNT_SPACING seconds is checked, and the owner,
told how long, gets in after that wait (tests/test_security.py). A shared address (the club's Wi-Fi) has a higher
per-address limit, so thirty typos there no longer lock out everybody behind it.
"""

from __future__ import annotations

import pytest
from django.core.cache import cache

from tests import factories

ACCOUNTS = "/accounts/login/"


@pytest.fixture(autouse=True)
def _fresh_counters():
    cache.clear()
    yield
    cache.clear()


def _try(client, username, password, address):
    return client.post(ACCOUNTS, {"login": username, "password": password}, REMOTE_ADDR=address).status_code


def test_guesses_from_many_addresses_check_few_passwords_of_one_account(client, alice, settings):
    statuses = [_try(client, "alice", f"guess-{n}", f"10.1.0.{n // 5}") for n in range(60)]
    checked = statuses.count(200)
    assert checked <= settings.LOGIN_RATE_ACCOUNT_LIMIT + 1  # the ten, and one more in the spacing's second
    assert statuses.count(429) == 60 - checked


def test_a_shared_address_takes_a_rooms_typos(client, alice, settings):
    settings.LOGIN_RATE_SHARED_ADDRESSES = ["192.0.2.0/24"]
    bob = factories.make_user("bob")
    for number in range(settings.LOGIN_RATE_ADDRESS_LIMIT + 5):  # members mistyping their names and passwords
        assert _try(client, f"member{number}", "typo", "192.0.2.10") == 200
    assert _try(client, bob.username, factories.PASSWORD, "192.0.2.10") == 302


def test_an_address_not_shared_keeps_its_limit(client, alice, settings):
    settings.LOGIN_RATE_SHARED_ADDRESSES = ["192.0.2.0/24"]
    for number in range(settings.LOGIN_RATE_ADDRESS_LIMIT):
        assert _try(client, f"guess{number}", "wrong", "198.51.100.10") == 200
    assert _try(client, "alice", factories.PASSWORD, "198.51.100.10") == 429
