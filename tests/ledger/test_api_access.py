"""Who may do what through the API, for every endpoint: as on the pages.

Alice keeps score (token), Bob holds the share link (no account), Charlie is a stranger with an account of his own.
Strangers get 404 whatever they ask, never a hint that the evening exists; callers without credentials get 401
before any lookup, so they learn nothing either.
"""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from ledger import services
from ledger.models import Evening, Hand, Table
from tests import factories
from tests.ledger.api_support import anonymous_client, token_client

HAND = {"hand": factories.SNAPSER_N1}


@pytest.fixture
def hand(snapser_table):
    return factories.record(snapser_table)[0]


@pytest.fixture
def closed_evening(alice):
    evening = factories.make_evening(alice, place="Closed")
    factories.record(factories.make_table(evening, "snapser"))
    services.evening_close(evening=evening, by=alice)
    return evening


def _endpoints(evening, table, hand, closed):
    transfer = closed.settlement.transfers.first()
    return {
        "evening_list": ("get", "/api/evenings/", None, 200),
        "evening_create": ("post", "/api/evenings/", {"date": "2026-11-28"}, 201),
        "evening_detail": ("get", f"/api/evenings/{evening.pk}/", None, 200),
        "table_create": (
            "post",
            f"/api/evenings/{evening.pk}/tables/",
            {"game": "skat", "players": ["Ana", "Ben", "Cyril"]},
            201,
        ),
        "table_detail": ("get", f"/api/tables/{table.pk}/", None, 200),
        "hand_list": ("get", f"/api/tables/{table.pk}/hands/", None, 200),
        "hand_create": ("post", f"/api/tables/{table.pk}/hands/", HAND, 201),
        "hand_detail": ("get", f"/api/hands/{hand.pk}/", None, 200),
        "hand_update": ("patch", f"/api/hands/{hand.pk}/", HAND | {"version": 1}, 200),
        "hand_void": ("delete", f"/api/hands/{hand.pk}/", None, 200),
        "evening_close": ("post", f"/api/evenings/{evening.pk}/close/", {"mode": "fewest"}, 200),
        "evening_reopen": ("post", f"/api/evenings/{closed.pk}/reopen/", None, 200),
        "evening_settlement": ("get", f"/api/evenings/{closed.pk}/settlement/", None, 200),
        "transfer_mark_paid": ("post", f"/api/transfers/{transfer.pk}/paid/", None, 200),
        "transfer_mark_unpaid": ("delete", f"/api/transfers/{transfer.pk}/paid/", None, 200),
    }


ENDPOINTS = [
    "evening_list",
    "evening_create",
    "evening_detail",
    "table_create",
    "table_detail",
    "hand_list",
    "hand_create",
    "hand_detail",
    "hand_update",
    "hand_void",
    "evening_close",
    "evening_reopen",
    "evening_settlement",
    "transfer_mark_paid",
    "transfer_mark_unpaid",
]
OF_AN_EVENING = [name for name in ENDPOINTS if name not in ("evening_list", "evening_create")]


def _call(client, endpoint, evening, table, hand, closed):
    method, url, body, expected = _endpoints(evening, table, hand, closed)[endpoint]
    return getattr(client, method)(url, body, format="json"), expected


def _state():
    return (
        list(Evening.objects.order_by("pk").values_list("pk", "status")),
        Table.objects.count(),
        list(Hand.objects.order_by("pk").values_list("pk", "version", "status")),
        sorted(
            t.paid_at is not None for e in Evening.objects.filter(status="closed") for t in e.settlement.transfers.all()
        ),
    )


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_the_scorekeeper_may_do_everything(alice, evening, snapser_table, hand, closed_evening, endpoint):
    response, expected = _call(token_client(alice), endpoint, evening, snapser_table, hand, closed_evening)
    assert response.status_code == expected, response.content


@pytest.mark.parametrize("endpoint", OF_AN_EVENING)
def test_a_stranger_gets_404_and_changes_nothing(charlie, evening, snapser_table, hand, closed_evening, endpoint):
    before = _state()
    response, _ = _call(token_client(charlie), endpoint, evening, snapser_table, hand, closed_evening)
    assert response.status_code == 404
    assert response.json() == {"field": None, "error": "Not found."}  # the same for an id that does not exist
    assert _state() == before


