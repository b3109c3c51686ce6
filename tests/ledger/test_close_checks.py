"""Closing past the checks features make before an evening closes (``hooks.close_checks``: hands not confirmed,
players who have not signed): the settlement page lists them, an open one refuses the close until "Close anyway" is
ticked, and the history records what was open. Without a listener the close is as it always was.

Personas: Alice keeps score, Bob follows the share link, Charlie is a stranger (404).
"""

from __future__ import annotations

import io

import pytest
from django.template import Template
from django.urls import reverse
from pypdf import PdfReader

from ledger import hooks, services
from ledger.models import Evening, EveningEvent, Settlement
from tests.ledger.closeout_data import evening_owing

HX = {"HX-Request": "true"}


@pytest.fixture(autouse=True)
def _books_alone():
    """Only this module's listeners answer the close checks and draw parts of the settlement page and the PDF
    summary: the features' own (connected by their apps) are set aside, so what is checked is the books' part
    whatever features are installed."""
    hooks_set_aside = [hooks.evening_close_checks, hooks.settlement_page_context, hooks.summary_context]
    kept = [(hook, list(hook._listeners)) for hook in hooks_set_aside]
    for hook, listeners in kept:
        for listener in listeners:
            hook.disconnect(listener)
    yield
    for hook, listeners in kept:
        for listener in listeners:
            hook.connect(listener)


UNCONFIRMED = "Hand #2 is not confirmed"
SIGNED = "Ana signed the list"


@pytest.fixture
def owing(alice):
    return evening_owing(alice)


class _Checks:
    """Answers the close checks it holds, for any evening."""

    def __init__(self) -> None:
        self.checks = [hooks.CloseCheck(SIGNED), hooks.CloseCheck(UNCONFIRMED, open=True)]

    def __call__(self, evening):
        return list(self.checks)


@pytest.fixture
def checking():
    listener = _Checks()
    hooks.evening_close_checks.connect(listener)
    yield listener
    hooks.evening_close_checks.disconnect(listener)


@pytest.fixture
def closings():
    """The evenings closed, as ``hooks.evening_closed`` tells them (after the commit)."""
    told: list[hooks.ClosedEvening] = []
    hooks.evening_closed.connect(told.append)
    yield told
    hooks.evening_closed.disconnect(told.append)


def _url(evening):
    return reverse("ledger:evening_settlement", args=[evening.pk])


def _kinds(evening):
    return [(event.kind, event.note) for event in EveningEvent.objects.filter(evening=evening).order_by("id")]


def _still_open(evening):
    evening.refresh_from_db()
    return evening.is_open and not Settlement.objects.filter(evening=evening).exists() and not _kinds(evening)


# --------------------------------------------------------------------------------------------------------------
# The page shows the checks


def test_the_page_lists_the_checks_the_open_ones_highlighted_and_offers_to_close_anyway(alice_client, owing, checking):
    html = alice_client.get(_url(owing)).content.decode()
    assert f'<li data-check="done">✓ {SIGNED}</li>' in html
    assert f'<li data-check="open"><strong class="error">⚠ {UNCONFIRMED}</strong></li>' in html
    assert 'name="override"' in html and "Close anyway" in html


def test_with_every_check_done_the_page_lists_them_without_the_override(alice_client, owing, checking):
    checking.checks = [hooks.CloseCheck(SIGNED)]
    html = alice_client.get(_url(owing)).content.decode()
    assert f'<li data-check="done">✓ {SIGNED}</li>' in html
    assert 'name="override"' not in html


def test_without_a_listener_the_page_has_no_checks_and_no_override(alice_client, owing):
    html = alice_client.get(_url(owing)).content.decode()
    assert "close-checks" not in html and 'name="override"' not in html and "Close and settle" in html


# --------------------------------------------------------------------------------------------------------------
# Refused without the override


def test_closing_with_an_open_check_is_refused_beside_the_override(alice_client, owing, checking, closings):
    response = alice_client.post(_url(owing), {"mode": "fewest"})
    html = response.content.decode()
    assert response.status_code == 400
    error = html.split('id="errors-override"><li>')[1].split("</li>")[0]
    assert error == f"Still open: {UNCONFIRMED}. Closing past it needs an explicit override (“Close anyway”)."
    assert _still_open(owing) and closings == []


def test_closing_by_htmx_with_an_open_check_answers_the_close_card_with_the_error(
    alice_client, owing, checking, closings
):
    response = alice_client.post(_url(owing), {"mode": "fewest"}, headers=HX)
    html = response.content.decode()
    assert response.status_code == 200 and html.startswith('<section class="card" id="close-out">')
    assert "<!doctype html>" not in html
    assert f"Still open: {UNCONFIRMED}." in html and 'name="override"' in html
    assert f'<strong class="error">⚠ {UNCONFIRMED}</strong>' in html
    assert _still_open(owing) and closings == []


