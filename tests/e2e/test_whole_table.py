"""The whole table keeps the score: four phones at a Mariáš čtyřka, each a browser context of its own.

Alice keeps score and sits as Ana; Ben, Cyril and Dana join the table from their own phones (the code typed, or the
QR code's address). The table lets any seated player record and asks one opponent of the declarer's side to confirm.
Alice records; an opponent's phone is asked without a reload and says OK in one tap; the next hand is disputed with
a reason, the scorekeeper corrects it and the correction is confirmed; two phones record the next hand at once and
the one that comes second sees both versions; all four sign; the close page shows every hand confirmed and every
player signed, and the PDF says so. A tournament table's phone confirms through its score-sheet link.

pytest-django's live server is a WSGI server, where a live line (ledger/seats/streams.py) answers with the table's
state alone and ends; EventSource comes back after its retry (3 s) and a page whose table moved on fetches its live
part. So here a hand reaches the other phones through that state on the next reconnection, without a reload (the
document keeps a mark a reload would lose); the push of each message to an open line is measured under uvicorn in
bench/seated_push.py.

Four phones ask the server at once (each line's reconnection, each page's fetch of its live part, a tap). The
browser tests' SQLite is an in-memory database shared between the live server's threads, where a reader meeting
another thread's write is answered "database table is locked" at once, not after a wait; the app's own SQLite (a
file, ``timeout`` 20 s) waits for the writer instead. So on SQLite the live server here answers one request at a
time, which is what SQLite's single writer makes of them anyway; on PostgreSQL the phones' requests run in parallel.
"""

from __future__ import annotations

import io
import re
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from playwright.sync_api import Browser, BrowserContext, Page, expect
from pypdf import PdfReader

from ledger import services
from ledger.confirmations.models import Confirmation
from ledger.models import Evening, Hand, Table
from ledger.signatures.models import Signature
from ledger.tournaments import services as tournaments
from ledger.tournaments.models import TournamentTable
from tests import factories
from tests.e2e.axe import audit, report
from tests.e2e.browser import PHONE
from tests.e2e.conftest import close_quietly, watched_context
from tests.e2e.ui import choose, expect_balances, record_with, save_correction, settle, tap

pytestmark = pytest.mark.e2e

PLAYERS = ["Ana", "Ben", "Cyril", "Dana"]
# Set once the page is loaded: a reload would lose it.
MARK = "document.documentElement.dataset.loadedOnce = '1'"
NARROW = {"width": 320, "height": 640}


@pytest.fixture(autouse=True)
def _one_request_at_a_time_on_sqlite(live_server: Any) -> Iterator[None]:
    """On the in-memory SQLite, the live server answers one request at a time (the module's docstring says why)."""
    if connection.vendor != "sqlite":
        yield
        return
    httpd = live_server.thread.httpd
    app, turn = httpd.get_app(), threading.Lock()

    def one_at_a_time(environ: Any, start_response: Any) -> Any:
        turn.acquire()
        try:
            answer = app(environ, start_response)
        except BaseException:
            turn.release()
            raise
        # Held until the server closes the answer: Django's request_finished (the statistics' after-work) runs then.
        return _HeldUntilClosed(answer, turn.release)

    httpd.set_app(one_at_a_time)
    try:
        yield
    finally:
        httpd.set_app(app)


class _HeldUntilClosed:
    """A WSGI answer that lets the next request in once the server has closed it (PEP 3333: the server closes what
    the app returned, also when the client went away)."""

    def __init__(self, answer: Any, release: Any) -> None:
        self.answer, self.release, self.open = answer, release, True

    def __iter__(self) -> Any:
        return iter(self.answer)

    def __len__(self) -> int:
        return len(self.answer)  # a TypeError when the answer has no length, which the server expects

    def close(self) -> None:
        try:
            if hasattr(self.answer, "close"):
                self.answer.close()
        finally:
            if self.open:  # once, however often the server closes it
                self.open = False
                self.release()


@pytest.fixture
def table(alice: Any) -> Table:
    """Alice's evening, a Mariáš čtyřka (Ana deals first) where any seated phone records and one opponent
    confirms."""
    evening: Evening = factories.make_evening(alice)
    return services.table_create(
        evening=evening,
        game="marias",
        players=PLAYERS,
        recording=Table.Recording.SEATED,
        confirmation=Table.Confirmation.OPPONENT,
    )


@pytest.fixture
def phones(browser: Browser, live_server: Any) -> Iterator[dict[str, Page]]:
    """Three players' own phones: no account, no cookie yet."""
    opened: list[tuple[BrowserContext, list[str], str]] = []
    pages = {}
    for name in PLAYERS[1:]:
        context, problems = watched_context(browser, live_server.url, **PHONE)
        opened.append((context, problems, f"{name}'s phone"))
        pages[name] = context.new_page()
    yield pages
    for context, problems, who in opened:
        close_quietly(context, problems, who)


