"""Forged documents through ``import_evening``: the import writes through the ledger's own
validation and services, so whatever it accepts the pages can show, and whatever it refuses leaves nothing behind.

Every hand (counted, voided, old version) is priced again and must come to its exported amounts; the settlement is
planned again from the imported hands and must come to its exported balances and transfers.
"""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from ledger import exchange, selectors, services
from ledger.models import Evening, Hand, HandVersion, Player, Posting, Settlement, Transfer
from tests import factories
from tests.ledger.api_support import token_client
from tests.ledger.closeout_data import evening_owing

D = Decimal


@pytest.fixture
def bob(db):
    return factories.make_user("bob")


@pytest.fixture
def closed(alice):
    """Ana +12.40, Ben −7.30, Cyril −5.10 (CZK, coin 1), closed: Ben → Ana 7, Cyril → Ana 5; Ben has paid."""
    evening = evening_owing(alice)
    settlement = services.evening_close(evening=evening, by=alice)
    services.transfer_mark_paid(transfer=settlement.transfers.get(payer__name="Ben"), by=alice)
    evening.refresh_from_db()
    return evening


def _document(evening: Evening) -> dict:
    return json.loads(json.dumps(exchange.evening_export(evening=evening)))


def _counts() -> tuple[int, ...]:
    return tuple(model.objects.count() for model in (Evening, Player, Hand, HandVersion, Posting, Settlement, Transfer))


def _refused(data: dict, owner, message: str) -> None:
    before = _counts()
    with pytest.raises(exchange.ImportRefused, match=message):
        exchange.evening_import(data=data, owner=owner)
    assert _counts() == before


def _first_transfer(data: dict) -> dict:
    return data["settlement"]["transfers"][0]


@pytest.mark.parametrize(
    ("spoil", "message"),
    [
        # A transfer to somebody who never sat at the evening's tables.
        (lambda d: _first_transfer(d).update(payee="Zed"), "settlement"),
        (lambda d: _first_transfer(d).update(payer="Zed"), "settlement"),
        (lambda d: _first_transfer(d).update(payer="Ana"), "settlement"),  # Ana → Ana
        # Balances that do not sum to zero, or are not the balances of the imported hands.
        (lambda d: d["settlement"]["exact"].update(Ana="13.4000"), "settlement.exact"),
        (lambda d: d["settlement"]["rounded"].update(Ana="13"), "settlement"),
        (lambda d: d["settlement"]["exact"].update(Zed="0"), "settlement.exact"),
        # A transfer the plan does not make, or a plan that leaves money unsettled.
        (lambda d: _first_transfer(d).update(amount="8"), "settlement"),
        (lambda d: d["settlement"]["transfers"].pop(), "settlement"),
        (lambda d: d["settlement"].update(mode="banker", banker="Zed"), "settlement"),
        # Coins that are no coins.
        (lambda d: (d["evening"].update(coin="0.001"), d["settlement"].update(coin="0.001")), "coin"),
        (lambda d: d["evening"].update(coin="0.001", status="open") or d.update(settlement=None), "coin"),
        (lambda d: d["settlement"].update(coin="0.50"), "settlement: coin"),
        # Malformed balances: the settlement page, PDF, share page and API would answer 500 for good.
        (lambda d: d["settlement"]["exact"].update(Ana="lots"), "settlement.exact"),
        (lambda d: d["settlement"]["exact"].update(Ana=12.4), "settlement.exact"),
        (lambda d: d["settlement"].update(exact=["Ana", "Ben", "Cyril"]), "settlement: exact"),
        (lambda d: d["settlement"]["rounded"].pop("Ana"), "settlement.rounded"),
        (lambda d: d["settlement"]["rounded"].update(Ana=None), "settlement.rounded"),
        # A paid mark without who marked it, a closed evening without its settlement, an open one owing.
        (lambda d: _first_transfer(d).update(paid_by=None), "paid_at and paid_by"),
        (lambda d: d.update(settlement=None), "closed evening needs its settlement"),
        (lambda d: d["evening"].update(status="open"), "settlement"),
    ],
)
def test_a_forged_settlement_is_refused_and_nothing_is_imported(closed, bob, spoil, message):
    data = _document(closed)
    spoil(data)
    _refused(data, bob, message)


def test_a_forged_settlement_is_refused_by_the_command_saying_nothing_imported(closed, bob, tmp_path):
    data = _document(closed)
    _first_transfer(data)["payee"] = "Zed"
    path = tmp_path / "evening.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CommandError, match=r"^Nothing imported: settlement"):
        call_command("import_evening", str(path), "--owner", "bob")
    assert not Evening.objects.filter(owner=bob).exists()


