"""The pages of the private links other than the share link are never stored: a circle member's page (``/m/``)
and a tournament's standings (``/r/``).
"""

from __future__ import annotations

from django.test import Client
from django.urls import reverse

from ledger.circles import services as circles
from ledger.tournaments import services as tournaments


def _no_store(response) -> bool:
    return "no-store" in response.get("Cache-Control", "")


def test_a_members_page_is_never_stored(alice):
    circle = circles.circle_create(owner=alice, name="Friday", members=["Ana"])
    membership = circles.member_link_create(membership=circle.memberships.get())
    answer = Client().get(reverse("ledger:circle_member_page", args=[membership.token]))
    assert answer.status_code == 200 and _no_store(answer)
    assert _no_store(Client().get(reverse("ledger:circle_member_page", args=["revoked-or-never-made"])))


def test_the_standings_page_is_never_stored(alice):
    tournament = tournaments.tournament_create(
        owner=alice, game="skat", name="Skat night", players=["Ana", "Ben", "Cyril"], rounds=1, start=True
    )
    answer = Client().get(reverse("ledger:tournament_live", args=[tournament.share_token]))
    assert answer.status_code == 200 and _no_store(answer)
    assert _no_store(Client().get(reverse("ledger:tournament_live", args=["nothing-here"])))