# --------------------------------------------------------------------------------------------------------------


def _no_sideways_scroll(page: Page, where: str) -> None:
    """At 320 px (the narrowest phone) nothing makes the page scroll sideways; the phone's own size again after."""
    size = page.viewport_size
    page.set_viewport_size(NARROW)
    try:
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= NARROW["width"], f"{where} scrolls sideways at 320 px ({width} px wide)"
    finally:
        if size:
            page.set_viewport_size(size)


def _accessible(page: Page, where: str) -> None:
    violations = audit(page)
    assert not violations, "\n".join(report(violations, where))
    _no_sideways_scroll(page, where)


def _join_by_code(phone: Page, code: str, name: str, *, audited: bool = False) -> None:
    """The player opens the join page, types the code read off the scorekeeper's phone and taps their name."""
    phone.goto("/j/")
    if audited:
        _accessible(phone, "the page asking for the code")
    phone.get_by_label(re.compile("The table's code")).fill(code.lower())
    tap(phone, phone.get_by_role("button", name="Find the table"))
    _take_seat(phone, name)


def _take_seat(phone: Page, name: str) -> None:
    tap(phone, phone.get_by_role("button", name=name, exact=True))
    expect(phone.locator("#seat-who")).to_have_text(f"You sit as {name}.")
    phone.evaluate(MARK)


def _still_loaded_once(phone: Page) -> None:
    assert phone.evaluate("document.documentElement.dataset.loadedOnce") == "1", "the page was reloaded"


def _card(phone: Page, number: int) -> Any:
    return phone.locator(f"#confirm-{number}")


def _ok(phone: Page, number: int) -> None:
    """One tap: OK."""
    tap(phone, _card(phone, number).get_by_role("button", name="OK", exact=True))


def _mark(page: Page, number: int) -> Any:
    return page.locator(f"#hand-{number} [data-mark]").first


def _pdf_text(context: BrowserContext, url: str) -> str:
    answer = context.request.get(url)
    assert answer.ok, answer.status
    assert answer.headers["content-type"] == "application/pdf"
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(answer.body())).pages)
    return " ".join(text.split())


# --------------------------------------------------------------------------------------------------------------


