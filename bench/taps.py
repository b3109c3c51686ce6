"""Taps and swipes per hand: enter a realistic evening of each game on a phone-sized chromium and count what it took.

    .venv/bin/python bench/taps.py
    .venv/bin/python bench/taps.py --confirm     # the Mariáš table asks one opponent to confirm: his taps too

Starts its own server (Django's LiveServerThread on 127.0.0.1, a free port, a throw-away SQLite file), creates the
tables through ``ledger.services`` and plays a scorekeeper, new to Talon, who taps only what differs from what the
form already shows: a segment not yet selected, a box not yet ticked, a number not yet there (a quick button when
there is one, else a tap into the field, which selects what it says, and the digits), "More" when a field lives
there, and at the end the button that records the hand: one of the buttons of the record bar (won/lost, the
category, the declarer, the Mariáš card points, the offender of a renonc…) when the hand ends with it, else
"Record hand". For each hand it checks one player's stored amount against the script: the chooser's (the
declarer's), or the named player's of a Ramsch, or the offender's of a renonc, each worked out by hand from
/work/shared/RULES.md (and checked against the rules engine once, before it was written down here).

The evenings: 20 Mariáš hands at four (plain hry, fleks, hlášky with card points, a tichá stovka, sedmy, a stovka, a
betl, a durch, a hra alone, and a renonc by a defender that stopped a hra); 15 Skat hands at three with Kontra, Bock
and Ramsch on (the ``pub`` preset's options: a lost Kontra, a game worth 72 and a 60:60 each start a Bock round of
three hands, which the form pre-fills; Grand, Null, an overbid hand whose bid is typed under "More", a Ramsch with
two players' card points typed and the third's left for the form to derive); 12 Šnapser hands at three. Mostly plain
hands, as an evening goes.

Swipes: before every tap the scorekeeper looks whether the target can be tapped where it is: its centre inside the
viewport and not covered by anything (``document.elementFromPoint`` there is the target or inside it; the sticky top
bar and the sticky record bar cover what scrolls under them). If it cannot, he swipes once, which counts one scroll
and the distance scrolled (window.scrollY before and after): far enough to bring the target between the bars and on
as far as it goes, so that what follows in the swipe's direction comes into view too (``SWIPE``: the fewest swipes
a hand can take; the middle of the screen when that band is too narrow). Then he taps. Taps are mouse clicks at the
target's centre (``page.mouse``), never Playwright's ``click()``, whose own scrolling would come free. After Record
the bench waits for the next hand's form to take taps (drawn, settled, and past the 0.4 s in which ``.fresh`` makes
its record bar ignore a double tap's second tap), as a thumb would; where the page is then scrolled to is the app's
doing (talon.js brings the table's live part to the top after Record).

A number field that a tap does not select (talon.js selects only ``#hand-form input[inputmode=numeric]``) is cleared
as a phone's keyboard clears it, a Backspace a digit, each counted as a key, and named after the table.

Prints, for each hand, the clicks, the keystrokes, the taps (both), the scrolls and the distance scrolled (px), then
each scroll with what it reached for and where that was, then per game the median taps and the scrolls per 10 hands.

The goal: for each game's evening the median is at most 3 taps a hand, no common hand (a plain hra/sedma/betl/durch,
a hra with a hláška and its card points, a suit game or Grand with matadors, under Bock or not, a Null, hrám with
any category, each with or without one raise) takes more than 4, and there is at most one scroll per 10 hands. The
script exits with status 1 unless all three hold, and prints the verdicts on its last lines.

``--confirm``: the Mariáš table asks one opponent of the declarer's side to confirm each hand (confirmation
"opponent"), and each of its four players holds their seat on a phone of their own (a browser context with its
device cookie, its seat taken through the seats' service). The scorekeeper (not seated) taps the evening exactly as
without it, counted the same way, so his numbers can be set beside the plain run's: confirming costs him nothing.
After each hand, the phone of the first player still asked (an opponent) waits for the card "Hand #n needs your
OK", without a reload (the seat page's live line: under this WSGI live server, its reconnection every 3 s), and
taps OK, counted as the scorekeeper's taps are (a mouse click at its centre, a swipe first when it is out of
reach). The goal: one tap per confirming player and hand, no swipe; printed after the verdicts, and part of the
exit status.

One hand that the goal calls common is held to its physical limit instead of 4: a Mariáš sedma with a flek carries
five choices besides the pre-selected chooser (contract, trump, partner, the flek, the hra × seven outcome), and one
tap a choice is the least short of guessing one of them, which would be a silent default that changes money
(DESIGN.md forbids those). It is scripted with ``limit`` (the reason, printed beside it) and checked against 5, not
left out.

A hand the form cannot enter as scripted (a field it does not show, a choice that records the hand before the
script's last, a target out of reach even in the middle of the screen, an amount other than the script's) stops the
bench with what went wrong: the amounts are the engine's, so a difference is the form's, not the script's.
"""

