"""Evenings, tables and hands through the API: real numbers, exact strings, versions, voids, errors."""

from __future__ import annotations

import pytest

from ledger.models import Evening, Hand, HandVersion
from tests import factories
from tests.ledger.api_support import token_client

N1_AMOUNTS = {"Ana": "0.40", "Ben": "-0.20", "Cyril": "-0.20"}


@pytest.fixture
def api(alice):
    return token_client(alice)


def _post_hand(api, table, hand=factories.SNAPSER_N1, **extra):
    return api.post(f"/api/tables/{table.pk}/hands/", {"hand": hand, **extra}, format="json")


def test_it_starts_an_evening_seats_a_table_and_prices_a_hand(api, alice):
    created = api.post(
        "/api/evenings/", {"date": "2026-11-27", "place": "U Fleků", "currency": "EUR", "coin": "0.50"}, format="json"
    )
    assert created.status_code == 201
    evening = created.json()
    assert {k: evening[k] for k in ("date", "place", "currency", "coin", "status", "tables", "balances")} == {
        "date": "2026-11-27",
        "place": "U Fleků",
        "currency": "EUR",
        "coin": "0.50",
        "status": "open",
        "tables": [],
        "balances": {},
    }
    assert Evening.objects.get(pk=evening["id"]).owner == alice

    seated = api.post(
        f"/api/evenings/{evening['id']}/tables/",
        {"game": "snapser", "players": ["Ana", "Ben", "Cyril"], "rules": {"preset": "seed", "stake": "0.10"}},
        format="json",
    )
    assert seated.status_code == 201
    table = seated.json()
    assert (table["game"], table["players"]) == ("snapser", ["Ana", "Ben", "Cyril"])
    assert table["rules"]["preset"] == "seed" and table["rules"]["stake"] == "0.10"
    assert table["rules"]["payment"] == "every_loser_every_winner"  # resolved: every option present

    recorded = api.post(f"/api/tables/{table['id']}/hands/", {"hand": factories.SNAPSER_N1}, format="json")
    assert recorded.status_code == 201
    hand = recorded.json()
    assert (hand["number"], hand["version"], hand["status"], hand["label"]) == (1, 1, "counted", "s vodou")
    assert hand["amounts"] == N1_AMOUNTS
    assert hand["lines"][1]["amount"] == "0.20"

    detail = api.get(f"/api/evenings/{evening['id']}/").json()
    assert detail["balances"] == N1_AMOUNTS
    assert detail["tables"][0]["balances"] == N1_AMOUNTS and detail["tables"][0]["hand_count"] == 1


def test_the_default_coin_follows_the_currency(api):
    created = api.post("/api/evenings/", {"date": "2026-11-27", "currency": "CZK"}, format="json").json()
    assert (created["currency"], created["coin"]) == ("CZK", "1.00")


def test_balances_are_exact_strings_summed_over_hands(api, snapser_table):
    for _ in range(3):
        assert _post_hand(api, snapser_table).status_code == 201
    table = api.get(f"/api/tables/{snapser_table.pk}/").json()
    assert table["balances"] == {"Ana": "1.20", "Ben": "-0.60", "Cyril": "-0.60"}
    assert table["next_dealer"] == 0  # three hands dealt by seats 0, 1, 2


def test_a_skat_hand_shows_list_points_and_money(api, skat_table):
    hand = _post_hand(api, skat_table, factories.SKAT_S1).json()
    assert (hand["label"], hand["value"], hand["won"]) == ("Grand with 1", "48", True)
    assert hand["score"] == {"Ana": 48, "Ben": 0, "Cyril": 0}
    assert hand["amounts"] == {"Ana": "0.96", "Ben": "-0.48", "Cyril": "-0.48"}


def test_the_log_lists_every_hand_oldest_first_voided_ones_included(api, snapser_table):
    first, _second = factories.record(snapser_table, times=2)
    assert api.delete(f"/api/hands/{first.pk}/").status_code == 200
    log = api.get(f"/api/tables/{snapser_table.pk}/hands/").json()
    assert [(h["number"], h["status"]) for h in log] == [(1, "voided"), (2, "counted")]


