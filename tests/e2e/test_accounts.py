"""Accounts in a real browser: a new user signs up with a passkey (Chromium's virtual authenticator, through the
DevTools protocol), logs out and logs back in with it; another signs up with a password. The account pages pass axe
at 320 px and on a laptop, in every theme, and nothing scrolls sideways on a phone."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from allauth.mfa.models import Authenticator
from django.contrib.auth import get_user_model
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests import factories
from tests.e2e.axe import audit, report
from tests.e2e.browser import PHONE
from tests.e2e.conftest import close_quietly, watched_context

pytestmark = pytest.mark.e2e

PASSWORD = "a-long-passphrase-for-erika"
THEMES = {"light": "Light", "dark": "Dark", "contrast": "High contrast"}
PASSWORD_LABEL = re.compile(r"^Password:?$")  # not "Password (again)"
SIDEWAYS = "(width) => document.documentElement.scrollWidth - width"


@pytest.fixture
def device(browser: Browser, live_server: Any) -> Iterator[BrowserContext]:
    """A fresh phone (the live server's address is localhost: a name a passkey can be made for, unlike 127.0.0.1)."""
    context, problems = watched_context(browser, live_server.url, **PHONE)
    yield context
    close_quietly(context, problems)


def _with_authenticator(context: BrowserContext, page: Page) -> Any:
    """The phone's own passkey store: Chromium's virtual authenticator, its user always verified."""
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    options = {
        "protocol": "ctap2",
        "transport": "internal",
        "hasResidentKey": True,
        "hasUserVerification": True,
        "isUserVerified": True,
    }
    authenticator = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": options})["authenticatorId"]
    return cdp, authenticator


def _log_out(page: Page) -> None:
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("link", name="Log in", exact=True)).to_be_visible()


def test_sign_up_with_a_passkey_then_log_out_and_back_in_with_it(device, live_server, db):
    page = device.new_page()
    cdp, authenticator = _with_authenticator(device, page)
    page.goto("/")
    page.get_by_role("link", name="Sign up", exact=True).click()
    page.get_by_role("link", name="Sign up with a passkey instead (no password)").click()
    page.get_by_label("User name").fill("erika")
    page.get_by_role("button", name="Next: make the passkey").click()
    expect(page.get_by_role("heading", name="Make your passkey")).to_be_visible()
    page.get_by_role("button", name="Make the passkey").click()
    expect(page.get_by_role("heading", name="Your evenings")).to_be_visible()
    expect(page.get_by_role("link", name="erika")).to_be_visible()
    erika = get_user_model().objects.get(username="erika")
    assert erika.is_active and not erika.has_usable_password() and erika.email == ""
    assert Authenticator.objects.filter(user=erika, type=Authenticator.Type.WEBAUTHN).count() == 1
    credentials = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"]
    assert len(credentials) == 1 and credentials[0]["isResidentCredential"]

    _log_out(page)
    page.get_by_role("link", name="Log in", exact=True).click()
    page.get_by_role("button", name="Log in with a passkey").click()
    expect(page.get_by_role("heading", name="Your evenings")).to_be_visible()
    expect(page.get_by_role("link", name="erika")).to_be_visible()
    page.get_by_role("link", name="erika").click()
    expect(page.get_by_role("heading", name="Your account")).to_be_visible()
    expect(page.get_by_text("You log in with a passkey; you have no password.")).to_be_visible()

    # Deleting: the passkey once more instead of a password, then the name typed; the passkey no longer logs in.
    page.get_by_role("link", name="Delete my account").click()
    page.get_by_role("button", name="Use a security key").click()
    expect(page.get_by_role("heading", name="Delete my account")).to_be_visible()
    page.get_by_label("Type your user name to confirm").fill("erika")
    page.get_by_role("button", name="Delete my account for good").click()
    expect(page.get_by_text("Your account is deleted.")).to_be_visible()
    erika.refresh_from_db()
    assert (erika.username, erika.is_active) == (f"deleted-{erika.pk}", False)
    assert not Authenticator.objects.filter(user=erika).exists()
    page.goto("/accounts/login/")
    page.get_by_role("button", name="Log in with a passkey").click()
    expect(page.get_by_role("alert").or_(page.locator(".messages"))).to_be_visible()
    expect(page.get_by_role("link", name="Log in", exact=True)).to_be_visible()