from __future__ import annotations

import datetime
import statistics
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parents[1]
sys.path[0] = str(ROOT)  # run from anywhere, without installing; not bench/, whose requests.py shadows requests

from bench.browsing import chromium_at_live_server, session_of, setup_django  # noqa: E402 - needs the path above
from tests.e2e.browser import HTMX_COUNTER, PHONE  # noqa: E402

COMMON_LIMIT = 4  # taps for any common hand
PHYSICAL_LIMIT = 5  # a common hand with five independent choices (``Scripted.limit``): one tap each
MEDIAN_LIMIT = 3  # the median of each game's evening
SCROLLS_PER_10_LIMIT = 1  # swipes per 10 hands of each game's evening


@dataclass(frozen=True)
class Scripted:
    """One hand as the players call it, the form fields that say it (in screen order, the one that records last),
    and one player's money: the chooser's (the name before the colon of ``said``) unless ``who`` names another.
    ``common``: one of the hands the goal names (see the module's docstring). ``limit``: why a common hand cannot
    take 4 (it carries more independent choices); it is held to ``PHYSICAL_LIMIT``."""

    said: str
    fields: tuple[tuple[str, Any], ...]
    gets: str
    common: bool = True
    limit: str = ""
    who: str = ""

    @property
    def player(self) -> str:
        return self.who or self.said.split(":")[0]


def hand(
    said: str, *fields: tuple[str, Any], gets: str, common: bool = True, limit: str = "", who: str = ""
) -> Scripted:
    return Scripted(said, fields, gets, common, limit, who)


