"""The API's close past open checks (``hooks.close_checks``): a close is refused on field ``override``, naming what
is open, until ``"override": true`` is sent, and then the history records what was open. Without a listener the
close is as it always was."""

from __future__ import annotations

import pytest

from ledger import hooks
from ledger.models import EveningEvent, Settlement
from tests.ledger.api_support import anonymous_client, token_client
from tests.ledger.closeout_data import evening_owing

UNCONFIRMED = "Hand #2 is not confirmed"
SIGNED = "Ana signed the list"


@pytest.fixture(autouse=True)
def _books_alone():
    """Only this module's listeners answer the close checks: the features' own (connected by
    their apps) are set aside, so what is checked is the books' part whatever features are installed."""
    hooks_set_aside = [hooks.evening_close_checks]
    kept = [(hook, list(hook._listeners)) for hook in hooks_set_aside]
    for hook, listeners in kept:
        for listener in listeners:
            hook.disconnect(listener)
    yield
    for hook, listeners in kept:
        for listener in listeners:
            hook.connect(listener)


@pytest.fixture
def owing(alice):
    return evening_owing(alice)


def _checks(evening):
    return [hooks.CloseCheck(SIGNED), hooks.CloseCheck(UNCONFIRMED, open=True)]


@pytest.fixture
def checking():
    hooks.evening_close_checks.connect(_checks)
    yield
    hooks.evening_close_checks.disconnect(_checks)


def _close(user, evening, **body):
    return token_client(user).post(f"/api/evenings/{evening.pk}/close/", {"mode": "fewest", **body}, format="json")


def _kinds(evening):
    return [(event.kind, event.note) for event in EveningEvent.objects.filter(evening=evening).order_by("id")]


def test_a_close_past_an_open_check_is_refused_on_the_override(alice, owing, checking):
    response = _close(alice, owing)
    assert response.status_code == 400
    assert response.json() == {
        "field": "override",
        "error": f"Still open: {UNCONFIRMED}. Closing past it needs an explicit override (“Close anyway”).",
    }
    owing.refresh_from_db()
    assert owing.is_open and not Settlement.objects.filter(evening=owing).exists() and _kinds(owing) == []


@pytest.mark.parametrize("override", [False, "false"])
def test_an_override_that_is_not_true_is_no_override(alice, owing, checking, override):
    assert _close(alice, owing, override=override).status_code == 400
    owing.refresh_from_db()
    assert owing.is_open


def test_the_override_closes_and_the_history_records_what_was_open(
    alice, owing, checking, django_capture_on_commit_callbacks
):
    told: list[hooks.ClosedEvening] = []
    hooks.evening_closed.connect(told.append)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            response = _close(alice, owing, override=True)
    finally:
        hooks.evening_closed.disconnect(told.append)
    data = response.json()
    assert response.status_code == 200 and data["status"] == "closed"
    assert [(t["from"], t["to"], t["amount"]) for t in data["transfers"]] == [
        ("Ben", "Ana", "7.00"),
        ("Cyril", "Ana", "5.00"),
    ]
    assert _kinds(owing) == [("close_overridden", UNCONFIRMED), ("closed", "fewest")]
    assert told == [hooks.ClosedEvening(evening_id=owing.pk, by_id=alice.pk)]


def test_closing_again_is_answered_closed_already(alice, owing, checking):
    _close(alice, owing, override=True)
    again = _close(alice, owing, override=True)
    assert again.status_code == 409
    assert [kind for kind, _note in _kinds(owing)] == ["close_overridden", "closed"]


def test_without_a_listener_the_close_needs_no_override(alice, owing):
    response = _close(alice, owing)
    assert response.status_code == 200 and response.json()["status"] == "closed"
    assert _kinds(owing) == [("closed", "fewest")]


def test_a_stranger_closes_nothing(alice, owing, checking, charlie):
    assert _close(charlie, owing, override=True).status_code == 404
    owing.refresh_from_db()
    assert owing.is_open


def test_the_schema_names_the_override():
    schema = anonymous_client().get("/api/schema/", headers={"Accept": "application/json"}).json()
    body = schema["paths"]["/api/evenings/{evening_id}/close/"]["post"]["requestBody"]["content"]["application/json"]
    name = body["schema"]["$ref"].rsplit("/", 1)[-1]
    override = schema["components"]["schemas"][name]["properties"]["override"]
    assert override["type"] == "boolean" and override["default"] is False
