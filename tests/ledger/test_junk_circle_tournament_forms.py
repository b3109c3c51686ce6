"""Junk posted to the circle and tournament forms, in any charset a client may claim: never a server error.

The same junk as tests/ledger/test_junk_requests.py (NUL characters, bytes that are not UTF-8, numbers past any
column, huge text, repeated fields, strangers), sent as the form body with a charset drawn from those a client may
name; Django reads only UTF-8 forms, so the others must be a 400, never a 500.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.circles import services as circles
from ledger.tournaments import services as tournaments
from tests.ledger.test_junk_requests import FEW, form_posts

CHARSETS = st.sampled_from(["", "; charset=utf-8", "; charset=UTF-8", "; charset=utf-16", "; charset=latin-1"])


def _pages(alice: Any) -> dict[str, tuple[str, dict[str, str]]]:
    circle = circles.circle_create(owner=alice, name="Friday", members=["Ana", "Ben", "Cyril"], settle="pot")
    player = circle.members.first()
    cup = tournaments.tournament_create(
        owner=alice, game="skat", name="Cup", players=["Ana", "Ben", "Cyril", "Dora"], rounds=2
    )
    tournament = {
        "name": "Cup",
        "game": "skat",
        "date": "2026-11-27",
        "place": "x",
        "currency": "EUR",
        "coin": "0.50",
        "rounds": "2",
        "entry_fee": "10",
        "table_fee": "1",
        "lost_fee_3": "0.5",
        "lost_fee_4": "1",
        "prizes": "top3",
        "placement": "",
        "minutes": "90",
        "players": "Ana\nBen\nCyril",
    }
    return {
        "circle_create": (
            reverse("ledger:circle_create"),
            {"name": "Club", "members": "Ana\nBen", "settle": "pot", "currency": "EUR", "pot_share": "0.1"},
        ),
        "circle_member_add": (reverse("ledger:circle_member_add", args=[circle.pk]), {"name": "Dora"}),
        "circle_settings": (
            reverse("ledger:circle_settings", args=[circle.pk]),
            {"name": "Club", "settle": "pot", "currency": "EUR", "pot_share": "0.1", "pot_holder": str(player.pk)},
        ),
        "circle_pot": (
            reverse("ledger:circle_pot", args=[circle.pk]),
            {"action": "in", "amount": "5", "player": str(player.pk), "note": "x"},
        ),
        "circle_scorekeeper_add": (reverse("ledger:circle_scorekeeper_add", args=[circle.pk]), {"username": "x"}),
        "circle_tab_settle": (reverse("ledger:circle_tab_settle", args=[circle.pk]), {"mode": "fewest"}),
        "tournament_create": (reverse("ledger:tournament_create"), tournament),
        "tournament_entrant_add": (reverse("ledger:tournament_entrant_add", args=[cup.pk]), {"name": "Emil"}),
    }


@pytest.mark.parametrize(
    "page",
    [
        "circle_create",
        "circle_member_add",
        "circle_settings",
        "circle_pot",
        "circle_scorekeeper_add",
        "circle_tab_settle",
        "tournament_create",
        "tournament_entrant_add",
    ],
)
def test_junk_posted_to_circle_and_tournament_forms_is_answered_without_a_server_error(alice, client, page):
    url, valid = _pages(alice)[page]
    names = sorted(valid)

    @settings(FEW, max_examples=12)
    @given(body=form_posts(names, valid), charset=CHARSETS, htmx=st.booleans())
    def post_junk(body: str, charset: str, htmx: bool) -> None:
        client.force_login(alice)
        headers = {"HX-Request": "true"} if htmx else {}
        content_type = "application/x-www-form-urlencoded" + charset
        response = client.post(url, data=body.encode(), content_type=content_type, headers=headers)
        assert response.status_code < 500
        if body and charset and "utf-8" not in charset.lower():  # (the test client sends no type without a body)
            assert response.status_code == 400

    post_junk()
