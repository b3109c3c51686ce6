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


def table_chart(table: Table, last: int | None = None) -> SafeString:
    """The table's chart, drawn from the running balances its hands keep (``selectors.chart_series``, a bounded
    sample of them); ``last``: the table's newest hand number, when the caller knows it better than the table."""
    numbers, series = selectors.chart_series(table, last)
    return series_chart(table.seat_names, series, numbers)


def series_chart(
    players: Sequence[str], series: Sequence[Sequence[float]], numbers: Sequence[int] | None = None
) -> SafeString:
    """The chart of running balances (one line per player, each starting at zero); floats, since they are pixels.

    ``numbers``: the hand after which each point stands, placing it along the x axis (evenly spread without them).
    """
    steps = len(series[0]) - 1 if series else 0
    if steps == 0:
        return SafeString("")
    places = list(numbers) if numbers is not None else list(range(steps + 1))
    width = (places[-1] - places[0]) or 1
    top = max(0.0, *(max(line) for line in series))
    bottom = min(0.0, *(min(line) for line in series))
    span = (top - bottom) or 1.0

    def x(step: int) -> str:
        return f"{PAD + (WIDTH - 2 * PAD) * (places[step] - places[0]) / width:.1f}"

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
