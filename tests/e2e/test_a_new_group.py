"""A new group gets in by itself, from an empty database, through the pages alone (no factory makes a user here).

Věra signs up with a passkey on her phone (Chromium's virtual authenticator), Karel with a user name and a password
on his. Věra starts an evening and a Šnapser table, and makes an invitation link naming Karel's player; Karel opens
it, accepts, lands on the evening as a co-scorekeeper and is that player. He records a hand from his phone, logs out
and back in with his password, and his own page shows the evening with the net the table shows. He forgets his
password: the reset mail comes, its link sets a new one, which logs him in. He deletes his account: the evening still
balances, and Věra still sees his hand under his player's name. Every page on the way passes axe on the phone.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import pytest
from allauth.mfa.models import Authenticator
from django.contrib.auth import get_user_model
from django.core import mail
from playwright.sync_api import Browser, Page, expect

from ledger.invitations.models import InviteLink
from ledger.models import Evening, Hand, Posting
from ledger.people.models import PlayerClaim
from tests.e2e.axe import audit, report
from tests.e2e.browser import PHONE
from tests.e2e.conftest import close_quietly, watched_context
from tests.e2e.test_accessibility import SIDEWAYS
from tests.e2e.test_accounts import PASSWORD_LABEL, _log_out, _with_authenticator
from tests.e2e.ui import choose, expect_balances, hand_row, record_with, tap

pytestmark = pytest.mark.e2e

KAREL_PASSWORD = "karel-deals-on-fridays"
KAREL_NEW_PASSWORD = "karel-remembers-this-one"
KAREL_MAIL = "karel@example.org"
SEATS = ["Věra", "Karel", "Ota"]  # Věra deals first, so Karel chooses
# Karel's hrám in leaves, won bez vody (N2: four stakes) at a crown evening's Šnapser stake of 2.00: 8.00 from each
# of the other two.
AFTER_THE_HAND = {"Věra": "−8.00", "Karel": "+16.00", "Ota": "−8.00"}


class Audit:
    """axe on every page visited, at the size of the phone it is seen on; the violations are all told at the end."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def __call__(self, page: Page, where: str) -> None:
        self.problems += report(audit(page), where)
        width = page.viewport_size["width"]
        if sideways := page.evaluate(SIDEWAYS, width):
            self.problems.append(f"{where}: scrolls sideways at {width}px by {sideways}")


def _log_in_with_password(page: Page, login: str, password: str) -> None:
    page.get_by_role("link", name="Log in", exact=True).click()
    page.get_by_label("User name or e-mail").fill(login)
    page.get_by_label(PASSWORD_LABEL).fill(password)
    page.get_by_role("button", name="Log in", exact=True).click()
    expect(page.get_by_role("link", name="karel", exact=True)).to_be_visible()


def _reset_link() -> str:
    """The link of the one password reset mail sent (the mail confirming the address at sign-up came before it)."""
    resets = [message for message in mail.outbox if message.subject.endswith("Password Reset Email")]
    assert len(resets) == 1, [message.subject for message in mail.outbox]
    assert resets[0].to == [KAREL_MAIL]
    found = re.search(r"https?://\S+/accounts/password/reset/key/\S+", resets[0].body)
    assert found, resets[0].body
    return found.group(0)


