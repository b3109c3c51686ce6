"""The balance chart: an SVG line per player over the hands, drawn on the server (no JavaScript, no CDN)."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from ledger import selectors
from ledger.models import Table

# Distinguishable on light, dark and high-contrast backgrounds.
PALETTE = ["#2563eb", "#dc2626", "#16a34a", "#d97706", "#9333ea", "#0891b2"]
WIDTH, HEIGHT, PAD = 320, 160, 24


def table_chart(table: Table) -> SafeString:
    """The table's chart, drawn from the running totals the database sums (``selectors.chart_series``)."""
    return series_chart(table.seat_names, selectors.chart_series(table))


def series_chart(players: Sequence[str], series: Sequence[Sequence[float]]) -> SafeString:
    """The chart of running balances (one line per player, each starting at zero); floats, since they are pixels."""
    steps = len(series[0]) - 1 if series else 0
    if steps == 0:
        return SafeString("")
    top = max(0.0, *(max(line) for line in series))
    bottom = min(0.0, *(min(line) for line in series))
    span = (top - bottom) or 1.0

    def x(step: int) -> str:
        return f"{PAD + (WIDTH - 2 * PAD) * step / steps:.1f}"

    def y(value: float) -> str:
        return f"{PAD + (top - value) / span * (HEIGHT - 2 * PAD):.1f}"

    lines = format_html_join(
        "",
        '<polyline fill="none" stroke="{}" stroke-width="2" points="{}"><title>{}</title></polyline>',
        (
            (PALETTE[i % len(PALETTE)], " ".join(f"{x(s)},{y(v)}" for s, v in enumerate(line)), players[i])
            for i, line in enumerate(series)
        ),
    )
    legend = format_html_join(
        "",
        '<text x="{}" y="{}" fill="{}">{}</text>',
        ((PAD + i * 72, HEIGHT - 4, PALETTE[i % len(PALETTE)], name) for i, name in enumerate(players)),
    )
    return format_html(
        '<svg viewBox="0 0 {} {}" role="img" aria-label="{}">'
        '<line x1="{}" x2="{}" y1="{}" y2="{}" stroke="currentColor" stroke-opacity=".3"/>{}{}</svg>',
        WIDTH,
        HEIGHT,
        "Balances over the hands",
        PAD,
        WIDTH - PAD,
        y(0.0),
        y(0.0),
        lines,
        legend,
    )
