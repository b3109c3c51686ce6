"""Marks a feature gives hands (``hooks.hands_marked``: confirmed, disputed) shown wherever hands are listed: the
table page's log and its earlier hands, the share page, the PDF summary and the API's hand JSON. Asked once per
listed page, so a listener's fixed queries never grow with the hands.

Personas: Alice keeps score, Bob follows the share link, Charlie is a stranger (404).
"""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from ledger import hooks, services
from ledger.models import Hand
from tests import factories
from tests.ledger.api_support import anonymous_client, token_client

HX = {"HX-Request": "true"}


@pytest.fixture(autouse=True)
def _books_alone():
    """Only this module's listeners answer the marks of hands: the features' own (connected by
    their apps) are set aside, so what is checked is the books' part whatever features are installed."""
    hooks_set_aside = [hooks.hands_marked]
    kept = [(hook, list(hook._listeners)) for hook in hooks_set_aside]
    for hook, listeners in kept:
        for listener in listeners:
            hook.disconnect(listener)
    yield
    for hook, listeners in kept:
        for listener in listeners:
            hook.connect(listener)


class _Listener:
    """Marks hand #1 confirmed and hand #2 disputed, reading them in one query; remembers each call's hands."""

    def __init__(self) -> None:
        self.calls: list[list[int]] = []

    def __call__(self, hands):
        self.calls.append([hand.number for hand in hands])
        found = Hand.objects.filter(pk__in=[hand.pk for hand in hands], number__in=(1, 2))
        marks = {}
        for hand_id, number in found.values_list("pk", "number"):
            if number == 1:
                marks[hand_id] = [hooks.HandMark("confirmed", "Confirmed", "by Ben at 21:05")]
            else:
                marks[hand_id] = [hooks.HandMark("disputed", "Disputed", "Ben: it was za 6")]
        return marks


@pytest.fixture
def marking():
    listener = _Listener()
    hooks.hands_marked.connect(listener)
    yield listener
    hooks.hands_marked.disconnect(listener)


@pytest.fixture
def played(snapser_table):
    factories.record(snapser_table, times=3)
    return snapser_table


@pytest.fixture
def shared(played):
    return services.evening_share_reset(evening=played.evening)


CONFIRMED = '<span class="badge mark" data-mark="confirmed" title="by Ben at 21:05">Confirmed</span>'
DISPUTED = '<span class="badge mark" data-mark="disputed" title="Ben: it was za 6">Disputed</span>'


def _row(html, number):
    """The log row of hand ``number``, up to the next row or the log's end ('' when not shown)."""
    marker = f'id="hand-{number}"'
    if marker not in html:
        return ""
    return html.split(marker)[1].split('class="hand-row')[0].split("</ol>")[0]


def _rows_marked(html):
    """Per hand number shown: the codes of its marks."""
    return {
        number: [code for code in ("confirmed", "disputed") if f'data-mark="{code}"' in _row(html, number)]
        for number in (1, 2, 3)
        if _row(html, number)
    }


# --------------------------------------------------------------------------------------------------------------
# The log


def test_the_table_pages_log_shows_each_hands_marks_and_their_notes(alice_client, played, marking):
    html = alice_client.get(played.get_absolute_url()).content.decode()
    assert _rows_marked(html) == {1: ["confirmed"], 2: ["disputed"], 3: []}
    assert CONFIRMED in _row(html, 1) and DISPUTED in _row(html, 2)
    assert '<li class="mark-note" data-mark="disputed">Disputed: Ben: it was za 6</li>' in _row(html, 2)
    assert marking.calls == [[3, 2, 1]]  # once for the whole log


def test_the_logs_earlier_hands_show_their_marks(alice_client, played, marking):
    url = f"{played.get_absolute_url()}?before=3&log=30"
    html = alice_client.get(url, headers=HX).content.decode()
    assert _rows_marked(html) == {1: ["confirmed"], 2: ["disputed"]}
    assert marking.calls == [[2, 1]]


def test_without_a_listener_no_hand_is_marked(alice_client, played):
    html = alice_client.get(played.get_absolute_url()).content.decode()
    assert 'class="badge mark"' not in html and "mark-note" not in html


@pytest.mark.parametrize("headers", [{}, HX], ids=["page", "htmx"])
def test_the_share_page_shows_the_marks(bob_client, shared, marking, headers):
    html = bob_client.get(reverse("ledger:shared_evening", args=[shared.share_token]), headers=headers).content.decode()
    assert _rows_marked(html) == {1: ["confirmed"], 2: ["disputed"], 3: []}
    assert CONFIRMED in html and DISPUTED in html


def test_a_stranger_sees_no_table_and_no_marks(charlie_client, played, marking):
    assert charlie_client.get(played.get_absolute_url()).status_code == 404
    assert marking.calls == []


# --------------------------------------------------------------------------------------------------------------
# The PDF summary


def test_the_pdf_names_each_hands_marks(alice_client, played, marking):
    response = alice_client.get(reverse("ledger:evening_summary_pdf", args=[played.evening_id]))
    text = "\n".join(page.extract_text() for page in PdfReader(_bytes(response)).pages)
    flat = " ".join(text.split())
    assert "· Confirmed (by Ben at 21:05)" in flat and "· Disputed (Ben: it was za 6)" in flat
    assert marking.calls == [[1, 2, 3]]  # the evening's hands, asked once


def _bytes(response):
    return io.BytesIO(response.content)


# --------------------------------------------------------------------------------------------------------------
# The API


def test_the_api_lists_each_hands_marks(alice, played, marking):
    hands = token_client(alice).get(f"/api/tables/{played.pk}/hands/").json()
    assert [hand["marks"] for hand in hands] == [
        [{"code": "confirmed", "label": "Confirmed", "title": "by Ben at 21:05"}],
        [{"code": "disputed", "label": "Disputed", "title": "Ben: it was za 6"}],
        [],
    ]
    assert marking.calls == [[1, 2, 3]]


def test_one_hand_from_the_api_carries_its_marks(alice, played, marking):
    second = played.hands.get(number=2)
    data = token_client(alice).get(f"/api/hands/{second.pk}/").json()
    assert data["marks"] == [{"code": "disputed", "label": "Disputed", "title": "Ben: it was za 6"}]


def test_the_shared_evening_api_carries_the_marks(shared, marking):
    data = anonymous_client().get(f"/api/shared/{shared.share_token}/").json()
    assert [[mark["code"] for mark in hand["marks"]] for hand in data["tables"][0]["hands"]] == [
        ["confirmed"],
        ["disputed"],
        [],
    ]


def test_the_schema_describes_the_marks():
    schema = anonymous_client().get("/api/schema/", headers={"Accept": "application/json"})
    components = schema.json()["components"]["schemas"]
    assert components["Hand"]["properties"]["marks"]["items"]["$ref"] == "#/components/schemas/HandMark"
    assert set(components["HandMark"]["properties"]) == {"code", "label", "title"}