def test_a_retry_with_the_same_key_answers_201_with_the_first_hand(api, snapser_table):
    first = _post_hand(api, snapser_table, key="tap-1")
    again = _post_hand(api, snapser_table, key="tap-1")
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json() == first.json()
    other = _post_hand(api, snapser_table, key="tap-2")
    assert other.json()["number"] == 2
    assert Hand.objects.filter(table=snapser_table).count() == 2


@pytest.mark.parametrize(
    ("body", "field", "error"),
    [
        (
            {"hand": factories.SNAPSER_N1 | {"declarer": "Zed"}},
            "declarer",
            "'Zed' is not at this table; players: Ana, Ben, Cyril",
        ),
        ({"hand": factories.SNAPSER_N1 | {"raises": 9}}, "raises", "must be a whole number from 0 to 4"),
        ({"hand": "hram"}, "hand", 'Expected a dictionary of items but got type "str".'),
        ({}, "hand", "This field is required."),
        ({"hand": factories.SNAPSER_N1, "dealer": 7}, "dealer", "The dealer must be one of the 3 seats."),
        ({"hand": factories.SNAPSER_N1, "key": "k" * 65}, "key", "Ensure this field has no more than 64 characters."),
        ({"hand": factories.SNAPSER_N1 | {"declarer": "A\x00na"}}, "hand.declarer", "Null characters are not allowed."),
    ],
)
def test_a_bad_hand_is_refused_with_the_field_to_fix(api, snapser_table, body, field, error):
    response = api.post(f"/api/tables/{snapser_table.pk}/hands/", body, format="json")
    assert response.status_code == 400
    assert (response.json()["field"], response.json()["error"]) == (field, error)
    assert not Hand.objects.exists()


def test_a_malformed_body_is_a_400_too(api, snapser_table):
    response = api.post(f"/api/tables/{snapser_table.pk}/hands/", "{not json", content_type="application/json")
    assert response.status_code == 400
    assert response.json()["field"] == "body"
    form = api.post(f"/api/tables/{snapser_table.pk}/hands/", {"declarer": "Ana"})  # a form post, not JSON
    assert form.status_code == 415


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"game": "poker", "players": ["Ana", "Ben", "Cyril"]}, "game"),
        ({"game": "marias", "players": ["Ana", "Ben", "Cyril"]}, "players"),
        ({"game": "skat", "players": ["Ana", "Ben", "Cyril"], "rules": {"stake": 0.01}}, "rules.stake"),
        ({"game": "skat", "players": ["Ana", "Ben", "Cyril"], "rules": {"preset": "nope"}}, "rules.preset"),
        ({"game": "skat", "players": ["Ana", "Ana", "Cyril"]}, "players"),
        ({"game": "skat", "players": ["Ana", "Ben", "Cyril"], "first_dealer": 3}, "first_dealer"),
    ],
)
def test_a_bad_table_is_refused_with_the_field_to_fix(api, evening, body, field):
    response = api.post(f"/api/evenings/{evening.pk}/tables/", body, format="json")
    assert response.status_code == 400
    assert response.json()["field"] == field
    assert not evening.tables.exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [({}, "date"), ({"date": "27.11.2026"}, "date"), ({"date": "2026-11-27", "coin": 0.5}, "coin")],
)
def test_a_bad_evening_is_refused(api, body, field):
    response = api.post("/api/evenings/", body, format="json")
    assert response.status_code == 400
    assert response.json()["field"] == field


def test_a_coin_of_zero_is_refused_by_the_service(api):
    response = api.post("/api/evenings/", {"date": "2026-11-27", "coin": "0"}, format="json")
    assert (response.status_code, response.json()["field"]) == (400, "coin")


def test_a_correction_reprices_the_hand_and_keeps_the_old_version(api, snapser_table):
    hand = factories.record(snapser_table)[0]
    corrected = api.patch(
        f"/api/hands/{hand.pk}/",
        {"hand": factories.SNAPSER_N1 | {"result": "za_6"}, "version": 1},
        format="json",
    )
    assert corrected.status_code == 200
    body = corrected.json()
    assert (body["version"], body["label"]) == (2, "za 6")
    assert body["amounts"] == {"Ana": "1.20", "Ben": "-0.60", "Cyril": "-0.60"}  # za 6: 6 × 0.10 from each
    assert HandVersion.objects.get(hand=hand).version == 1
    table = api.get(f"/api/tables/{snapser_table.pk}/").json()
    assert table["balances"] == {"Ana": "1.20", "Ben": "-0.60", "Cyril": "-0.60"}