# Three players each (four at Mariáš); the first dealer is the first seat and the deal goes round, so the forehand
# (the Mariáš and Šnapser chooser, pre-selected) moves on every hand, as it does at the table. Every amount below was
# worked out from RULES.md: Mariáš dvacetník (stake 0.20, red ×2, betl 10 and durch 20 stakes, alone ×3), Skat at
# 0.01 a list point (the declarer gets 2 × his list score at three seats), Šnapser at 0.10 (the chooser gets 2V).
EVENINGS: dict[str, tuple[list[str], dict[str, Any], list[Scripted]]] = {
    # A pub table: Kontra, Bock (the triggers on, one round a hand however many fire, three hands a round) and
    # Ramsch. The Bock count is pre-filled by the form from the ledger's queue: no tap, but it doubles the money.
    "skat": (
        ["Ana", "Ben", "Cyril"],
        {"kontra": True, "bock": True, "ramsch": True},
        [
            # Clubs with 1: (1 + 1) × 12 = 24 → 2 × 24 × 0.01
            hand("Ben: Clubs with 1, won", ("contract", "clubs"), ("declarer", "Ben"), gets="0.48"),
            # 3 × 11 = 33
            hand(
                "Cyril: Spades with 2, won",
                ("contract", "spades"),
                ("matadors", 2),
                ("declarer", "Cyril"),
                gets="0.66",
            ),
            # 2 × 24 = 48
            hand("Ana: Grand with 1, won", ("contract", "grand"), ("declarer", "Ana"), gets="0.96"),
            # Lost with Kontra: −2 × 24 × 2 = −96; fires "lost after Kontra": hands 5 to 7 are Bock.
            hand(
                "Ben: Clubs with 1, Kontra, lost (59)",
                ("contract", "clubs"),
                ("declarer_points", 59),
                ("kontra", 1),
                ("declarer", "Ben"),
                gets="-1.92",
            ),
            # Bock: 2 × 10 = 20, × 2 = 40
            hand("Cyril: Hearts with 1, won, Bock", ("contract", "hearts"), ("declarer", "Cyril"), gets="0.80"),
            # Bock: Null 23 × 2 = 46
            hand(
                "Ana: Null, won, Bock",
                ("contract", "null"),
                ("won", "won"),
                ("declarer", "Ana"),
                gets="0.92",
            ),
            # Bock: 3 × 24 = 72, × 2 = 144; worth 72 before Bock, so it starts a round: hands 8 to 10 are Bock.
            hand(
                "Ben: Grand with 2, won, Bock",
                ("contract", "grand"),
                ("matadors", 2),
                ("declarer", "Ben"),
                gets="2.88",
            ),
            # Overbid (S13): Diamonds without 1 is worth 2 × 9 = 18 < bid 22 (89 points, no Schneider): lost, charged
            # −2 × 27 (the smallest multiple of 9 from 22) = −54; Bock × 2 = −108. The bid is typed under "More".
            hand(
                "Cyril: Diamonds without 1, bid 22, 89, Bock",
                ("contract", "diamonds"),
                ("without", True),
                ("declarer_points", 89),
                ("bid", 22),
                ("declarer", "Cyril"),
                gets="-2.16",
                common=False,
            ),
            # Bock: 24 × 2 = 48
            hand("Ana: Clubs with 1, won, Bock", ("contract", "clubs"), ("declarer", "Ana"), gets="0.96"),
            # Bock: 2 × 11 = 22, × 2 = 44
            hand("Ben: Spades with 1, won, Bock", ("contract", "spades"), ("declarer", "Ben"), gets="0.88"),
            # All passed: Ramsch. Ana 50, Ben 45, Cyril the rest (25, left empty): Ana has the most, list −50, no
            # Jungfrau; money 0.01 × (3 × −50 − (−50)) = −1.00. Nobody declares: "Record hand".
            hand(
                "Ramsch: Ana 50, Ben 45, Cyril the rest (25)",
                ("contract", "ramsch"),
                ("ramsch_points_Ana", 50),
                ("ramsch_points_Ben", 45),
                gets="-1.00",
                common=False,
                who="Ana",
            ),
            # Lost 60:60: −2 × 24 = −48; fires "lost 60:60": hands 13 to 15 are Bock.
            hand(
                "Cyril: Clubs with 1, lost 60:60",
                ("contract", "clubs"),
                ("declarer_points", 60),
                ("declarer", "Cyril"),
                gets="-0.96",
            ),
            # Bock: 20 × 2 = 40
            hand("Ana: Hearts with 1, won, Bock", ("contract", "hearts"), ("declarer", "Ana"), gets="0.80"),
            # Bock and Kontra: 48 × 2 × 2 = 192
            hand(
                "Ben: Grand with 1, Kontra, won, Bock",
                ("contract", "grand"),
                ("kontra", 1),
                ("declarer", "Ben"),
                gets="3.84",
            ),
            # Bock: 24 × 2 = 48
            hand("Cyril: Clubs with 1, won, Bock", ("contract", "clubs"), ("declarer", "Cyril"), gets="0.96"),
        ],
    ),
    "marias": (
        ["Ana", "Ben", "Cyril", "Dana"],
        {},
        [
            hand(
                "Ben: hra in kule with Dana, won", ("trump", "bells"), ("partner", "Dana"), ("won", "won"), gets="0.20"
            ),
            # red ×2, flek ×2: 0.20 × 4
            hand(
                "Cyril: hra in červené with Ana, flek, won",
                ("trump", "hearts"),
                ("partner", "Ana"),
                ("flek_hra", 1),
                ("won", "won"),
                gets="0.80",
            ),
            hand(
                "Dana: hra in zelené with Ben, lost",
                ("trump", "leaves"),
                ("partner", "Ben"),
                ("won", "lost"),
                gets="-0.20",
            ),
            # 60 + 20 = 80 against 30: hra won
            hand(
                "Ana: hra in žaludy with Cyril, a 20, 60",
                ("trump", "acorns"),
                ("partner", "Cyril"),
                ("marriages_declarer_20", 1),
                ("points", 60),  # a card-points button records it
                gets="0.20",
            ),
            # hra 0.20 + sedma 2 × 0.20
            hand(
                "Ben: sedma in kule with Cyril, both won",
                ("contract", "sedma"),
                ("trump", "bells"),
                ("partner", "Cyril"),
                ("sedma_outcome", "won/won"),
                gets="0.60",
            ),
            # alone: 3 × 10 × 0.20
            hand("Cyril: betl, won", ("contract", "betl"), ("won", "won"), gets="6.00"),
            hand(
                "Dana: hra in kule with Ana, won", ("trump", "bells"), ("partner", "Ana"), ("won", "won"), gets="0.20"
            ),
            hand(
                "Ana: hra in červené with Dana, lost",
                ("trump", "hearts"),
                ("partner", "Dana"),
                ("won", "lost"),
                gets="-0.40",
            ),
            # A renonc by the defender Dana stops the hra (not played out): only the fee, "other" 2.00 to each of
            # her two opponents (Ben and Cyril).
            hand(
                "Ben: hra in zelené with Cyril, renonc by Dana",
                ("trump", "leaves"),
                ("partner", "Cyril"),
                ("ending", "renonc"),
                ("renonc_player", "Dana"),
                gets="-4.00",
                common=False,
                who="Dana",
            ),
            hand(
                "Cyril: hra in kule with Ben, flek, won",
                ("trump", "bells"),
                ("partner", "Ben"),
                ("flek_hra", 1),
                ("won", "won"),
                gets="0.40",
            ),
            # hra 0.20 × 2 (red) + sedma 2 × 0.20 × 2 (flek) × 2 (red)
            hand(
                "Dana: sedma in červené with Cyril, flek on the sedma, both won",
                ("contract", "sedma"),
                ("trump", "hearts"),
                ("partner", "Cyril"),
                ("flek_sedma", 1),
                ("sedma_outcome", "won/won"),
                gets="2.00",
                # Common by the words (a sedma with one raise), but it carries five independent choices
                # besides the chooser; one tap each is its physical limit (docs/benchmarks.md, "Taps per hand").
                limit="five choices: contract, trump, partner, flek, hra × seven",
            ),
            hand(
                "Ana: hra in žaludy with Ben, won", ("trump", "acorns"), ("partner", "Ben"), ("won", "won"), gets="0.20"
            ),
            # Stovka made with 70 + a 40 = 110 (M5): 4 × 0.20 × (1 + 1)
            hand(
                "Ben: stovka in kule with Ana, a 40, 70",
                ("contract", "stovka"),
                ("trump", "bells"),
                ("partner", "Ana"),
                ("marriages_declarer_40", True),
                ("points", 70),
                gets="1.60",
                common=False,
            ),
            hand(
                "Cyril: hra in zelené with Dana, lost",
                ("trump", "leaves"),
                ("partner", "Dana"),
                ("won", "lost"),
                gets="-0.20",
            ),
            # 50 against 40 + a 20 = 60: hra lost
            hand(
                "Dana: hra in kule with Ben, defenders a 20, 50",
                ("trump", "bells"),
                ("partner", "Ben"),
                ("marriages_defenders_20", 1),
                ("points", 50),
                gets="-0.20",
            ),
            # alone: 3 × −20 × 0.20
            hand("Ana: durch, lost", ("contract", "durch"), ("won", "lost"), gets="-12.00"),
            # alone: 3 × 0.20
            hand("Ben: hra in kule alone, won", ("trump", "bells"), ("partner", " alone"), ("won", "won"), gets="0.60"),
            hand(
                "Cyril: hra in červené with Ana, won",
                ("trump", "hearts"),
                ("partner", "Ana"),
                ("won", "won"),
                gets="0.40",
            ),
            # 60 + a 40 = 100: a tichá stovka doubles the hra: 0.20 × 2
            hand(
                "Dana: hra in žaludy with Ana, a 40, 60 (tichá stovka)",
                ("trump", "acorns"),
                ("partner", "Ana"),
                ("marriages_declarer_40", True),
                ("points", 60),
                gets="0.40",
            ),
            hand(
                "Ana: hra in kule with Cyril, won",
                ("trump", "bells"),
                ("partner", "Cyril"),
                ("won", "won"),
                gets="0.20",
            ),
        ],
    ),
    "snapser": (
        ["Ana", "Ben", "Cyril"],
        {},
        [
            # V = 0.10 × category × raises × red; the chooser against two: ±2V
            hand("Ben: hrám in zeleň, s vodou", ("trump", "leaves"), ("result", "s_vodou"), gets="0.40"),
            hand("Cyril: hrám in červeň, bez vody", ("trump", "hearts"), ("result", "bez_vody"), gets="1.60"),
            hand(
                "Ana: hrám in guľa, the defenders s vodou",
                ("trump", "bells"),
                ("winner", "defenders"),
                ("result", "s_vodou"),
                gets="-0.40",
            ),
            hand(
                "Ben: hrám in žaluď, kontra, s vodou",
                ("trump", "acorns"),
                ("raises", 1),
                ("result", "s_vodou"),
                gets="0.80",
            ),
            hand("Cyril: hrám in zeleň, s vodou", ("trump", "leaves"), ("result", "s_vodou"), gets="0.40"),
            hand("Ana: nehrám in žaluď", ("trump", "acorns"), ("announcement", "nehram"), gets="-1.20", common=False),
            hand("Ben: hrám in červeň, s vodou", ("trump", "hearts"), ("result", "s_vodou"), gets="0.80"),
            hand(
                "Cyril: za 12 in zeleň, made",
                ("trump", "leaves"),
                ("announcement", "za12"),
                ("winner", "declarer"),
                gets="2.40",
                common=False,
            ),
            hand("Ana: hrám in guľa, bez vody", ("trump", "bells"), ("result", "bez_vody"), gets="0.80"),
            hand(
                "Ben: hrám in zeleň, the defenders bez vody",
                ("trump", "leaves"),
                ("winner", "defenders"),
                ("result", "bez_vody"),
                gets="-0.80",
            ),
            hand("Cyril: hrám in žaluď, za 6", ("trump", "acorns"), ("result", "za_6"), gets="1.20"),
            hand(
                "Ana: hrám in červeň, kontra, the defenders s vodou",
                ("trump", "hearts"),
                ("raises", 1),
                ("winner", "defenders"),
                ("result", "s_vodou"),
                gets="-1.60",
            ),
        ],
    ),
}

