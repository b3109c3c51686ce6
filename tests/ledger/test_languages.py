"""Talon in the players' languages: pages, forms, rules errors, stored hands, the API, the PDF and the rules pages."""

from __future__ import annotations

import io
import re

import pytest
from django.urls import reverse
from pypdf import PdfReader

from ledger import services
from ledger.models import Hand, UserPreference
from rules import i18n as rules_i18n
from rules.labels import preset_label
from tests import factories
from tests.ledger.api_support import token_client

NBSP = "\N{NO-BREAK SPACE}"


def _page(client, url, language):
    response = client.get(url, headers={"Accept-Language": language})
    assert response.status_code == 200
    return response.content.decode()


def _balances(html):
    return dict(re.findall(r'<div class="name">(.*?)</div>\s*<div class="balance[^"]*">(.*?)</div>', html))


# --------------------------------------------------------------------------------------------------------------
# Pages in the browser's language


def test_the_table_page_speaks_czech_with_decimal_commas(alice_client, evening):
    table = factories.make_table(evening, "marias")
    factories.record(table)  # M2: hra in bells, won
    html = _page(alice_client, table.get_absolute_url(), "cs-CZ,cs;q=0.9")
    assert '<html lang="cs"' in html
    assert _balances(html) == {"Ana": "+0,20", "Ben": "−0,20", "Cyril": "+0,20", "Dana": "−0,20"}
    assert "Hra v kulích" in html  # the stored Czech label of the hand
    # A hra without hlášky ends with won/lost buttons that record it, their hint in Czech.
    assert "ťuknutím se hra zapíše" in html and "Vrátit poslední hru" in html and "Flek na hru" in html
    assert ">vyhraná</button>" in html and ">prohraná</button>" in html
    assert "Record hand" not in html


def test_the_scoreboard_in_slovak_and_german(alice_client, snapser_table, skat_table):
    factories.record(snapser_table)
    factories.record(skat_table)
    slovak = _page(alice_client, snapser_table.get_absolute_url(), "sk")
    assert _balances(slovak) == {"Ana": "+0,40", "Ben": "−0,20", "Cyril": "−0,20"}
    assert "ťuknutím sa hra zapíše" in slovak and "prehrávajúci majú aspoň 33 bodov" in slovak
    german = _page(alice_client, skat_table.get_absolute_url(), "de")
    assert _balances(german) == {"Ana": "+0,96", "Ben": "−0,48", "Cyril": "−0,48"}
    assert "Grand mit 1" in german and "ein Tipp trägt das Spiel ein" in german and "Spitzen (mit / ohne)" in german


def test_english_keeps_the_decimal_point(alice_client, snapser_table):
    factories.record(snapser_table)
    html = _page(alice_client, snapser_table.get_absolute_url(), "en-GB")
    assert '<html lang="en"' in html
    assert _balances(html) == {"Ana": "+0.40", "Ben": "−0.20", "Cyril": "−0.20"}


def test_money_with_its_currency_per_language(alice_client, evening):
    table = factories.make_table(evening, "snapser")
    factories.record(table)
    url = reverse("ledger:evening_detail", args=[evening.pk])
    assert f"zaokrouhleno na 0,01{NBSP}€" in _page(alice_client, url, "cs")
    assert f"gerundet auf 0,01{NBSP}€" in _page(alice_client, url, "de")
    assert "rounded to €0.01" in _page(alice_client, url, "en")


def test_a_rules_error_shows_in_czech_beside_its_field(alice_client, evening):
    table = factories.make_table(evening, "marias")
    taps = {"declarer": "Ana", "contract": "hra", "trump": "bells", "partner": "Cyril", "points": "65"}
    response = alice_client.post(
        reverse("ledger:hand_create", args=[table.pk]),
        taps | {"ending": "played", "dealer": "0"},
        headers={"Accept-Language": "cs"},
    )
    assert response.status_code == 400
    # The card points are the hand's record buttons (they decide the price): the error is beside them.
    errors = re.search(
        r'<ul class="errorlist" role="alert" id="errors-record-by-points">(.*?)</ul>', response.content.decode()
    )
    assert errors is not None and "body strany hrajícího v desítkách" in errors.group(1)
    assert not Hand.objects.exists()


