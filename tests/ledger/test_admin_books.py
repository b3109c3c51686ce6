"""The admin cannot break the books: hands, postings, tables and settlements are read-only
there, and renaming a player goes through ``services.player_rename``, which renames them everywhere the books
speak of them, in one transaction.

Each test drives the admin as a superuser would: the change page is read, then its form posted back.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django import forms
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from ledger import selectors, services
from ledger.models import Evening, Hand, HandVersion, Player, Posting, Seat, Settlement, Table, Transfer
from tests import factories
from tests.ledger.closeout_data import evening_owing

D = Decimal


@pytest.fixture
def boss_client(client, db):
    boss = get_user_model().objects.create_superuser("boss", "boss@example.com", "pw")
    client.force_login(boss)
    return client


def _change_url(obj: Any) -> str:
    return reverse(f"admin:ledger_{obj._meta.model_name}_change", args=[obj.pk])


def _form_data(page: Any) -> dict[str, Any]:
    """What the browser would post back from an admin change page, unchanged: the form and every inline."""
    data: dict[str, Any] = {}
    forms_ = [page.context["adminform"].form]
    for inline in page.context["inline_admin_formsets"]:
        forms_ += [inline.formset.management_form, *inline.formset.forms]
    for form in forms_:
        for name, field in form.fields.items():
            bound = form[name]
            value = bound.value()
            if isinstance(field.widget, forms.MultiWidget):
                for index, part in enumerate(field.widget.decompress(value)):
                    data[f"{bound.html_name}_{index}"] = part or ""
            elif isinstance(field, forms.BooleanField):
                if value:
                    data[bound.html_name] = "on"
            elif isinstance(field, forms.JSONField):
                data[bound.html_name] = field.prepare_value(value)
            elif isinstance(value, list | tuple):
                data[bound.html_name] = [str(item) for item in value]
            else:
                data[bound.html_name] = "" if value is None else str(value)
    return data


def _post_back(client, obj: Any, **changes: Any):
    page = client.get(_change_url(obj))
    assert page.status_code == 200
    return client.post(_change_url(obj), _form_data(page) | changes)


def _evening_total(evening: Evening) -> Decimal:
    return Posting.objects.filter(hand__table__evening=evening).counted().total()


# --------------------------------------------------------------------------------------------------------------
# Hands and postings


def test_deleting_a_posting_through_the_hands_inline_is_refused(boss_client, snapser_table, alice):
    hand = factories.record(snapser_table)[0]
    posting = hand.postings.get(player__name="Ben")
    response = _post_back(boss_client, hand, **{"postings-0-DELETE": "on", "postings-1-DELETE": "on"})
    assert response.status_code == 403
    assert Posting.objects.filter(pk=posting.pk).exists()
    assert _evening_total(snapser_table.evening) == 0
    factories.record(snapser_table)  # the next hand is still welcome
    assert selectors.table_balances(snapser_table) == {"Ana": D("0.80"), "Ben": D("-0.40"), "Cyril": D("-0.40")}


def test_a_hand_its_versions_and_postings_are_shown_but_not_changed_nor_deleted(boss_client, snapser_table, alice):
    hand = factories.record(snapser_table)[0]
    services.hand_correct(hand=hand, document=hand.document, by=alice, version=1)
    page = boss_client.get(_change_url(hand))
    assert page.status_code == 200
    assert "0.4000" in page.content.decode()  # Ana's posting, shown
    assert page.context["has_change_permission"] is False
    assert _post_back(boss_client, hand, **{"versions-0-dealer": "2"}).status_code == 403
    delete = reverse("admin:ledger_hand_delete", args=[hand.pk])
    assert boss_client.post(delete, {"post": "yes"}).status_code == 403
    assert HandVersion.objects.get(hand=hand).dealer == 0
    assert Hand.objects.filter(pk=hand.pk).exists() and hand.postings.count() == 3


def test_a_tables_seats_names_and_ruleset_are_not_changed_in_the_admin(boss_client, snapser_table):
    factories.record(snapser_table)
    seat_names = snapser_table.seat_names
    response = _post_back(boss_client, snapser_table, seat_names='["Ana", "Ben", "Zed"]', **{"seats-0-DELETE": "on"})
    assert response.status_code == 403
    delete = reverse("admin:ledger_table_delete", args=[snapser_table.pk])
    assert boss_client.post(delete, {"post": "yes"}).status_code == 403
    snapser_table.refresh_from_db()
    assert snapser_table.seat_names == seat_names and Seat.objects.filter(table=snapser_table).count() == 3


def test_a_settlement_and_its_transfers_are_not_changed_in_the_admin(boss_client, alice):
    evening = evening_owing(alice)
    settlement = services.evening_close(evening=evening, by=alice)
    assert _post_back(boss_client, settlement, **{"transfers-0-DELETE": "on"}).status_code == 403
    delete = reverse("admin:ledger_settlement_delete", args=[settlement.pk])
    assert boss_client.post(delete, {"post": "yes"}).status_code == 403
    assert Transfer.objects.filter(settlement=settlement).count() == 2


def test_an_evenings_money_and_state_are_not_changed_in_the_admin_but_its_place_is(boss_client, alice):
    evening = evening_owing(alice)
    response = _post_back(boss_client, evening, coin="0.001", currency="EUR", status="closed", place="U Medvídků")
    assert response.status_code == 302
    evening.refresh_from_db()
    assert (evening.coin, evening.currency, evening.status, evening.place) == (D(1), "CZK", "open", "U Medvídků")


def test_an_evenings_share_link_and_keepers_are_not_changed_in_the_admin_and_its_place_is_checked(
    boss_client, alice, charlie
):
    evening = evening_owing(alice)
    token = evening.share_token
    response = _post_back(boss_client, evening, share_token="abc", scorekeepers=[str(charlie.pk)], place="U\u202eX")
    assert response.status_code == 200 and "place" in response.context["adminform"].form.errors
    response = _post_back(boss_client, evening, share_token="abc", scorekeepers=[str(charlie.pk)])
    assert response.status_code == 302
    evening.refresh_from_db()
    assert evening.share_token == token and not evening.scorekeepers.exists()


# --------------------------------------------------------------------------------------------------------------
# Renaming a player


def test_renaming_a_player_renames_them_in_every_table_hand_and_settlement(boss_client, alice):
    evening = evening_owing(alice)  # Ana +12.40, Ben −7.30, Cyril −5.10
    table = evening.tables.first()
    hand = table.hands.get()
    services.hand_correct(hand=hand, document=hand.document, by=alice, version=1)
    services.evening_close(evening=evening, by=alice, mode="banker", banker="Ana")
    ana = Player.objects.get(owner=alice, name="Ana")
    response = _post_back(boss_client, ana, name="Anna")
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.seat_names == ["Anna", "Ben", "Cyril"]
    hand.refresh_from_db()
    assert hand.document["declarer"] == "Anna"
    assert hand.amounts == {"Anna": D("12.40"), "Ben": D("-6.20"), "Cyril": D("-6.20")}
    assert "Ana" not in str(hand.result).replace("Anna", "")
    old = hand.versions.get()
    assert old.document["declarer"] == "Anna" and set(old.result["amounts"]) == {"Anna", "Ben", "Cyril"}
    settlement = Settlement.objects.get(evening=evening)
    assert settlement.exact == {"Anna": "12.4000", "Cyril": "-5.1000", "Ben": "-7.3000"}
    assert {name: D(amount) for name, amount in settlement.rounded.items()} == {"Anna": 12, "Cyril": -5, "Ben": -7}
    assert settlement.banker.name == "Anna"
    assert {(t.payer.name, t.payee.name) for t in settlement.transfers.all()} == {("Ben", "Anna"), ("Cyril", "Anna")}
    assert selectors.evening_balances(evening) == {"Anna": D("12.40"), "Cyril": D("-5.10"), "Ben": D("-7.30")}
    assert sum(selectors.table_balances(table).values()) == 0


def test_after_a_rename_the_next_hand_at_their_table_is_recorded_and_the_balances_sum_to_zero(
    boss_client, snapser_table
):
    factories.record(snapser_table)
    ben = Player.objects.get(name="Ben")
    assert _post_back(boss_client, ben, name="Benedikt").status_code == 302
    scorekeeper = Client()
    scorekeeper.force_login(snapser_table.evening.owner)
    url = reverse("ledger:hand_create", args=[snapser_table.pk])
    response = scorekeeper.post(url, factories.SNAPSER_N1 | {"declarer": "Benedikt", "dealer": "1"})
    assert response.status_code in (200, 302)
    snapser_table.refresh_from_db()
    assert snapser_table.hand_count == 2
    assert selectors.table_balances(snapser_table) == {"Ana": D("0.20"), "Benedikt": D("0.20"), "Cyril": D("-0.40")}
    assert _evening_total(snapser_table.evening) == 0


def test_a_rename_to_a_name_the_owner_already_uses_is_refused_beside_the_field(boss_client, snapser_table, alice):
    factories.record(snapser_table)
    factories.make_table(snapser_table.evening, "snapser", players=["Dora", "Emil"])
    ana = Player.objects.get(name="Ana")
    response = _post_back(boss_client, ana, name="Dora")
    assert response.status_code == 200
    assert response.context["adminform"].form.errors
    snapser_table.refresh_from_db()
    assert snapser_table.seat_names == ["Ana", "Ben", "Cyril"]
    assert Player.objects.filter(name="Ana").exists()


def test_a_rename_that_is_no_name_is_refused_beside_the_field(boss_client, snapser_table):
    ana = Player.objects.get(name="Ana")
    for name in ["  ", "A" * 41, "Ana\u202e", "An\x07a"]:  # empty, too long, a direction override, a bell
        response = _post_back(boss_client, ana, name=name)
        assert response.status_code == 200 and response.context["adminform"].form.errors
    ana.refresh_from_db()
    assert ana.name == "Ana"


def test_a_players_owner_is_not_changed_and_an_iban_is_checked(boss_client, snapser_table, charlie):
    ana = Player.objects.get(name="Ana")
    response = _post_back(boss_client, ana, owner=str(charlie.pk), iban="CZ00 1234")
    assert response.status_code == 200 and "iban" in response.context["adminform"].form.errors
    response = _post_back(boss_client, ana, owner=str(charlie.pk), iban="cz65 0800 0000 1920 0014 5399")
    assert response.status_code == 302
    ana.refresh_from_db()
    assert (ana.owner, ana.iban) == (snapser_table.evening.owner, "CZ6508000000192000145399")


def test_a_player_with_no_seats_is_renamed_alone(boss_client, alice):
    lone = services.player_get_or_create(owner=alice, name="Lone")
    assert _post_back(boss_client, lone, name="Lonely").status_code == 302
    assert Player.objects.get(pk=lone.pk).name == "Lonely"
    assert not Table.objects.exists()


def test_a_rename_that_would_change_the_money_is_refused_whole_with_the_reason(boss_client, snapser_table):
    first, second = factories.record(snapser_table, times=2)
    # A stored result the rules no longer give (a hand-made row): renaming must not quietly re-price it.
    Hand.objects.filter(pk=second.pk).update(result=second.result | {"amounts": {"Ana": "1", "Ben": "-1"}})
    ana = Player.objects.get(name="Ana")
    response = _post_back(boss_client, ana, name="Anna")
    assert response.status_code == 302 and response["Location"] == _change_url(ana)
    shown = [str(message) for message in boss_client.get(response["Location"]).context["messages"]]
    assert any("Hand #2" in message and "nobody was renamed" in message for message in shown)
    ana.refresh_from_db()
    first.refresh_from_db()
    snapser_table.refresh_from_db()
    assert (ana.name, snapser_table.seat_names[0], first.document["declarer"]) == ("Ana", "Ana", "Ana")


def test_a_rename_reaches_every_player_field_of_a_hand_and_never_a_choice_of_the_same_name(evening, alice):
    table = factories.make_table(evening, "skat", players=["Ana", "Ben", "grand"], ramsch=True)
    ramsch = {"contract": "ramsch", "ramsch_points": {"Ana": 80, "Ben": 40, "grand": 0}, "jungfrau": ["grand"]}
    factories.record(table, ramsch)
    factories.record(table, factories.SKAT_S1 | {"declarer": "grand"})
    services.player_rename(player=Player.objects.get(name="grand"), name="Gustav")
    first, second = table.hands.order_by("number")
    assert first.document == ramsch | {"ramsch_points": {"Ana": 80, "Ben": 40, "Gustav": 0}, "jungfrau": ["Gustav"]}
    assert first.amounts == {"Ana": D("-3.20"), "Ben": D("1.60"), "Gustav": D("1.60")}
    assert (second.document["declarer"], second.document["contract"]) == ("Gustav", "grand")
    assert second.amounts == {"Ana": D("-0.48"), "Ben": D("-0.48"), "Gustav": D("0.96")}
