"""A circle as a JSON document and back: members, evenings, the tab with its settling, the pot."""

from __future__ import annotations

import copy
import datetime
import json
from decimal import Decimal

import pytest
from django.core.management import call_command

from ledger import exchange, services
from ledger.circles import selectors as circle_selectors
from ledger.circles import services as circles
from ledger.circles import tab_and_pot
from ledger.circles.exchange import circle_export, circle_import
from ledger.circles.models import Circle, CircleEntry
from ledger.exchange import ImportRefused
from ledger.models import Evening
from tests import factories
from tests.ledger.closeout_data import ANA_IBAN, set_iban

D = Decimal
DAY = datetime.date(2026, 11, 27)


def evening_won_by(circle, winner, losers, stake="3.10", date=DAY):
    evening = circles.circle_evening_create(circle=circle, by=circle.owner, date=date)
    table = factories.make_table(evening, "snapser", players=[winner, *losers], stake=stake)
    factories.record(table, factories.SNAPSER_N1 | {"declarer": winner})
    services.evening_close(evening=evening, by=circle.owner)
    return evening


@pytest.fixture
def tab_circle(alice):
    circle = circles.circle_create(owner=alice, name="Friday", members=["Ana", "Ben", "Cyril"], settle="tab")
    set_iban(alice, "Ana", ANA_IBAN)
    evening_won_by(circle, "Ana", ["Ben", "Cyril"])
    settlement = tab_and_pot.tab_settle(circle=circle, by=alice)
    tab_and_pot.tab_transfer_mark_paid(transfer=settlement.transfers.first(), by=alice)
    evening_won_by(circle, "Ben", ["Ana", "Cyril"], stake="0.55", date=DAY + datetime.timedelta(7))
    return circle


@pytest.fixture
def pot_circle(alice):
    circle = circles.circle_create(
        owner=alice, name="Kasse", members=["Ana", "Ben", "Cyril"], settle="pot", pot_share=D("0.25")
    )
    evening_won_by(circle, "Ana", ["Ben", "Cyril"])  # Ana +12 → 3 Kč into the pot
    tab_and_pot.pot_deposit(circle=circle, by=alice, amount=D("50"), note="season")
    tab_and_pot.pot_withdraw(circle=circle, by=alice, amount=D("20.50"), player=circle.members.get(name="Ben"))
    return circle


def comparable(document):
    """The document without what a new import changes by itself: export time and owner."""
    data = copy.deepcopy(document)
    data.pop("exported_at")
    data["circle"].pop("owner")
    for evening in data["evenings"]:
        evening.pop("exported_at")
        evening["evening"].pop("owner")
        evening["evening"].pop("scorekeepers")
    return data


@pytest.mark.parametrize("which", ["tab_circle", "pot_circle"])
def test_a_round_trip_gives_the_same_circle(request, which, charlie):
    circle = request.getfixturevalue(which)
    document = json.loads(json.dumps(circle_export(circle=circle)))
    imported = circle_import(data=document, owner=charlie)
    assert imported.owner == charlie and imported.pk != circle.pk
    assert comparable(circle_export(circle=imported)) == comparable(document)
    assert circle_selectors.tab_balances(imported) == circle_selectors.tab_balances(circle)
    assert circle_selectors.pot_balance(imported) == circle_selectors.pot_balance(circle)


def test_the_tab_document_holds_what_was_booked(tab_circle):
    document = circle_export(circle=tab_circle)
    assert [e["settlement"]["carried"] for e in document["evenings"]] == [True, True]
    assert document["evenings"][0]["settlement"]["transfers"] == []
    assert [(s["rounded"], len(s["transfers"])) for s in document["settlements"]] == [
        ({"Ana": "12.0000", "Ben": "-6.0000", "Cyril": "-6.0000"}, 2)
    ]
    assert sorted((e["kind"], e["player"], e["amount"]) for e in document["entries"] if e["evening"] == 1) == [
        ("carried", "Ana", "-1.0000"),
        ("carried", "Ben", "2.0000"),
        ("carried", "Cyril", "-1.0000"),
    ]


def test_a_forged_carried_balance_is_refused_and_nothing_is_stored(tab_circle, charlie):
    document = json.loads(json.dumps(circle_export(circle=tab_circle)))
    for entry in document["entries"]:
        if entry["kind"] == "carried" and entry["player"] == "Ben" and entry["evening"] == 1:
            entry["amount"] = "3.0000"
        if entry["kind"] == "carried" and entry["player"] == "Cyril" and entry["evening"] == 1:
            entry["amount"] = "-2.0000"
    with pytest.raises(ImportRefused, match="carried balances are not the net of its plan"):
        circle_import(data=document, owner=charlie)
    assert not Circle.objects.filter(owner=charlie).exists() and not Evening.objects.filter(owner=charlie).exists()


def test_a_forged_pot_share_or_overdrawn_pot_is_refused(pot_circle, charlie):
    document = json.loads(json.dumps(circle_export(circle=pot_circle)))
    forged = copy.deepcopy(document)
    next(e for e in forged["entries"] if e["kind"] == "paid_in")["amount"] = "13.0000"  # Ana won 12 only
    with pytest.raises(ImportRefused, match="pot shares"):
        circle_import(data=forged, owner=charlie)
    forged = copy.deepcopy(document)
    next(e for e in forged["entries"] if e["kind"] == "paid_in")["player"] = "Ben"  # a loser pays nothing in
    with pytest.raises(ImportRefused, match="pot shares"):
        circle_import(data=forged, owner=charlie)
    forged = copy.deepcopy(document)
    next(e for e in forged["entries"] if e["kind"] == "withdrawal")["amount"] = "-90.0000"
    with pytest.raises(ImportRefused, match="less than nothing"):
        circle_import(data=forged, owner=charlie)
    assert not CircleEntry.objects.filter(circle__owner=charlie).exists()


def test_a_tab_evening_exported_alone_imports_as_settled_without_transfers(tab_circle, charlie):
    evening = tab_circle.evenings.order_by("date").first()
    imported = exchange.evening_import(data=exchange.evening_export(evening=evening), owner=charlie)
    assert imported.status == "closed" and not imported.settlement.transfers.exists()


def test_the_commands_export_and_import_a_circle(tab_circle, charlie, tmp_path, capsys):
    path = tmp_path / "circle.json"
    call_command("export_circle", str(tab_circle.pk), "-o", str(path))
    call_command("import_circle", str(path), "--owner", "charlie")
    assert "Imported circle" in capsys.readouterr().out
    imported = Circle.objects.get(owner=charlie)
    assert list(imported.members.values_list("name", flat=True)) == ["Ana", "Ben", "Cyril"]
    assert imported.evenings.count() == 2


def test_a_circle_document_cannot_name_somebody_who_did_not_keep_its_score(pot_circle, charlie):
    """The circle's owner keeps their name on its pot entries; an administrator the document slips in does not."""
    factories.make_user("admin")
    document = json.loads(json.dumps(circle_export(circle=pot_circle)))
    document["entries"][-1]["created_by"] = "admin"
    imported = circle_import(data=document, owner=charlie)
    entries = list(imported.entries.order_by("created_at", "id"))
    assert entries[-1].created_by == charlie
    assert entries[0].created_by.get_username() == "alice"
