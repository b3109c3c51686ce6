"""Taps per hand: enter a scripted evening of each game on a phone-sized chromium and count what it took.

    .venv/bin/python bench/taps.py

Starts its own server (Django's LiveServerThread on 127.0.0.1, a free port, a throw-away SQLite file), creates the
tables through ``ledger.services`` and plays a scorekeeper who taps only what differs from what the form already
shows: a segment not yet selected, a number not yet there (a quick button when there is one, else the field, select
all and the digits), "More" when a field lives there, and "Record hand". For each hand it prints the clicks and the
keystrokes after the form opened, and checks the chooser's stored amount against the script (taken from RULES.md).

The goal (issue 6): a plain won Skat suit game, a Mariáš hra and a Šnapser s vodou take at most 4 taps. The script
exits with status 1 when one of the hands marked plain needs more.
"""

from __future__ import annotations

import datetime
import os
import sys
import tempfile
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

from playwright.sync_api import expect, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path[0] = str(ROOT)  # run from anywhere, without installing; not bench/, whose requests.py shadows requests

from tests.e2e.browser import CHROMIUM, CHROMIUM_ARGS, PHONE  # noqa: E402 - needs the path above

# <html data-htmx-busy> while an htmx request is on its way: the next tap waits for the redrawn form, as a thumb
# waits to see it (an attribute, since the app's Content-Security-Policy forbids wait_for_function's eval).
HTMX_COUNTER = """
(() => {
  let pending = 0;
  const mark = (change) => {
    pending += change;
    document.documentElement.toggleAttribute("data-htmx-busy", pending > 0);
  };
  document.addEventListener("htmx:beforeRequest", () => mark(1));
  document.addEventListener("htmx:afterRequest", () => mark(-1));
})();
"""
PLAIN_LIMIT = 4


@dataclass(frozen=True)
class Scripted:
    """One hand as the players call it, the form fields that say it (in screen order), and the chooser's money."""

    said: str
    fields: tuple[tuple[str, Any], ...]
    chooser_gets: str
    plain: bool = False


