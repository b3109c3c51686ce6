"""Mail leaves through EMAIL_URL (config/settings.py, env_email; docs/deploy.md): the console with DEBUG or without it,
an SMTP server otherwise; a wrong URL stops the start."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core import mail

from config.settings import env_email

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("", {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}),
        (
            "smtp://talon:s%40cret@mail.example.org:587?tls",
            {
                "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
                "EMAIL_HOST": "mail.example.org",
                "EMAIL_PORT": 587,
                "EMAIL_HOST_USER": "talon",
                "EMAIL_HOST_PASSWORD": "s@cret",
                "EMAIL_USE_TLS": True,
                "EMAIL_USE_SSL": False,
            },
        ),
        (
            "smtp://mail.example.org?ssl",
            {
                "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
                "EMAIL_HOST": "mail.example.org",
                "EMAIL_PORT": 465,
                "EMAIL_HOST_USER": "",
                "EMAIL_HOST_PASSWORD": "",
                "EMAIL_USE_TLS": False,
                "EMAIL_USE_SSL": True,
            },
        ),
        (
            "smtp://localhost",
            {
                "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
                "EMAIL_HOST": "localhost",
                "EMAIL_PORT": 25,
                "EMAIL_HOST_USER": "",
                "EMAIL_HOST_PASSWORD": "",
                "EMAIL_USE_TLS": False,
                "EMAIL_USE_SSL": False,
            },
        ),
    ],
)
def test_email_url_is_read_into_djangos_settings(monkeypatch, url, expected):
    monkeypatch.setenv("EMAIL_URL", url)
    assert env_email("EMAIL_URL") == expected


@pytest.mark.parametrize(
    "url", ["https://mail.example.org", "smtp://", "smtp://host?tls&ssl", "smtp://host?starttls", "smtp://host:x"]
)
def test_a_wrong_email_url_stops_the_start(monkeypatch, url):
    from django.core.exceptions import ImproperlyConfigured

    monkeypatch.setenv("EMAIL_URL", url)
    with pytest.raises(ImproperlyConfigured, match="EMAIL_URL"):
        env_email("EMAIL_URL")


def _mail_settings(**env: str) -> str:
    clean = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "EMAIL_URL", "DJANGO_SETTINGS_MODULE"}}
    code = "import config.settings as s; print(s.EMAIL_BACKEND, s.EMAIL_HOST, s.DEFAULT_FROM_EMAIL)"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=clean | env, check=False
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_debug_prints_mail_to_the_console_whatever_email_url_says():
    printed = _mail_settings(DEBUG="1", EMAIL_URL="smtp://mail.example.org")
    assert printed == "django.core.mail.backends.console.EmailBackend localhost Talon <talon@localhost>"


def test_production_sends_through_email_url_from_the_address_given():
    printed = _mail_settings(
        SECRET_KEY="k" * 50,
        EMAIL_URL="smtp://mail.example.org:2525",
        DEFAULT_FROM_EMAIL="Talon <no-reply@talon.example>",
    )
    assert printed == "django.core.mail.backends.smtp.EmailBackend mail.example.org Talon <no-reply@talon.example>"


def test_tests_keep_mail_in_memory(settings):
    assert settings.EMAIL_BACKEND == "django.core.mail.backends.locmem.EmailBackend"
    mail.send_mail("Subject", "Body", None, ["someone@example.org"])
    assert [message.to for message in mail.outbox] == [["someone@example.org"]]
