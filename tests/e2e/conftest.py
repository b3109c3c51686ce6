"""Browser tests: Playwright drives Debian's chromium (never a downloaded browser) against pytest-django's live server.

Every test gets a phone-sized browser context logged in as Alice; ``tests/e2e/ui.py`` taps like a thumb does and
waits for htmx to finish instead of sleeping.
"""

from __future__ import annotations

import os
import select
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

from tests.e2e.browser import CHROMIUM, CHROMIUM_ARGS, HTMX_COUNTER, PHONE

# Generous: CI is a slow 2-core machine running two pytest workers; a passing step never waits this long.
TIMEOUT_MS = 20_000
# How long the live server must have had nothing to do, asked twice this far apart, before the database is flushed.
QUIET_SECONDS = 0.02


expect.set_options(timeout=TIMEOUT_MS)

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Everything under tests/e2e is a browser test (``-m e2e`` / ``-m "not e2e"``), marked or not."""
    for item in items:
        if HERE in Path(str(item.path)).resolve().parents:
            item.add_marker(pytest.mark.e2e)


class _Traffic:
    """What the live server has in hand: its open connections and the requests it is answering."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.connections: set[Any] = set()
        self.answering = 0
        self.listener: Any = None

    def _count(self, change: int) -> None:
        with self.lock:
            self.answering += change

    def watch(self, httpd: Any) -> None:
        """Follow what ``httpd`` (the live server's ThreadedWSGIServer) does: the connections it accepts until it
        shuts them, and each request from its start until its answer is closed (also when the app fails)."""
        process, shutdown, app = httpd.process_request, httpd.shutdown_request, httpd.get_app()

        def process_request(request: Any, client_address: Any) -> None:
            with self.lock:
                self.connections.add(request)
            process(request, client_address)

        def shutdown_request(request: Any) -> None:
            try:
                shutdown(request)
            finally:
                with self.lock:
                    self.connections.discard(request)

        def counted(environ: Any, start_response: Any) -> Any:
            self._count(1)
            try:
                answer = app(environ, start_response)
            except BaseException:
                self._count(-1)
                raise
            return _Answer(answer, lambda: self._count(-1))

        httpd.process_request, httpd.shutdown_request = process_request, shutdown_request
        httpd.set_app(counted)
        self.listener = httpd.socket

    def idle(self) -> bool:
        """No request being answered, none sent but unread on an open connection (a closed one reads as an end of
        file, which its thread has yet to see), and no connection waiting to be accepted."""
        with self.lock:
            if self.answering:
                return False
            sockets = [*self.connections, self.listener]
        try:
            readable, _, _ = select.select([sock for sock in sockets if sock is not None], [], [], 0)
        except (OSError, ValueError):  # a connection shut meanwhile: ask again
            return False
        return not readable


class _Answer:
    """A WSGI answer that says when the server has closed it (PEP 3333: the server closes what the app returned)."""

    def __init__(self, answer: Any, closed: Any) -> None:
        self.answer, self.closed = answer, closed

    def __iter__(self) -> Any:
        return iter(self.answer)

    def __len__(self) -> int:
        return len(self.answer)  # a TypeError when the answer has no length, which the server expects

    def close(self) -> None:
        try:
            if hasattr(self.answer, "close"):
                self.answer.close()
        finally:
            self.closed()


_TRAFFIC = _Traffic()


@pytest.fixture(scope="session")
def live_server(live_server: Any) -> Any:
    """pytest-django's live server, watched (``let_the_server_finish``)."""
    if _TRAFFIC.listener is None:
        _TRAFFIC.watch(live_server.thread.httpd)
    return live_server


def let_the_server_finish() -> None:
    """Wait until the live server has answered every request a closed browser context sent it (the service worker
    may ask for a page just before the close: it refreshes its copy of a table a second after each change), so that
    pytest-django does not flush the database under an answer."""
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    quiet_since = None
    while True:
        now = time.monotonic()
        if not _TRAFFIC.idle():
            quiet_since = None
        elif quiet_since is None:
            quiet_since = now
        elif now - quiet_since >= QUIET_SECONDS:
            return
        assert now < deadline, "the live server is still answering a request"
        time.sleep(QUIET_SECONDS / 4)


def _browser_scope(fixture_name: str, config: pytest.Config) -> str:
    """One browser per worker when only browser tests run (CI's browser stream: ``-m e2e``). Otherwise one per
    module: Playwright keeps an event loop running in the test thread while it is started, which other tests'
    ``asyncio.run`` and Django's async guard must not meet."""
    return "session" if config.getoption("markexpr") == "e2e" else "module"


@pytest.fixture(scope=_browser_scope)
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
    let_the_server_finish()
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