def test_a_correction_from_a_stale_version_gets_409_with_the_current_version(api, snapser_table):
    hand = factories.record(snapser_table)[0]
    url = f"/api/hands/{hand.pk}/"
    assert api.patch(url, {"hand": factories.SNAPSER_N1, "version": 1}, format="json").status_code == 200
    stale = api.patch(url, {"hand": factories.SNAPSER_N1 | {"result": "za_6"}, "version": 1}, format="json")
    assert stale.status_code == 409
    assert stale.json()["field"] == "version" and stale.json()["version"] == 2
    hand.refresh_from_db()
    assert (hand.version, hand.label) == (2, "s vodou")


def test_a_correction_needs_its_version(api, snapser_table):
    hand = factories.record(snapser_table)[0]
    response = api.patch(f"/api/hands/{hand.pk}/", {"hand": factories.SNAPSER_N1}, format="json")
    assert (response.status_code, response.json()["field"]) == (400, "version")


def test_voiding_takes_the_hand_out_of_the_balances_and_keeps_it_in_the_log(api, snapser_table):
    first, _second = factories.record(snapser_table, times=2)
    voided = api.delete(f"/api/hands/{first.pk}/")
    assert voided.status_code == 200
    assert (voided.json()["status"], voided.json()["version"]) == ("voided", 2)
    assert api.get(f"/api/hands/{first.pk}/").json()["status"] == "voided"
    assert api.get(f"/api/tables/{snapser_table.pk}/").json()["balances"] == N1_AMOUNTS
    assert api.delete(f"/api/hands/{first.pk}/").status_code == 200  # voiding again changes nothing


def test_voiding_from_a_stale_version_gets_409(api, snapser_table):
    hand = factories.record(snapser_table)[0]
    api.patch(f"/api/hands/{hand.pk}/", {"hand": factories.SNAPSER_N1, "version": 1}, format="json")
    response = api.delete(f"/api/hands/{hand.pk}/?version=1")
    assert (response.status_code, response.json()["version"]) == (409, 2)
    assert Hand.objects.get().status == "counted"


def test_changes_to_a_closed_evening_get_409(api, alice, evening, snapser_table):
    hand = factories.record(snapser_table)[0]
    assert api.post(f"/api/evenings/{evening.pk}/close/", {"mode": "fewest"}, format="json").status_code == 200
    attempts = [
        _post_hand(api, snapser_table),
        api.patch(f"/api/hands/{hand.pk}/", {"hand": factories.SNAPSER_N1, "version": 1}, format="json"),
        api.delete(f"/api/hands/{hand.pk}/"),
        api.post(f"/api/evenings/{evening.pk}/tables/", {"game": "skat", "players": ["A", "B", "C"]}, format="json"),
        api.post(f"/api/evenings/{evening.pk}/close/", {}, format="json"),
    ]
    assert [r.status_code for r in attempts] == [409] * 5
    assert {r.json()["field"] for r in attempts} == {"evening"}
    assert (Hand.objects.count(), Hand.objects.get().version, evening.tables.count()) == (1, 1, 1)


def test_the_evening_list_holds_my_evenings_newest_first(api, alice, evening):
    newer = factories.make_evening(alice, date=evening.date.replace(day=28))
    rows = api.get("/api/evenings/").json()
    assert [(row["id"], row["table_count"]) for row in rows] == [(newer.pk, 0), (evening.pk, 0)]


def test_the_games_list_the_presets_and_the_hand_schema(client):
    games = {game["name"]: game for game in client.get("/api/games/").json()}
    assert set(games) == {"skat", "marias", "snapser"}
    assert games["snapser"]["seats"] == [2, 3, 4]
    assert games["skat"]["presets"]["isko"]["stake"] == "0.01"
    assert games["marias"]["options"]["stake"]["default"] == "0.20"
    assert games["snapser"]["hand_schema"]["required"] == ["declarer", "trump", "announcement"]
