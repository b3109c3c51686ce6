"""The table page online and offline, in a phone-sized chromium: what the offline machinery costs and
whether the browser prices as the server does.

    .venv/bin/python bench/offline.py [--hands 5]

Starts its own server (Django's LiveServerThread on 127.0.0.1, a throw-away SQLite file) and, for each game, a fresh
phone (no service worker, nothing cached yet):

- **interactive**: from the navigation's start to the end of the load event of the table page (its scripts run,
  htmx is ready, the form takes taps), against the same for the floor page ``/`` in the same run;
- **files kept**: from the navigation's start until the service worker holds Pyodide and the bundle (first visit);
- **ready**: from the moment the worker starts (the signal drops; the page opened offline) until it prices (Pyodide
  with the server's forms, engine and templates, from the service worker's cache); for the offline reload, counted
  from the navigation's start;
- **a hand, online vs offline**: from the tap on the record button until the page shows the hand: the status line
  after the server's answer (online), the "waiting to send" row priced in the browser (offline);
- **same price**: each hand priced offline is then sent, and its stored amounts compared with the provisional ones.

Timings are medians in milliseconds and as a ratio to the floor page's load in the same run (machines are shared
and noisy). Exits 1 if any provisional price differs from the server's.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parents[1]
sys.path[0] = str(ROOT)  # run from anywhere, without installing; not bench/, whose requests.py shadows requests

from bench.browsing import chromium_at_live_server, session_of, setup_django  # noqa: E402 - needs the path above
from tests.e2e.browser import HTMX_COUNTER, PHONE  # noqa: E402

READY_MS = 180_000
# One tap that records a common hand at each game's fresh table, after the taps before it (label of the field's
# button or segment): Mariáš hra in hearts with Dana, won; Šnapser hrám in bells s vodou; Skat the forehand declares.
TAPS = {
    "marias": [("trump", "♥ hearts"), ("partner", "Dana")],
    "snapser": [("trump", "bells")],
    "skat": [],
}
RECORD = {"marias": ("won", "won"), "snapser": ("result", "s vodou"), "skat": ("declarer", None)}


def load_ms(page: Any) -> float:
    """The last navigation's start to the end of its load event."""
    return float(page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd"))


def ready_ms(page: Any) -> float:
    """From the worker's start (the signal dropped, or the page loaded offline) until it prices."""
    expect(page.locator("html[data-offline-ready]")).to_have_count(1, timeout=READY_MS)
    return float(page.locator("html").get_attribute("data-offline-ready-after") or "nan")


def kept_ms(page: Any) -> float:
    """From the navigation's start until the service worker keeps every file the offline worker needs."""
    expect(page.locator("html[data-offline-kept]")).to_have_count(1, timeout=READY_MS)
    return float(page.evaluate("performance.now()"))


def enter_hand(page: Any, game: str) -> float:
    """Tap a common hand and record it; the milliseconds from the recording tap until the page shows it."""
    for name, label in TAPS[game]:
        segment = page.locator(f"#field-{name} label").filter(has=page.get_by_text(label, exact=True))
        segment.click()
        expect(segment.locator("input")).to_be_checked()
        expect(page.locator("html[data-htmx-busy]")).to_have_count(0)
    name, label = RECORD[game]
    buttons = page.locator(f"#field-{name}").get_by_role("button")
    button = buttons.first if label is None else buttons.filter(has_text=label)
    started = page.evaluate("performance.now()")
    button.click()
    return float(started)


def online_hand(page: Any, game: str, number: int) -> float:
    started = enter_hand(page, game)
    expect(page.locator(f"#hand-{number}")).to_have_count(1)
    return float(page.evaluate("performance.now()")) - started


def offline_hand(page: Any, game: str, queued: int) -> tuple[float, dict[str, Decimal]]:
    started = enter_hand(page, game)
    row = page.locator("#offline-queue .pending").nth(queued - 1)
    expect(row.locator(".amounts .num").first).to_be_visible()
    took = float(page.evaluate("performance.now()")) - started
    names = row.locator(".amounts li span:first-child").all_text_contents()
    amounts = [
        Decimal(text.replace("−", "-").replace("+", "")) for text in row.locator(".amounts .num").all_text_contents()
    ]
    return took, dict(zip(names, amounts, strict=True))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5, help="hands online and offline per game")
    hands = parser.parse_args().hands
    setup_django("offline")
    from ledger.models import Hand
    from tests import factories

    alice = factories.make_user("alice")
    evening = factories.make_evening(alice)
    rows: list[tuple[str, dict[str, float]]] = []
    mismatches = 0
    with chromium_at_live_server() as (browser, base_url):
        for game in ("marias", "snapser", "skat"):
            table = factories.make_table(evening, game)
            context = browser.new_context(base_url=base_url, **PHONE)
            context.add_init_script(HTMX_COUNTER)
            context.add_cookies([{"name": "sessionid", "value": session_of(alice), "url": base_url}])
            page = context.new_page()
            floors = []
            for _ in range(3):
                page.goto("/")
                floors.append(load_ms(page))
            page.goto(table.get_absolute_url())
            figures = {"floor": statistics.median(floors), "interactive": load_ms(page)}
            figures["files kept for offline"] = kept_ms(page)
            online = [online_hand(page, game, number) for number in range(1, hands + 1)]
            page.wait_for_timeout(3000)  # the service worker's copy of the page follows the hands (a second after)
            context.set_offline(True)
            figures["ready after the signal drops"] = ready_ms(page)
            page.reload()
            figures["interactive, offline reload"] = load_ms(page)
            figures["ready, offline reload"] = ready_ms(page) + load_ms(page)
            offline = [offline_hand(page, game, queued) for queued in range(1, hands + 1)]
            context.set_offline(False)
            expect(page.locator("#offline-queue .pending")).to_have_count(0, timeout=60_000)
            stored = list(Hand.objects.filter(table=table).order_by("number"))[hands:]
            for (_took, provisional), hand in zip(offline, stored, strict=True):
                if hand.amounts != provisional:
                    mismatches += 1
                    print(f"{game} hand #{hand.number}: server {hand.amounts}, this phone {provisional}")
            figures["a hand online"] = statistics.median(online)
            figures["a hand offline"] = statistics.median(took for took, _amounts in offline)
            figures["same price"] = float(len(stored) - mismatches)
            rows.append((game, figures))
            context.close()
    print(report(rows, hands))
    return 1 if mismatches else 0


def report(rows: list[tuple[str, dict[str, float]]], hands: int) -> str:
    lines = ["| game | measure | ms | × floor |", "|---|---|---|---|"]
    for game, figures in rows:
        floor = figures["floor"]
        for measure, value in figures.items():
            if measure == "same price":
                lines.append(f"| {game} | provisional price = server's | {int(value)} of {hands} | |")
            else:
                lines.append(f"| {game} | {measure} | {value:.0f} | {value / floor:.1f} |")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
