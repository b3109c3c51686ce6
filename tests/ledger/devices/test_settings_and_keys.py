"""Push's settings fail loudly, the key pair made for them belongs together, and a phone's browser gets a name."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from ledger.devices import checks, keys
from ledger.devices.labels import browser_label

ROOT = Path(__file__).resolve().parents[3]


def _load_settings(**env: str) -> subprocess.CompletedProcess[str]:
    clean = {name: value for name, value in os.environ.items() if not name.startswith("WEBPUSH_")}
    code = "import config.settings as s; print(bool(s.WEBPUSH_VAPID_PRIVATE_KEY))"
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=clean | {"DEBUG": "1"} | env
    )


def test_without_keys_push_is_off():
    result = _load_settings()

    assert (result.returncode, result.stdout.strip()) == (0, "False")


@pytest.mark.parametrize(
    ("env", "error"),
    [
        ({"WEBPUSH_VAPID_PUBLIC_KEY": "BKEY"}, "set both (push on) or neither"),
        ({"WEBPUSH_VAPID_PRIVATE_KEY": "private"}, "set both (push on) or neither"),
        ({"WEBPUSH_VAPID_PUBLIC_KEY": "BKEY", "WEBPUSH_VAPID_PRIVATE_KEY": "private"}, "WEBPUSH_SUBJECT: expected"),
    ],
)
def test_half_a_configuration_stops_the_start(env, error):
    result = _load_settings(**env)

    assert result.returncode != 0
    assert error in result.stderr


def test_the_command_prints_a_pair_the_checks_accept(settings):
    out = io.StringIO()
    call_command("vapid_keys", stdout=out)
    lines = dict(line.split("=", 1) for line in out.getvalue().splitlines())

    settings.WEBPUSH_VAPID_PUBLIC_KEY = lines["WEBPUSH_VAPID_PUBLIC_KEY"]
    settings.WEBPUSH_VAPID_PRIVATE_KEY = lines["WEBPUSH_VAPID_PRIVATE_KEY"]
    settings.WEBPUSH_SUBJECT = "mailto:admin@example.org"
    assert checks.vapid_settings() == []
    assert len(keys.public_key_of(lines["WEBPUSH_VAPID_PRIVATE_KEY"])) == 87  # 65 bytes, base64url


def test_the_checks_name_keys_that_do_not_belong_together_and_a_bad_subject(settings):
    public, _ = keys.new_pair()
    _, private = keys.new_pair()
    settings.WEBPUSH_VAPID_PUBLIC_KEY, settings.WEBPUSH_VAPID_PRIVATE_KEY = public, private
    settings.WEBPUSH_SUBJECT = "admin@example.org"

    assert [error.id for error in checks.vapid_settings()] == ["devices.E002", "devices.E003"]

    settings.WEBPUSH_VAPID_PRIVATE_KEY = "bm90IGEga2V5"
    assert [error.id for error in checks.vapid_settings()] == ["devices.E001", "devices.E003"]


@pytest.mark.parametrize(
    ("agent", "label"),
    [
        (
            "Mozilla/5.0 (Linux; Android 13; SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/23.0 "
            "Chrome/115.0.0.0 Mobile Safari/537.36",
            "Samsung Internet on Android",
        ),
        (
            "Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0 "
            "Mobile/15E148 Safari/604.1",
            "Chrome on iPad",
        ),
        (
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 "
            "Safari/605.1.15",
            "Safari on macOS",
        ),
        (
            "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 "
            "Safari/537.36",
            "Chrome on ChromeOS",
        ),
        ("Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0", "Firefox on Android"),
        ("curl/8.5.0", "A browser"),
    ],
)
def test_a_browser_is_named_as_its_owner_would(agent, label):
    assert browser_label(agent) == label
