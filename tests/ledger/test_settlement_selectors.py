"""One read side for settlements: the settlement page, the share link, the PDF and the API read
a settlement through ``ledger.selectors`` in a fixed number of queries, and read the same thing."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ledger import selectors, services
from ledger.models import Transfer
from tests.ledger.closeout_data import ANA_IBAN, evening_owing, set_iban

D = Decimal


@pytest.fixture
def closed(alice):
    evening = evening_owing(alice)
    set_iban(alice, "Ana", ANA_IBAN)
    services.evening_close(evening=evening, by=alice, mode="fewest")
    return evening


def _queries(read):
    with CaptureQueriesContext(connection) as captured:
        result = read()
    return result, len(captured)


def test_the_pages_and_the_api_read_the_same_settlement(closed):
    context, page_queries = _queries(lambda: selectors.settlement_context(closed, with_qr=True))
    summary, api_queries = _queries(lambda: selectors.settlement_summary(closed))
    # Settlement with banker, transfers with their players and who marked them paid, the players' rows.
    assert (page_queries, api_queries) == (3, 2)
    shown = [
        (row["transfer"].payer.name, row["transfer"].payee.name, row["transfer"].amount) for row in context["transfers"]
    ]
    sent = [(transfer.payer.name, transfer.payee.name, transfer.amount) for transfer in summary["transfers"]]
    assert shown == sent == [("Ben", "Ana", D("7")), ("Cyril", "Ana", D("5"))]
    # Frozen at the close as exact decimal strings; the API's MoneyField writes them out as they are.
    balances = {name: D(amount) for name, amount in summary["balances"].items()}
    assert {row["player"]: row["exact"] for row in context["balance_rows"]} == balances
    assert balances == {"Ana": D("12.40"), "Ben": D("-7.30"), "Cyril": D("-5.10")}
    assert {name: D(amount) for name, amount in summary["rounded"].items()} == {"Ana": 12, "Ben": -7, "Cyril": -5}
    # The payee's IBAN gives the unpaid transfers their payment code; the share link draws none.
    assert all(row["qr"] and row["qr_kind"] == "QR Platba" for row in context["transfers"])
    assert not any(row["qr"] for row in selectors.settlement_context(closed, with_qr=False)["transfers"])


def test_while_open_the_api_reads_the_balances_so_far_and_the_transfers_paid_before_a_reopening(closed, alice):
    paid = Transfer.objects.get(payer__name="Ben")
    services.transfer_mark_paid(transfer=paid, by=alice)
    services.evening_reopen(evening=closed, by=alice)
    closed.refresh_from_db()
    summary = selectors.settlement_summary(closed)
    assert (summary["status"], summary["mode"], summary["rounded"]) == ("open", None, None)
    assert summary["balances"] == {"Ana": D("12.40"), "Cyril": D("-5.10"), "Ben": D("-7.30")}
    assert [(t.payer.name, t.amount, t.is_paid) for t in summary["transfers"]] == [("Ben", D("7"), True)]


def test_an_evening_never_closed_has_no_settlement_to_read(alice):
    evening = evening_owing(alice)
    context, queries = _queries(lambda: selectors.settlement_context(evening, with_qr=True))
    assert queries == 1
    assert context == {"settlement": None, "balance_rows": [], "transfers": [], "players": {}}