# The free band of the viewport around a target: below what sticks to the top (the top bar), above what sticks to
# the bottom (the record bar), as [top, bottom] in viewport pixels.
BAND = """el => {
  let top = 0, bottom = innerHeight;
  for (const other of document.querySelectorAll("body *")) {
    const position = getComputedStyle(other).position;
    if ((position !== "sticky" && position !== "fixed") || other.contains(el)) continue;
    const box = other.getBoundingClientRect();
    if (box.height === 0 || box.height > innerHeight / 2) continue;
    if (box.top <= 1 && box.bottom < innerHeight / 2) top = Math.max(top, box.bottom);
    else if (box.bottom >= innerHeight - 1 && box.top > innerHeight / 2) bottom = Math.min(bottom, box.top);
  }
  return [top, bottom];
}"""
# Where a target is and whether a thumb reaches it where it is: its centre in the viewport and not covered (the
# sticky top bar and the record bar cover what scrolls under them). Run through CDP (``locator.evaluate``), which
# the page's Content-Security-Policy (no eval) does not govern.
REACH = """el => {
  const box = el.getBoundingClientRect();
  const x = box.left + box.width / 2, y = box.top + box.height / 2;
  const inside = box.width > 0 && box.height > 0 && x >= 0 && y >= 0 && x < innerWidth && y < innerHeight;
  const hit = inside ? document.elementFromPoint(x, y) : null;
  const covered = hit && !(hit === el || el.contains(hit))
    ? (hit.closest("[id]") ? "#" + hit.closest("[id]").id + " " : "") + hit.tagName.toLowerCase()
      + (hit.className && typeof hit.className === "string" ? "." + hit.className.trim().replace(/\\s+/g, ".") : "")
    : "";
  return {x, y, inside, reachable: inside && !!hit && !covered, covered, scrollY: window.scrollY,
          pageY: y + window.scrollY, band: (BAND)(el)};
}""".replace("BAND", BAND)
# One swipe as a thumb makes it: far enough to bring the target into the free band between what sticks to the top
# (the top bar) and what sticks to the bottom (the record bar), and on as far as it goes, so that what follows in the
# swipe's direction comes into view with it (down: the target just below the top bar; up: just above the record
# bar). The fewest swipes a hand can take, so a count over the goal is the form's, not the model's.
SWIPE = """el => {
  const [top, bottom] = (BAND)(el);
  const box = el.getBoundingClientRect(), margin = 8;
  const by = box.top < top ? box.bottom - (bottom - margin) : box.top - (top + margin);
  window.scrollBy({top: by, behavior: "instant"});
}""".replace("BAND", BAND)
CENTRE = "el => el.scrollIntoView({block: 'center', inline: 'nearest', behavior: 'instant'})"
SELECTED = "el => document.activeElement === el ? document.getSelection().toString() : ''"
CLOSED_IN_MORE = "el => { const more = el.closest('details'); return !!more && !more.open; }"


