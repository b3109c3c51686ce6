"""Starting an evening fast: "Same players as last time", the first dealer by name, a stake that means
something in the evening's currency. Alice keeps score, Charlie is a stranger to her evenings."""

from __future__ import annotations

import datetime
import re
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from ledger import services
from ledger.models import Evening, Table
from tests import factories

AGAIN = reverse("ledger:evening_again")


@pytest.fixture
def last_table(alice):
    """Last week's Mariáš: Ana, Ben, Cyril, Dana at a desetník, paying each opponent double when alone."""
    evening = factories.make_evening(alice, currency="CZK", coin=Decimal("0.50"), place="U Fleků")
    factories.make_table(evening, "snapser")  # an older table of the same evening
    return factories.make_table(evening, "marias", preset="ctyrka-desetnik", pay_alone="double", stake="0.30")


def _checked(html: str, name: str) -> str:
    """The value of the checked radio (or the selected option) named ``name``."""
    radio = re.search(rf'<input type="radio" name="{name}" value="([^"]*)"[^>]*checked', html)
    option = re.search(rf'<select name="{name}"[^>]*>.*?<option value="([^"]*)" selected', html, re.S)
    return (radio or option).group(1)


def _value(html: str, name: str) -> str:
    return re.search(rf'name="{name}" value="([^"]*)"', html).group(1)


def test_the_home_page_offers_the_last_tables_players_one_tap_away(alice_client, last_table):
    html = alice_client.get("/").content.decode()
    assert "Same players as last time" in html
    assert "Mariáš čtyřka · Ana, Ben, Cyril, Dana" in html
    assert f'action="{AGAIN}"' in html
    assert "Start an evening with other players" in html


def test_a_scorekeeper_with_no_table_yet_is_offered_a_new_evening_only(alice_client, evening):
    html = alice_client.get("/").content.decode()
    assert "Same players as last time" not in html
    assert "Start an evening" in html


def test_same_players_as_last_time_starts_todays_evening_where_the_last_one_was(alice_client, alice, last_table):
    response = alice_client.post(AGAIN)
    evening = Evening.objects.filter(owner=alice).exclude(pk=last_table.evening_id).get()
    assert (evening.date, evening.place, evening.currency, evening.coin) == (
        timezone.localdate(),
        "U Fleků",
        "CZK",
        Decimal("0.50"),
    )
    assert response["Location"] == f"{reverse('ledger:table_create', args=[evening.pk])}?again={last_table.pk}"
    assert not evening.tables.exists()  # the scorekeeper still sees the table's form before it starts


def test_a_second_tap_on_same_players_reuses_the_evening_it_made(alice_client, alice, last_table):
    """A double tap (or Back, then the button again) before a table is started: one new evening, not two."""
    first = alice_client.post(AGAIN)["Location"]
    second = alice_client.post(AGAIN)["Location"]
    evening = Evening.objects.filter(owner=alice).exclude(pk=last_table.evening_id).get()
    assert first == second == f"{reverse('ledger:table_create', args=[evening.pk])}?again={last_table.pk}"


def test_a_tap_after_the_new_evening_has_a_table_starts_another(alice_client, alice, last_table):
    """Once the evening it made has a table, that evening is in use: "Same players" again starts a new one."""
    alice_client.post(AGAIN)
    made = Evening.objects.filter(owner=alice).exclude(pk=last_table.evening_id).get()
    factories.make_table(made, "marias")
    alice_client.post(AGAIN)
    assert Evening.objects.filter(owner=alice).count() == 3


def test_the_table_form_comes_back_with_the_same_first_dealer(alice_client, alice):
    evening = factories.make_evening(alice, place="U Fleků")
    players = ["Ana", "Ben", "Cyril", "Dana"]
    services.table_create(evening=evening, game="marias", players=players, first_dealer=2)
    location = alice_client.post(AGAIN)["Location"]
    html = alice_client.get(location).content.decode()
    assert _checked(html, "first_dealer") == "2"  # Cyril deals first again, as last time
    assert re.findall(r'<span data-seat="Seat \d">([^<]*)</span>', html)[2] == "Cyril"


def test_the_table_form_comes_filled_in_as_the_last_table_was_started(alice_client, last_table):
    location = alice_client.post(AGAIN)["Location"]
    html = alice_client.get(location).content.decode()
    assert [_value(html, f"player_{seat}") for seat in range(4)] == ["Ana", "Ben", "Cyril", "Dana"]
    assert _checked(html, "game") == "marias"
    assert _checked(html, "preset") == "ctyrka-desetnik"
    assert _value(html, "opt_stake") == "0.30"  # typed last time, so not the preset's 0.10
    assert _checked(html, "opt_pay_alone") == "double"
    # The first dealer by name, not by seat number.
    assert re.findall(r'<span data-seat="Seat \d">([^<]*)</span>', html) == ["Ana", "Ben", "Cyril", "Dana"]