def test_sign_up_with_a_password_and_log_in_again(device, live_server, db):
    page = device.new_page()
    page.goto("/accounts/signup/")
    page.get_by_label("User name").fill("frank")
    page.get_by_label(PASSWORD_LABEL).fill(PASSWORD)
    page.get_by_label("Password (again)").fill(PASSWORD)
    page.get_by_role("button", name="Sign up", exact=True).click()
    expect(page.get_by_role("heading", name="Your evenings")).to_be_visible()
    assert get_user_model().objects.get(username="frank").check_password(PASSWORD)
    _log_out(page)
    page.goto("/accounts/login/")
    page.get_by_label("User name or e-mail").fill("frank")
    page.get_by_label(PASSWORD_LABEL).fill(PASSWORD)
    page.get_by_role("button", name="Log in", exact=True).click()
    expect(page.get_by_role("link", name="frank")).to_be_visible()


# --------------------------------------------------------------------------------------------------------------
# Legible: axe at 320 px and on a laptop, in every theme; nothing sideways on a phone

PAGES_FOR_ANYBODY = ["/accounts/login/", "/accounts/signup/", "/accounts/signup/passkey/", "/accounts/password/reset/"]
# The deletion page comes last: it asks for the password again first (that page is audited on the way).
PAGES_FOR_ALICE = [
    "/accounts/",
    "/accounts/password/change/",
    "/accounts/email/",
    "/accounts/2fa/webauthn/",
    "/accounts/2fa/webauthn/add/",
    "/accounts/logout/",
    "/accounts/delete/",
]


def _audit_in_every_theme(page: Page, width: int, where: str) -> list[str]:
    problems = []
    for theme, button in THEMES.items():
        page.get_by_role("button", name=button, exact=True, include_hidden=True).dispatch_event("click")
        expect(page.locator("html")).to_have_attribute("data-theme", theme)
        problems += report(audit(page), f"{where} ({theme}, {width}px)")
    if width < 500:
        if (extra := page.evaluate(SIDEWAYS, width)) > 0:
            problems.append(f"{where}: scrolls sideways by {extra}px at {width}px")
        larger = page.get_by_role("button", name="Larger text", exact=True, include_hidden=True)
        larger.dispatch_event("click")
        expect(page.locator("html")).to_have_class(re.compile(r"\blarge-text\b"))
        if (extra := page.evaluate(SIDEWAYS, width)) > 0:
            problems.append(f"{where}: scrolls sideways by {extra}px at {width}px with Larger text")
        larger.dispatch_event("click")
    return problems


@pytest.mark.parametrize("width", [320, 1280], ids=lambda width: f"{width}px")
def test_the_account_pages_are_legible(browser, live_server, alice, width):
    options = (
        {**PHONE, "viewport": {"width": width, "height": 740}}
        if width < 500
        else {"viewport": {"width": width, "height": 900}, "locale": "en-GB"}
    )
    context, errors = watched_context(browser, live_server.url, **options)
    page = context.new_page()
    problems: list[str] = []
    for url in PAGES_FOR_ANYBODY:
        page.goto(url)
        problems += _audit_in_every_theme(page, width, url)
    page.goto("/accounts/login/")  # a wrong password first: the page with its error
    page.get_by_label("User name or e-mail").fill("alice")
    page.get_by_label(PASSWORD_LABEL).fill("wrong")
    page.get_by_role("button", name="Log in", exact=True).click()
    expect(page.get_by_role("alert")).to_be_visible()
    problems += _audit_in_every_theme(page, width, "/accounts/login/ (wrong password)")
    page.get_by_label(PASSWORD_LABEL).fill(factories.PASSWORD)
    page.get_by_role("button", name="Log in", exact=True).click()
    expect(page.get_by_role("link", name="alice")).to_be_visible()
    for url in PAGES_FOR_ALICE:
        page.goto(url)
        problems += _audit_in_every_theme(page, width, page.url.removeprefix(live_server.url))
    page.get_by_label(PASSWORD_LABEL).fill(factories.PASSWORD)  # the re-authentication before deleting
    page.get_by_role("button", name="Confirm").click()
    expect(page.get_by_role("heading", name="Delete my account")).to_be_visible()
    problems += _audit_in_every_theme(page, width, "/accounts/delete/")
    close_quietly(context, errors)
    assert not problems, "\n".join(problems)
