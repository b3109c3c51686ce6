"""The share page: its refresh morphs what changed (vendored idiomorph), and a link that does not work says so.

Personas: Alice keeps score, Bob holds the share link (no account), Charlie is a logged-in stranger. The share
link is the same page for all three; a switched-off or unknown link is a 404 page in the reader's language.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from ledger import services
from tests import factories
from tests.ledger.api_support import anonymous_client

HX = {"HX-Request": "true"}
STATIC = Path(__file__).resolve().parents[2] / "static" / "js"
MISSING = "This share link does not work"
WHY_MISSING = "The link is unknown, or the scorekeeper switched it off. Ask the scorekeeper for the current link."


@pytest.fixture
def hand(snapser_table):
    return factories.record(snapser_table)[0]


def _url(token):
    return reverse("ledger:shared_evening", args=[token])


def _switched_off(evening):
    token = evening.share_token
    services.evening_share_reset(evening=evening, enabled=False)
    return token


# --------------------------------------------------------------------------------------------------------------
# The refresh


def test_the_page_morphs_its_refresh_with_the_vendored_extension(bob_client, snapser_table, hand):
    html = bob_client.get(_url(snapser_table.evening.share_token)).content.decode()
    live = html.split('<div id="shared-live"')[1].split(">")[0]
    assert 'hx-trigger="every 5s"' in live and 'hx-ext="morph"' in live and 'hx-swap="morph"' in live
    body = html.split("<body")[1]
    assert '<script src="/static/js/vendor/idiomorph-ext.min.js" defer></script>' in body
    assert '<script src="/static/js/share.js" defer></script>' in body
    assert body.index("idiomorph-ext.min.js") < body.index("share.js")  # the extension first: share.js tunes it
    assert "<details><summary>Why?</summary>" in html  # drawn closed: the reader opens it, the refresh keeps it


def test_the_refresh_answer_is_the_live_part_only(bob_client, snapser_table, hand):
    partial = bob_client.get(_url(snapser_table.evening.share_token), headers=HX).content.decode()
    assert partial.startswith('<div id="shared-live"') and 'hx-swap="morph"' in partial
    assert "<script" not in partial and "<html" not in partial


def test_the_morph_script_is_loaded_on_the_share_page_only(alice_client, snapser_table, hand):
    for url in (snapser_table.get_absolute_url(), snapser_table.evening.get_absolute_url(), "/"):
        assert "idiomorph" not in alice_client.get(url).content.decode()


def test_the_vendored_extension_is_served_with_its_licence(client, db):
    vendored = STATIC / "vendor" / "idiomorph-ext.min.js"
    assert vendored.read_text().startswith("/*! idiomorph 0.8.0")
    assert "Zero-Clause BSD" in (STATIC / "vendor" / "idiomorph.LICENSE").read_text()
    assert 'htmx.defineExtension("morph"' in vendored.read_text()
    served = client.get("/static/js/vendor/idiomorph-ext.min.js")
    assert served.status_code == 200


def test_the_share_script_keeps_details_open_and_skips_an_unchanged_answer():
    """What the browser test checks in chromium, named here: the open attribute and the ETag comparison."""
    script = (STATIC / "share.js").read_text()
    assert 'name === "open" && element.tagName === "DETAILS"' in script
    assert "status === 304" in script and 'getResponseHeader("ETag")' in script
    assert "eval(" not in script and "Function(" not in script  # the Content-Security-Policy forbids both


@pytest.mark.parametrize("persona", ["alice_client", "bob_client", "charlie_client"])
def test_every_persona_with_the_link_reads_the_same_page(request, persona, snapser_table, hand):
    client = request.getfixturevalue(persona)
    for headers in ({}, HX):
        response = client.get(_url(snapser_table.evening.share_token), headers=headers)
        html = response.content.decode()
        assert response.status_code == 200
        assert 'data-player="Ana"' in html and "+0.40" in html and 'hx-ext="morph"' in html
        assert "Record hand" not in html and "Void" not in html


# --------------------------------------------------------------------------------------------------------------
# A link that does not work


@pytest.mark.parametrize("persona", ["alice_client", "bob_client", "charlie_client"])
@pytest.mark.parametrize("how", ["switched_off", "unknown", "replaced"])
def test_a_link_that_does_not_work_says_so_with_404(request, persona, how, evening, snapser_table):
    client = request.getfixturevalue(persona)
    if how == "switched_off":
        token = _switched_off(evening)
    elif how == "replaced":
        token = evening.share_token
        services.evening_share_reset(evening=evening)
    else:
        token = "no-such-link-" + "x" * 12
    response = client.get(_url(token))
    html = response.content.decode()
    assert response.status_code == 404
    assert html.startswith("<!doctype html>") and '<html lang="en"' in html
    assert f"<h1>{MISSING}</h1>" in html and WHY_MISSING in html
    assert "U Fleků" not in html and "Ana" not in html  # nothing of the evening


def test_the_404_page_is_ours_also_with_debug_on(bob_client, evening, settings):
    settings.DEBUG = True
    response = bob_client.get(_url(_switched_off(evening)))
    html = response.content.decode()
    assert response.status_code == 404
    assert MISSING in html and "Page not found" not in html and "URLconf" not in html


@pytest.mark.parametrize("language", ["cs", "sk", "de"])
def test_the_404_page_speaks_the_readers_language(bob_client, evening, language):
    response = bob_client.get(_url(_switched_off(evening)), headers={"Accept-Language": language})
    html = response.content.decode()
    assert response.status_code == 404
    assert f'<html lang="{language}"' in html
    with translation.override(language):
        assert gettext(MISSING) in html and gettext(WHY_MISSING) in html


def test_a_page_that_was_refreshing_gets_the_words_in_place_of_the_score(bob_client, evening, snapser_table):
    token = _switched_off(evening)
    response = bob_client.get(_url(token), headers=HX)
    html = response.content.decode()
    assert response.status_code == 404 and "HX-Request" in response["Vary"]
    assert html.startswith('<div id="shared-live">')  # what share.js swaps in
    assert "hx-get" not in html and "hx-trigger" not in html  # so the polling stops
    assert MISSING in html and WHY_MISSING in html and "<html" not in html


def test_the_share_api_keeps_answering_404_in_json(evening):
    response = anonymous_client().get(f"/api/shared/{_switched_off(evening)}/")
    assert response.status_code == 404
    assert response.json() == {"field": None, "error": "Not found."}


def test_a_player_who_asked_for_all_hands_keeps_them_across_refreshes(bob_client, snapser_table):
    factories.record(snapser_table, times=31)
    url = _url(snapser_table.evening.share_token)
    assert f'hx-get="{url}"' in bob_client.get(url).content.decode()
    every = bob_client.get(url + "?all=1", headers=HX).content.decode()
    assert f'hx-get="{url}?all=1"' in every and 'id="hand-1"' in every
