"""The new-table form when the game or preset changes: the house rules are drawn again for the new choice.

Each step posts what a browser would post from the page the previous step drew (parsed from the HTML), through the
htmx redraw (``HX-Request``, ``_refresh``) or the no-JS "update" button (``_refresh`` on a full page).
"""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.urls import reverse

from ledger.models import Table

REDRAWS = [pytest.param(True, id="htmx"), pytest.param(False, id="no-js")]


class _FormValues(HTMLParser):
    """What a browser submits from the new-table form: inputs, ticked boxes and radios, selected options."""

    def __init__(self) -> None:
        super().__init__()
        self.values: dict[str, str] = {}
        self._inside = False
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = dict(attrs)
        name = attr.get("name")
        if tag == "form":
            self._inside = attr.get("id") == "table-form"
        if not self._inside:
            return
        if tag == "input" and name and attr.get("type") not in ("submit", "button"):
            if attr.get("type") in ("checkbox", "radio") and "checked" not in attr:
                return
            self.values[name] = attr.get("value") or ("on" if attr.get("type") == "checkbox" else "")
        elif tag == "select":
            self._select = name
        elif tag == "option" and self._select and "selected" in attr:
            self.values[self._select] = attr.get("value") or ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None
        elif tag == "form":
            self._inside = False


def _values(html: str) -> dict[str, str]:
    parser = _FormValues()
    parser.feed(html)
    values = parser.values
    values.pop("csrfmiddlewaretoken", None)
    return values


@pytest.fixture
def url(evening):
    return reverse("ledger:table_create", args=[evening.pk])


@pytest.fixture
def drawn(alice_client, url):
    """The form as the new-table page first draws it (Mariáš, dvacetník)."""
    return _values(alice_client.get(url).content.decode())


def _redraw(client, url: str, data: dict[str, str], htmx: bool) -> tuple[str, dict[str, str]]:
    headers = {"HX-Request": "true"} if htmx else {}
    response = client.post(url, data | {"_refresh": "1"}, headers=headers)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.startswith('<form id="table-form"') is htmx  # the partial for htmx, the whole page without
    return html, _values(html)


PLAYERS = {"player_0": "Ana", "player_1": "Ben", "player_2": "Cyril", "player_3": "Dana"}


def test_the_page_first_draws_the_default_preset_of_mariash(drawn):
    assert (drawn["game"], drawn["preset"], drawn["drawn_for"]) == (
        "marias",
        "ctyrka-dvacetnik",
        "marias:ctyrka-dvacetnik",
    )
    assert (drawn["opt_stake"], drawn["edited"]) == ("0.20", "")


@pytest.mark.parametrize("htmx", REDRAWS)
def test_switching_the_game_draws_the_new_games_options_at_its_preset(alice_client, url, drawn, htmx):
    html, values = _redraw(alice_client, url, drawn | {"game": "skat"}, htmx)
    assert (values["game"], values["preset"], values["drawn_for"]) == ("skat", "isko", "skat:isko")
    assert values["opt_stake"] == "0.01"  # not Mariáš's 0.20
    assert values["opt_bock_lost_60"] == "on"  # Skat's default, though Mariáš's form never posted it
    assert "opt_kontra" not in values
    assert values["opt_seeger_won_bonus"] == "50"
    assert not any(name.startswith("opt_flek") for name in values)
    assert '<option value="pub">' in html
    assert "This field is required." not in html  # a redraw is not a submission
    assert not Table.objects.exists()


@pytest.mark.parametrize("htmx", REDRAWS)
def test_a_stake_typed_after_switching_the_game_is_the_stake_of_the_table(alice_client, url, drawn, htmx):
    _html, values = _redraw(alice_client, url, drawn | {"game": "snapser"}, htmx)
    response = alice_client.post(url, values | PLAYERS | {"player_3": "", "opt_stake": "0.50"})
    table = Table.objects.get()
    assert response["Location"] == table.get_absolute_url()
    assert (table.game, table.ruleset["preset"], table.ruleset["stake"]) == ("snapser", "seed", "0.50")


@pytest.mark.parametrize("htmx", REDRAWS)
def test_a_stake_typed_after_switching_the_preset_is_the_stake_of_the_table(alice_client, url, drawn, htmx):
    _html, values = _redraw(alice_client, url, drawn | {"preset": "ctyrka-desetnik"}, htmx)
    alice_client.post(url, values | PLAYERS | {"opt_stake": "0.50"})
    assert (Table.objects.get().ruleset["preset"], Table.objects.get().ruleset["stake"]) == ("ctyrka-desetnik", "0.50")


