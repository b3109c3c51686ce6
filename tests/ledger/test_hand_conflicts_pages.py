"""The table page when another phone recorded the next hand first: the htmx answer and the page without JavaScript
show both versions side by side, priced, with the ways out; the form's ``after`` follows every redraw, so the
scorekeeper's own hands one after another are never a conflict."""

from __future__ import annotations

import copy
import re
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from ledger import hooks, services
from ledger.models import Hand
from tests import factories
from tests.ledger.form_support import page_post

HTMX = {"HX-Request": "true"}
# Šnapser N1 (RULES.md): the chooser +0.40, each opponent −0.20; N2, bez vody: +0.80, −0.40.
TAPS = {"declarer": "Ana", "announcement": "hram", "trump": "leaves", "winner": "declarer"}
S_VODOU, BEZ_VODY = ("result", "s_vodou"), ("result", "bez_vody")


@pytest.fixture
def vera(db, evening):
    user = factories.make_user("vera")
    user.first_name, user.last_name = "Věra", "Nováková"
    user.save()
    services.evening_add_scorekeeper(evening=evening, user=user)
    return user


@pytest.fixture
def vera_first(snapser_table, vera):
    """Věra's phone records hand #1 after the scorekeeper's page was drawn (it showed no hand)."""

    def record():
        return services.hand_record(table=snapser_table, hand=factories.SNAPSER_N1, by=vera, key="vera", after=0)

    return record


def _url(table):
    return reverse("ledger:hand_create", args=[table.pk])


def _page(client, table):
    return client.get(table.get_absolute_url()).content.decode()


def _panel(html):
    start = html.index('<section class="card conflict" id="hand-conflict"')
    return html[start : html.index("</section>", start)]


def _text(html):
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def _again(panel):
    """The hidden fields of the panel's "Mine is another hand" form, as the browser posts them."""
    form = panel[panel.index('<form method="post"') :]
    return dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form))


def _after(html):
    form = html[html.index('<form id="hand-form"') :]
    found = re.search(r'<input type="hidden" name="after" value="(\d+)">', form[: form.index("</form>")])
    assert found, "the hand form carries no after"
    return int(found.group(1))


def test_the_form_names_the_hands_its_page_shows(alice_client, snapser_table):
    assert _after(_page(alice_client, snapser_table)) == 0
    factories.record(snapser_table, times=3)
    services.hand_undo_last(table=snapser_table, by=snapser_table.evening.owner)  # an undone hand still counts
    assert _after(_page(alice_client, snapser_table)) == 3


def test_the_htmx_answer_shows_both_versions_and_stores_nothing_of_mine(alice_client, snapser_table, vera_first):
    posted = page_post(_page(alice_client, snapser_table), TAPS, BEZ_VODY)
    vera_first()
    answer = alice_client.post(_url(snapser_table), posted, headers=HTMX)
    assert answer.status_code == 200  # htmx swaps only a 2xx answer
    assert "X-Talon-Recorded" not in answer  # the offline queue must not take the hand as stored
    html = answer.content.decode()
    assert html.startswith('<div id="table-live">')
    panel = _text(_panel(html))
    assert "Hand #1 was just recorded by Věra Nováková." in panel
    theirs, mine = panel.split("Hand #1, recorded by Věra Nováková", 1)[1].split("Yours, not stored")
    assert "s vodou" in theirs and "Ana +0.40" in theirs and "Ben −0.20" in theirs and "Cyril −0.20" in theirs
    assert "bez vody" in mine and "Ana +0.80" in mine and "Ben −0.40" in mine and "Cyril −0.40" in mine
    assert "Theirs is right: drop mine" in panel and "Mine is another hand: record it as #2" in panel
    assert list(Hand.objects.filter(table=snapser_table).values_list("key", flat=True)) == ["vera"]
    assert _after(html) == 1  # the table drawn anew under the panel shows Věra's hand
    assert 'id="hand-1"' in html


def test_without_javascript_the_page_shows_the_same_panel(alice_client, snapser_table, vera_first):
    posted = page_post(_page(alice_client, snapser_table), TAPS, BEZ_VODY)
    vera_first()
    answer = alice_client.post(_url(snapser_table), posted)
    assert answer.status_code == 409
    html = answer.content.decode()
    assert "<html" in html and "<h1>" in html
    panel = _panel(html)
    assert "Hand #1 was just recorded by Věra Nováková." in _text(panel)
    assert f'<a class="button" href="{snapser_table.get_absolute_url()}#table-live"' in panel
    assert f'action="{_url(snapser_table)}"' in panel
    assert Hand.objects.filter(table=snapser_table).count() == 1


def test_mine_is_another_hand_records_it_once_after_theirs(alice_client, alice, snapser_table, vera_first):
    posted = page_post(_page(alice_client, snapser_table), TAPS, BEZ_VODY)
    vera_first()
    again = _again(_panel(alice_client.post(_url(snapser_table), posted, headers=HTMX).content.decode()))
    assert again["key"] == posted["key"] and again["after"] == "1" and again["result"] == "bez_vody"
    assert "table_revision" not in again
    recorded = alice_client.post(_url(snapser_table), again)
    assert recorded.status_code == 302 and recorded["Location"].endswith("?recorded=2#table-live")
    mine = Hand.objects.get(table=snapser_table, number=2)
    assert (mine.key, mine.entered_by, mine.amounts["Ana"]) == (posted["key"], alice, factories.money("0.80"))
    assert alice_client.post(_url(snapser_table), again, headers=HTMX)["X-Talon-Recorded"] == posted["key"]
    assert Hand.objects.filter(table=snapser_table).count() == 2  # the same tap twice: one hand


