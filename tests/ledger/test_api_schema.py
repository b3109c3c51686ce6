"""The OpenAPI schema and its browsable reference, with every asset served from here (no CDN)."""

from __future__ import annotations

import re

import yaml

from tests.ledger.api_support import anonymous_client

OPERATIONS = {
    ("/api/evenings/", "get"): "evening_list",
    ("/api/evenings/", "post"): "evening_create",
    ("/api/evenings/{evening_id}/", "get"): "evening_detail",
    ("/api/evenings/{evening_id}/tables/", "post"): "table_create",
    ("/api/evenings/{evening_id}/close/", "post"): "evening_close",
    ("/api/evenings/{evening_id}/reopen/", "post"): "evening_reopen",
    ("/api/evenings/{evening_id}/settlement/", "get"): "evening_settlement",
    ("/api/transfers/{transfer_id}/paid/", "post"): "transfer_mark_paid",
    ("/api/transfers/{transfer_id}/paid/", "delete"): "transfer_mark_unpaid",
    ("/api/tables/{table_id}/", "get"): "table_detail",
    ("/api/tables/{table_id}/hands/", "get"): "hand_list",
    ("/api/tables/{table_id}/hands/", "post"): "hand_create",
    ("/api/hands/{hand_id}/", "get"): "hand_detail",
    ("/api/hands/{hand_id}/", "patch"): "hand_update",
    ("/api/hands/{hand_id}/", "delete"): "hand_void",
    ("/api/shared/{token}/", "get"): "shared_evening",
    ("/api/games/", "get"): "game_list",
    ("/api/circles/", "get"): "circle_list",
    ("/api/circles/", "post"): "circle_create",
    ("/api/circles/{circle_id}/", "get"): "circle_detail",
    ("/api/circles/{circle_id}/stats/", "get"): "circle_stats",
    ("/api/players/{player_id}/stats/", "get"): "player_stats",
    ("/api/evenings/{evening_id}/hands.csv", "get"): "evening_hands_csv",
    ("/api/tournaments/", "get"): "tournament_list",
    ("/api/tournaments/", "post"): "tournament_create",
    ("/api/tournaments/{tournament_id}/", "get"): "tournament_detail",
    ("/api/tournaments/{tournament_id}/tables/", "get"): "tournament_tables",
    ("/api/tournaments/{tournament_id}/next-round/", "post"): "tournament_next_round",
    ("/api/tournaments/{tournament_id}/standings/", "get"): "tournament_standings",
    ("/api/invite-links/", "get"): "invite_link_list",
    ("/api/invite-links/", "post"): "invite_link_create",
    ("/api/invite-links/{token}/", "get"): "invite_link_detail",
    ("/api/invite-links/{token}/", "delete"): "invite_link_revoke",
    ("/api/invite-links/{token}/accept/", "post"): "invite_link_accept",
    ("/api/me/", "get"): "me",
    ("/api/me/claims/", "post"): "me_claim_request",
    ("/api/devices/", "get"): "device_list",
    ("/api/devices/{device_id}/", "delete"): "device_switch_off",
    ("/api/tables/{table_id}/seats/", "get"): "table_seats",
    ("/api/tables/{table_id}/seats/allow/", "post"): "seat_allow",
    ("/api/tables/{table_id}/seats/refuse/", "post"): "seat_refuse",
    ("/api/tables/{table_id}/seats/release/", "post"): "seat_release",
    ("/api/seats/claim/", "post"): "seat_claim",
    ("/api/hands/{hand_id}/confirmations/", "get"): "hand_confirmations",
    ("/api/hands/{hand_id}/confirm/", "post"): "hand_confirm",
    ("/api/hands/{hand_id}/dispute/", "post"): "hand_dispute",
    ("/api/evenings/{evening_id}/signatures/", "get"): "evening_signature_list",
    ("/api/evenings/{evening_id}/signatures/", "post"): "evening_signature_create",
    ("/api/tables/{table_id}/signature/", "post"): "seat_signature_create",
}


def test_the_schema_lists_one_operation_per_view(db):
    response = anonymous_client().get("/api/schema/")
    assert response.status_code == 200
    schema = yaml.safe_load(response.content)
    assert schema["openapi"].startswith("3.")
    found = {
        (path, method): operation["operationId"]
        for path, item in schema["paths"].items()
        for method, operation in item.items()
    }
    assert found == OPERATIONS
    hand_input = schema["components"]["schemas"]["HandCreateInput"]
    assert hand_input["required"] == ["hand"]
    assert schema["components"]["schemas"]["HandUpdateInput"]["required"] == ["hand", "version"]
    assert set(schema["components"]["securitySchemes"]) == {"tokenAuth", "cookieAuth"}


def test_the_schema_is_also_served_as_json(db):
    response = anonymous_client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    assert response.json()["info"]["title"] == "Talon API"


def test_the_reference_page_loads_its_assets_from_this_server(db):
    client = anonymous_client()
    page = client.get("/api/docs/")
    assert page.status_code == 200
    html = page.content.decode()
    sources = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert sources and all(source.startswith("/") for source in sources), sources
    assert "<script>" not in html and "<style>" not in html  # the Content-Security-Policy allows neither
    for source in sources:
        response = client.get(source)
        assert response.status_code == 200, source
        body = b"".join(response.streaming_content) if response.streaming else response.content
        assert body, source
    script = client.get("/api/docs/?script=")
    assert script["Content-Type"].startswith("application/javascript")
    assert b"/api/schema/" in script.content
