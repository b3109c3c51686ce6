"""Junk in every field of every write endpoint and form: never a server error, never half a hand.

The API gets JSON of every type where each field should be, at any depth of the body (the hand, the house rules,
the hlášky of a hand), with NUL characters, lone surrogates and a thousand nested brackets among it (tests/junk.py).
The forms get what a browser or curl can post: text with NUL characters, bytes that are not UTF-8, lists where one
value belongs. Both run on SQLite and PostgreSQL (CI runs the suite on each); example counts stay small.
"""

from __future__ import annotations

import copy
from typing import Any
from urllib.parse import urlencode

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from ledger import services
from ledger.games import form_class
from ledger.models import Hand
from tests import factories, junk
from tests.ledger.api_support import token_client
from tests.ledger.test_robustness import ANY_DOCUMENT, _assert_whole

FEW = settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# --------------------------------------------------------------------------------------------------------------
# The API


def _places(body: Any) -> list[tuple[str, ...]]:
    """Every object of the body by path (the body itself, the hand, the rules, the hand's hlášky …)."""
    places, pending = [], [((), body)]
    while pending:
        path, node = pending.pop()
        places.append(path)
        pending += [((*path, name), value) for name, value in node.items() if isinstance(value, dict)]
    return sorted(places)


def _known(game: str, path: tuple[str, ...]) -> list[str]:
    if path == ("hand",):
        return sorted(rules.game(game).hand_schema()["properties"])
    if path == ("rules",):
        return ["preset", *rules.game(game).options]
    return []


@st.composite
def spoiled(draw: st.DrawFn, body: dict[str, Any], game: str) -> str:
    """The body with one field somewhere set to junk or dropped, or a junk body; as the text a client sends."""
    if draw(st.integers(0, 9)) == 0:
        return junk.as_text(draw(junk.JSON))
    body = copy.deepcopy(body)
    path = draw(st.sampled_from(_places(body)))
    node = body
    for name in path:
        node = node[name]
    names = sorted({*node, *_known(game, path)})
    name = draw(st.sampled_from(names) | junk.TEXT if names else junk.TEXT)
    if name in node and draw(st.integers(0, 4)) == 0:
        del node[name]
    else:
        node[name] = draw(junk.JSON)
    return junk.as_text(body)