def test_starting_the_filled_in_form_seats_the_same_players_at_the_same_rules(alice_client, last_table):
    location = alice_client.post(AGAIN)["Location"]
    html = alice_client.get(location).content.decode()
    posted = {
        name: value
        for name, value in re.findall(r'<input type="(?:text|hidden|number)" name="([^"]+)" value="([^"]*)"', html)
    }
    posted |= {name: _checked(html, name) for name in ("game", "preset", "first_dealer", "opt_pay_alone")}
    posted |= {name: _checked(html, name) for name in re.findall(r'<select name="(opt_[^"]+)"', html)}
    posted |= {name: "on" for name in re.findall(r'<input type="checkbox" name="([^"]+)"[^>]*checked', html)}
    posted |= {"first_dealer": "2", "csrfmiddlewaretoken": ""}
    response = alice_client.post(location.split("?")[0], posted)
    table = Table.objects.exclude(evening=last_table.evening).get()
    assert response["Location"] == table.get_absolute_url()
    assert table.seat_names == ["Ana", "Ben", "Cyril", "Dana"]
    assert table.first_dealer == 2
    assert {key: value for key, value in table.ruleset.items()} == last_table.ruleset
    page = alice_client.get(table.get_absolute_url()).content.decode()
    assert "Cyril deals next." in page


def test_same_players_as_last_time_refuses_a_get_and_a_stranger_gets_no_ones_players(
    client, alice, charlie, last_table
):
    assert client.post(AGAIN)["Location"].startswith(reverse("login"))
    client.force_login(alice)
    assert client.get(AGAIN).status_code == 405
    client.force_login(charlie)
    assert client.post(AGAIN)["Location"] == reverse("ledger:evening_create")  # Charlie never started a table
    own = factories.make_evening(charlie)
    html = client.get(f"{reverse('ledger:table_create', args=[own.pk])}?again={last_table.pk}").content.decode()
    assert "Dana" not in html  # Alice's players stay hers
    assert not Evening.objects.filter(owner=charlie).exclude(pk=own.pk).exists()


def test_the_first_dealer_takes_the_names_typed_when_the_form_is_drawn_again(alice_client, evening):
    url = reverse("ledger:table_create", args=[evening.pk])
    blank = alice_client.get(url).content.decode()
    assert re.findall(r'<span data-seat="Seat \d">([^<]*)</span>', blank) == ["Seat 1", "Seat 2", "Seat 3", "Seat 4"]
    data = {"game": "skat", "preset": "isko", "player_0": "Ana", "player_1": "Ben", "player_2": "Cyril"}
    partial = alice_client.post(url, data | {"_refresh": "1"}, headers={"HX-Request": "true"}).content.decode()
    assert not partial.startswith("<!doctype")
    assert re.findall(r'<span data-seat="Seat \d">([^<]*)</span>', partial) == ["Ana", "Ben", "Cyril", "Seat 4"]


@pytest.mark.parametrize(("currency", "stake"), [("CZK", "0.25"), ("EUR", "0.01")])
def test_a_skat_table_defaults_to_a_stake_in_the_evenings_money(alice_client, alice, currency, stake):
    evening = factories.make_evening(alice, currency=currency, date=datetime.date(2026, 11, 28))
    url = reverse("ledger:table_create", args=[evening.pk])
    html = alice_client.post(
        url, {"game": "skat", "preset": "isko", "_refresh": "1"}, headers={"HX-Request": "true"}
    ).content.decode()
    assert _value(html, "opt_stake") == stake


def test_the_home_page_finds_the_last_table_in_one_query_however_many_evenings(alice_client, alice):
    counts = []
    for evenings in (1, 6):
        for day in range(evenings):
            evening = factories.make_evening(alice, date=datetime.date(2026, 10, 1 + day))
            factories.make_table(evening, "snapser")
            factories.make_table(evening, "marias")
        with CaptureQueriesContext(connection) as captured:
            html = alice_client.get("/").content.decode()
        assert "Mariáš čtyřka · Ana, Ben, Cyril, Dana" in html
        counts.append(len(captured))
    assert counts[0] == counts[1]
    # Session and user, the five newest evenings, invitations, the last table with its evening.
    assert counts[0] <= 6, counts
