"""The one settings file fails loudly on bad environment values."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _load_settings(**env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "SECRET_KEY", "DATABASE_URL", "ALLOWED_HOSTS"}}
    code = "import config.settings as s; print(s.DEBUG, s.ALLOWED_HOSTS, s.DATABASES['default']['ENGINE'], s.TIME_ZONE)"
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=clean | env, check=False
    )


def test_it_refuses_to_start_without_a_secret_key_when_debug_is_off():
    result = _load_settings()
    assert result.returncode != 0
    assert "SECRET_KEY is required when DEBUG is off" in result.stderr


def test_debug_runs_on_sqlite_in_prague_without_any_setup():
    result = _load_settings(DEBUG="1")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "True",
        "['127.0.0.1',",
        "'localhost']",
        "django.db.backends.sqlite3",
        "Europe/Prague",
    ]


@pytest.mark.parametrize("value", ["maybe", "2", "tru"])
def test_a_bad_boolean_stops_the_start(value):
    result = _load_settings(DEBUG=value, SECRET_KEY="k")
    assert result.returncode != 0
    assert f"DEBUG='{value}'" in result.stderr


def test_production_settings_read_hosts_and_database_from_the_environment():
    result = _load_settings(
        SECRET_KEY="k" * 50, ALLOWED_HOSTS="talon.example, www.talon.example", DATABASE_URL="postgres://u@db/talon"
    )
    assert result.returncode == 0, result.stderr
    assert "['talon.example', 'www.talon.example'] django.db.backends.postgresql" in result.stdout


def test_sqlite_waits_for_a_busy_lock_and_takes_the_write_lock_up_front(settings):
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3":
        pytest.skip("SQLite options only apply to the embedded database")
    assert settings.DATABASES["default"]["OPTIONS"] == {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
    }