@pytest.mark.parametrize(
    ("spoil", "message"),
    [
        # Too large for the database's integer column (PostgreSQL answered with a raw DataError).
        (lambda d: d["tables"][0]["hands"][0].update(version=2**40), "hand #1: number and version"),
        (lambda d: d["tables"][0]["hands"][0].update(number=2**40), "hand numbers"),
        (lambda d: d["tables"][0].update(hand_count=2**40), "hand_count"),
        # Text PostgreSQL cannot store (NUL, a lone surrogate).
        (lambda d: d["evening"].update(place="U\x00Fleků"), "evening.place"),
        (lambda d: d["evening"].update(place="U \ud800"), "evening.place"),
        (
            lambda d: d["tables"][0]["hands"][0]["result"]["lines"].append({"label": "\x00"}),
            r"tables\[0\]\.hands\[0\]\.result",
        ),
        (lambda d: d["events"][0].update(at="0001-01-01T00:00:00+14:00"), "events\\[0\\]: at"),
    ],
)
def test_values_the_database_cannot_hold_are_refused_before_it_sees_them(closed, bob, tmp_path, spoil, message):
    data = _document(closed)
    spoil(data)
    _refused(data, bob, message)
    path = tmp_path / "evening.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CommandError, match=r"^Nothing imported: "):
        call_command("import_evening", str(path), "--owner", "bob")


def test_a_voided_hand_must_still_price_as_exported_since_counting_it_again_would_count_its_postings(closed, bob):
    table = closed.tables.first()
    services.evening_reopen(evening=closed, by=closed.owner)
    extra = factories.record(table)[0]
    services.hand_void(hand=extra, by=closed.owner)
    data = _document(closed)
    data["tables"][0]["hands"][1]["result"]["amounts"] = {"Ana": "100.00", "Ben": "-100.00", "Cyril": "0"}
    _refused(data, bob, r"table 1 \(snapser\), hand #2: re-prices to")


def test_an_old_version_must_still_price_as_exported(closed, bob):
    services.evening_reopen(evening=closed, by=closed.owner)
    hand = closed.tables.first().hands.get()
    services.hand_correct(hand=hand, document=hand.document, by=closed.owner, version=1)
    data = _document(closed)
    data["tables"][0]["hands"][0]["versions"][0]["result"]["amounts"] = {"Ana": "1", "Ben": "-1"}
    _refused(data, bob, r"hand #1, an old version: re-prices to")


def test_a_payment_detail_that_is_no_iban_is_refused(closed, bob):
    data = _document(closed)
    data["players"][0]["iban"] = "CZ00 not an iban"
    _refused(data, bob, r"players\[0\]: iban")


def test_a_ruleset_in_another_currency_than_the_evening_is_refused(closed, bob):
    data = _document(closed)
    data["tables"][0]["ruleset"]["currency"] = "EUR"
    _refused(data, bob, r"table 1 \(snapser\): ruleset.currency")


def test_explanations_that_are_no_list_are_priced_again_and_every_page_shows_the_evening(closed, bob, client):
    data = _document(closed)
    for table in data["tables"]:
        for hand in table["hands"]:
            hand["result"]["lines"] = "why 3.20?"
            hand["result"]["texts"] = {"en": {"label": 7, "lines": {"a": 1}}}
            hand["result"]["label"] = ["junk"]
    copy = exchange.evening_import(data=data, owner=bob)
    original = {hand.number: hand.result for hand in closed.tables.first().hands.all()}
    assert {hand.number: hand.result for hand in copy.tables.first().hands.all()} == original
    client.force_login(bob)
    pages = [
        reverse("ledger:evening_settlement", args=[copy.pk]),
        reverse("ledger:evening_summary_pdf", args=[copy.pk]),
        reverse("ledger:shared_evening", args=[copy.share_token]),
        copy.tables.first().get_absolute_url(),
    ]
    for url in pages:
        assert client.get(url).status_code == 200, url
    api = token_client(bob)
    for url in [f"/api/evenings/{copy.pk}/settlement/", f"/api/tables/{copy.tables.first().pk}/hands/"]:
        assert api.get(url).status_code == 200, url
    assert "Ana" in client.get(pages[0]).content.decode()


def test_an_evening_reopened_with_a_paid_transfer_and_closed_again_round_trips(closed, bob, alice):
    services.evening_reopen(evening=closed, by=alice)  # Ben → Ana 7 stays paid, Cyril → Ana 5 is dropped
    factories.record(closed.tables.first())  # Ana +12.40 more: 24.80, Ben −13.50, Cyril −11.30
    reopened = _document(closed)
    settlement = services.evening_close(evening=closed, by=alice, mode="banker", banker="Cyril")
    services.transfer_mark_paid(transfer=settlement.transfers.order_by("id").last(), by=alice)
    closed_again = _document(closed)
    for data in (reopened, closed_again):
        copy = exchange.evening_import(data=data, owner=bob)
        exported = _document(copy)
        for key in ("exported_at", "evening"):
            exported.pop(key), data.pop(key)
        assert exported == data
        assert selectors.evening_balances(copy) == selectors.evening_balances(closed)
    transfers = [
        (t.payer.name, t.payee.name, t.amount, t.is_paid) for t in Settlement.objects.get(evening=copy).transfers.all()
    ]
    assert transfers[0] == ("Ben", "Ana", D(7), True)
    assert sum(t[2] for t in transfers) > 7
