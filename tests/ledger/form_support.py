"""Posting a hand form as the table page does, and reading the errors beside its fields."""

from __future__ import annotations

from typing import Any

from django.urls import reverse


def post_hand(client: Any, table: Any, taps: dict[str, Any], htmx: bool = False) -> Any:
    """POST the taps to the table's hand form (the first seat dealing), as htmx or as a plain form post."""
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(reverse("ledger:hand_create", args=[table.pk]), taps | {"dealer": "0"}, headers=headers)


def errors_beside(html: str, field: str) -> str:
    """The text of the error list beside one field, or '' when it has none."""
    marker = f'id="errors-{field}"><li>'
    if marker not in html:
        return ""
    return html.split(marker, 1)[1].split("</li>", 1)[0]
