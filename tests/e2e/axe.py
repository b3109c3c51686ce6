"""axe-core in the browser tests: the accessibility engine run on a page as the app serves it, under its real
Content-Security-Policy.

axe is vendored for the tests only (tests/e2e/vendor/axe.min.js, axe-core 4.14.1 from npm, MPL-2.0; the app never
serves it). A <script> tag would be refused by the policy (script-src 'self'), so the source goes in through
Playwright's evaluate, which the DevTools protocol runs as the page's own code without asking the policy; axe
itself needs no eval.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
SERIOUS = ("serious", "critical")

# Every default rule (WCAG 2.x A and AA, colour contrast included, plus best practices). axe leaves text drawn in
# its own background's colour (a 1:1 ratio) for a person to review, as it is often hidden on purpose; on these
# pages it never is (a green button label on its green button), so it counts as a critical violation here.
RUN = """
async () => {
  const results = await axe.run(document, { resultTypes: ["violations", "incomplete"] });
  const invisible = results.incomplete
    .filter((result) => result.id === "color-contrast")
    .map((result) => ({
      ...result,
      impact: "critical",
      help: "Text must not be drawn in the colour of its background",
      nodes: result.nodes.filter((node) => node.any.some((check) => check.data?.messageKey === "equalRatio")),
    }))
    .filter((result) => result.nodes.length);
  return [...results.violations, ...invisible].map((violation) => ({
    id: violation.id,
    impact: violation.impact,
    help: violation.help,
    nodes: violation.nodes.map((node) => ({
      target: node.target.join(" "),
      html: node.html,
      summary: node.failureSummary || node.any.map((check) => check.message).join(" "),
    })),
  }));
}
"""


@cache
def _source() -> str:
    return AXE.read_text(encoding="utf-8")


def audit(page: Page) -> list[dict[str, Any]]:
    """The serious and critical violations axe finds on the page as it is drawn now."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(_source())
    violations = page.evaluate(RUN)
    return [violation for violation in violations if violation["impact"] in SERIOUS]


def report(violations: list[dict[str, Any]], where: str) -> list[str]:
    """One readable paragraph per violation: the rule, then each failing element with axe's reason."""
    lines = []
    for violation in violations:
        lines.append(f"{where}: {violation['id']} ({violation['impact']}): {violation['help']}")
        for node in violation["nodes"]:
            summary = " ".join(node["summary"].split())
            lines.append(f"    {node['target']}  {node['html'][:120]}\n      {summary}")
    return lines