def _without_bock(hand: dict[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in hand.items() if name != "bock"}


def _transfer(user: Any) -> Any:
    """A transfer of a closed evening."""
    closed = factories.make_evening(user, place="Closed")
    factories.record(factories.make_table(closed, "skat"))
    services.evening_close(evening=closed, by=user)
    return closed.settlement.transfers.first()


def _world(user: Any, document: dict[str, Any]) -> dict[str, Any]:
    """An evening with a table for the document's game and rules, and the document's hand recorded."""
    evening = factories.make_evening(user)
    table = services.table_create(
        evening=evening, game=document["game"], players=document["players"], rules_override=document["rules"]
    )
    hand = services.hand_record(table=table, hand=_without_bock(document["hand"]), by=user)
    return {"evening": evening, "table": table, "hand": hand}


def _nothing(world: dict[str, Any], document: dict[str, Any]) -> dict[str, Any]:
    return {}  # the operation reads no body: junk in one must not matter


ENDPOINTS = {
    # name: (method, path, valid body)
    "evening_create": (
        "post",
        lambda w: "/api/evenings/",
        lambda w, d: {"date": "2026-11-27", "place": "U Fleků", "currency": "EUR", "coin": "0.50"},
    ),
    "table_create": (
        "post",
        lambda w: f"/api/evenings/{w['evening'].pk}/tables/",
        lambda w, d: {"game": d["game"], "players": d["players"], "rules": d["rules"], "first_dealer": 0},
    ),
    "hand_create": (
        "post",
        lambda w: f"/api/tables/{w['table'].pk}/hands/",
        lambda w, d: {"hand": _without_bock(d["hand"]), "key": "tap-2", "dealer": 0},
    ),
    "hand_update": (
        "patch",
        lambda w: f"/api/hands/{w['hand'].pk}/",
        lambda w, d: {"hand": _without_bock(d["hand"]), "version": 1, "dealer": 1},
    ),
    "hand_void": ("delete", lambda w: f"/api/hands/{w['hand'].pk}/", lambda w, d: {}),
    "evening_close": (
        "post",
        lambda w: f"/api/evenings/{w['evening'].pk}/close/",
        lambda w, d: {"mode": "banker", "banker": d["players"][0]},
    ),
    "evening_reopen": ("post", lambda w: f"/api/evenings/{w['transfer'].settlement.evening_id}/reopen/", _nothing),
    "transfer_mark_paid": ("post", lambda w: f"/api/transfers/{w['transfer'].pk}/paid/", _nothing),
    "transfer_mark_unpaid": ("delete", lambda w: f"/api/transfers/{w['transfer'].pk}/paid/", _nothing),
}


@pytest.mark.parametrize("endpoint", sorted(ENDPOINTS))
def test_junk_in_any_field_of_any_write_endpoint_is_answered_without_a_server_error(alice, alice_client, endpoint):
    api = token_client(alice)
    method, path, valid = ENDPOINTS[endpoint]
    transfer = _transfer(alice)

    @FEW
    @given(document=ANY_DOCUMENT, data=st.data())
    def send_junk(document, data):
        world = _world(alice, document) | {"transfer": transfer}
        body = data.draw(spoiled(valid(world, document), document["game"]), label="body")
        before = Hand.objects.count()
        response = getattr(api, method)(path(world), data=body, content_type="application/json")
        assert response.status_code < 500
        if response.status_code == 400:
            answer = response.json()
            assert isinstance(answer["field"], str) and answer["error"]
        assert Hand.objects.count() - before in (0, 1)
        _assert_whole(world["table"])
        if response.status_code in (200, 201) and endpoint in ("hand_create", "hand_update"):
            # What was stored can be drawn for correcting.
            edit = reverse("ledger:hand_edit", args=[response.json()["id"]])
            assert alice_client.get(edit).status_code == 200

    send_junk()


@FEW
@given(version=junk.TEXT)
def test_junk_as_the_version_of_a_void_is_refused_cleanly(alice, version):
    table = factories.make_table(factories.make_evening(alice), "snapser")
    hand = factories.record(table)[0]
    query = urlencode({"version": version}, encoding="utf-8", errors="surrogatepass")
    response = token_client(alice).delete(f"/api/hands/{hand.pk}/?{query}")
    assert response.status_code in (200, 400, 409)


# --------------------------------------------------------------------------------------------------------------
# Every field of a hand, every wrong kind of value: what the engine accepts, the hand form can draw for correcting
# (the API stored a Mariáš hand with a null side of the hlášky, whose edit page then failed for good).

FOUR = ["Ana", "Ben", "Cyril", "Dana"]
THREE = FOUR[:3]
MARIAS_FULL = {
    "declarer": "Ana",
    "partner": "Cyril",
    "contract": "sedma",
    "trump": "hearts",
    "flek": {"hra": 1, "sedma": 1},
    "flekked_by": "Ben",
    "points": 60,
    "marriages": {"declarer": [20], "defenders": [40]},
    "seven": {"side": "declarer", "won": True},
}
HANDS = [
    ("marias", FOUR, {}, MARIAS_FULL),
    (
        "marias",
        FOUR,
        {},
        {"declarer": "Ana", "contract": "betl", "won": False, "renonc": {"player": "Ben", "kind": "other"}},
    ),
    (
        "skat",
        THREE,
        {"preset": "pub"},
        {"contract": "ramsch", "ramsch_points": {"Ana": 70, "Ben": 50, "Cyril": 0}, "jungfrau": ["Cyril"]},
    ),
    ("skat", FOUR, {}, factories.SKAT_S1 | {"dealer": "Dana", "hand": True, "bid": 23}),
    ("snapser", FOUR, {}, factories.SNAPSER_N1 | {"partner": "Cyril", "raises": 1, "end": "dost"}),
]


def _paths(game: str, hand: dict[str, Any]) -> list[tuple[Any, ...]]:
    """Every field the engine reads at the top of the hand, and every field or item nested in the given one."""
    found: list[tuple[Any, ...]] = []
    for name in sorted({*hand, *rules.game(game).hand_schema()["properties"]}):
        found.append((name,))
        if isinstance(hand.get(name), dict):
            found += [(name, inner) for inner in hand[name]]
        elif isinstance(hand.get(name), list) and hand[name]:
            found.append((name, 0))
    return found


@pytest.mark.parametrize(("game", "players", "ruleset", "hand"), HANDS)
def test_a_hand_the_engine_accepts_with_a_wrong_value_anywhere_can_be_drawn_for_correcting(
    evening, game, players, ruleset, hand
):
    table = factories.make_table(evening, game, players, **ruleset)
    cls = form_class(game)
    document = {"game": game, "players": table.seat_names, "rules": table.ruleset, "hand": hand}
    rules.score(document)  # the hand itself is valid
    for path in _paths(game, hand):
        for value in junk.WRONG:
            spoiled_hand = copy.deepcopy(hand)
            node = spoiled_hand
            for step in path[:-1]:
                node = node[step]
            node[path[-1]] = value
            try:
                rules.score(document | {"hand": spoiled_hand})
            except rules.RulesError:
                continue
            form = cls(table, initial=cls.from_document(table, spoiled_hand) | {"dealer": 0})
            assert all(str(field) for field in form), (path, value)


# --------------------------------------------------------------------------------------------------------------
# The forms

FORM_TEXT = (
    st.text(max_size=12)
    | st.sampled_from(["", "\x00", "a\x00", "\ud800", "x\udfff", "0", "-1", "1e9", "99999999999999999999", "²", "on"])
    | st.just("x" * 5000)
)


@st.composite
def form_posts(draw: st.DrawFn, names: list[str], valid: dict[str, str]) -> str:
    """A urlencoded body: the form's fields (and strangers) with valid or junk values, some repeated.

    Lone surrogates are sent as the bytes UTF-8 would give them (``%ED%A0%80``), which are not UTF-8: a browser
    never sends them, curl can.
    """
    pairs: list[tuple[str, str]] = []
    for name in draw(st.lists(st.sampled_from(names) | FORM_TEXT, max_size=len(names) + 3)):
        values = draw(st.lists(st.sampled_from([valid.get(name, "1")]) | FORM_TEXT, min_size=1, max_size=3))
        pairs += [(name, value) for value in values]
    return urlencode(pairs, encoding="utf-8", errors="surrogatepass")


def _form_pages(alice: Any) -> dict[str, tuple[str, dict[str, str]]]:
    """Every form page that writes: its URL and a valid post (the field names come from it too)."""
    evening = factories.make_evening(alice)
    table = factories.make_table(evening, "snapser")
    factories.record(table)
    player = table.seats.first().player
    table_form = {"game": "skat", "preset": "isko", "first_dealer": "0", "drawn_for": "skat:isko", "edited": ""}
    table_form |= {f"player_{seat}": name for seat, name in enumerate(["Ana", "Ben", "Cyril"])}
    table_form |= {f"opt_{name}": "1" for name in rules.game("skat").options}
    return {
        "evening_create": (
            reverse("ledger:evening_create"),
            {"date": "2026-11-27", "place": "x", "currency": "EUR", "coin": "0.50"},
        ),
        "table_create": (reverse("ledger:table_create", args=[evening.pk]), table_form | {"_refresh": "1"}),
        "evening_scorekeepers": (f"/evenings/{evening.pk}/scorekeepers/", {"username": "x"}),
        "evening_share": (reverse("ledger:evening_share", args=[evening.pk]), {"action": "revoke"}),
        "evening_settlement": (
            reverse("ledger:evening_settlement", args=[evening.pk]),
            {"mode": "banker", "banker": "Ana"},
        ),
        "hand_undo": (reverse("ledger:hand_undo", args=[table.pk]), {"number": "1"}),
        "player_edit": (reverse("ledger:player_edit", args=[player.pk]), {"iban": "CZ65 0800", "next": "/"}),
        "set_language": (reverse("set_language"), {"language": "cs", "next": "/"}),
        "login": (reverse("login"), {"login": "alice", "password": "wrong", "next": "/"}),
    }


@pytest.mark.parametrize(
    "page",
    [
        "evening_create",
        "table_create",
        "evening_scorekeepers",
        "evening_share",
        "evening_settlement",
        "hand_undo",
        "player_edit",
        "set_language",
        "login",
    ],
)
@pytest.mark.parametrize("htmx", [{}, {"HX-Request": "true"}], ids=["page", "htmx"])
def test_junk_posted_to_any_form_is_answered_without_a_server_error(alice, client, page, htmx):
    url, valid = _form_pages(alice)[page]
    names = sorted(valid)

    @settings(FEW, max_examples=10)
    @given(body=form_posts(names, valid))
    def post_junk(body):
        client.force_login(alice)
        response = client.post(url, data=body, content_type="application/x-www-form-urlencoded", headers=htmx)
        assert response.status_code < 500
        assert client.get(url if page != "login" else "/").status_code < 500

    post_junk()