def test_a_new_group_gets_in_by_itself(browser: Browser, live_server: Any) -> None:
    users = get_user_model().objects
    assert not users.exists()
    seen = Audit()
    veras, vera_problems = watched_context(browser, live_server.url, **PHONE)
    karels, karel_problems = watched_context(browser, live_server.url, **PHONE)
    try:
        # 1. Věra signs up with a passkey, Karel with a user name, an e-mail address and a password.
        vera = veras.new_page()
        _with_authenticator(veras, vera)
        vera.goto("/")
        seen(vera, "home (visitor)")
        vera.get_by_role("link", name="Sign up", exact=True).click()
        expect(vera.get_by_role("heading", name="Sign up", exact=True)).to_be_visible()
        seen(vera, "sign-up")
        vera.get_by_role("link", name="Sign up with a passkey instead (no password)").click()
        expect(vera.get_by_role("heading", name="Sign up with a passkey")).to_be_visible()
        seen(vera, "passkey sign-up")
        vera.get_by_label("User name").fill("vera")
        vera.get_by_role("button", name="Next: make the passkey").click()
        expect(vera.get_by_role("heading", name="Make your passkey")).to_be_visible()
        seen(vera, "passkey sign-up, the passkey")
        vera.get_by_role("button", name="Make the passkey").click()
        expect(vera.get_by_role("link", name="vera", exact=True)).to_be_visible()
        vera_user = users.get(username="vera")
        assert not vera_user.has_usable_password()
        assert Authenticator.objects.filter(user=vera_user, type=Authenticator.Type.WEBAUTHN).count() == 1

        karel = karels.new_page()
        karel.goto("/")
        karel.get_by_role("link", name="Sign up", exact=True).click()
        karel.get_by_label("User name").fill("karel")
        karel.get_by_label("E-mail (optional)").fill(KAREL_MAIL)
        karel.get_by_label(PASSWORD_LABEL).fill(KAREL_PASSWORD)
        karel.get_by_label("Password (again)").fill(KAREL_PASSWORD)
        karel.get_by_role("button", name="Sign up", exact=True).click()
        expect(karel.get_by_role("link", name="karel", exact=True)).to_be_visible()
        seen(karel, "home (karel, just signed up)")
        karel_user = users.get(username="karel")
        assert karel_user.check_password(KAREL_PASSWORD) and karel_user.email == KAREL_MAIL
        # The address is confirmed by a mail, which he may leave unanswered: it is optional.
        (confirmation,) = mail.outbox
        assert confirmation.to == [KAREL_MAIL]
        assert confirmation.subject.endswith("Please Confirm Your Email Address")

        # 2. Věra starts an evening and its table, as a scorekeeper does, and invites Karel's player by link.
        vera.goto("/")
        seen(vera, "home (vera)")
        tap(vera, vera.get_by_role("link", name="Start an evening"))
        expect(vera.get_by_role("heading", name="Start an evening")).to_be_visible()
        seen(vera, "new evening")
        tap(vera, vera.get_by_role("button", name="Next: the table"))
        choose(vera, "game", "Šnapser")
        for seat, name in enumerate(SEATS):
            vera.locator(f"#id_player_{seat}").fill(name)
        seen(vera, "new table")
        tap(vera, vera.get_by_role("button", name="Start the table"))
        expect(vera.locator("#hand-form")).to_be_visible()
        expect(vera.locator("#next-dealer")).to_have_text("Věra deals next.")
        seen(vera, "table (vera)")
        evening = Evening.objects.get()
        table = evening.tables.get()
        assert (evening.owner, evening.currency, table.game, table.seat_names) == (vera_user, "CZK", "snapser", SEATS)
        assert table.ruleset["stake"] == "2.00"

        vera.goto(evening.get_absolute_url())
        section = vera.locator("#invite-links")
        section.get_by_label("For whom").select_option(label="Karel only (they become this player)")
        tap(vera, section.get_by_role("button", name="Make an invitation link"))
        expect(section.get_by_role("heading", name="For Karel")).to_be_visible()
        seen(vera, "evening with Karel's link")
        link = InviteLink.objects.get()
        assert (link.evening, link.player.name) == (evening, "Karel")
        url = section.get_by_role("textbox", name="Invitation link").input_value()
        assert url == f"{live_server.url}/i/{link.token}/"

        # Karel opens the link on his phone, accepts: he keeps score of the evening and is its Karel.
        karel.goto(url)
        expect(karel.get_by_text("vera invites you to keep score of an evening with them:")).to_be_visible()
        expect(karel.get_by_text("You join as Karel.")).to_be_visible()
        seen(karel, "the invitation")
        karel.get_by_role("button", name="Accept").click()
        expect(karel).to_have_url(f"{live_server.url}{evening.get_absolute_url()}")
        expect(karel.get_by_text(f"You keep score of {evening} now.")).to_be_visible()
        expect(karel.get_by_role("link", name="New table")).to_be_visible()
        seen(karel, "evening (karel, co-scorekeeper)")
        assert list(evening.scorekeepers.all()) == [karel_user]
        claim = PlayerClaim.objects.get(user=karel_user)
        assert (claim.player.name, claim.player.owner, claim.status) == ("Karel", vera_user, "approved")

        # 3. Karel records a hand from his phone: he chooses, hrám in leaves, won bez vody.
        karel.locator(f'a[href="{table.get_absolute_url()}"]').click()
        expect(karel.locator("#hand-form")).to_be_visible()
        seen(karel, "table (karel)")
        choose(karel, "trump", "leaves")
        record_with(karel, "result", "bez vody")
        expect(karel.locator("#table-status")).to_contain_text("Hand #1: Karel +16.00")
        expect_balances(karel, AFTER_THE_HAND)
        expect(hand_row(karel, 1)).to_contain_text("bez vody")
        seen(karel, "table (karel, a hand recorded)")
        hand = Hand.objects.get()
        assert hand.entered_by == karel_user
        assert {posting.player.name: posting.amount for posting in hand.postings.all()} == {
            "Věra": Decimal("-8"),
            "Karel": Decimal("16"),
            "Ota": Decimal("-8"),
        }

        # He logs out and back in with his password; his page shows the evening and the table's +16.00.
        _log_out(karel)
        _log_in_with_password(karel, "karel", KAREL_PASSWORD)
        karel.get_by_role("link", name="My evenings, what I owe and my statistics").click()
        expect(karel.get_by_role("heading", name="My page")).to_be_visible()
        expect(karel.locator(".my-claims li")).to_have_count(1)
        expect(karel.locator(".my-claims li")).to_have_text(re.compile(r"^Karel\s+· kept by vera · approved\b", re.I))
        rows = karel.locator("table.my-evenings tbody tr")
        expect(rows).to_have_count(1)
        expect(rows).to_have_attribute("data-evening", str(evening.pk))
        net = rows.locator("td[data-net]")
        expect(net).to_have_attribute("data-net", "16.0000")
        expect(net).to_have_text(re.compile(r"^16\.00\sKč$"))  # a gain: no sign, drawn as one (class "plus")
        expect(net).to_have_class(re.compile(r"\bplus\b"))
        seen(karel, "my page (karel)")

        # 4. He forgets his password: the mail's link sets a new one, and the new one logs him in.
        _log_out(karel)
        karel.get_by_role("link", name="Log in", exact=True).click()
        expect(karel.get_by_role("heading", name="Log in")).to_be_visible()
        seen(karel, "log-in")
        karel.get_by_role("link", name="Forgot your password?").click()
        expect(karel.get_by_role("heading", name="Password Reset")).to_be_visible()
        seen(karel, "password reset")
        karel.get_by_label("Email").fill(KAREL_MAIL)
        karel.get_by_role("button", name="Reset My Password").click()
        expect(karel.get_by_text("We have sent you an email.")).to_be_visible()
        seen(karel, "password reset, mail sent")
        reset_link = _reset_link()
        assert reset_link.startswith(f"{live_server.url}/accounts/password/reset/key/")
        karel.goto(reset_link)
        expect(karel.get_by_role("heading", name="Change Password")).to_be_visible()
        seen(karel, "new password")
        karel.get_by_label(re.compile(r"^New Password:?$")).fill(KAREL_NEW_PASSWORD)
        karel.get_by_label(re.compile(r"^New Password \(again\):?$")).fill(KAREL_NEW_PASSWORD)
        karel.get_by_role("button", name="Change Password").click()
        expect(karel.get_by_text("Your password is now changed.")).to_be_visible()
        seen(karel, "new password set")
        karel_user.refresh_from_db()
        assert karel_user.check_password(KAREL_NEW_PASSWORD) and not karel_user.check_password(KAREL_PASSWORD)
        karel.goto("/")
        _log_in_with_password(karel, KAREL_MAIL, KAREL_NEW_PASSWORD)

        # 5. He deletes his account, confirming with his password as the page asks, then with his name.
        karel.get_by_role("link", name="karel", exact=True).click()
        expect(karel.get_by_role("heading", name="Your account")).to_be_visible()
        seen(karel, "account (karel)")
        karel.get_by_role("link", name="Delete my account").click()
        # allauth counts only a re-authentication as recent, not the log-in a minute ago: the password once more.
        expect(karel).to_have_url(re.compile(r"/accounts/reauthenticate/\?next=%2Faccounts%2Fdelete%2F$"))
        seen(karel, "re-authentication")
        karel.get_by_label(PASSWORD_LABEL).fill(KAREL_NEW_PASSWORD)
        karel.get_by_role("button", name="Confirm").click()
        expect(karel.get_by_role("heading", name="Delete my account")).to_be_visible()
        seen(karel, "delete my account")
        karel.get_by_label("Type your user name to confirm").fill("karel")
        karel.get_by_role("button", name="Delete my account for good").click()
        expect(karel.get_by_text("Your account is deleted.")).to_be_visible()
        expect(karel.get_by_role("link", name="Log in", exact=True)).to_be_visible()
        seen(karel, "home (karel, deleted)")
        karel_user.refresh_from_db()
        assert (karel_user.username, karel_user.is_active, karel_user.email) == (f"deleted-{karel_user.pk}", False, "")
        assert not PlayerClaim.objects.filter(user=karel_user).exists()

        # The evening still balances, hand by hand, and Věra still sees Karel's hand under his name.
        postings = Posting.objects.filter(hand__table__evening=evening)
        assert postings.count() == 3 and postings.total() == 0
        assert all(Posting.objects.filter(hand=hand).total() == 0 for hand in Hand.objects.filter(table=table))
        vera.goto(table.get_absolute_url())
        expect_balances(vera, AFTER_THE_HAND)
        expect(hand_row(vera, 1)).to_contain_text("bez vody")
        amounts = hand_row(vera, 1).locator(".amounts li")
        expect(amounts).to_have_text(
            [re.compile(r"Věra\s+−8\.00"), re.compile(r"Karel\s+\+16\.00"), re.compile(r"Ota\s+−8\.00")]
        )
        seen(vera, "table (vera, after Karel left)")
        vera.goto(evening.get_absolute_url())
        keepers = vera.get_by_role("heading", name="Co-scorekeepers").locator("xpath=..").locator("li")
        expect(keepers).to_have_count(0)  # a deleted account keeps score of no evening
        assert not evening.scorekeepers.exists()
    finally:
        close_quietly(karels, karel_problems, "Karel's phone")
        close_quietly(veras, vera_problems, "Věra's phone")

    # 6. No serious accessibility violation on any page on the way.
    assert not seen.problems, "\n".join(seen.problems)