class FormProblem(Exception):
    """The form cannot enter the hand as scripted: said as precisely as the page allows."""


@dataclass
class Swipe:
    target: str
    y: float  # the target's centre in the viewport before the swipe (beyond 0..height: off screen)
    covered: str  # what covered it, when it was on screen
    band: tuple[float, float]  # the viewport between the sticky bars then
    distance: int


@dataclass
class Counter:
    """Every tap, key press and swipe the scorekeeper makes, each tap waiting for the htmx request it started."""

    page: Any
    clicks: int = 0
    keys: int = 0
    swipes: list[Swipe] = field(default_factory=list)
    cleared: list[str] = field(default_factory=list)  # number fields whose value a tap did not select

    def tap(self, target: Any, what: str) -> None:
        try:
            target.wait_for(state="visible", timeout=2000)
        except PlaywrightTimeout as error:
            raise FormProblem(f"{what}: not shown on the page") from error
        where = target.evaluate(REACH)
        if not where["reachable"]:
            before = where
            target.evaluate(SWIPE)
            where = target.evaluate(REACH)
            if not where["reachable"]:  # the band is narrower than the target: the middle of the screen, then
                target.evaluate(CENTRE)
                where = target.evaluate(REACH)
            distance = round(abs(where["scrollY"] - before["scrollY"]))
            self.swipes.append(Swipe(what, before["y"], before["covered"], tuple(before["band"]), distance))
            if not where["reachable"]:
                raise FormProblem(
                    f"{what}: out of reach even in the middle of the screen (centre y={where['y']:.0f}, page "
                    f"y={where['pageY']:.0f}, covered by {where['covered'] or 'nothing: off screen'})"
                )
        self.page.mouse.click(where["x"], where["y"])
        self.clicks += 1
        self.settle()

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)
        self.keys += 1

    def settle(self) -> None:
        expect(self.page.locator("html[data-htmx-busy]")).to_have_count(0)

    @property
    def scrolled(self) -> int:
        return sum(swipe.distance for swipe in self.swipes)