# Three players each (four at Mariáš); the first dealer is the first seat and the deal goes round, so the default
# chooser (the dealer's left hand) moves on every hand, as it does at the table.
EVENINGS: dict[str, tuple[list[str], list[Scripted]]] = {
    "skat": (
        ["Ana", "Ben", "Cyril"],
        [
            Scripted(
                "Ben: Hearts with 2, won", (("declarer", "Ben"), ("contract", "hearts"), ("matadors", 2)), "0.60", True
            ),
            Scripted("Ana: Grand with 1, 61", (("declarer", "Ana"), ("contract", "grand"), ("matadors", 1)), "0.96"),
            Scripted(
                "Cyril: Clubs without 3, Schneider",
                (
                    ("declarer", "Cyril"),
                    ("contract", "clubs"),
                    ("matadors", 3),
                    ("without", True),
                    ("declarer_points", 90),
                ),
                "1.20",
            ),
            Scripted(
                "Cyril: Spades with 2, won",
                (("declarer", "Cyril"), ("contract", "spades"), ("matadors", 2)),
                "0.66",
                True,
            ),
            Scripted("Ben: Null, lost", (("declarer", "Ben"), ("contract", "null"), ("won", "lost")), "-0.92"),
            Scripted(
                "Ana: Spades with 1, lost with 55",
                (("declarer", "Ana"), ("contract", "spades"), ("matadors", 1), ("declarer_points", 55)),
                "-0.88",
            ),
            Scripted(
                "Ben: Grand Hand with 2",
                (("declarer", "Ben"), ("contract", "grand"), ("matadors", 2), ("hand", True)),
                "1.92",
            ),
            Scripted(
                "Cyril: Diamonds with 1, won",
                (("declarer", "Cyril"), ("contract", "diamonds"), ("matadors", 1)),
                "0.36",
                True,
            ),
        ],
    ),
    "marias": (
        ["Ana", "Ben", "Cyril", "Dana"],
        [
            Scripted(
                "Ben: hra in kule with Dana, 60",
                (("declarer", "Ben"), ("contract", "hra"), ("trump", "bells"), ("partner", "Dana"), ("points", 60)),
                "0.20",
                True,
            ),
            Scripted(
                "Cyril: hra in červené with Ana, 70, flek",
                (
                    ("declarer", "Cyril"),
                    ("contract", "hra"),
                    ("trump", "hearts"),
                    ("partner", "Ana"),
                    ("points", 70),
                    ("flek_hra", 1),
                ),
                "0.80",
            ),
            Scripted(
                "Dana: sedma in zelené with Ben, 50, seven won",
                (
                    ("declarer", "Dana"),
                    ("contract", "sedma"),
                    ("trump", "leaves"),
                    ("partner", "Ben"),
                    ("points", 50),
                    ("seven_won", "won"),
                ),
                "0.60",
            ),
            Scripted("Ana: betl, won", (("declarer", "Ana"), ("contract", "betl"), ("won", "won")), "6.00"),
            Scripted(
                "Ben: hra in žaludy with Cyril, 40 and a 20",
                (
                    ("declarer", "Ben"),
                    ("contract", "hra"),
                    ("trump", "acorns"),
                    ("partner", "Cyril"),
                    ("points", 40),
                    ("marriages_declarer_20", 1),
                ),
                "0.20",
            ),
            Scripted(
                "Cyril: hra in kule with Dana, 30 (lost)",
                (("declarer", "Cyril"), ("contract", "hra"), ("trump", "bells"), ("partner", "Dana"), ("points", 30)),
                "-0.20",
                True,
            ),
        ],
    ),
    "snapser": (
        ["Ana", "Ben", "Cyril"],
        [
            Scripted(
                "Ben: hrám in zeleň, s vodou",
                (("declarer", "Ben"), ("trump", "leaves"), ("announcement", "hram"), ("result", "s_vodou")),
                "0.40",
                True,
            ),
            Scripted(
                "Cyril: hrám in červeň, bez vody",
                (("declarer", "Cyril"), ("trump", "hearts"), ("announcement", "hram"), ("result", "bez_vody")),
                "1.60",
            ),
            Scripted(
                "Ana: hrám in guľa, the defenders s vodou",
                (("declarer", "Ana"), ("trump", "bells"), ("winner", "defenders"), ("result", "s_vodou")),
                "-0.40",
            ),
            Scripted(
                "Ben: nehrám in žaluď", (("declarer", "Ben"), ("trump", "acorns"), ("announcement", "nehram")), "-1.20"
            ),
            Scripted(
                "Cyril: za 12 in zeleň, made",
                (("declarer", "Cyril"), ("trump", "leaves"), ("announcement", "za12"), ("winner", "declarer")),
                "2.40",
            ),
            Scripted(
                "Ana: hrám in žaluď, kontra, s vodou",
                (("declarer", "Ana"), ("trump", "acorns"), ("announcement", "hram"), ("raises", 1)),
                "0.80",
            ),
        ],
    ),
}