def test_four_phones_keep_the_score_confirm_dispute_race_sign_and_close(
    page: Page, phones: dict[str, Page], table: Table, live_server: Any
) -> None:
    ben, cyril, dana = phones["Ben"], phones["Cyril"], phones["Dana"]

    # The scorekeeper's table page shows the way in: the code to type and the QR code's address.
    page.goto(table.get_absolute_url())
    door = page.locator("#seats-door")
    code = door.locator("[data-seat-code]").inner_text()
    assert re.fullmatch(r"[2-9A-Z]{3} [2-9A-Z]{3}", code), code
    door.locator("summary").click()
    qr_address = door.locator("details a").get_attribute("href")
    assert qr_address and qr_address.startswith(live_server.url), qr_address

    # Ben and Cyril type the code; Dana's camera opens the QR code's address; Alice takes Ana's seat on her own phone.
    _join_by_code(ben, code, "Ben", audited=True)
    _accessible(ben, "the seat page")
    _join_by_code(cyril, code, "Cyril")
    dana.goto(qr_address)
    expect(dana.get_by_role("button", name="Ben (taken: the scorekeeper decides)")).to_be_visible()
    _accessible(dana, "the join page")
    _take_seat(dana, "Dana")
    page.goto(qr_address)
    _take_seat(page, "Ana")

    # Hand 1, recorded on the scorekeeper's table page: Ana and Cyril win a hra in bells.
    page.goto(table.get_absolute_url())
    page.evaluate(MARK)
    choose(page, "declarer", "Ana")
    choose(page, "trump", "bells")
    choose(page, "partner", "Cyril")
    record_with(page, "won", "won")
    expect_balances(page, {"Ana": "+0.20", "Ben": "−0.20", "Cyril": "+0.20", "Dana": "−0.20"})
    expect(_mark(page, 1)).to_have_attribute("data-mark", "awaiting")

    # Both opponents are asked on their phones, priced, without a reload; the partner is not.
    for opponent in (ben, dana):
        card = _card(opponent, 1)
        expect(card).to_contain_text("Hand #1 needs your OK")
        expect(card).to_contain_text("−0.20")
        _still_loaded_once(opponent)
    expect(cyril.locator("#hand-1")).to_be_visible()
    expect(cyril.locator(".confirm-card")).to_have_count(0)

    # Ben confirms in one tap.
    _ok(ben, 1)
    expect(ben.locator("#confirmation-cards")).to_contain_text("Hand #1: OK from Ben.")
    expect(ben.locator(".confirm-card")).to_have_count(0)
    given = Confirmation.objects.get()
    assert (given.player.name, given.version, given.verdict, given.claim_id is not None) == ("Ben", 1, "ok", True)

    # Hand 2: Ben and Dana win a hra in acorns, says the scorekeeper; Cyril, the opponent who did not record it,
    # says that is not what happened.
    choose(page, "declarer", "Ben")
    choose(page, "trump", "acorns")
    choose(page, "partner", "Dana")
    record_with(page, "won", "won")
    expect_balances(page, {"Ana": "0.00", "Ben": "0.00", "Cyril": "0.00", "Dana": "0.00"})
    card = _card(cyril, 2)
    expect(card).to_contain_text("Hand #2 needs your OK")
    _still_loaded_once(cyril)
    card.get_by_text("That's not what happened").click()
    card.get_by_label("What happened instead (optional)").fill("Ben lost it: Dana trumped the ace")
    tap(cyril, card.get_by_role("button", name="Dispute this hand"))
    expect(cyril.locator("#confirmation-cards")).to_contain_text("Hand #2: disputed by Cyril")
    expect(ben.locator(".confirm-card")).to_have_count(0)  # the partner is never asked

    # The scorekeeper sees the flag with the reason (the Web Push "Hand #2 was disputed by Cyril" opens the table
    # page; the live line's state names the table's hands and seats, which a dispute does not change).
    page.goto(table.get_absolute_url())
    flag = page.locator("#disputed-2")
    expect(flag).to_contain_text("Hand #2 is disputed")
    expect(flag).to_contain_text("Cyril: that's not what happened — “Ben lost it: Dana trumped the ace”")
    expect(_mark(page, 2)).to_have_attribute("data-mark", "disputed")

    # She corrects it (a new version), and the correction asks Cyril again, who agrees with one tap.
    tap(page, flag.get_by_role("link", name="Correct hand #2"))
    expect(page.get_by_role("heading", name="Correct hand #2")).to_be_visible()
    choose(page, "won", "lost")
    save_correction(page)
    card = _card(cyril, 2)
    expect(card).to_contain_text("corrected (v2)")
    expect(card).to_contain_text("+0.20")
    _still_loaded_once(cyril)
    _ok(cyril, 2)
    expect(cyril.locator("#confirmation-cards")).to_contain_text("Hand #2: OK from Cyril.")
    assert Confirmation.objects.filter(hand__number=2, version=2, verdict="ok", player__name="Cyril").exists()

    # Hand 3, from two phones at once: Dana and Ben both tap the same deal (Ana and Cyril win in leaves) on pages
    # showing two hands, and both thumbs come down on "won" before either answer is back. One Record reaches the
    # books first; the other phone gets both versions side by side instead of a fourth hand.
    racers = {"Dana": dana, "Ben": ben}
    for phone in racers.values():
        expect(phone.locator("#hand-2")).to_contain_text("corrected")
        choose(phone, "declarer", "Ana")
        choose(phone, "trump", "leaves")
        choose(phone, "partner", "Cyril")
    for phone in racers.values():
        phone.locator("#record-by-won").get_by_role("button", name="won", exact=True).click()
    for phone in racers.values():
        settle(phone)
    lost = [name for name, phone in racers.items() if phone.locator("#hand-conflict").count()]
    assert len(lost) == 1, f"the phones showing the conflict: {lost}"
    [loser] = lost
    [winner] = set(racers) - {loser}
    phone = racers[loser]
    expect(racers[winner].locator("#hand-3")).to_be_visible()
    panel = phone.locator("#hand-conflict")
    expect(panel).to_contain_text(f"Hand #3 was just recorded by {winner}.")
    versions = panel.locator(".conflict-versions article")
    expect(versions).to_have_count(2)
    expect(versions.nth(0)).to_contain_text(f"Hand #3, recorded by {winner}")
    expect(versions.nth(1)).to_contain_text("Yours, not stored")
    assert table.hands.count() == 3
    _still_loaded_once(phone)
    _accessible(phone, "the seat page with the conflict")
    # The loser agrees: the own tap is dropped, and confirms the other's hand (the opponent who did not record it).
    tap(phone, panel.get_by_role("link", name="Theirs is right: drop mine"))
    expect(phone.locator("#hand-conflict")).to_have_count(0)
    _ok(phone, 3)
    expect(phone.locator("#confirmation-cards")).to_contain_text(f"Hand #3: OK from {loser}.")
    assert table.hands.count() == 3
    expect_balances(phone, {"Ana": "+0.60", "Ben": "−0.60", "Cyril": "+0.60", "Dana": "−0.60"})

    # All four sign, each with one tap on their own phone.
    page.goto(f"/seat/{table.pk}/")
    _accessible(page, "the seat page")
    for name, phone in (("Ana", page), ("Ben", ben), ("Cyril", cyril), ("Dana", dana)):
        sign = phone.locator("#sign-the-list")
        expect(sign).to_contain_text("hands 1–3")
        tap(phone, sign.get_by_role("button", name="Sign the list"))
        expect(sign.locator(".signed")).to_contain_text("Signed at")
        # (Not the tap's passing status line "… signed the list.": another phone's signature pushed meanwhile
        # redraws the part, which then says "Signed at" alone.)
        assert Signature.objects.filter(player__name=name, superseded_at__isnull=True).count() == 1
    assert Signature.objects.filter(superseded_at__isnull=True).count() == 4

    # The close page: nothing open, everybody signed; closing needs no override.
    page.goto(f"/evenings/{table.evening_id}/settlement/")
    checks = page.locator("#close-out .close-checks li")
    expect(page.locator('#close-out [data-check="open"]')).to_have_count(0)
    assert checks.count() == 0 or all(text.startswith("✓") for text in checks.all_inner_texts())
    signatures = page.locator("#signatures")
    expect(signatures).to_contain_text("Everybody has signed.")
    for name in PLAYERS:
        expect(signatures.locator(f'li[data-player="{name}"]')).to_have_attribute("data-signed", "yes")
        expect(signatures.locator(f'li[data-player="{name}"]')).to_contain_text("on their own phone")
    _accessible(page, "the close page")
    tap(page, page.get_by_role("button", name="Close and settle"))
    expect(page.get_by_role("heading", name="Who pays whom")).to_be_visible()
    table.evening.refresh_from_db()
    assert not table.evening.is_open
    states = list(Hand.objects.filter(table=table).order_by("number").values_list("number", "version"))
    assert states == [(1, 1), (2, 2), (3, 1)]

    # The PDF, downloaded through the page's link: every hand confirmed (by whom, on whose phone), every signature.
    pdf = page.get_by_role("link", name="PDF summary").get_attribute("href")
    assert pdf
    text = _pdf_text(page.context, pdf)
    assert text.count("confirmed") >= 3, text
    for words in ("OK from Ben", "OK from Cyril", "on their own phone", "Signatures of the list"):
        assert words in text, (words, text)
    for name in PLAYERS:
        assert re.search(rf"{name} \d+\. \d+\. \d{{4}} · signed at \d\d:\d\d on their own phone", text), (name, text)


