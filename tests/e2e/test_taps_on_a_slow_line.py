"""Every tap counts on a pub's line: taps a finger makes 100 ms apart, never waiting for the page, store exactly the
hand that was tapped, in every game, with 700 ms and 2 s of latency (Chromium's emulated network conditions).

A finger is a touch at a point of the screen, not a click that waits for the element to be ready: ``finger`` taps the
centre of what it aims at where it is drawn now (swiping it into view first when it is off the screen). The next
hand's first taps are made while the previous Record is still on its way; its last tap waits for the status line,
as the scorekeeper does who looks up to see the result.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from ledger.models import Hand
from ledger.templatetags.talon import money
from tests import factories
from tests.e2e.axe import audit, report
from tests.e2e.ui import settle

pytestmark = pytest.mark.e2e

GAP_MS = 100  # between two taps of a finger


def slow_line(page: Page, latency_ms: int) -> None:
    """Every request and answer of this page delayed by ``latency_ms`` (a pub's cellular line)."""
    session = page.context.new_cdp_session(page)
    session.send("Network.enable")
    session.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": latency_ms, "downloadThroughput": 200_000, "uploadThroughput": 100_000},
    )


# Whether a finger at the centre of the element would touch it: on the screen and not under the sticky record bar.
REACHABLE = """element => {
  const box = element.getBoundingClientRect();
  const x = box.left + box.width / 2, y = box.top + box.height / 2;
  const hit = y >= 0 && y < innerHeight && document.elementFromPoint(x, y);
  return Boolean(hit && (hit === element || element.contains(hit)));
}"""


def finger(page: Page, target: Locator) -> None:
    """Touch the centre of ``target`` where it is drawn now; swipe it to the middle of the screen first when a finger
    could not touch it where it is (off the screen, or under the record bar)."""
    if not target.evaluate(REACHABLE):
        target.evaluate("element => element.scrollIntoView({block: 'center'})")
    box = target.bounding_box()
    assert box is not None, f"{target} is not on the page"
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_timeout(GAP_MS)


def segment(page: Page, name: str, value: Any) -> Locator:
    return page.locator(f'#field-{name} label:has(input[value="{value}"])')


def record_button(page: Page, name: str, value: Any) -> Locator:
    return page.locator(f'#record-by-{name} button[value="{value}"]')


def toggle(page: Page, name: str) -> Locator:
    return page.locator(f"#field-{name} label")


# Each game: its table, and two hands as (the taps, the record tap, what the stored hand document holds).
# Mariáš 1 is the tichá stovka: with the 40 lost it was stored as a won hra (+0.40) instead of +3.20.
HANDS: dict[str, list[tuple[list[tuple[str, str, Any]], tuple[str, Any], dict[str, Any]]]] = {
    "marias": [
        (
            [
                ("segment", "trump", "hearts"),
                ("segment", "partner", "Dana"),
                ("segment", "marriages_declarer_20", 1),
                ("toggle", "marriages_declarer_40", None),
            ],
            ("points", 60),
            {
                "declarer": "Ben",
                "contract": "hra",
                "trump": "hearts",
                "partner": "Dana",
                "points": 60,
                "marriages": {"declarer": [20, 40]},
            },
        ),
        (
            [
                ("segment", "contract", "sedma"),
                ("segment", "trump", "leaves"),
                ("segment", "partner", "Ana"),
                ("segment", "flek_sedma", 1),
            ],
            ("sedma_outcome", "won/lost"),
            {
                "declarer": "Cyril",
                "contract": "sedma",
                "trump": "leaves",
                "partner": "Ana",
                "flek": {"sedma": 1},
                "won": True,
                "seven": {"side": "declarer", "won": False},
            },
        ),
    ],
    "skat": [
        (
            [("segment", "contract", "grand"), ("segment", "matadors", 2), ("segment", "kontra", 1)],
            ("declarer", "Cyril"),
            {"declarer": "Cyril", "contract": "grand", "matadors": 2, "declarer_points": 61, "kontra": 1},
        ),
        (
            [("segment", "contract", "null"), ("segment", "won", "lost"), ("toggle", "hand", None)],
            ("declarer", "Ana"),
            {"declarer": "Ana", "contract": "null", "won": False, "hand": True},
        ),
    ],
    "snapser": [
        (
            [("segment", "trump", "leaves"), ("segment", "raises", 1), ("segment", "winner", "defenders")],
            ("result", "bez_vody"),
            {
                "declarer": "Ben",
                "trump": "leaves",
                "announcement": "hram",
                "winner": "defenders",
                "raises": 1,
                "result": "bez_vody",
            },
        ),
        (
            [("segment", "trump", "bells"), ("segment", "announcement", "za12")],
            ("winner", "declarer"),
            {"declarer": "Cyril", "trump": "bells", "announcement": "za12", "winner": "declarer"},
        ),
    ],
}


def tap_hand(page: Page, taps: list[tuple[str, str, Any]], *, while_recording: bool = False) -> None:
    for kind, name, value in taps:
        finger(page, segment(page, name, value) if kind == "segment" else toggle(page, name))
        if while_recording:
            # The first tap of the next hand really lands while the last Record is on its way.
            assert page.locator("html[data-htmx-busy]").count() == 1
            while_recording = False


@pytest.mark.parametrize("latency_ms", [700, 2000])
@pytest.mark.parametrize("game", list(HANDS))
def test_taps_a_finger_makes_on_a_slow_line_store_the_hand_that_was_tapped(
    page: Page, live_server: Any, evening: Any, game: str, latency_ms: int
) -> None:
    table = factories.make_table(evening, game, **({"kontra": True} if game == "skat" else {}))
    page.goto(live_server.url + table.get_absolute_url())
    expect(page.locator("#hand-form")).to_be_visible()
    slow_line(page, latency_ms)
    hands = HANDS[game]
    for number, (taps, (record_field, value), _expected) in enumerate(hands, start=1):
        tap_hand(page, taps, while_recording=number > 1)
        if number > 1:
            # The last tap waits for the previous hand's answer, as the scorekeeper looks up to see it.
            expect(page.locator("#hand-recorded")).to_contain_text(f"#{number - 1}")
            settle(page)
            page.wait_for_timeout(GAP_MS)
            # The status line's live region stays in the page from here on (marked), so what the next Record
            # writes into it is read out by a screen reader.
            page.locator("#table-status").evaluate("region => { region.dataset.seen = 'yes'; }")
        finger(page, record_button(page, record_field, value))
    expect(page.locator("#hand-recorded")).to_contain_text(f"#{len(hands)}", timeout=30_000)
    live_region = page.locator("#table-status[role=status][data-seen=yes]")
    expect(live_region).to_contain_text(f"Hand #{len(hands)}:")
    stored = list(Hand.objects.filter(table=table).order_by("number"))
    assert [hand.number for hand in stored] == list(range(1, len(hands) + 1))
    for hand, (_taps, _record, expected) in zip(stored, hands, strict=True):
        document = {key: value for key, value in hand.document.items() if key in expected}
        assert document == expected, f"hand #{hand.number}: {hand.label}"
    # What the page shows after Record is the engine's price of that hand: the status line names the chooser's.
    last = stored[-1]
    chooser = last.document["declarer"]
    expect(page.locator("#hand-recorded")).to_contain_text(f"{chooser} {money(last.amounts[chooser])}")
    assert not report(audit(page), f"{game} after two hands on a slow line")
