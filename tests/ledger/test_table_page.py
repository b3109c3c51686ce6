"""The scorekeeper's table page: scoreboard, hand entry through htmx and full pages, errors beside their field."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.urls import reverse

from ledger.models import Hand, Posting
from tests import factories
from tests.ledger.form_support import asked_fields, hidden_fields

N1 = {
    "declarer": "Ana",
    "trump": "leaves",
    "announcement": "hram",
    "winner": "declarer",
    "result": "s_vodou",
    "raises": "0",
    "dealer": "2",
}


def _balances_shown(html: str) -> dict[str, str]:
    seats = re.findall(
        r'data-player="([^"]+)">\s*<div class="name">[^<]*</div>\s*<div class="balance[^"]*">([^<]+)</div>', html
    )
    return dict(seats)


def test_it_shows_the_running_balances(alice_client, snapser_table):
    factories.record(snapser_table, times=2)
    response = alice_client.get(snapser_table.get_absolute_url())
    assert response.status_code == 200
    assert _balances_shown(response.content.decode()) == {"Ana": "+0.80", "Ben": "−0.40", "Cyril": "−0.40"}


def test_a_full_page_submission_records_the_hand_and_redirects(alice_client, snapser_table):
    url = reverse("ledger:hand_create", args=[snapser_table.pk])
    response = alice_client.post(url, N1 | {"key": "k1"})
    assert response.status_code == 302
    hand = Hand.objects.get(table=snapser_table)
    assert hand.number == 1
    assert {p.player.name: p.amount for p in Posting.objects.filter(hand=hand)} == {
        "Ana": Decimal("0.40"),
        "Ben": Decimal("-0.20"),
        "Cyril": Decimal("-0.20"),
    }
    page = alice_client.get(snapser_table.get_absolute_url()).content.decode()
    assert _balances_shown(page) == {"Ana": "+0.40", "Ben": "−0.20", "Cyril": "−0.20"}
    assert "s vodou" in page


def test_an_htmx_submission_answers_with_the_live_partial(alice_client, snapser_table):
    url = reverse("ledger:hand_create", args=[snapser_table.pk])
    response = alice_client.post(url, N1 | {"key": "k2"}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    html = response.content.decode()
    assert html.startswith('<div id="table-live">')
    assert "<html" not in html
    assert _balances_shown(html) == {"Ana": "+0.40", "Ben": "−0.20", "Cyril": "−0.20"}


def test_a_double_tap_records_one_hand(alice_client, snapser_table):
    url = reverse("ledger:hand_create", args=[snapser_table.pk])
    for _ in range(2):
        alice_client.post(url, N1 | {"key": "same-token"}, headers={"HX-Request": "true"})
    assert Hand.objects.filter(table=snapser_table).count() == 1


def _field_errors(html: str, name: str) -> list[str]:
    assert name in asked_fields(html), f"field {name} is not asked on the page"
    block = re.search(rf'<ul class="errorlist" role="alert" id="errors-{name}">(.*?)</ul>', html, re.S)
    return re.findall(r"<li>(.*?)</li>", block.group(1)) if block else []


def test_a_rules_error_shows_beside_its_field_and_stores_nothing(alice_client, skat_table):
    url = reverse("ledger:hand_create", args=[skat_table.pk])
    announced_without_hand = {
        "declarer": "Ana",
        "contract": "grand",
        "matadors": "1",
        "declarer_points": "95",
        "schneider_announced": "on",
        "bid": "18",
        "dealer": "2",
        "key": "k3",
    }
    response = alice_client.post(url, announced_without_hand, headers={"HX-Request": "true"})
    assert response.status_code == 200
    errors = _field_errors(response.content.decode(), "schneider_announced")
    assert len(errors) == 1
    assert "hand" in errors[0].lower()
    assert not Hand.objects.exists()
    assert not Posting.objects.exists()


def test_a_full_page_with_errors_answers_400_and_keeps_the_input(alice_client, skat_table):
    url = reverse("ledger:hand_create", args=[skat_table.pk])
    response = alice_client.post(
        url, {"declarer": "Ana", "contract": "spades", "declarer_points": "121", "dealer": "2"}
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert _field_errors(html, "declarer_points") == ["Ensure this value is less than or equal to 120."]
    assert re.search(r'<input type="radio" name="contract" value="spades"[^>]*checked', html)
    assert not Hand.objects.exists()


@pytest.mark.parametrize("contract", ["grand", "null"])
def test_the_skat_form_shows_only_the_fields_of_the_contract(alice_client, skat_table, contract):
    url = reverse("ledger:hand_form", args=[skat_table.pk])
    response = alice_client.get(url, {"contract": contract, "dealer": "0"}, headers={"HX-Request": "true"})
    html = response.content.decode()
    # Every field is drawn; those of the other contract are hidden until it is tapped.
    assert ("matadors" in asked_fields(html)) is (contract == "grand")
    assert ("matadors" in hidden_fields(html)) is (contract == "null")
    assert ("won" in asked_fields(html)) is (contract == "null")
    assert ("won" in hidden_fields(html)) is (contract == "grand")


def test_a_stale_correction_shows_the_conflict_and_keeps_the_newer_version(alice_client, snapser_table):
    hand = factories.record(snapser_table)[0]
    url = reverse("ledger:hand_edit", args=[hand.pk])
    other_phone = N1 | {"result": "bez_vody", "version": "1"}
    assert alice_client.post(url, other_phone).status_code == 302
    stale = alice_client.post(url, N1 | {"result": "za_6", "version": "1"})
    assert stale.status_code == 400
    assert "was changed meanwhile (now version 2)" in stale.content.decode()
    hand.refresh_from_db()
    assert (hand.version, hand.document["result"]) == (2, "bez_vody")


def test_a_double_tap_on_undo_undoes_one_hand(alice_client, snapser_table):
    factories.record(snapser_table, times=3)
    url = reverse("ledger:hand_undo", args=[snapser_table.pk])
    for _ in range(2):  # both taps were made on the page that showed hand #3 as the last one
        alice_client.post(url, {"number": "3"}, headers={"HX-Request": "true"})
    statuses = dict(Hand.objects.filter(table=snapser_table).values_list("number", "status"))
    assert statuses == {1: "counted", 2: "counted", 3: "voided"}


def test_a_voided_hand_can_be_counted_again(alice_client, snapser_table):
    hand = factories.record(snapser_table)[0]
    alice_client.post(reverse("ledger:hand_undo", args=[snapser_table.pk]), {"number": "1"})
    response = alice_client.post(reverse("ledger:hand_restore", args=[hand.pk]), headers={"HX-Request": "true"})
    assert _balances_shown(response.content.decode()) == {"Ana": "+0.40", "Ben": "−0.20", "Cyril": "−0.20"}
    hand.refresh_from_db()
    assert (hand.status, hand.version, hand.versions.count()) == ("counted", 3, 2)


def test_the_log_shows_the_newest_ten_hands_and_offers_the_rest(alice_client, snapser_table):
    factories.record(snapser_table, times=31)
    html = alice_client.get(snapser_table.get_absolute_url()).content.decode()
    assert html.count('class="hand-row card') == 10
    assert 'id="hand-22"' in html and 'id="hand-21"' not in html
    assert "Earlier hands" in html and "Show all 31 hands" in html
    everything = alice_client.get(snapser_table.get_absolute_url(), {"all": "1"}).content.decode()
    assert everything.count('class="hand-row card') == 31


def test_the_scoreboard_says_who_deals_and_who_leads_next(alice_client, snapser_table):
    factories.record(snapser_table)  # Ana dealt the first hand: Ben deals now, Cyril leads
    html = alice_client.get(snapser_table.get_absolute_url()).content.decode()
    seats = html.split('<div class="seat')[1:]
    roles = {
        re.search(r'data-player="([^"]+)"', seat).group(1): re.findall(r'<div class="role">([^<]+)</div>', seat)
        for seat in seats
    }
    assert roles == {"Ana": [], "Ben": ["deals next"], "Cyril": ["leads next"]}