# --------------------------------------------------------------------------------------------------------------
# Closed with the override, written into the history


def test_closing_anyway_closes_and_records_what_was_open(
    alice_client, alice, owing, checking, closings, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = alice_client.post(_url(owing), {"mode": "fewest", "override": "on"})
    assert response.status_code == 302 and response["Location"] == _url(owing)
    owing.refresh_from_db()
    assert owing.status == Evening.Status.CLOSED
    assert _kinds(owing) == [("close_overridden", UNCONFIRMED), ("closed", "fewest")]
    assert closings == [hooks.ClosedEvening(evening_id=owing.pk, by_id=alice.pk)]
    html = alice_client.get(_url(owing)).content.decode()
    assert f"closed despite open confirmations · alice · {UNCONFIRMED}</li>" in html
    assert "close-checks" not in html  # a closed evening checks nothing


def test_closing_anyway_by_htmx_leads_to_the_settlement(alice_client, owing, checking, closings):
    response = alice_client.post(_url(owing), {"mode": "fewest", "override": "on"}, headers=HX)
    assert response.status_code == 200 and response["HX-Redirect"] == _url(owing)
    owing.refresh_from_db()
    assert not owing.is_open and [kind for kind, _note in _kinds(owing)] == ["close_overridden", "closed"]


def test_the_history_keeps_at_most_200_characters_of_what_was_open(alice, owing, checking):
    checking.checks = [hooks.CloseCheck(f"Hand #{number} is not confirmed", open=True) for number in range(1, 40)]
    services.evening_close(evening=owing, by=alice, override=True)
    note = EveningEvent.objects.get(evening=owing, kind="close_overridden").note
    assert len(note) == 200 and note.startswith("Hand #1 is not confirmed; Hand #2 is not confirmed; ")
    assert note.endswith("…")


def test_the_override_with_nothing_open_closes_as_usual(alice_client, owing, checking):
    checking.checks = [hooks.CloseCheck(SIGNED)]
    alice_client.post(_url(owing), {"mode": "fewest", "override": "on"})
    assert _kinds(owing) == [("closed", "fewest")]


def test_without_a_listener_closing_is_as_before_and_tells_the_features(
    alice_client, alice, owing, closings, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = alice_client.post(_url(owing), {"mode": "fewest"})
    assert response.status_code == 302
    assert _kinds(owing) == [("closed", "fewest")]
    assert closings == [hooks.ClosedEvening(evening_id=owing.pk, by_id=alice.pk)]


def test_a_stranger_closes_nothing(charlie_client, owing, checking):
    assert charlie_client.post(_url(owing), {"mode": "fewest", "override": "on"}).status_code == 404
    assert charlie_client.get(_url(owing)).status_code == 404
    assert _still_open(owing)


# --------------------------------------------------------------------------------------------------------------
# The features' parts of the settlement page and of the PDF summary


@pytest.fixture
def parts():
    def settlement_part(page):
        assert isinstance(page.subject, Evening) and page.request is not None
        return {"settlement_page_parts": [Template('<p id="signed">Signed by {{ signers }}</p>')], "signers": "Ana"}

    def summary_part(page):
        return {"summary_parts": [Template("<p>The list signed by {{ list_signers }}</p>")], "list_signers": "Ben"}

    hooks.settlement_page_context.connect(settlement_part)
    hooks.summary_context.connect(summary_part)
    yield
    hooks.settlement_page_context.disconnect(settlement_part)
    hooks.summary_context.disconnect(summary_part)


@pytest.mark.parametrize("closed", [False, True], ids=["open", "closed"])
def test_the_settlement_page_draws_the_features_parts(alice_client, alice, owing, parts, closed):
    if closed:
        alice_client.post(_url(owing), {"mode": "fewest"})
    assert '<p id="signed">Signed by Ana</p>' in alice_client.get(_url(owing)).content.decode()


def test_the_pdf_summary_draws_the_features_parts(alice_client, owing, parts):
    assert "The list signed by Ben" in _pdf_text(alice_client, owing)


def test_the_pdf_of_an_evening_closed_anyway_says_what_was_still_open(alice_client, alice, owing, checking):
    services.evening_close(evening=owing, by=alice, override=True)
    assert "although still open" not in _pdf_text(alice_client, evening_owing(alice, ("Dora", "Emil", "Fany")))
    flat = " ".join(_pdf_text(alice_client, owing).split())
    assert "Closed by alice (" in flat and f") although still open: {UNCONFIRMED}" in flat
    services.evening_reopen(evening=owing, by=alice)
    checking.checks = []
    services.evening_close(evening=owing, by=alice)
    assert "although still open" not in _pdf_text(alice_client, owing)  # the newest close had nothing open


def _pdf_text(client, evening):
    response = client.get(reverse("ledger:evening_summary_pdf", args=[evening.pk]))
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