def set_field(tapper: Counter, name: str, value: Any) -> bool:
    """Make the field say ``value``, tapping only when it does not already; True when the tap recorded the hand."""
    page = tapper.page
    record = page.locator(f"#record-by-{name}")
    if record.count() and record.is_visible():  # the record bar: this field's buttons record the hand
        tapper.tap(record.locator(f'button[type=submit][value="{value}"]'), f"{name} {value!r} (records)")
        return True
    wrapper = page.locator(f"#field-{name}")
    if not wrapper.count():
        raise FormProblem(f"{name}: no #field-{name} on the page")
    if wrapper.evaluate(CLOSED_IN_MORE):  # kept under "More"
        tapper.tap(page.locator("details.more > summary"), f'"More" (for {name})')
    if not wrapper.is_visible():
        raise FormProblem(f"{name}: #field-{name} is hidden (not asked for the choices tapped so far)")
    if wrapper.locator("input[type=radio]").count():
        radio = wrapper.locator(f'input[type=radio][value="{value}"]')
        if not radio.count():
            raise FormProblem(f"{name}: no choice {value!r}")
        if not radio.is_checked():
            tapper.tap(wrapper.locator(f'label:has(input[value="{value}"])'), f"{name} {value!r}")
    elif wrapper.locator("input[type=checkbox]").count():
        if wrapper.locator("input[type=checkbox]").is_checked() != bool(value):
            tapper.tap(wrapper.locator("label"), f"{name} {value!r}")
    else:
        number = wrapper.locator("input")
        if number.input_value() == str(value):
            return False
        button = wrapper.locator(f'.quick button[data-value="{value}"]')
        if button.count():
            tapper.tap(button, f"{name} {value} (quick button)")
        else:
            shown = number.input_value()
            tapper.tap(number, f"{name} (to type {value})")  # selects what it says (talon.js): the digits replace it
            if shown and number.evaluate(SELECTED) != shown:
                # Not selected: the caret sits after what the field says, as a tap beside a short number puts it
                # (End only puts it there, no thumb presses it), and the scorekeeper deletes it digit by digit.
                tapper.page.keyboard.press("End")
                for _digit in shown:
                    tapper.press("Backspace")
                tapper.cleared.append(f"{name} (said {shown})")
            for digit in str(value):
                tapper.press(digit)
            if number.input_value() != str(value):
                raise FormProblem(f"{name}: typed {value}, the field says {number.input_value()!r}")
    return False


def enter(page: Any, scripted: Scripted) -> Counter:
    """Tap the hand in; the last field records it, or "Record hand" does."""
    tapper = Counter(page)
    recorded = False
    for position, (name, value) in enumerate(scripted.fields, start=1):
        recorded = set_field(tapper, name, value)
        if recorded and position < len(scripted.fields):
            raise FormProblem(f"{name} {value!r} recorded the hand; the script still had {scripted.fields[position:]}")
    if not recorded:
        tapper.tap(page.locator("#record-hand"), '"Record hand"')
    return tapper


def next_form(page: Any, key: str) -> None:
    """Wait, as a thumb does, until the form for the next hand takes taps: drawn (a new key), settled by htmx, and
    past the 0.4 s in which a form drawn after Record ignores its record bar (``.fresh``: a double tap's guard)."""
    try:
        expect(page.locator(f'#hand-form input[name=key][value="{key}"]')).to_have_count(0)
    except AssertionError:
        return  # refused: the same form again, with its errors (the caller says them)
    expect(page.locator(".htmx-settling")).to_have_count(0)
    expect(page.locator("#hand-form.fresh")).to_have_count(0)