def setup_django() -> Path:
    """The test settings on a throw-away SQLite file, migrated; plain HTTP on 127.0.0.1."""
    workdir = Path(tempfile.mkdtemp(prefix="talon-taps-"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
    os.environ["DATABASE_URL"] = f"sqlite:///{workdir / 'taps.sqlite3'}"
    os.environ["ALLOWED_HOSTS"] = "127.0.0.1"
    os.environ["SECURE_SSL_REDIRECT"] = "0"  # the live server speaks plain HTTP
    os.environ["SECURE_COOKIES"] = "0"
    # Playwright's sync API keeps an asyncio loop running in this thread, and Django then refuses the (synchronous)
    # ORM calls this script makes between Playwright's calls; nothing here is async, so allow them.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    return workdir


class Counter:
    """Every click and key press the scorekeeper makes, each waiting for the htmx requests it started."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.clicks = 0
        self.keys = 0

    def click(self, target: Any) -> None:
        target.click()
        self.clicks += 1
        self.settle()

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)
        self.keys += 1

    def settle(self) -> None:
        expect(self.page.locator("html[data-htmx-busy]")).to_have_count(0)


def set_field(tapper: Counter, name: str, value: Any) -> None:
    """Make the field say ``value``, tapping only when it does not already."""
    page = tapper.page
    field = page.locator(f"#field-{name}")
    field.wait_for(state="attached")
    if not field.is_visible():  # kept under "More"
        tapper.click(page.locator("details.more > summary"))
    if field.locator("input[type=radio]").count():
        radio = field.locator(f'input[type=radio][value="{value}"]')
        if not radio.is_checked():
            tapper.click(field.locator(f'label:has(input[value="{value}"])'))
    elif field.locator("input[type=checkbox]").count():
        if field.locator("input[type=checkbox]").is_checked() != bool(value):
            tapper.click(field.locator("label"))
    else:
        number = field.locator("input")
        if number.input_value() == str(value):
            return
        button = field.locator(f'.quick button[data-value="{value}"]')
        if button.count():
            tapper.click(button)
        else:
            tapper.click(number)
            tapper.press("Control+A")
            for digit in str(value):
                tapper.press(digit)


def play_evening(browser: Any, base_url: str, session: str, table: Any, hands: list[Scripted]) -> list[dict[str, Any]]:
    from ledger.models import Hand

    context = browser.new_context(base_url=base_url, **PHONE)
    context.add_init_script(HTMX_COUNTER)
    context.add_cookies([{"name": "sessionid", "value": session, "url": base_url}])
    page = context.new_page()
    page.goto(table.get_absolute_url())
    rows = []
    for number, scripted in enumerate(hands, start=1):
        tapper = Counter(page)
        for name, value in scripted.fields:
            set_field(tapper, name, value)
        tapper.click(page.get_by_role("button", name="Record hand"))
        stored = Hand.objects.filter(table=table, number=number).first()
        if stored is None:
            errors = page.locator("#hand-form [role=alert]").all_inner_texts()
            raise SystemExit(f"{table.game} hand {number} ({scripted.said}) was not recorded: {errors}")
        chooser = scripted.said.split(":")[0]
        got = stored.amounts[chooser]
        if got != Decimal(scripted.chooser_gets):
            raise SystemExit(
                f"{table.game} hand {number} ({scripted.said}): {chooser} got {got}, expected "
                f"{scripted.chooser_gets} ({stored.label})"
            )
        rows.append(
            {"game": table.game, "number": number, "hand": scripted, "label": stored.label, "amount": got}
            | {"clicks": tapper.clicks, "keys": tapper.keys}
        )
    context.close()
    return rows


def main() -> int:
    setup_django()
    from django.contrib.auth import get_user_model
    from django.contrib.staticfiles.handlers import StaticFilesHandler
    from django.test import Client
    from django.test.testcases import LiveServerThread

    from ledger import services

    keeper = get_user_model().objects.create_user(username="keeper", password="taps-only-" + "x" * 16)
    evening = services.evening_create(owner=keeper, date=datetime.date(2026, 11, 27), place="U Fleků", currency="EUR")
    tables = {
        game: services.table_create(evening=evening, game=game, players=players)
        for game, (players, _) in EVENINGS.items()
    }
    client = Client()
    client.force_login(keeper)
    session = client.cookies["sessionid"].value

    server = LiveServerThread("127.0.0.1", StaticFilesHandler, connections_override=None, port=0)
    server.daemon = True
    server.start()
    server.is_ready.wait()
    if server.error:
        raise server.error
    base_url = f"http://127.0.0.1:{server.port}"
    rows = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            for game, (_, hands) in EVENINGS.items():
                rows += play_evening(browser, base_url, session, tables[game], hands)
            browser.close()
    finally:
        server.terminate()
    return report(rows)


def report(rows: list[dict[str, Any]]) -> int:
    print(f"{'game':<8} {'#':>2}  {'hand as called':<46} {'stored as':<28} {'chooser':>7}  clicks  keys  taps")
    too_many = []
    for row in rows:
        taps = row["clicks"] + row["keys"]
        mark = ""
        if row["hand"].plain:
            mark = f"  plain, ≤{PLAIN_LIMIT}: " + ("ok" if taps <= PLAIN_LIMIT else "TOO MANY")
            if taps > PLAIN_LIMIT:
                too_many.append(row)
        print(
            f"{row['game']:<8} {row['number']:>2}  {row['hand'].said:<46} {row['label'][:28]:<28} "
            f"{row['amount']:>+7}  {row['clicks']:>6}  {row['keys']:>4}  {taps:>4}{mark}"
        )
    print()
    for game in EVENINGS:
        taps = [r["clicks"] + r["keys"] for r in rows if r["game"] == game]
        print(f"{game}: {len(taps)} hands, {sum(taps)} taps, {sum(taps) / len(taps):.1f} per hand")
    if too_many:
        print(f"\n{len(too_many)} plain hand(s) took more than {PLAIN_LIMIT} taps", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
