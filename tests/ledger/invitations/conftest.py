"""Personas of the invitation tests: Alice keeps score and invites, Dora holds the link she was sent (a new
account), Charlie is a stranger without it; each has a browser of their own."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from ledger.circles import services as circles
from ledger.invitations import services as invitations
from ledger.invitations.models import InviteLink
from ledger.tournaments import services as tournaments
from tests import factories

DAY = datetime.date(2026, 12, 4)


def browser_of(user=None) -> Client:
    browser = Client()
    if user is not None:
        browser.force_login(user)
    return browser


@pytest.fixture
def dora(db):
    return factories.make_user("dora")


@pytest.fixture
def alice_browser(alice):
    return browser_of(alice)


@pytest.fixture
def dora_browser(dora):
    return browser_of(dora)


@pytest.fixture
def charlie_browser(charlie):
    return browser_of(charlie)


@pytest.fixture
def anonymous():
    return Client()


@pytest.fixture
def circle(alice):
    return circles.circle_create(owner=alice, name="Friday Šnapser", members=["Ana", "Ben", "Cyril"], settle="tab")


@pytest.fixture
def tournament(alice):
    """A Skat club night of six players, registering."""
    return tournaments.tournament_create(
        owner=alice,
        game="skat",
        name="Skat night",
        players=["Ana", "Ben", "Cyril", "Dana", "Emil", "Fero"],
        rounds=2,
        options={"fees": {"entry": "10.00", "lost": {"3": "0.50"}}, "prizes": "top3"},
        date=DAY,
        place="Klubovna",
    )


def make_link(subject, by, **kwargs) -> InviteLink:
    return invitations.invite_link_create(subject=subject, by=by, **kwargs)


def link_path(link: InviteLink) -> str:
    return reverse("invitations:invite_link", args=[link.token])


def accept_path(link: InviteLink) -> str:
    return reverse("invitations:invite_link_accept", args=[link.token])


def revoke_path(link: InviteLink) -> str:
    return reverse("invitations:invite_link_revoke", args=[link.token])


def make_path(kind: str, target_id: int) -> str:
    return reverse("invitations:invite_link_create", args=[kind, target_id])
