"""How Talon drives Debian's chromium: shared by the browser tests and the tap benches (never a downloaded browser)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
# Without these, chromium on a machine with no network waits on connections it will never get.
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# A phone held in one hand at the card table.
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
    "locale": "en-GB",
}

# Marks <html data-htmx-busy> while an htmx request is on its way, so a test (or a bench) can wait for the form to be
# redrawn before the next tap, as a thumb waits to see it. An attribute, not a JS predicate: the app's
# Content-Security-Policy forbids the eval that wait_for_function needs, and the tests run under the real policy.
# (afterRequest reaches the document even when the element that asked was swapped away: htmx re-fires it on the
# nearest ancestor still in the page.)
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