# --------------------------------------------------------------------------------------------------------------
# A tournament table's phone


@pytest.fixture
def tournament_table(alice: Any) -> TournamentTable:
    """Six players at two Skat tables of three, series 1 drawn: the tournament's tables ask one opponent."""
    night = tournaments.tournament_create(
        owner=alice, game="skat", name="Night", players=["Ana", "Ben", "Cyril", "Dana", "Emil", "Fero"],
        rounds=2, start=True,
    )  # fmt: skip
    return TournamentTable.objects.select_related("table").filter(round__tournament=night).order_by("number")[0]


@pytest.fixture
def table_phone(browser: Browser, live_server: Any) -> Iterator[Page]:
    """The phone lying on the tournament table, opened by its score-sheet link: no account of its own."""
    context, problems = watched_context(browser, live_server.url, **PHONE)
    yield context.new_page()
    close_quietly(context, problems, "the table's phone")


def test_a_tournament_tables_phone_confirms_a_hand_through_its_link(
    table_phone: Page, tournament_table: TournamentTable, alice: Any
) -> None:
    table = tournament_table.table
    assert table.confirmation == Table.Confirmation.OPPONENT
    seats = table.seat_names
    hand = factories.SKAT_S1 | {"declarer": seats[0]}
    services.hand_record(table=table, hand=hand, by=alice)  # recorded on the organiser's phone
    defender = seats[1]

    table_phone.goto(f"/t/{tournament_table.token}/")
    awaiting = table_phone.locator("#awaiting-1")
    expect(awaiting).to_contain_text("Hand #1 awaits an OK")
    tap(table_phone, awaiting.get_by_role("button", name=f"OK — {defender}"))
    expect(table_phone.locator("#table-confirmations")).to_contain_text(f"Hand #1: OK from {defender}.")
    expect(table_phone.locator("#awaiting-1")).to_have_count(0)
    given = Confirmation.objects.get()
    assert (given.player.name, given.version, given.claim_id) == (defender, 1, None)
    table_phone.reload()
    expect(_mark(table_phone, 1)).to_have_attribute("data-mark", "confirmed")
