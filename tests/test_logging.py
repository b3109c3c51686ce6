"""Errors leave a trace: a 500's traceback goes to stderr with the request id, DEBUG on or off.

A test-only URL whose view raises stands for any bug; the log handler the settings configure is pointed at a buffer
for the test, so what is checked is what gunicorn's error log would hold.
"""

from __future__ import annotations

import io
import logging
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import path

from ledger.boundary import RequestIdFilter

ROOT = Path(__file__).resolve().parent.parent


def _broken_view(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("the dealer dropped the cards")


urlpatterns = [path("broken/", _broken_view), path("fine/", lambda request: HttpResponse("ok"))]


@pytest.fixture
def stderr_log(settings):
    """What the configured stderr handler writes during the test."""
    settings.ROOT_URLCONF = __name__
    handler = next(h for h in logging.getLogger().handlers if any(isinstance(f, RequestIdFilter) for f in h.filters))
    buffer = io.StringIO()
    previous = handler.setStream(buffer)
    yield buffer
    handler.setStream(previous)


@pytest.mark.parametrize("debug", [False, True])
def test_a_server_error_is_logged_to_stderr_with_its_traceback_and_request_id(db, settings, stderr_log, debug):
    settings.DEBUG = debug
    response = Client(raise_request_exception=False).get("/broken/", headers={"X-Request-ID": "tap-21.14"})
    assert response.status_code == 500
    assert response["X-Request-ID"] == "tap-21.14"
    logged = stderr_log.getvalue()
    assert "ERROR django.request [request tap-21.14] Internal Server Error: /broken/" in logged
    assert "Traceback (most recent call last)" in logged
    assert "RuntimeError: the dealer dropped the cards" in logged


def test_a_request_without_an_id_gets_one_and_so_does_one_with_a_forged_id(db, stderr_log):
    client = Client(raise_request_exception=False)
    made = client.get("/fine/")["X-Request-ID"]
    assert re.fullmatch(r"[0-9a-f]{32}", made)
    forged = client.get("/broken/", headers={"X-Request-ID": "x\n2026-11-27 ERROR all is well"})["X-Request-ID"]
    assert re.fullmatch(r"[0-9a-f]{32}", forged)
    assert f"[request {forged}] Internal Server Error" in stderr_log.getvalue()
    assert "all is well" not in stderr_log.getvalue()


def test_a_refused_request_is_noted_with_its_id(db, stderr_log):
    response = Client().get("/no-such-page/", headers={"X-Request-ID": "r1"})
    assert response.status_code == 404
    assert "WARNING django.request [request r1] Not Found: /no-such-page/" in stderr_log.getvalue()


def test_a_log_line_outside_a_request_has_no_id(stderr_log):
    logging.getLogger("ledger").error("the nightly backup failed")
    assert "ERROR ledger [request -] the nightly backup failed" in stderr_log.getvalue()


def _production(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "DJANGO_SETTINGS_MODULE", "LOG_LEVEL"}}
    clean |= {"SECRET_KEY": "k" * 50, "ALLOWED_HOSTS": "talon.example", "DJANGO_SETTINGS_MODULE": "config.settings"}
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=clean | env, check=False
    )


def test_with_the_production_settings_a_request_error_reaches_stderr():
    code = (
        "import django, logging; django.setup()\n"
        "try:\n    1 / 0\n"
        "except ZeroDivisionError:\n    logging.getLogger('django.request').exception('Internal Server Error: /x/')\n"
    )
    result = _production(code)
    assert result.returncode == 0, result.stderr
    assert "ERROR django.request [request -] Internal Server Error: /x/" in result.stderr
    assert "ZeroDivisionError: division by zero" in result.stderr


def test_a_bad_log_level_stops_the_start():
    result = _production("import config.settings", LOG_LEVEL="chatty")
    assert result.returncode != 0
    assert "LOG_LEVEL='CHATTY'" in result.stderr