@pytest.mark.parametrize("htmx", REDRAWS)
def test_an_untouched_stake_follows_the_preset_and_a_typed_one_stays(alice_client, url, drawn, htmx):
    _html, values = _redraw(alice_client, url, drawn | {"preset": "ctyrka-desetnik"}, htmx)
    assert (values["opt_stake"], values["edited"]) == ("0.10", "")
    html, values = _redraw(alice_client, url, values | {"opt_stake": "0.50", "preset": "ctyrka-dvacetnik"}, htmx)
    assert (values["opt_stake"], values["edited"]) == ("0.50", "stake")
    assert "What you changed here stays when you switch the game or preset" in html
    assert "<details open>" in html  # the kept value is in sight


@pytest.mark.parametrize("htmx", REDRAWS)
def test_a_typed_stake_stays_through_two_switches_even_where_it_equals_a_preset(alice_client, url, drawn, htmx):
    _html, values = _redraw(alice_client, url, drawn | {"opt_stake": "0.10", "game": "snapser"}, htmx)
    assert values["opt_stake"] == "0.10"  # Šnapser's seed plays 0.10 too, but 0.10 was typed
    _html, values = _redraw(alice_client, url, values | {"game": "skat"}, htmx)
    assert (values["opt_stake"], values["edited"]) == ("0.10", "stake")  # not Skat's 0.01


def test_an_emptied_stake_is_drawn_again_at_the_presets(alice_client, url, drawn):
    _html, values = _redraw(alice_client, url, drawn | {"opt_stake": "", "preset": "ctyrka-desetnik"}, True)
    assert (values["opt_stake"], values["edited"]) == ("0.10", "")


@pytest.mark.parametrize("htmx", REDRAWS)
def test_an_unticked_option_stays_unticked_and_the_untouched_ones_follow_the_preset(alice_client, url, drawn, htmx):
    _html, skat = _redraw(alice_client, url, drawn | {"game": "skat"}, htmx)
    assert skat["opt_jungfrau"] == "on"
    del skat["opt_jungfrau"]
    _html, pub = _redraw(alice_client, url, skat | {"preset": "pub"}, htmx)
    assert "opt_jungfrau" not in pub
    assert (pub["opt_kontra"], pub["opt_ramsch"], pub["edited"]) == ("on", "on", "jungfrau")
    response = alice_client.post(url, pub | PLAYERS)
    ruleset = Table.objects.get().ruleset
    assert response.status_code == 302
    assert (ruleset["preset"], ruleset["jungfrau"], ruleset["kontra"], ruleset["stake"]) == ("pub", False, True, "0.01")


def test_the_htmx_partial_and_the_full_page_draw_the_same_form(alice_client, url, drawn):
    change = {"game": "skat", "opt_stake": "0.30", "player_0": "Ana"}
    _html, partial = _redraw(alice_client, url, drawn | change, True)
    _html, page = _redraw(alice_client, url, drawn | change, False)
    assert partial == page
    assert (page["opt_stake"], page["player_0"]) == ("0.30", "Ana")


def test_a_table_started_from_options_drawn_for_another_game_is_not_stored_but_drawn_again(alice_client, url, drawn):
    # Without JavaScript, the game switched but "update" not pressed: the stake field typed in is Mariáš's.
    posted = drawn | PLAYERS | {"player_3": "", "game": "snapser", "opt_stake": "0.50"}
    response = alice_client.post(url, posted)
    html = response.content.decode()
    assert response.status_code == 200
    assert not Table.objects.exists()
    assert "The house rules are now those of the game and preset you chose" in html
    values = _values(html)
    assert (values["drawn_for"], values["opt_stake"], values["opt_payment"]) == (
        "snapser:seed",
        "0.50",
        "every_loser_every_winner",
    )
    alice_client.post(url, values)
    assert Table.objects.get().ruleset["stake"] == "0.50"


def test_a_stake_left_at_the_old_presets_value_is_not_carried_into_a_table_of_another_game(alice_client, url, drawn):
    response = alice_client.post(url, drawn | PLAYERS | {"player_3": "", "game": "snapser"})
    assert not Table.objects.exists()
    values = _values(response.content.decode())
    assert values["opt_stake"] == "0.10"  # Šnapser's, not Mariáš's 0.20 that nobody typed


def test_an_emptied_stake_is_refused_rather_than_taken_from_the_preset(alice_client, url, drawn):
    response = alice_client.post(url, drawn | PLAYERS | {"opt_stake": ""})
    assert 'id="errors-opt_stake"' in response.content.decode()
    assert not Table.objects.exists()


@pytest.mark.parametrize("htmx", REDRAWS)
def test_junk_in_the_hidden_fields_is_drawn_again_without_a_server_error(alice_client, url, drawn, htmx):
    junk = {"drawn_for": "poker:x", "edited": "bogus stake <b>", "opt_stake": "abc", "game": "skat"}
    _html, values = _redraw(alice_client, url, drawn | junk, htmx)
    assert (values["drawn_for"], values["opt_stake"], values["edited"]) == ("skat:isko", "abc", "stake")
    response = alice_client.post(url, values | PLAYERS)
    assert 'id="errors-opt_stake"' in response.content.decode()
    assert not Table.objects.exists()
