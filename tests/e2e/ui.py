"""What a scorekeeper does on the table page and what the players read on it, in Playwright terms.

Every tap waits for the htmx requests it started (a hand recorded) before the next one, as a person waits to see the
screen change; nothing sleeps. (The taps a finger makes without waiting are in test_taps_on_a_slow_line.py.)
"""

from __future__ import annotations

import re
import time
from pathlib import Path

from playwright.sync_api import Locator, Page, expect

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def settle(page: Page) -> None:
    """Wait until every htmx request started so far has been answered and swapped in (see HTMX_COUNTER)."""
    expect(page.locator("html[data-htmx-busy]")).to_have_count(0)


def wait_for_scroll_end(page: Page, timeout_ms: int = 10_000) -> None:
    """Until a smooth scroll has ended (the same scrollY 100 ms apart), asked through DevTools. Not
    wait_for_function: it polls by an eval inside the page, which the page's Content-Security-Policy forbids."""
    deadline = time.monotonic() + timeout_ms / 1000
    previous = None
    while (now := page.evaluate("window.scrollY")) != previous:
        assert time.monotonic() < deadline, f"still scrolling after {timeout_ms} ms"
        previous = now
        page.wait_for_timeout(100)


def tap(page: Page, target: Locator) -> None:
    target.click()
    settle(page)


def field(page: Page, name: str) -> Locator:
    return page.locator(f"#field-{name}")


def choose(page: Page, name: str, label: str) -> None:
    """Tap the segment (a radio drawn as a pill) with exactly this label, and see it selected."""
    segment = field(page, name).locator("label").filter(has=page.get_by_text(label, exact=True))
    tap(page, segment)
    expect(segment.locator("input")).to_be_checked()


def selected(page: Page, name: str) -> Locator:
    """The selected segment's label text."""
    return field(page, name).locator("label:has(input:checked) span")


def quick(page: Page, name: str, value: int) -> None:
    """Tap a one-tap value under a number field (points by tens, 61, 90…)."""
    tap(page, field(page, name).locator(f'.quick button[data-value="{value}"]'))
    expect(field(page, name).locator("input")).to_have_value(str(value))


def record(page: Page) -> None:
    tap(page, page.get_by_role("button", name="Record hand"))


def record_buttons(page: Page, name: str) -> Locator:
    """The buttons of the form's record field, in the record bar: each chooses and records the hand in one tap."""
    return page.locator(f"#record-by-{name}").get_by_role("button")


def record_with(page: Page, name: str, label: str) -> None:
    """Tap the record field's button with exactly this label: won/lost, the category, the declarer…"""
    tap(page, record_buttons(page, name).filter(has_text=re.compile(f"^{re.escape(label)}$")))


def undo(page: Page) -> None:
    tap(page, page.get_by_role("button", name="Undo the last hand"))


def hand_row(page: Page, number: int) -> Locator:
    return page.locator(f"#hand-{number}")


def open_edit(page: Page, number: int) -> None:
    hand_row(page, number).get_by_role("link", name="Edit").click()
    expect(page.get_by_role("heading", name=f"Correct hand #{number}")).to_be_visible()


def save_correction(page: Page) -> None:
    page.get_by_role("button", name="Save the correction").click()
    expect(page.get_by_role("status").filter(has_text="corrected")).to_contain_text("corrected")


def expect_balances(page: Page, expected: dict[str, str]) -> None:
    """The scoreboard shows these balances in seat order, as English writes money: +0.40, −0.20 (a true minus)."""
    expect(page.locator(".scoreboard .seat .name")).to_have_text(list(expected))
    expect(page.locator(".scoreboard .balance")).to_have_text(list(expected.values()))


def expect_hand_count(page: Page, counted: int, voided: int = 0) -> None:
    expect(page.locator(".hand-row:not(.voided)")).to_have_count(counted)
    expect(page.locator(".hand-row.voided")).to_have_count(voided)


def screenshot(page: Page, name: str) -> Path:
    """A phone-sized picture of the whole page, kept as a test artifact (test-artifacts/ is git-ignored)."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.evaluate("window.scrollTo(0, 0)")  # the sticky top bar would otherwise be drawn mid-page
    page.screenshot(path=str(path), full_page=True)
    return path
