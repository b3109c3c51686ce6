"""Bad input is no server error: each find of the fuzzing run answers 400 naming the field (404 for a
share token), on SQLite and on PostgreSQL, and stores nothing. Random junk of the same kinds: test_junk_requests.py.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from ledger.api.json_bodies import JSONRenderer
from ledger.models import Hand, Table
from tests import factories
from tests.ledger.api_support import anonymous_client, token_client


@pytest.fixture
def api(alice):
    return token_client(alice)


def _post(client, url: str, text: str, method: str = "post"):
    """A body as a client writes it: ``\\ud800`` stays the JSON escape it is on the wire."""
    return getattr(client, method)(url, data=text, content_type="application/json")


# --------------------------------------------------------------------------------------------------------------
# 1. A NUL in a share token, a session cookie or a header (PostgreSQL refuses to be asked about one)


@pytest.mark.parametrize("path", ["/api/shared/x%00/", "/s/x%00/", "/s/%00/", "/games/skat%00/rules/"])
def test_a_nul_in_the_path_is_not_found(bob_client, db, path):
    assert bob_client.get(path).status_code == 404


def test_a_nul_after_a_real_share_token_is_not_found(bob_client, evening):
    assert bob_client.get(f"/s/{evening.share_token}%00/").status_code == 404
    assert bob_client.get(f"/api/shared/{evening.share_token}/").status_code == 200


@pytest.mark.parametrize("cookie", ["sessionid", "csrftoken", "django_language"])
def test_a_cookie_holding_an_escaped_nul_is_ignored(client, alice, cookie):
    escaped = f'{cookie}="abcdefghij\\000klmnop"'  # a quoted cookie value: \000 is read as a NUL
    assert client.get("/", HTTP_COOKIE=escaped).status_code == 200
    assert client.get(reverse("ledger:evening_list"), HTTP_COOKIE=escaped).status_code == 302  # to log in
    assert client.post(reverse("login"), {"login": "alice"}, HTTP_COOKIE=escaped).status_code in (200, 403)


def test_an_api_token_holding_a_nul_is_a_bad_request(db):
    client = anonymous_client()
    assert client.get("/api/evenings/", HTTP_AUTHORIZATION="Token abc\x00def").status_code == 400


# --------------------------------------------------------------------------------------------------------------
# 2. A null side of the hlášky: refused by the engine, so the hand's edit page never meets it


def test_a_null_side_of_the_hlasky_is_refused_and_nothing_is_stored(api, evening):
    table = factories.make_table(evening, "marias")
    hand = factories.MARIAS_M2 | {"marriages": {"declarer": None}}
    response = api.post(f"/api/tables/{table.pk}/hands/", {"hand": hand}, format="json")
    assert response.status_code == 400
    assert response.json()["field"] == "marriages.declarer"
    assert "20 or 40" in response.json()["error"]
    assert not Hand.objects.exists()


def test_a_correction_to_a_null_side_of_the_hlasky_is_refused_and_the_edit_page_still_draws(api, alice_client, evening):
    table = factories.make_table(evening, "marias")
    stored = factories.record(table)[0]
    hand = factories.MARIAS_M2 | {"marriages": {"defenders": None}}
    response = api.patch(f"/api/hands/{stored.pk}/", {"hand": hand, "version": 1}, format="json")
    assert (response.status_code, response.json()["field"]) == (400, "marriages.defenders")
    stored.refresh_from_db()
    assert stored.version == 1 and "marriages" not in stored.document
    assert alice_client.get(reverse("ledger:hand_edit", args=[stored.pk])).status_code == 200


# --------------------------------------------------------------------------------------------------------------
# 3. A lone surrogate anywhere in a body: refused where it stands, never echoed into an answer nobody can encode

SURROGATE_BODIES = [
    ('{"hand": {"declarer": "\\ud800"}}', "hands", "hand.declarer"),
    ('{"hand": {"\\ud800": 1}}', "hands", "hand"),
    ('{"hand": {"flek": {"hra": "\\udfff"}}}', "hands", "hand.flek.hra"),
    ('{"hand": {}, "key": "\\ud800"}', "hands", "key"),
    ('{"game": "snapser", "players": ["Ana", "Ben", "Cyril"], "rules": {"\\ud800": 1}}', "tables", "rules"),
    ('{"game": "snapser", "players": ["Ana", "Ben", "Cyril"], "rules": {"stake": "\\ud800"}}', "tables", "rules.stake"),
    ('{"game": "snapser", "players": ["Ana", "B\\ud800", "Cyril"]}', "tables", "players.1"),
    ('{"game": "\\ud800", "players": ["Ana", "Ben", "Cyril"]}', "tables", "game"),
    ('{"\\ud800": 1}', "tables", "body"),
    ('["\\ud800"]', "hands", "0"),
    ('"\\ud800"', "hands", "body"),
]


@pytest.mark.parametrize(("body", "where", "field"), SURROGATE_BODIES)
def test_a_lone_surrogate_is_refused_naming_its_place(api, evening, body, where, field):
    table = factories.make_table(evening, "marias")
    url = f"/api/tables/{table.pk}/hands/" if where == "hands" else f"/api/evenings/{evening.pk}/tables/"
    response = _post(api, url, body)
    assert response.status_code == 400
    assert response.json()["field"] == field
    assert response.json()["error"].startswith("Surrogate characters are not allowed: U+D")
    assert (Hand.objects.count(), Table.objects.count()) == (0, 1)


def test_a_nul_anywhere_in_a_body_is_refused_naming_its_place(api, evening):
    response = _post(api, f"/api/evenings/{evening.pk}/tables/", '{"game": "skat", "rules": {"x\\u0000": 1}}')
    assert response.json() == {"field": "rules", "error": "Null characters are not allowed."}
    response = _post(api, "/api/evenings/", '{"date": "2026-11-27", "place": "U\\u0000Fleků"}')
    assert (response.status_code, response.json()["field"]) == (400, "place")


def test_the_refusal_speaks_the_callers_language(api, evening):
    url = f"/api/evenings/{evening.pk}/tables/"
    response = api.post(url, data='{"game": "\\ud800"}', content_type="application/json", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error.endswith("U+D800.") and not error.startswith("Surrogate")  # e.g. DRF's "Ersatzzeichen sind …"


def test_an_answer_holding_a_lone_surrogate_is_written_with_json_escapes():
    assert JSONRenderer().render({"name": "A\ud800", "city": "Plzeň"}) == b'{"name":"A\\ud800","city":"Plze\\u0148"}'
    assert JSONRenderer().render({"city": "Plzeň"}) == '{"city":"Plzeň"}'.encode()


# --------------------------------------------------------------------------------------------------------------
# 4. Deep nesting in any JSON body


@pytest.mark.parametrize("depth", [33, 1000, 100_000])
@pytest.mark.parametrize("bracket", ["[", "{"])
def test_a_deeply_nested_body_is_refused(api, evening, depth, bracket):
    table = factories.make_table(evening, "snapser")
    hand = factories.record(table)[0]
    nested = "[" * depth + "]" * depth if bracket == "[" else '{"a":' * depth + "1" + "}" * depth
    for method, url, body in [
        ("post", "/api/evenings/", nested),
        ("post", f"/api/evenings/{evening.pk}/tables/", f'{{"game": "snapser", "rules": {nested}}}'),
        ("post", f"/api/tables/{table.pk}/hands/", f'{{"hand": {{"declarer": {nested}}}}}'),
        ("patch", f"/api/hands/{hand.pk}/", f'{{"hand": {nested}, "version": 1}}'),
        ("post", f"/api/evenings/{evening.pk}/close/", nested),
    ]:
        response = _post(api, url, body, method)
        assert response.status_code == 400, url
        assert response.json() == {"field": "body", "error": "The JSON is nested deeper than 32 levels."}
    assert (Table.objects.count(), Hand.objects.count()) == (1, 1)


def test_a_body_nested_32_levels_deep_is_read(api, evening):
    body = '{"date": "2026-11-27", "place": "x", "junk": ' + "[" * 31 + "]" * 31 + "}"
    assert _post(api, "/api/evenings/", body).status_code == 201  # unknown fields are ignored, as before


# --------------------------------------------------------------------------------------------------------------
# 5. A list or an object as the preset


@pytest.mark.parametrize("preset", [["seed"], {"seed": True}])
def test_a_preset_that_is_not_a_name_is_refused(api, evening, preset):
    body = {"game": "snapser", "players": ["Ana", "Ben", "Cyril"], "rules": {"preset": preset}}
    response = api.post(f"/api/evenings/{evening.pk}/tables/", body, format="json")
    assert response.status_code == 400
    assert response.json() == {"field": "rules.preset", "error": "unknown preset; allowed: seed"}
    assert not Table.objects.exists()


# --------------------------------------------------------------------------------------------------------------
# 6. An unknown game on the new-table form


@pytest.mark.parametrize("htmx", [{}, {"HX-Request": "true"}])
@pytest.mark.parametrize("extra", [{}, {"_refresh": "1"}])
def test_an_unknown_game_on_the_new_table_form_draws_the_form_again(alice_client, evening, htmx, extra):
    url = reverse("ledger:table_create", args=[evening.pk])
    data = {"game": "nope", "player_0": "Ana", "player_1": "Ben", "player_2": "Cyril", "player_3": "Dana"} | extra
    response = alice_client.post(url, data, headers=htmx)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'value="ctyrka-dvacetnik" selected' in html  # drawn for Mariáš, the first game, at its default preset
    assert "nope" not in html
    assert not Table.objects.exists()


def test_an_unknown_game_in_the_address_of_the_new_table_form_draws_it(alice_client, evening):
    response = alice_client.get(reverse("ledger:table_create", args=[evening.pk]), {"game": "nope"})
    assert response.status_code == 200


# --------------------------------------------------------------------------------------------------------------
# Found by the junk tests


def test_a_next_address_that_looks_like_a_url_name_is_followed_as_an_address(alice_client, snapser_table):
    player = snapser_table.seats.first().player
    response = alice_client.post(reverse("ledger:player_edit", args=[player.pk]), {"iban": "", "next": "0"})
    assert response.status_code == 302  # was a 500: redirect("0") looked for a URL named "0"
