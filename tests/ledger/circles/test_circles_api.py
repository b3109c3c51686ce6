"""The circles API as the three personas: Alice keeps score (token), Bob has only his member link (no
API access at all), Charlie is a stranger who never learns that Alice's circles exist."""

from __future__ import annotations

from decimal import Decimal

import pytest

from ledger import services
from ledger.circles import services as circles
from ledger.circles.models import Circle
from ledger.models import Evening, Player
from tests import factories
from tests.ledger.api_support import anonymous_client, token_client

D = Decimal


@pytest.fixture
def api(alice):
    return token_client(alice)


def test_creating_a_circle_answers_201_with_its_members(api, alice):
    response = api.post("/api/circles/", {"name": "Friday Mariáš", "members": ["Ana", "Ben"]}, format="json")
    assert response.status_code == 201
    body = response.json()
    circle = Circle.objects.get()
    ana, ben = Player.objects.get(name="Ana"), Player.objects.get(name="Ben")
    assert body["id"] == circle.pk and body["name"] == "Friday Mariáš"
    assert body["members"] == [{"id": ana.pk, "name": "Ana"}, {"id": ben.pk, "name": "Ben"}]
    assert (body["settle"], body["currency"], body["coin"]) == ("evening", "CZK", "1.00")
    assert circle.owner == alice


def test_a_circle_with_a_bad_name_or_member_is_400_and_nothing_is_stored(api):
    response = api.post("/api/circles/", {"name": "X", "members": ["Ana", "B\u202een"]}, format="json")
    assert response.status_code == 400 and response.json()["field"] == "players"
    response = api.post("/api/circles/", {"name": " ", "members": []}, format="json")
    assert response.status_code == 400 and response.json()["field"] == "name"
    assert not Circle.objects.exists() and not Player.objects.exists()


def test_the_list_and_detail_show_my_circles_members_and_tab(api, alice, charlie):
    circle = circles.circle_create(owner=alice, name="Friday", members=["Ben", "Ana"], settle="tab", currency="EUR")
    circles.circle_create(owner=charlie, name="Not mine", members=["Zed"])
    listed = api.get("/api/circles/").json()
    assert [(c["name"], [m["name"] for m in c["members"]]) for c in listed] == [("Friday", ["Ana", "Ben"])]
    evening = circles.circle_evening_create(circle=circle, by=alice, date=factories.make_evening(alice).date)
    factories.record(factories.make_table(evening, "snapser", players=["Ana", "Ben", "Cyril"]))
    services.evening_close(evening=evening, by=alice)  # Ana +0.40, Ben −0.20, Cyril −0.20 (EUR, coin 0.01)
    detail = api.get(f"/api/circles/{circle.pk}/").json()
    assert detail["tab"] == {"Ana": "0.40", "Ben": "-0.20", "Cyril": "-0.20"}
    assert detail["pot"] is None
    assert [(e["id"], e["status"], e["counted"]) for e in detail["evenings"]] == [(evening.pk, "closed", True)]


def test_an_evening_is_created_for_a_circle(api, alice):
    circle = circles.circle_create(owner=alice, name="Friday", members=["Ana"], currency="EUR", coin=D("0.50"))
    response = api.post("/api/evenings/", {"date": "2026-11-27", "circle": circle.pk}, format="json")
    assert response.status_code == 201
    evening = Evening.objects.get(pk=response.json()["id"])
    assert (evening.circle, evening.currency, evening.coin) == (circle, "EUR", D("0.50"))
    assert (response.json()["currency"], response.json()["coin"]) == ("EUR", "0.50")
    assert response.json()["circle"] == circle.pk
    assert api.get("/api/evenings/").json()[0]["circle"] == circle.pk


def test_a_coscorekeeper_creates_the_circles_evening_for_its_owner(alice, charlie):
    circle = circles.circle_create(owner=alice, name="Friday", members=["Ana"])
    circle.scorekeepers.add(charlie)
    response = token_client(charlie).post("/api/evenings/", {"date": "2026-11-27", "circle": circle.pk}, format="json")
    assert response.status_code == 201
    evening = Evening.objects.get()
    assert evening.owner == alice and evening.can_keep_score(charlie)
    assert token_client(charlie).get(f"/api/circles/{circle.pk}/").status_code == 200


def test_a_stranger_cannot_see_a_circle_or_start_its_evening(alice, charlie):
    circle = circles.circle_create(owner=alice, name="Friday", members=["Ana"])
    stranger = token_client(charlie)
    assert stranger.get("/api/circles/").json() == []
    response = stranger.get(f"/api/circles/{circle.pk}/")
    assert response.status_code == 404
    assert stranger.get("/api/circles/999999/").json() == response.json()  # no hint that it exists
    response = stranger.post("/api/evenings/", {"date": "2026-11-27", "circle": circle.pk}, format="json")
    assert response.status_code == 400 and response.json()["field"] == "circle"
    assert not Evening.objects.exists()


def test_a_member_with_his_link_has_no_api_access(alice):
    circle = circles.circle_create(owner=alice, name="Friday", members=["Ben"])
    circles.member_link_create(membership=circle.memberships.get())
    anonymous = anonymous_client()
    for url in ("/api/circles/", f"/api/circles/{circle.pk}/"):
        assert anonymous.get(url).status_code in (401, 403)
    assert anonymous.post("/api/circles/", {"name": "X"}, format="json").status_code in (401, 403)
