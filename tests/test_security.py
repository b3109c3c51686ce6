"""Hardening with DEBUG off: deploy checks, headers, a Content-Security-Policy the pages pass, limited log-ins."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
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
    (r"<script(?![^>]*\bsrc=)[^>]*>", "an inline script"),
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


def test_log_in_is_refused_after_five_failures(client, alice):
    cache.clear()
    url = reverse("login")
    for _ in range(5):
        assert client.post(url, {"username": "alice", "password": "wrong"}).status_code == 200
    blocked = client.post(url, {"username": "alice", "password": factories.PASSWORD})
    assert blocked.status_code == 429
    assert "Too many failed log-ins" in blocked.content.decode()
    assert "_auth_user_id" not in client.session
    cache.clear()
    assert client.post(url, {"username": "alice", "password": factories.PASSWORD}).status_code == 302
