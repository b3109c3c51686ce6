"""Driving Talon in a phone-sized chromium for a benchmark: a throw-away database, a live server in this process,
and a browser with the scorekeeper logged in. Shared by bench/taps.py and bench/start_taps.py."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from tests.e2e.browser import CHROMIUM, CHROMIUM_ARGS


def setup_django(name: str) -> Path:
    """The test settings on a throw-away SQLite file, migrated; plain HTTP on 127.0.0.1. Returns its folder."""
    workdir = Path(tempfile.mkdtemp(prefix=f"talon-{name}-"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
    os.environ["DATABASE_URL"] = f"sqlite:///{workdir / 'bench.sqlite3'}"
    os.environ["ALLOWED_HOSTS"] = "127.0.0.1"
    os.environ["SECURE_SSL_REDIRECT"] = "0"  # the live server speaks plain HTTP
    os.environ["SECURE_COOKIES"] = "0"
    # Playwright's sync API keeps an asyncio loop running in this thread, and Django then refuses the (synchronous)
    # ORM calls a bench makes between Playwright's calls; nothing here is async, so allow them.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    return workdir


def session_of(user: Any) -> str:
    """A session cookie value of ``user``, logged in without the login form (which a bench does not count)."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    return str(client.cookies["sessionid"].value)


@contextmanager
def chromium_at_live_server() -> Iterator[tuple[Any, str]]:
    """(a chromium browser, the base URL of a live server of this process on a free port), both stopped after."""
    from django.contrib.staticfiles.handlers import StaticFilesHandler
    from django.test.testcases import LiveServerThread

    server = LiveServerThread("127.0.0.1", StaticFilesHandler, connections_override=None, port=0)
    server.daemon = True
    server.start()
    server.is_ready.wait()
    if server.error:
        raise server.error
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            yield browser, f"http://127.0.0.1:{server.port}"
            browser.close()
    finally:
        server.terminate()
