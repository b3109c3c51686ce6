"""Browser tests: Playwright drives Debian's chromium (never a downloaded browser) against pytest-django's live server.

Every test gets a phone-sized browser context logged in as Alice; ``tests/e2e/ui.py`` taps like a thumb does and
waits for htmx to finish instead of sleeping.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

from tests.e2e.browser import CHROMIUM, CHROMIUM_ARGS, HTMX_COUNTER, PHONE

# Generous: CI is a slow 2-core machine running two pytest workers; a passing step never waits this long.
TIMEOUT_MS = 20_000
# How long a request the browser started before its context closed may still run on the live server.
GRACE_SECONDS = 0.5


expect.set_options(timeout=TIMEOUT_MS)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing: install it with `make system-deps` (Debian's chromium package)")
    # Playwright's sync API keeps an asyncio event loop running in this thread for as long as it is started, and
    # Django refuses synchronous ORM calls while a loop runs ("SynchronousOnlyOperation"), although nothing here is
    # async: the tests, the factories and the database flush all run between Playwright's calls. So allow it, but
    # only while Playwright runs, and restore the guard for the rest of the test session.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            yield browser
            browser.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


def watched_context(
    browser: Browser, base_url: str, *, counter: bool = True, **options: Any
) -> tuple[BrowserContext, list[str]]:
    """A new browser context and the list its script errors and Content-Security-Policy violations (which only a
    browser sees) are collected in; with ``counter``, htmx's requests are counted (``HTMX_COUNTER``)."""
    context = browser.new_context(base_url=base_url, **options)
    context.set_default_timeout(TIMEOUT_MS)
    if counter:
        context.add_init_script(HTMX_COUNTER)
    problems: list[str] = []
    context.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    context.on("weberror", lambda error: problems.append(str(error.error)))
    return context, problems


def close_quietly(context: BrowserContext, problems: list[str], who: str = "the browser") -> None:
    """Close the context and fail on any error it reported."""
    context.close()
    # The service worker may have asked the live server for a page just before the close (it refreshes its copy of a
    # table a second after each change): let that answer finish before pytest-django flushes the database under it.
    time.sleep(GRACE_SECONDS)
    assert not problems, f"{who} reported errors: {problems}"


def log_in(context: BrowserContext, user: Any, url: str) -> None:
    """The user's session cookie copied into the context, as if they had used the login page."""
    client = Client()
    client.force_login(user)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": url}])


@pytest.fixture
def phone(browser: Browser, live_server: Any) -> Iterator[BrowserContext]:
    """A fresh phone: no cookies, nothing in localStorage."""
    context, problems = watched_context(browser, live_server.url, **PHONE)
    yield context
    close_quietly(context, problems)


@pytest.fixture
def page(phone: BrowserContext, live_server: Any, alice: Any) -> Page:
    """Alice's phone, logged in."""
    log_in(phone, alice, live_server.url)
    return phone.new_page()
