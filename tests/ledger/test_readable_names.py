"""No page speaks in keys: every page, in all four languages, shows presets, house rules and their values
in words, never the identifiers that documents, the API and the CLI use (``ctyrka-dvacetnik``, ``pair``,
``by_points``, ``bock_big_game_value``, "seed:").

The identifiers come from the rules engine itself (every option's name, every value of a choice, every preset's key),
so a new option or preset is checked without touching this test. A key with ``_`` or ``-`` is looked for anywhere in
what a reader sees; a one-word key (``pair``, ``each``, ``isko``) is an ordinary word too, so it counts only where it
stands alone as a whole text (a value cell, a choice's label).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

import rules
from ledger import pdf, services
from rules import i18n as rules_i18n
from tests import factories

LANGUAGES = ("en", "cs", "sk", "de")
# Currency codes are what a reader writes too (on a banknote, a bank statement): not keys.
NOT_KEYS = {"CZK", "EUR"}


def _compound(key: str) -> bool:
    return bool(re.search(r"[a-z0-9][_-][a-z0-9]", key))


def _identifiers() -> tuple[set[str], set[str]]:
    """(keys with a separator, looked for anywhere; one-word keys, looked for as whole texts).

    One-word option names (stake, kontra, bock, ramsch) are the game's own words or plain ones, which a label says
    too (Šnapser's first raise is called kontra): only option names with a separator count as keys.
    """
    keys: set[str] = {"seed"}
    for game in rules.GAMES.values():
        keys |= set(game.presets)
        keys |= {name for name in game.options if _compound(name)}
        for option in game.options.values():
            keys |= {str(choice) for choice in option.choices}
    keys -= NOT_KEYS
    compound = {key for key in keys if _compound(key)}
    return compound, keys - compound


COMPOUND, WORDS = _identifiers()
ANYWHERE = re.compile(
    "|".join(rf"(?<![\w-]){re.escape(key)}(?![\w-])" for key in sorted(COMPOUND, key=len, reverse=True)) + r"|\bseed\b"
)


class _VisibleText(HTMLParser):
    """The texts a reader sees or hears: text nodes outside scripts and styles, and the labels read aloud."""

    SPOKEN = ("aria-label", "title", "placeholder", "alt")

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "template"):
            self._hidden += 1
        self.texts += [value for name, value in attrs if name in self.SPOKEN and value]

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "template"):
            self._hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self._hidden and data.strip():
            self.texts.append(data.strip())


def raw_identifiers(html: str) -> list[str]:
    parser = _VisibleText()
    parser.feed(html)
    found = []
    for text in parser.texts:
        found += [f"{match.group(0)!r} in {text[:80]!r}" for match in ANYWHERE.finditer(text)]
        if text in WORDS:
            found.append(f"{text!r} alone")
    return found


def test_the_identifiers_come_from_the_rules_engine():
    assert {"ctyrka-dvacetnik", "bock_big_game_value", "by_points", "pay_2v2", "seeger-fabian"} <= COMPOUND
    assert {"isko", "pair", "each", "pub", "classic", "linear", "csm"} <= WORDS
    assert raw_identifiers("<p>Each defender pays</p><td>pair</td><p>a ctyrka-desetnik</p>") == [
        "'pair' alone",
        "'ctyrka-desetnik' in 'a ctyrka-desetnik'",
    ]
    assert raw_identifiers('<option value="pair">each defender pays one opponent V</option>') == []


@pytest.fixture
def evening_played(alice: Any) -> dict[str, Any]:
    """Every game at a table whose house rules differ from the defaults wherever a value has words, with hands."""
    evening = factories.make_evening(alice, currency="CZK")
    marias = factories.make_table(
        evening,
        "marias",
        preset="ctyrka-desetnik",
        pay_2v2="each",
        pay_alone="double",
        stovka_steps="doubling",
        ticha_stovka="csm",
        betl_durch="15/30",
    )
    factories.record(marias, times=2)
    skat = factories.make_table(
        evening, "skat", players=["Ana", "Ben", "Cyril", "Dana"], preset="pub", scoring="seeger-fabian"
    )
    factories.record(skat, {**factories.SKAT_S1, "dealer": "Dana"})
    snapser = factories.make_table(evening, "snapser", payment="each_loser_one_winner", false_dost="za_6")
    factories.record(snapser, times=2)
    closed = factories.make_evening(alice, currency="EUR", place="Na Růžku")
    factories.record(factories.make_table(closed, "skat", preset="isko"))
    services.evening_close(evening=closed, by=alice)
    return {"evening": evening, "closed": closed, "tables": [marias, skat, snapser]}


def _pages(data: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Every page a scorekeeper or a player reaches (URL, extra request options), the htmx partials included."""
    evening, closed, tables = data["evening"], data["closed"], data["tables"]
    htmx = {"headers": {"HX-Request": "true"}}
    pages: list[tuple[str, dict[str, Any]]] = [
        ("/", {}),
        (reverse("ledger:evening_list"), {}),
        (reverse("ledger:evening_create"), {}),
        (evening.get_absolute_url(), {}),
        (reverse("ledger:evening_settlement", args=[evening.pk]), {}),
        (reverse("ledger:table_create", args=[evening.pk]), {}),
        (closed.get_absolute_url(), {}),
        (reverse("ledger:evening_settlement", args=[closed.pk]), {}),
        (reverse("ledger:shared_evening", args=[evening.share_token]), {}),
        (reverse("ledger:shared_evening", args=[evening.share_token]), htmx),
        (reverse("ledger:shared_evening", args=[closed.share_token]), {}),
    ]
    for table in tables:
        hand = table.hands.first()
        pages += [
            (table.get_absolute_url(), {}),
            (reverse("ledger:hand_form", args=[table.pk]), htmx),
            (reverse("ledger:hand_edit", args=[hand.pk]), {}),
            (reverse("ledger:table_rules", args=[table.pk]), {}),
            (f"{reverse('ledger:table_create', args=[evening.pk])}?again={table.pk}", {}),
        ]
    for game in rules.GAMES.values():
        pages += [(f"{reverse('ledger:game_rules', args=[game.name])}?preset={preset}", {}) for preset in game.presets]
    return pages


def _table_forms(client: Any, evening: Any, language: str) -> dict[str, str]:
    """The new table's form redrawn (htmx) for every game and preset, as a tap on them asks for it."""
    url = reverse("ledger:table_create", args=[evening.pk])
    drawn = {}
    for game in rules.GAMES.values():
        for preset in game.presets:
            response = client.post(
                url,
                {"game": game.name, "preset": preset, "_refresh": "1"},
                headers={"HX-Request": "true", "Accept-Language": language},
            )
            assert response.status_code == 200
            drawn[f"table form {game.name}:{preset}"] = response.content.decode()
    return drawn


def _pdf_html(evening: Any, language: str) -> str:
    with translation.override(language), rules_i18n.override(language):
        return render_to_string("ledger/summary_pdf.html", pdf.summary_context(evening))


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_page_shows_a_raw_identifier(alice_client, evening_played, language):
    problems = []
    drawn = {}
    for url, options in _pages(evening_played):
        headers = {"Accept-Language": language, **options.get("headers", {})}
        response = alice_client.get(url, headers=headers)
        assert response.status_code == 200, url
        drawn[f"{url} {'(htmx)' if 'HX-Request' in headers else ''}"] = response.content.decode()
    drawn |= _table_forms(alice_client, evening_played["evening"], language)
    for evening in (evening_played["evening"], evening_played["closed"]):
        drawn[f"PDF of {evening}"] = _pdf_html(evening, language)
    for where, html in drawn.items():
        problems += [f"{where}: {found}" for found in raw_identifiers(html)]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(
    ("language", "form_says", "log_says", "other_language"),
    [("en", ">bells<", "hra in bells", ">kule<"), ("cs", ">kule<", "hra v kulích", ">bells<")],
)
def test_the_hand_form_and_the_log_name_the_suits_in_one_language(
    alice_client, evening, language, form_says, log_says, other_language
):
    table = factories.make_table(evening, "marias")
    factories.record(table)  # a hra in bells (kule)
    html = alice_client.get(table.get_absolute_url(), headers={"Accept-Language": language}).content.decode()
    assert form_says in html and log_says in html.replace("\N{NO-BREAK SPACE}", " ")
    assert other_language not in html