def play_evening(
    browser: Any,
    base_url: str,
    session: str,
    table: Any,
    hands: list[Scripted],
    after_hand: Callable[[Any], dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """The scorekeeper taps ``hands`` in at ``table``; ``after_hand`` (the stored hand) adds to each hand's row what
    happened after it (a confirming player's taps)."""
    from ledger.models import Hand

    context = browser.new_context(base_url=base_url, **PHONE)
    context.add_init_script(HTMX_COUNTER)
    context.add_cookies([{"name": "sessionid", "value": session, "url": base_url}])
    page = context.new_page()
    page.goto(table.get_absolute_url())
    rows = []
    for number, scripted in enumerate(hands, start=1):
        where = f"{table.game} hand {number} ({scripted.said})"
        key = page.locator("#hand-form input[name=key]").input_value()
        try:
            tapper = enter(page, scripted)
        except FormProblem as problem:
            errors = page.locator("#hand-form [role=alert]").all_inner_texts()
            raise SystemExit(f"{where}: {problem}" + (f"; the form says {errors}" if errors else "")) from problem
        next_form(page, key)
        stored = Hand.objects.filter(table=table, number=number).first()
        if stored is None:
            errors = page.locator("#hand-form [role=alert]").all_inner_texts()
            raise SystemExit(f"{where} was not recorded: {errors}")
        got = stored.amounts[scripted.player]
        if got != Decimal(scripted.gets):
            raise SystemExit(
                f"{where}: {scripted.player} got {got}, expected {scripted.gets} (stored as {stored.label!r}: "
                f"{stored.document})"
            )
        rows.append(
            {"game": table.game, "number": number, "hand": scripted, "label": stored.label, "amount": got}
            | {"clicks": tapper.clicks, "keys": tapper.keys, "swipes": tapper.swipes, "scrolled": tapper.scrolled}
            | {"cleared": tapper.cleared}
            | (after_hand(stored) if after_hand else {})
        )
    context.close()
    return rows


class Confirmers:
    """The four players of a table, each on a phone of their own holding their seat (its device cookie)."""

    def __init__(self, browser: Any, base_url: str, table: Any) -> None:
        import secrets

        from ledger.devices.phone import COOKIE, device_hash
        from ledger.seats import services as seats

        self.table = table
        self.contexts = []
        self.pages: dict[int, Any] = {}  # by player id
        for seat in table.seats.select_related("player").order_by("position"):
            device = secrets.token_urlsafe(32)
            seats.seat_claim(table=table, position=seat.position, phone=seats.Phone(device_hash(device)))
            context = browser.new_context(base_url=base_url, **PHONE)
            context.add_init_script(HTMX_COUNTER)
            context.add_cookies([{"name": COOKIE, "value": device, "url": base_url}])
            page = context.new_page()
            page.goto(f"/seat/{table.pk}/")
            self.contexts.append(context)
            self.pages[seat.player_id] = page

    def confirm(self, hand: Any) -> dict[str, Any]:
        """The first player asked about ``hand`` sees its card on their phone and taps OK."""
        from ledger.confirmations.models import Confirmation
        from ledger.confirmations.selectors import state_of

        state = state_of(hand)
        if state is None or not state.awaiting:
            raise SystemExit(f"hand {hand.number}: nobody is asked to confirm it")
        player = state.awaiting[0]
        page = self.pages[player.id]
        card = page.locator(f"#confirm-{hand.number}")
        expect(card).to_contain_text(f"Hand #{hand.number} needs your OK", timeout=20_000)
        tapper = Counter(page)
        tapper.tap(card.locator(".confirm-ok button"), f"OK ({player.name}, hand {hand.number})")
        expect(card).to_have_count(0)
        given = Confirmation.objects.filter(hand=hand, version=hand.version, player_id=player.id, verdict="ok")
        if not given.exists():
            raise SystemExit(f"hand {hand.number}: {player.name}'s OK was not stored")
        return {"confirmer": player.name, "confirm_taps": tapper.clicks + tapper.keys, "confirm_swipes": tapper.swipes}

    def close(self) -> None:
        for context in self.contexts:
            context.close()


def main() -> int:
    confirming = "--confirm" in sys.argv[1:]
    setup_django("taps")
    from django.contrib.auth import get_user_model

    from ledger import services

    keeper = get_user_model().objects.create_user(username="keeper", password="taps-only-" + "x" * 16)
    evening = services.evening_create(owner=keeper, date=datetime.date(2026, 11, 27), place="U Fleků", currency="EUR")
    tables = {
        game: services.table_create(
            evening=evening,
            game=game,
            players=players,
            rules_override=rules,
            **({"confirmation": "opponent"} if confirming and game == CONFIRMING_GAME else {}),
        )
        for game, (players, rules, _) in EVENINGS.items()
    }
    session = session_of(keeper)
    rows = []
    with chromium_at_live_server() as (browser, base_url):
        for game, (_, _rules, hands) in EVENINGS.items():
            if confirming and game == CONFIRMING_GAME:
                phones = Confirmers(browser, base_url, tables[game])
                rows += play_evening(browser, base_url, session, tables[game], hands, after_hand=phones.confirm)
                phones.close()
            else:
                rows += play_evening(browser, base_url, session, tables[game], hands)
    status = report(rows)
    if confirming:
        status = max(status, report_confirmations(rows))
    return status


CONFIRMING_GAME = "marias"  # --confirm: four players, one opponent of the declarer's side confirms


def report_confirmations(rows: list[dict[str, Any]]) -> int:
    """The confirming players' taps, hand by hand, and the verdict: one tap each, no swipe."""
    confirmed = [row for row in rows if "confirm_taps" in row]
    print(f"\nConfirming players ({CONFIRMING_GAME}, one opponent of the declarer's side confirms on their phone):")
    for row in confirmed:
        taps, swipes = row["confirm_taps"], len(row["confirm_swipes"])
        print(f"  {row['game']} {row['number']:>2}: {row['confirmer']:<6} {taps} tap(s), {swipes} scroll(s)")
    taps = [row["confirm_taps"] for row in confirmed]
    swipes = sum(len(row["confirm_swipes"]) for row in confirmed)
    failed = max(taps) > 1 or swipes > 0
    verdict = "ok" if not failed else "TOO MANY (goal: 1 tap, no scroll)"
    print(
        f"confirming: {len(taps)} hands, median {statistics.median(taps):g} tap a hand, max {max(taps)}, "
        f"{swipes} scrolls: {verdict}"
    )
    return 1 if failed else 0


def report(rows: list[dict[str, Any]]) -> int:
    print(
        f"{'game':<8} {'#':>2}  {'hand as called':<52} {'stored as':<28} {'player':>14}  "
        "clicks  keys  taps  scrolls  px"
    )
    too_many = []
    for row in rows:
        taps = row["clicks"] + row["keys"]
        mark = ""
        limit = PHYSICAL_LIMIT if row["hand"].limit else COMMON_LIMIT
        if row["hand"].common:
            mark = f"  common, ≤{limit}: " + ("ok" if taps <= limit else "TOO MANY")
            if row["hand"].limit:
                mark += f" (physical limit: {row['hand'].limit})"
            if taps > limit:
                too_many.append(row)
        player = f"{row['hand'].player[:5]} {row['amount']:+}"
        print(
            f"{row['game']:<8} {row['number']:>2}  {row['hand'].said[:52]:<52} {row['label'][:28]:<28} "
            f"{player:>14}  {row['clicks']:>6}  {row['keys']:>4}  {taps:>4}  {len(row['swipes']):>7}  "
            f"{row['scrolled']:>4}{mark}"
        )
    swipes = [(row, swipe) for row in rows for swipe in row["swipes"]]
    if swipes:
        height = PHONE["viewport"]["height"]
        print(f"\nScrolls (where the target's centre was before the swipe; the viewport is 0 to {height} px):")
        for row, swipe in swipes:
            why = f"covered by {swipe.covered}" if swipe.covered else "off screen"
            band = f"free {swipe.band[0]:.0f}-{swipe.band[1]:.0f}"
            print(
                f"  {row['game']} {row['number']}: {swipe.target} at y={swipe.y:.0f} ({why}; {band}), "
                f"{swipe.distance} px"
            )
    cleared = [(row, name) for row in rows for name in row["cleared"]]
    if cleared:
        print("\nNumber fields a tap did not select (their digits deleted one by one, counted as keys):")
        for row, name in cleared:
            print(f"  {row['game']} {row['number']}: {name}")
    print()
    medians, scroll_rates = {}, {}
    for game in EVENINGS:
        played = [r for r in rows if r["game"] == game]
        taps = [r["clicks"] + r["keys"] for r in played]
        scrolls = sum(len(r["swipes"]) for r in played)
        distance = sum(r["scrolled"] for r in played)
        medians[game] = statistics.median(taps)
        scroll_rates[game] = scrolls * 10 / len(played)
        print(
            f"{game}: {len(played)} hands, {sum(taps)} taps, {sum(taps) / len(played):.1f} per hand; "
            f"{scrolls} scrolls, {distance} px, {distance / len(played):.0f} px per hand"
        )
    failed = bool(too_many)
    if too_many:
        print(f"\n{len(too_many)} common hand(s) took more than their limit", file=sys.stderr)
    print()
    for game in EVENINGS:
        median, rate = medians[game], scroll_rates[game]
        verdict = "ok" if median <= MEDIAN_LIMIT else f"TOO MANY (goal ≤ {MEDIAN_LIMIT})"
        swiped = "ok" if rate <= SCROLLS_PER_10_LIMIT else f"TOO MANY (goal ≤ {SCROLLS_PER_10_LIMIT})"
        failed = failed or median > MEDIAN_LIMIT or rate > SCROLLS_PER_10_LIMIT
        print(f"median {game}: {median:g} taps a hand, {verdict}; {rate:.1f} scrolls per 10 hands, {swiped}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