def test_theirs_is_right_draws_the_table_again_and_stores_nothing(alice_client, snapser_table, vera_first):
    posted = page_post(_page(alice_client, snapser_table), TAPS, BEZ_VODY)
    vera_first()
    panel = _panel(alice_client.post(_url(snapser_table), posted, headers=HTMX).content.decode())
    live = re.search(r'hx-get="([^"]+)"', panel).group(1)
    assert live == f"{snapser_table.get_absolute_url()}?live"
    answer = alice_client.get(live, headers=HTMX).content.decode()
    assert answer.startswith('<div id="table-live">') and 'id="hand-conflict"' not in answer
    assert _after(answer) == 1 and 'id="hand-1"' in answer
    assert Hand.objects.filter(table=snapser_table).count() == 1


def test_two_records_in_a_row_without_a_reload_are_no_conflict(alice_client, snapser_table):
    """The answer to Record draws the next form out of band: its after counts the hand just recorded."""
    page = _page(alice_client, snapser_table)
    first = alice_client.post(_url(snapser_table), page_post(page, TAPS, S_VODOU), headers=HTMX)
    second = alice_client.post(_url(snapser_table), page_post(first.content.decode(), TAPS, BEZ_VODY), headers=HTMX)
    third = alice_client.post(_url(snapser_table), page_post(second.content.decode(), TAPS, S_VODOU), headers=HTMX)
    for answer in (first, second, third):
        assert 'id="hand-conflict"' not in answer.content.decode() and answer["X-Talon-Recorded"]
    assert _after(third.content.decode()) == 3
    assert list(Hand.objects.filter(table=snapser_table).order_by("number").values_list("number", flat=True)) == [
        1,
        2,
        3,
    ]


def test_undo_and_a_redraw_after_another_phone_carry_the_count_shown(alice_client, snapser_table, vera_first):
    factories.record(snapser_table, times=2)
    undone = alice_client.post(reverse("ledger:hand_undo", args=[snapser_table.pk]), {"number": "2"}, headers=HTMX)
    assert _after(undone.content.decode()) == 2
    services.hand_record(table=snapser_table, hand=factories.SNAPSER_N1, by=snapser_table.evening.owner)
    page = _page(alice_client, snapser_table)
    posted = page_post(page, TAPS, S_VODOU) | {"table_revision": "0"}  # the page missed a change: drawn anew
    answer = alice_client.post(_url(snapser_table), posted, headers=HTMX).content.decode()
    assert 'id="hand-conflict"' not in answer and _after(answer) == 4


def test_a_refused_form_keeps_the_count_it_was_tapped_on(alice_client, snapser_table, vera_first):
    """Fixing a refused hand does not make a hand recorded meanwhile the one it follows, unasked."""
    posted = page_post(_page(alice_client, snapser_table), TAPS, BEZ_VODY)
    vera_first()
    refused = alice_client.post(_url(snapser_table), posted | {"trump": ""}, headers=HTMX).content.decode()
    assert 'id="errors-trump"' in refused or "Tap one" in refused
    assert _after(refused) == 0
    fixed = alice_client.post(_url(snapser_table), posted, headers=HTMX).content.decode()
    assert "Hand #1 was just recorded by Věra Nováková." in _text(_panel(fixed))


def test_a_page_from_before_after_records_as_before(alice_client, snapser_table, vera_first):
    posted = page_post(_page(alice_client, snapser_table), TAPS, BEZ_VODY)
    vera_first()
    del posted["after"]
    assert alice_client.post(_url(snapser_table), posted)["Location"].endswith("?recorded=2#table-live")


def test_a_stranger_or_nobody_reaches_no_panel(snapser_table, vera_first, charlie_client):
    posted = {"after": "0", "key": "x", **TAPS, "result": "bez_vody", "dealer": "0"}
    vera_first()
    assert charlie_client.post(_url(snapser_table), posted, headers=HTMX).status_code == 404
    anonymous = Client().post(_url(snapser_table), posted)
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    assert Client().get(f"{snapser_table.get_absolute_url()}?live", headers=HTMX).status_code == 302
    assert Hand.objects.filter(table=snapser_table).count() == 1


def test_the_features_add_their_ways_out(alice_client, snapser_table, vera_first, settings, tmp_path):
    """``hooks.hand_conflict_context``: told the hand that won, a feature's part is drawn among the ways out."""
    (tmp_path / "dispute_part.html").write_text('<button type="button">Dispute #{{ conflict.stored.number }}</button>')
    templates = copy.deepcopy(settings.TEMPLATES)
    templates[0]["DIRS"] = [*templates[0]["DIRS"], tmp_path]
    settings.TEMPLATES = templates
    shown = []

    def listener(page):
        shown.append(page.subject)
        return {"conflict_parts": ["dispute_part.html"]}

    hooks.hand_conflict_context.connect(listener)
    try:
        posted = page_post(_page(alice_client, snapser_table), TAPS, BEZ_VODY)
        theirs = vera_first()
        panel = _panel(alice_client.post(_url(snapser_table), posted, headers=HTMX).content.decode())
    finally:
        hooks.hand_conflict_context.disconnect(listener)
    assert [hand.pk for hand in shown] == [theirs.pk]
    assert '<button type="button">Dispute #1</button>' in panel
