"""Every cookie the app sets is Secure where the others are (production, or SECURE_COOKIES=1)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
COOKIES = ("SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE", "LANGUAGE_COOKIE_SECURE")


def _secure_flags(**env: str) -> list[str]:
    clean = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "SECRET_KEY", "SECURE_COOKIES"}}
    code = f"import config.settings as s; print(*(getattr(s, name) for name in {COOKIES!r}))"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=clean | env, check=True
    )
    return result.stdout.split()


@pytest.mark.parametrize(
    ("env", "secure"),
    [({"SECRET_KEY": "k" * 50}, "True"), ({"DEBUG": "1"}, "False"), ({"DEBUG": "1", "SECURE_COOKIES": "1"}, "True")],
)
def test_the_language_cookie_is_as_secure_as_the_session(env, secure):
    assert _secure_flags(**env) == [secure] * len(COOKIES)


def test_the_language_cookie_set_says_secure(client, settings):
    settings.LANGUAGE_COOKIE_SECURE = True
    response = client.post("/i18n/setlang/", {"language": "cs", "next": "/"})
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME]["secure"] is True
