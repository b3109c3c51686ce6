"""A form posted in another charset than UTF-8 is a 400 answered once, never a 500 and a log full of tracebacks.

Django will not read a form body (``application/x-www-form-urlencoded``) in any charset but UTF-8; the CSRF check
reading it raised, and the 400 page's own CSRF check raised again, until the request ended in a 500 with some 77 KB
of log. Every form, logged in or not, with and without a CSRF cookie.
"""

from __future__ import annotations

import logging

import pytest
from django.test import Client

from tests import factories

CHARSETS = ["utf-16", "UTF-16LE", "utf-32", "latin-1", "iso-8859-2", "cp1250", "ascii", "utf8"]
# Django ignores a charset Python does not know and reads the form as UTF-8, as usual.
READ_AS_UTF_8 = ["no-such-charset"]
FORMS = [
    "/accounts/login/",
    "/evenings/new/",
    "/circles/new/",
    "/tournaments/new/",
    "/i18n/setlang/",
]


def _post(client: Client, path: str, charset: str) -> object:
    body = "login=alice&password=x&csrfmiddlewaretoken=" + "a" * 32
    encoding = charset if charset not in ("no-such-charset", "utf8") else "utf-8"
    return client.generic(
        "POST",
        path,
        body.encode(encoding),
        content_type=f"application/x-www-form-urlencoded; charset={charset}",
    )


@pytest.mark.parametrize("path", FORMS)
@pytest.mark.parametrize("charset", CHARSETS + READ_AS_UTF_8)
@pytest.mark.parametrize("logged_in", [False, True])
def test_a_form_in_another_charset_is_a_bad_request_logged_once(db, caplog, path, charset, logged_in):
    client = Client(enforce_csrf_checks=True, raise_request_exception=False)
    if logged_in:
        client.force_login(factories.make_user("alice"))
    client.cookies["csrftoken"] = "a" * 32
    with caplog.at_level(logging.WARNING):
        response = _post(client, path, charset)
    assert response.status_code < 500
    if charset in CHARSETS:
        assert response.status_code == 400
    assert len(caplog.records) <= 1
    assert sum(len(record.getMessage()) for record in caplog.records) < 500


def test_a_form_in_utf_8_is_still_read(db):
    client = Client(enforce_csrf_checks=True, raise_request_exception=False)
    client.cookies["csrftoken"] = "a" * 32
    response = _post(client, "/accounts/login/", "utf-8")
    assert response.status_code == 200  # read: the log-in page again, the password being wrong
    assert b'value="alice"' in response.content  # the name as read, given back in the form
