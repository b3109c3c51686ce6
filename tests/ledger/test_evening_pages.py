"""Starting an evening and a table as a scorekeeper would, on full pages and htmx partials."""

from __future__ import annotations

from decimal import Decimal

from django.urls import reverse

from ledger.forms import TableForm
from ledger.models import Evening, Table


def _as_browser_posts(game: str, preset: str, **changes: str) -> dict[str, str]:
    """What a browser submits for the drawn form: every option at the preset's value, then the user's changes."""
    form = TableForm(initial={"game": game, "preset": preset})
    data = {"game": game, "preset": preset, "drawn_for": f"{game}:{preset}", "first_dealer": "0"}
    for bound in form.option_fields():
        value = bound.initial
        if value is True:
            data[bound.name] = "on"
        elif value is not False:
            data[bound.name] = str(value)
    return data | changes


def test_the_home_page_invites_a_stranger_to_log_in(client, db):
    html = client.get("/").content.decode()
    assert "Log in to keep score" in html
    assert 'href="/accounts/login/"' in html


def test_the_home_page_lists_the_scorekeepers_evenings(alice_client, evening):
    html = alice_client.get("/").content.decode()
    assert "U Fleků" in html
    assert "Start an evening" in html


def test_the_base_page_vendors_htmx_and_sends_the_csrf_token(alice_client, evening):
    html = alice_client.get("/").content.decode()
    assert '<script src="/static/django-htmx/htmx.min.js' in html or "/static/django_htmx/htmx" in html
    assert "https://" not in html.split("<body")[0]  # nothing from a CDN in the head
    assert 'hx-headers=\'{"X-CSRFToken": "' in html
    assert '<html lang="en"' in html


def test_logging_in_and_out(client, alice):
    response = client.post(reverse("login"), {"login": "alice", "password": "correct-horse-battery"})
    assert response.status_code == 302
    assert "alice" in client.get("/").content.decode()
    client.post(reverse("logout"))
    assert "Log in to keep score" in client.get("/").content.decode()


def test_a_wrong_password_says_so(client, alice):
    response = client.post(reverse("login"), {"login": "alice", "password": "nope"})
    assert response.status_code == 200
    assert "The username and/or password you specified are not correct." in response.content.decode()


def test_starting_an_evening_rounds_czk_to_a_crown_by_default(alice_client, alice):
    response = alice_client.post(
        reverse("ledger:evening_create"), {"date": "2026-11-28", "place": "U Zlatého tygra", "currency": "CZK"}
    )
    evening = Evening.objects.get(owner=alice)
    assert response["Location"] == reverse("ledger:table_create", args=[evening.pk])
    assert (evening.place, evening.currency, evening.coin) == ("U Zlatého tygra", "CZK", Decimal("1"))


def test_starting_a_table_freezes_the_preset_with_overrides(alice_client, evening):
    url = reverse("ledger:table_create", args=[evening.pk])
    form = _as_browser_posts(
        "skat", "isko", first_dealer="1", player_0="Ana", player_1="Ben", player_2=" Cyril ", opt_stake="0.05"
    )
    response = alice_client.post(url, form)
    table = Table.objects.get(evening=evening)
    assert response["Location"] == table.get_absolute_url()
    assert table.seat_names == ["Ana", "Ben", "Cyril"]
    assert table.first_dealer == 1
    assert (table.ruleset["preset"], table.ruleset["stake"], table.ruleset["currency"]) == ("isko", "0.05", "EUR")
    page = alice_client.get(table.get_absolute_url()).content.decode()
    assert "0.05" in page  # the house rules summary shows the stake


def test_options_drawn_for_another_preset_are_drawn_again_not_applied(alice_client, evening):
    url = reverse("ledger:table_create", args=[evening.pk])
    form = _as_browser_posts("skat", "isko", opt_stake="9", player_0="Ana", player_1="Ben", player_2="Cyril")
    form |= {"game": "snapser", "preset": "seed"}
    response = alice_client.post(url, form)
    assert not Table.objects.exists()  # the scorekeeper sees Šnapser's house rules first (test_table_form.py)
    assert 'name="drawn_for" value="snapser:seed"' in response.content.decode()


def test_changing_the_game_redraws_the_table_form_through_htmx(alice_client, evening):
    url = reverse("ledger:table_create", args=[evening.pk])
    response = alice_client.post(url, {"game": "skat"}, headers={"HX-Request": "true"})
    html = response.content.decode()
    assert html.startswith('<form id="table-form"')
    assert '<option value="seeger-fabian">' in html
    assert not Table.objects.exists()


def test_a_table_with_one_player_is_refused_beside_the_players(alice_client, evening):
    url = reverse("ledger:table_create", args=[evening.pk])
    form = {"game": "snapser", "preset": "seed", "drawn_for": "snapser:seed", "first_dealer": "0", "player_0": "Ana"}
    response = alice_client.post(url, form)
    assert response.status_code == 200
    assert "This field is required." in response.content.decode()
    assert not Table.objects.exists()