def test_a_strangers_list_holds_only_his_own_evenings(charlie, evening):
    mine = factories.make_evening(charlie, place="Charlie's")
    response = token_client(charlie).get("/api/evenings/")
    assert [row["id"] for row in response.json()] == [mine.pk]


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_a_caller_without_credentials_is_told_to_authenticate(evening, snapser_table, hand, closed_evening, endpoint):
    before = _state()
    response, _ = _call(anonymous_client(), endpoint, evening, snapser_table, hand, closed_evening)
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert _state() == before


@pytest.mark.parametrize("endpoint", OF_AN_EVENING)
def test_the_share_link_opens_no_other_endpoint(evening, snapser_table, hand, closed_evening, endpoint):
    # Bob knows the token, but it is not a credential: only /api/shared/<token>/ reads with it.
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {evening.share_token}")
    response, _ = _call(client, endpoint, evening, snapser_table, hand, closed_evening)
    assert response.status_code == 401


def test_the_share_link_holder_reads_the_evening_with_its_hands(evening, snapser_table, hand):
    response = anonymous_client().get(f"/api/shared/{evening.share_token}/")
    assert response.status_code == 200
    body = response.json()
    assert body["balances"] == {"Ana": "0.40", "Ben": "-0.20", "Cyril": "-0.20"}
    assert [h["amounts"] for h in body["tables"][0]["hands"]] == [{"Ana": "0.40", "Ben": "-0.20", "Cyril": "-0.20"}]
    assert body["settlement"] is None
    assert "share_token" not in body


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_the_share_link_is_read_only(evening, snapser_table, hand, method):
    response = getattr(anonymous_client(), method)(f"/api/shared/{evening.share_token}/", HAND, format="json")
    assert response.status_code == 405
    assert Hand.objects.count() == 1


def test_a_revoked_or_wrong_share_link_gets_404(evening):
    old = evening.share_token
    services.evening_share_reset(evening=evening, enabled=False)
    assert anonymous_client().get(f"/api/shared/{old}/").status_code == 404
    assert anonymous_client().get("/api/shared/not-a-token/").status_code == 404


def test_a_stranger_reads_a_shared_evening_only_through_its_link(charlie, evening, snapser_table, hand):
    client = token_client(charlie)
    assert client.get(f"/api/evenings/{evening.pk}/").status_code == 404
    assert client.get(f"/api/shared/{evening.share_token}/").status_code == 200


def test_a_co_scorekeeper_keeps_score_too(charlie, evening, snapser_table):
    services.evening_add_scorekeeper(evening=evening, user=charlie)
    response = token_client(charlie).post(f"/api/tables/{snapser_table.pk}/hands/", HAND, format="json")
    assert response.status_code == 201
    assert Hand.objects.get().entered_by == charlie


def test_the_browser_session_works_with_its_csrf_check(alice, evening):
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(alice)
    assert client.get(f"/api/evenings/{evening.pk}/").status_code == 200
    refused = client.post("/api/evenings/", {"date": "2026-11-28"}, format="json")
    assert refused.status_code == 403
    assert "CSRF" in refused.json()["error"]
    assert Evening.objects.count() == 1
    # The token the pages give htmx (hx-headers on <body>) is the one that lets the same request through.
    page = client.get("/").content.decode()
    token = re.search(r"hx-headers='\{\"X-CSRFToken\": \"([^\"]+)\"\}'", page).group(1)
    created = client.post("/api/evenings/", {"date": "2026-11-28"}, format="json", HTTP_X_CSRFTOKEN=token)
    assert created.status_code == 201, created.content
    assert Evening.objects.filter(owner=alice, date="2026-11-28").count() == 1


def test_a_token_made_with_the_management_command_authenticates(alice, evening, capsys):
    call_command("drf_create_token", "alice")
    key = Token.objects.get(user=alice).key
    assert key in capsys.readouterr().out
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert [row["id"] for row in client.get("/api/evenings/").json()] == [evening.pk]


def test_a_wrong_token_is_refused(evening):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    response = client.get("/api/evenings/")
    assert response.status_code == 401
    assert response.json() == {"field": None, "error": "Invalid token."}
