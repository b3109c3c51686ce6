"""Shared fixtures. Personas follow healthchecks: Alice keeps score, Bob holds the share link, Charlie is a stranger."""

from __future__ import annotations

import os

import pytest
from django.conf import settings as django_settings
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.utils import translation
from hypothesis import settings

from ledger import auth
from tests import factories

# No per-example deadline: CI shares two cores with PostgreSQL and a browser, so timing says nothing about
# correctness here (speed is measured in bench/). Example counts stay bounded by each test's settings.
settings.register_profile("talon", deadline=None)
settings.load_profile("talon")

# Fixtures through which a test reaches the database (pytest-django's, and every fixture built on them); the
# live server's requests reach it from the server's thread.
_DATABASE_FIXTURES = {
    "db",
    "transactional_db",
    "django_db_reset_sequences",
    "django_db_serialized_rollback",
    "live_server",
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """With TALON_DATABASE_TESTS_ONLY=1 (CI's second pass, on PostgreSQL), only the tests that reach the database.
    The others (the rules engine, the pure helpers, the doctests) cannot reach it, since pytest-django refuses any
    query without one of those fixtures or the ``django_db`` mark, so their outcome is the same on any database and
    the first pass has already run them."""
    if os.environ.get("TALON_DATABASE_TESTS_ONLY") != "1":
        return
    kept, left = [], []
    for item in items:
        reaches = item.get_closest_marker("django_db") or _DATABASE_FIXTURES & set(getattr(item, "fixturenames", ()))
        (kept if reaches else left).append(item)
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = kept


@pytest.fixture(autouse=True)
def _english_outside_requests():
    """Code called outside a request speaks the default language: no test inherits the language another one
    activated (a request's language is the middleware's business, and it sets it for each request)."""
    translation.activate(django_settings.LANGUAGE_CODE)
    yield
    translation.activate(django_settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _no_log_in_counters():
    """The log-in counters live in the cache: no test inherits another's failed log-ins (a Redis named by
    CACHE_URL is left alone; the tests that use Redis take a database of their own)."""
    if isinstance(caches["default"], LocMemCache):
        caches["default"].clear()
    auth._local.clear()


@pytest.fixture
def alice(db):
    return factories.make_user("alice")


@pytest.fixture
def charlie(db):
    return factories.make_user("charlie")


@pytest.fixture
def alice_client(client, alice):
    client.force_login(alice)
    return client


@pytest.fixture
def charlie_client(client, charlie):
    client.force_login(charlie)
    return client


@pytest.fixture
def bob_client(client):
    """Bob is a player at the table: no account, only the evening's share link."""
    return client


@pytest.fixture
def evening(alice):
    return factories.make_evening(alice)


@pytest.fixture
def snapser_table(evening):
    return factories.make_table(evening, "snapser")


@pytest.fixture
def skat_table(evening):
    return factories.make_table(evening, "skat")