def test_a_stored_hand_is_said_in_each_viewers_language_without_repricing(alice_client, skat_table):
    (hand,) = factories.record(skat_table)
    assert hand.result["label"] == "Grand with 1"  # English text beside the source, for whoever reads an export
    assert "Grand s 1" in _page(alice_client, skat_table.get_absolute_url(), "cs")
    assert "Grand mit 1" in _page(alice_client, skat_table.get_absolute_url(), "de")
    # The page says the stored source, never a new price: change what is stored and the page follows it.
    frozen = {"by_language": {"de": "Eingefroren", "en": "Frozen"}}
    Hand.objects.filter(pk=hand.pk).update(result=hand.result | {"source": hand.result["source"] | {"label": frozen}})
    assert "Eingefroren" in _page(alice_client, skat_table.get_absolute_url(), "de")
    assert "Frozen" in _page(alice_client, skat_table.get_absolute_url(), "cs")  # no Czech copy: the English one
    # A result stored without a source (before hands kept their texts as sources, never migrated) shows its own label.
    Hand.objects.filter(pk=hand.pk).update(result={k: v for k, v in hand.result.items() if k != "source"})
    assert "Grand with 1" in _page(alice_client, skat_table.get_absolute_url(), "cs")


def test_the_share_link_follows_the_readers_language(client, snapser_table):
    factories.record(snapser_table)
    html = _page(client, reverse("ledger:shared_evening", args=[snapser_table.evening.share_token]), "de")
    assert "Nur lesen" in html and "+0,40" in html


# --------------------------------------------------------------------------------------------------------------
# The language switcher, remembered per user


def test_the_switcher_sets_the_language_for_everybody(client):
    response = client.post(reverse("set_language"), {"language": "sk", "next": "/"})
    assert response.status_code == 302
    assert '<html lang="sk"' in client.get("/").content.decode()


def test_a_logged_in_users_choice_is_remembered_in_a_new_session(client, alice):
    client.force_login(alice)
    client.post(reverse("set_language"), {"language": "de", "next": "/"})
    assert UserPreference.objects.get(user=alice).language == "de"
    client.logout()
    client.cookies.clear()  # another device: no language cookie, a browser asking for Czech
    client.post(reverse("login"), {"login": "alice", "password": factories.PASSWORD})
    html = client.get("/", headers={"Accept-Language": "cs"}).content.decode()
    assert '<html lang="de"' in html and "Ihre Abende" in html


def test_a_choice_in_this_browser_wins_over_the_remembered_one(client, alice):
    services.user_language_set(user=alice, language="de")
    client.force_login(alice)
    client.post(reverse("set_language"), {"language": "cs", "next": "/"})
    assert '<html lang="cs"' in client.get("/").content.decode()


def test_without_a_choice_the_browser_language_decides(client, alice):
    client.force_login(alice)
    assert '<html lang="cs"' in client.get("/", headers={"Accept-Language": "cs"}).content.decode()


def test_an_unknown_language_is_not_remembered(alice_client, alice):
    alice_client.post(reverse("set_language"), {"language": "fr", "next": "/"})
    assert not UserPreference.objects.filter(user=alice).exists()


# --------------------------------------------------------------------------------------------------------------
# The API and the PDF


def test_the_api_answers_in_the_language_asked(alice, evening):
    table = factories.make_table(evening, "marias")
    (hand,) = factories.record(table)
    api = token_client(alice)
    czech = api.get(reverse("api:hand", args=[hand.pk]), headers={"Accept-Language": "cs"}).json()
    assert czech["label"] == "Hra v kulích"
    assert czech["amounts"] == {"Ana": "0.20", "Ben": "-0.20", "Cyril": "0.20", "Dana": "-0.20"}  # machine-readable
    assert api.get(reverse("api:hand", args=[hand.pk])).json()["label"] == "Hra in bells"


def test_api_rules_errors_come_in_the_language_asked(alice, snapser_table):
    response = token_client(alice).post(
        reverse("api:hands", args=[snapser_table.pk]),
        {"hand": {"declarer": "Ana", "trump": "leaves", "announcement": "hram", "winner": "nobody"}},
        format="json",
        headers={"Accept-Language": "de"},
    )
    assert response.status_code == 400
    assert response.json()["field"] == "winner" and "nicht erlaubt" in response.json()["error"]


def test_the_pdf_in_german(alice_client, skat_table):
    factories.record(skat_table)
    url = reverse("ledger:evening_summary_pdf", args=[skat_table.evening.pk])
    content = alice_client.get(url, headers={"Accept-Language": "de"}).content
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)
    assert "Spieler: Ana, Ben, Cyril" in text and "Abrechnung" in text and "Grand mit 1" in text
    assert "+0,96" in text


# --------------------------------------------------------------------------------------------------------------
# The rules pages: each game in each language, tariff numbers from the engine

TARIFF = {
    # game: {language: words and numbers the tariff must show}
    "marias": {
        "en": ["Flek levels", "kalhoty", "0.20\N{NO-BREAK SPACE}Kč", "2.00\N{NO-BREAK SPACE}Kč", "× 32"],
        "cs": [
            "Stupně fleku",
            "kalhoty",
            "0,20\N{NO-BREAK SPACE}Kč",
            "0,40\N{NO-BREAK SPACE}Kč",
            "4,00\N{NO-BREAK SPACE}Kč",
        ],
        "sk": ["Stupne fleku", "tutti", "0,80\N{NO-BREAK SPACE}Kč", "2,00\N{NO-BREAK SPACE}Kč"],
        "de": ["Flek-Stufen", "Kalhoty", "0,20\N{NO-BREAK SPACE}Kč", "6,40\N{NO-BREAK SPACE}Kč"],
    },
    "snapser": {
        "en": ["Categories", "bez vody", "€0.20", "€3.60", "× 16"],
        "cs": ["Kategorie", "bez vody", "0,40\N{NO-BREAK SPACE}€", "1,80\N{NO-BREAK SPACE}€"],
        "sk": ["Kategórie", "prehrávajúci majú aspoň 33 bodov", "7,20\N{NO-BREAK SPACE}€"],
        "de": ["Kategorien", "die Verlierer haben 33 Punkte oder mehr", "3,60\N{NO-BREAK SPACE}€"],
    },
    "skat": {
        "en": ["Base value", "Diamonds", "Null Ouvert Hand", "59", "€0.96"],
        "cs": ["Základní hodnota", "Kára", "0,96\N{NO-BREAK SPACE}€", "1,18\N{NO-BREAK SPACE}€"],
        "sk": ["Základná hodnota", "0,46\N{NO-BREAK SPACE}€"],
        "de": ["Grundwert", "Karo", "Kreuz", "Spitzen", "0,96\N{NO-BREAK SPACE}€"],
    },
}


@pytest.mark.parametrize("language", ["en", "cs", "sk", "de"])
@pytest.mark.parametrize("game", ["marias", "snapser", "skat"])
def test_the_rules_page_of_each_game_in_each_language(client, game, language):
    html = _page(client, reverse("ledger:game_rules", args=[game]), language)
    for expected in TARIFF[game][language]:
        assert expected in html, expected


def test_the_rules_page_shows_another_preset(client):
    html = _page(client, reverse("ledger:game_rules", args=["skat"]) + "?preset=pub", "de")
    assert "Kontra, Re und Bock" in html and "Eine Bockrunde" in html and "1,92\N{NO-BREAK SPACE}€" in html


def test_an_unknown_game_has_no_rules_page(client):
    assert client.get("/games/poker/rules/").status_code == 404


def test_the_table_rules_page_shows_the_frozen_ruleset(alice_client, evening):
    table = factories.make_table(evening, "marias", preset="ctyrka-desetnik")
    assert reverse("ledger:table_rules", args=[table.pk]) in _page(alice_client, table.get_absolute_url(), "cs")
    html = _page(alice_client, reverse("ledger:table_rules", args=[table.pk]), "cs")
    with rules_i18n.override("cs"):
        preset = preset_label("marias", "ctyrka-desetnik")  # its name in Czech, never the key
    assert preset in html and "ctyrka-desetnik" not in html and "Ana, Ben, Cyril, Dana" in html
    # desetník: a hra is 0.10 in the evening's currency (EUR here), a betl ten times that
    assert "0,10\N{NO-BREAK SPACE}€" in html and "1,00\N{NO-BREAK SPACE}€" in html


def test_strangers_get_no_table_rules_page(charlie_client, snapser_table):
    assert charlie_client.get(reverse("ledger:table_rules", args=[snapser_table.pk])).status_code == 404
