"""A circle's settings after creation and its pot holder's payments, as the three personas: Alice keeps
score of her circle, Bob holds his personal member link (no account), Charlie is a stranger who gets 404.

Money with real numbers: a Šnapser evening at 3.10 a point won by Ana gives Ana +12.40, Ben and Cyril −6.20,
rounded to the crown +12, −6, −6 (as test_circles_services); a pot share of 0.25 makes Ana pay 3 Kč into the pot.
"""

from __future__ import annotations

import copy
import datetime
import json
from decimal import Decimal

import pytest
from django.urls import reverse

from ledger import qr, services
from ledger.circles import selectors as circle_selectors
from ledger.circles import services as circles
from ledger.circles import tab_and_pot
from ledger.circles.exchange import circle_export, circle_import
from ledger.circles.models import Circle, CircleEntry, CircleMember
from ledger.models import Evening
from ledger.services import LedgerError
from tests import factories
from tests.ledger.api_support import token_client
from tests.ledger.closeout_data import set_iban

D = Decimal
HX = {"HX-Request": "true"}
DAY = datetime.date(2026, 11, 27)
BEN_IBAN = "CZ65 0800 0000 1920 0014 5399"  # a valid Czech IBAN (the checksum matters, not whose it is)
BEN_EUR_IBAN = "DE89 3704 0044 0532 0130 00"


def won_evening(circle, winner="Ana", losers=("Ben", "Cyril"), stake="3.10", date=DAY):
    evening = circles.circle_evening_create(circle=circle, by=circle.owner, date=date)
    table = factories.make_table(evening, "snapser", players=[winner, *losers], stake=stake)
    factories.record(table, factories.SNAPSER_N1 | {"declarer": winner})
    services.evening_close(evening=evening, by=circle.owner)
    return evening


def settings_of(circle, **changes):
    """The circle's settings as ``circle_settings_change`` takes them, with ``changes``."""
    circle = Circle.objects.get(pk=circle.pk)  # as stored: a test may hold an instance from before a change
    now = {
        "name": circle.name,
        "settle": circle.settle,
        "currency": circle.currency,
        "coin": circle.coin,
        "pot_share": circle.pot_share,
        "pot_holder": circle.pot_holder,
    }
    return now | changes


def form_of(circle, **changes):
    """The settings form's POST data (prefix "settings"), with ``changes``."""
    data = {
        "name": circle.name,
        "settle": circle.settle,
        "currency": circle.currency,
        "coin": str(circle.coin.normalize()),
        "pot_share": str(circle.pot_share.normalize()),
        "pot_holder": circle.pot_holder_id or "",
    } | changes
    return {f"settings-{key}": value for key, value in data.items()}


def member_url(circle, name):
    membership = circle.memberships.get(player__name=name)
    circles.member_link_create(membership=membership)
    return reverse("ledger:circle_member_page", args=[membership.token])


@pytest.fixture
def tab_circle(alice):
    return circles.circle_create(owner=alice, name="Friday Šnapser", members=["Ana", "Ben", "Cyril"], settle="tab")


@pytest.fixture
def pot_circle(alice):
    circle = circles.circle_create(
        owner=alice, name="Kasse", members=["Ana", "Ben", "Cyril"], settle="pot", pot_share=D("0.25")
    )
    ben = circle.members.get(name="Ben")
    return circles.circle_settings_change(circle=circle, by=alice, **settings_of(circle, pot_holder=ben))


# --------------------------------------------------------------------------------------------------------------
# The rules (ledger.circles)


def test_every_setting_changes_and_is_stored(alice, tab_circle):
    ben = tab_circle.members.get(name="Ben")
    changed = circles.circle_settings_change(
        circle=tab_circle,
        by=alice,
        name="  Sunday   Pot ",
        settle="pot",
        currency="EUR",
        coin=D("0.50"),
        pot_share=D("0.2"),
        pot_holder=ben,
    )
    stored = Circle.objects.get(pk=tab_circle.pk)
    assert (stored.name, stored.settle, stored.currency, stored.coin, stored.pot_share, stored.pot_holder) == (
        "Sunday Pot",
        "pot",
        "EUR",
        D("0.5"),
        D("0.2"),
        ben,
    )
    assert changed.pk == stored.pk and changed.name == "Sunday Pot"


def test_an_empty_coin_is_the_currencys_own(alice, tab_circle):
    circles.circle_settings_change(circle=tab_circle, by=alice, **settings_of(tab_circle, currency="EUR", coin=None))
    assert Circle.objects.get(pk=tab_circle.pk).coin == D("0.01")


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"name": "  "}, "name", "Name the circle."),
        ({"name": "x" * 81}, "name", "at most 80 letters"),
        ({"settle": "weekly"}, "settle", "Choose how the circle settles."),
        ({"coin": D("0.005")}, "coin", "a real coin"),
        ({"coin": D("2000")}, "coin", "a real coin"),
        ({"pot_share": D("1.5")}, "pot_share", "from 0 to 1"),
        ({"currency": "USD"}, "currency", "Choose a currency."),
    ],
)
def test_a_bad_setting_is_refused_naming_its_field_and_nothing_changes(alice, tab_circle, change, field, words):
    with pytest.raises(LedgerError, match=words) as refused:
        circles.circle_settings_change(circle=tab_circle, by=alice, **settings_of(tab_circle, **change))
    assert refused.value.field == field
    stored = Circle.objects.get(pk=tab_circle.pk)
    assert (stored.name, stored.settle, stored.currency, stored.coin) == ("Friday Šnapser", "tab", "CZK", D("1"))


def test_the_pot_holder_is_a_member(alice, pot_circle):
    stranger = services.player_get_or_create(owner=alice, name="Dora")
    with pytest.raises(LedgerError, match="must be a member") as refused:
        circles.circle_settings_change(circle=pot_circle, by=alice, **settings_of(pot_circle, pot_holder=stranger))
    assert refused.value.field == "pot_holder"
    assert Circle.objects.get(pk=pot_circle.pk).pot_holder.name == "Ben"


def test_only_a_scorekeeper_of_the_circle_changes_it(charlie, tab_circle):
    with pytest.raises(LedgerError, match="owner and scorekeepers"):
        circles.circle_settings_change(circle=tab_circle, by=charlie, **settings_of(tab_circle, name="Mine"))
    assert Circle.objects.get(pk=tab_circle.pk).name == "Friday Šnapser"


def test_the_tab_is_not_left_while_it_holds_open_balances(alice, tab_circle):
    won_evening(tab_circle)  # the tab: Ana +12, Ben −6, Cyril −6
    with pytest.raises(LedgerError, match="settle the tab first") as refused:
        circles.circle_settings_change(circle=tab_circle, by=alice, **settings_of(tab_circle, settle="evening"))
    assert refused.value.field == "settle"
    assert Circle.objects.get(pk=tab_circle.pk).settle == "tab"
    # Other settings still change while the tab is open.
    circles.circle_settings_change(circle=tab_circle, by=alice, **settings_of(tab_circle, coin=D("5")))
    assert Circle.objects.get(pk=tab_circle.pk).coin == D("5")
    tab_and_pot.tab_settle(circle=tab_circle, by=alice)
    circles.circle_settings_change(circle=tab_circle, by=alice, **settings_of(tab_circle, settle="evening"))
    assert Circle.objects.get(pk=tab_circle.pk).settle == "evening"


def test_the_currency_stays_once_the_circle_has_evenings_or_bookings_in_it(alice, tab_circle, pot_circle):
    circles.circle_evening_create(circle=tab_circle, by=alice, date=DAY)  # an evening in CZK, nothing booked
    with pytest.raises(LedgerError, match="in CZK already") as refused:
        circles.circle_settings_change(circle=tab_circle, by=alice, **settings_of(tab_circle, currency="EUR"))
    assert refused.value.field == "currency"
    tab_and_pot.pot_deposit(circle=pot_circle, by=alice, amount=D("20"))  # a booking, no evening
    with pytest.raises(LedgerError, match="in CZK already"):
        circles.circle_settings_change(circle=pot_circle, by=alice, **settings_of(pot_circle, currency="EUR"))
    assert Circle.objects.filter(currency="CZK").count() == 2


def test_an_evening_made_in_the_new_currency_does_not_stop_the_change(alice, tab_circle):
    circles.circle_evening_create(circle=tab_circle, by=alice, date=DAY, currency="EUR", coin=D("0.01"))
    circles.circle_settings_change(circle=tab_circle, by=alice, **settings_of(tab_circle, currency="EUR", coin=None))
    stored = Circle.objects.get(pk=tab_circle.pk)
    assert (stored.currency, stored.coin) == ("EUR", D("0.01"))


def test_a_change_applies_to_evenings_closed_from_now_on_nothing_booked_is_priced_again(alice, pot_circle):
    won_evening(pot_circle)  # Ana +12 at a share of 0.25: 3 Kč
    circles.circle_settings_change(circle=pot_circle, by=alice, **settings_of(pot_circle, pot_share=D("0.5")))
    won_evening(pot_circle, date=DAY + datetime.timedelta(7))  # Ana +12 at 0.5: 6 Kč
    paid_in = CircleEntry.objects.filter(kind="paid_in").order_by("evening__date")
    assert [(entry.player.name, entry.amount) for entry in paid_in] == [("Ana", D("3")), ("Ana", D("6"))]
    assert circle_selectors.pot_balance(pot_circle) == D("9")
    # The coin: evenings made from now on round to the new one, the old ones keep theirs.
    circles.circle_settings_change(circle=pot_circle, by=alice, **settings_of(pot_circle, coin=D("5")))
    later = circles.circle_evening_create(
        circle=Circle.objects.get(pk=pot_circle.pk), by=alice, date=DAY + datetime.timedelta(14)
    )
    assert later.coin == D("5")
    assert list(Evening.objects.exclude(pk=later.pk).values_list("coin", flat=True)) == [D("1"), D("1")]


def test_a_tab_evening_stays_carried_after_the_circle_stops_keeping_a_tab(alice, tab_circle):
    evening = won_evening(tab_circle)
    tab_and_pot.tab_settle(circle=tab_circle, by=alice)
    circles.circle_settings_change(circle=tab_circle, by=alice, **settings_of(tab_circle, settle="evening"))
    evening.refresh_from_db()
    assert tab_and_pot.carries_into_tab(evening)  # read from its carried entries, not from today's settings
    later = won_evening(tab_circle, date=DAY + datetime.timedelta(7))
    assert not tab_and_pot.carries_into_tab(later)
    assert [(t.payer.name, t.payee.name, t.amount) for t in later.settlement.transfers.order_by("payer__name")] == [
        ("Ben", "Ana", D("6")),
        ("Cyril", "Ana", D("6")),
    ]


def test_a_pot_holder_who_leaves_holds_the_pot_no_more(alice, pot_circle):
    circles.circle_member_remove(circle=pot_circle, player=pot_circle.members.get(name="Ben"))
    assert Circle.objects.get(pk=pot_circle.pk).pot_holder is None


def test_a_pay_in_is_marked_paid_and_unpaid_and_a_paid_one_keeps_its_evening_closed(alice, pot_circle):
    evening = won_evening(pot_circle)
    entry = CircleEntry.objects.get(kind="paid_in")
    tab_and_pot.pot_pay_in_mark_paid(entry=entry, by=alice)
    first = CircleEntry.objects.get(pk=entry.pk).paid_at
    tab_and_pot.pot_pay_in_mark_paid(entry=entry, by=alice)  # a double tap changes nothing
    stored = CircleEntry.objects.get(pk=entry.pk)
    assert stored.paid_at == first is not None and stored.paid_by == alice
    with pytest.raises(LedgerError, match="mark it unpaid"):
        services.evening_reopen(evening=evening, by=alice)
    assert CircleEntry.objects.filter(kind="paid_in").count() == 1
    tab_and_pot.pot_pay_in_mark_unpaid(entry=entry, by=alice)
    assert CircleEntry.objects.get(pk=entry.pk).paid_at is None
    services.evening_reopen(evening=evening, by=alice)
    assert not CircleEntry.objects.filter(kind="paid_in").exists()


def test_a_deposit_is_not_a_pay_in_to_mark(alice, pot_circle):
    deposit = tab_and_pot.pot_deposit(circle=pot_circle, by=alice, amount=D("10"))
    with pytest.raises(LedgerError, match="Only a pay-in"):
        tab_and_pot.pot_pay_in_mark_paid(entry=deposit, by=alice)
    assert CircleEntry.objects.get(pk=deposit.pk).paid_at is None


# --------------------------------------------------------------------------------------------------------------
# What to pay the pot holder (ledger.circle_selectors)


def test_a_pay_in_row_carries_the_exact_qr_payment_to_the_holder(alice, pot_circle):
    won_evening(pot_circle)
    set_iban(alice, "Ben", BEN_IBAN)
    pot_circle = Circle.objects.get(pk=pot_circle.pk)
    [row] = circle_selectors.pot_payments(pot_circle)
    payload = "SPD*1.0*ACC:CZ6508000000192000145399*AM:3.00*CC:CZK*MSG:TALON 27.11.2026 ANA"
    assert row["qr"] == qr.qr_svg(payload, label="Ana → Ben 3.00")
    assert (row["entry"].amount, row["iban"], row["qr_kind"], row["own"]) == (
        D("3"),
        "CZ6508000000192000145399",
        "QR Platba",
        False,
    )


def test_a_euro_pot_pays_its_holder_with_an_epc_code(alice):
    circle = circles.circle_create(
        owner=alice, name="Stammtisch", members=["Ana", "Ben", "Cyril"], settle="pot", currency="EUR"
    )
    circles.circle_settings_change(
        circle=circle, by=alice, **settings_of(circle, pot_holder=circle.members.get(name="Ben"))
    )
    won_evening(circle, stake="0.31")  # Ana +1.24 € → a tenth, to the cent: 0.12 €
    set_iban(alice, "Ben", BEN_EUR_IBAN)
    [row] = circle_selectors.pot_payments(Circle.objects.get(pk=circle.pk))
    payload = "BCD\n002\n1\nSCT\n\nBen\nDE89370400440532013000\nEUR0.12\n\n\nTalon 27.11.2026 Ana"
    assert row["qr"] == qr.qr_svg(payload, label="Ana → Ben 0.12") and row["qr_kind"] == "EPC (SEPA)"


# --------------------------------------------------------------------------------------------------------------
# Alice, the scorekeeper, on the circle page


def test_the_settings_form_is_on_the_circle_page_with_the_circles_values(alice_client, pot_circle):
    page = alice_client.get(pot_circle.get_absolute_url()).content.decode()
    assert 'id="settings"' in page and 'name="settings-name" value="Kasse"' in page
    assert 'name="settings-pot_share" value="0.25"' in page
    ben = pot_circle.members.get(name="Ben")
    assert f'<option value="{ben.pk}" selected>Ben</option>' in page
    assert "Ben holds the pot" in page


def test_the_settings_are_saved_without_javascript(alice_client, tab_circle):
    url = reverse("ledger:circle_settings", args=[tab_circle.pk])
    response = alice_client.post(url, form_of(tab_circle, name="Friday Mariáš", coin="5", settle="pot"))
    assert response.status_code == 302 and response["Location"] == f"{tab_circle.get_absolute_url()}#settings"
    stored = Circle.objects.get(pk=tab_circle.pk)
    assert (stored.name, stored.coin, stored.settle) == ("Friday Mariáš", D("5"), "pot")
    page = alice_client.get(response["Location"]).content.decode()
    assert "<h1>Friday Mariáš</h1>" in page and "they apply to the evenings closed from now on" in page
    assert 'id="pot"' in page and 'id="tab"' not in page


def test_a_refused_change_without_javascript_says_why_beside_the_field(alice_client, tab_circle):
    won_evening(tab_circle)
    url = reverse("ledger:circle_settings", args=[tab_circle.pk])
    response = alice_client.post(url, form_of(tab_circle, settle="evening", name="Renamed"))
    page = response.content.decode()
    assert response.status_code == 400
    errors = page[page.index('id="errors-settle"') :]
    assert errors.index("settle the tab first") < errors.index("</ul>")
    assert Circle.objects.get(pk=tab_circle.pk).name == "Friday Šnapser"  # nothing of the change is stored


def test_the_settings_change_with_htmx_swaps_the_card_heading_and_money(alice_client, tab_circle):
    url = reverse("ledger:circle_settings", args=[tab_circle.pk])
    response = alice_client.post(url, form_of(tab_circle, name="Kasse", settle="pot", pot_share="0.2"), headers=HX)
    body = response.content.decode()
    assert response.status_code == 200 and body.startswith('<section class="card" id="settings">')
    assert "<html" not in body and "they apply to the evenings closed from now on" in body
    assert '<header id="circle-head" hx-swap-oob="true">\n<h1>Kasse</h1>' in body
    assert '<div id="circle-money" hx-swap-oob="true">' in body and 'id="pot"' in body
    assert "Each winner pays 0.2 of their rounded gain" in body
    assert Circle.objects.get(pk=tab_circle.pk).pot_share == D("0.2")


def test_a_refused_change_with_htmx_answers_the_card_with_its_error(alice_client, alice, tab_circle):
    circles.circle_evening_create(circle=tab_circle, by=alice, date=DAY)
    url = reverse("ledger:circle_settings", args=[tab_circle.pk])
    response = alice_client.post(url, form_of(tab_circle, currency="EUR", coin=""), headers=HX)
    body = response.content.decode()
    assert response.status_code == 200  # htmx swaps only a 2xx answer
    assert body.startswith('<section class="card" id="settings">') and "hx-swap-oob" not in body
    errors = body[body.index('id="errors-currency"') :]
    assert "evenings or bookings in CZK already" in errors[: errors.index("</ul>")]
    assert "<details open>" in body
    assert Circle.objects.get(pk=tab_circle.pk).currency == "CZK"


def test_a_coin_that_is_no_coin_is_refused_on_the_form(alice_client, tab_circle):
    url = reverse("ledger:circle_settings", args=[tab_circle.pk])
    response = alice_client.post(url, form_of(tab_circle, coin="0.005"))
    assert response.status_code == 400
    assert Circle.objects.get(pk=tab_circle.pk).coin == D("1")


def test_a_coscorekeeper_changes_the_settings(alice, charlie, tab_circle, client):
    evening = factories.make_evening(alice)
    services.evening_add_scorekeeper(evening=evening, user=charlie)
    circles.circle_scorekeeper_add(circle=tab_circle, user=charlie, by=alice)
    client.force_login(charlie)
    url = reverse("ledger:circle_settings", args=[tab_circle.pk])
    assert client.post(url, form_of(tab_circle, name="Charlie's too")).status_code == 302
    assert Circle.objects.get(pk=tab_circle.pk).name == "Charlie's too"


def test_the_circle_page_shows_each_unpaid_pay_in_with_a_qr_code_to_the_holder(alice_client, alice, pot_circle):
    won_evening(pot_circle)
    won_evening(pot_circle, winner="Cyril", losers=("Ana", "Ben"), date=DAY + datetime.timedelta(7))
    set_iban(alice, "Ben", BEN_IBAN)
    page = alice_client.get(pot_circle.get_absolute_url()).content.decode()
    payments = page[page.index('id="pot-payments"') :]
    assert payments.index('data-payment="Cyril → Ben"') < payments.index('data-payment="Ana → Ben"')  # latest first
    assert payments.count("QR Platba · CZ6508000000192000145399") == 2
    assert payments.count('<span class="num amount">3.00\xa0Kč</span>') == 2
    assert "Pot share of the evening of 27. 11. 2026" in payments


def test_the_circle_page_says_when_the_holder_has_no_iban_or_there_is_no_holder(alice_client, alice, pot_circle):
    won_evening(pot_circle)
    page = alice_client.get(pot_circle.get_absolute_url()).content.decode()
    assert "No IBAN for Ben, who holds the pot" in page and "<svg" not in page.split('id="pot-payments"')[1]
    circles.circle_settings_change(circle=pot_circle, by=alice, **settings_of(pot_circle, pot_holder=None))
    page = alice_client.get(pot_circle.get_absolute_url()).content.decode()
    assert "Nobody holds the pot yet: choose who does in the circle's settings." in page
    assert 'data-payment="Ana → "' in page


def test_the_holders_own_pay_in_needs_no_transfer(alice_client, alice, pot_circle):
    won_evening(pot_circle, winner="Ben", losers=("Ana", "Cyril"))
    set_iban(alice, "Ben", BEN_IBAN)
    page = alice_client.get(pot_circle.get_absolute_url()).content.decode()
    assert "Ben holds the pot: nothing to transfer" in page and "QR Platba" not in page


def test_a_pay_in_is_marked_paid_with_htmx_and_unpaid_without(alice_client, alice, pot_circle):
    won_evening(pot_circle)
    entry = CircleEntry.objects.get(kind="paid_in")
    url = reverse("ledger:circle_pot_paid", args=[pot_circle.pk, entry.pk])
    response = alice_client.post(url, {"action": "paid"}, headers=HX)
    body = response.content.decode()
    assert response.status_code == 200 and body.startswith(
        f'<li class="transfer card paid" id="pot-payment-{entry.pk}"'
    )
    assert "Mark unpaid" in body and "<html" not in body
    stored = CircleEntry.objects.get(pk=entry.pk)
    assert stored.paid_at is not None and stored.paid_by == alice
    page = alice_client.get(pot_circle.get_absolute_url()).content.decode()
    assert 'data-payment="Ana → Ben"' not in page and "Every share paid into the pot is paid." in page
    response = alice_client.post(url, {"action": "unpaid"})
    assert response.status_code == 302 and response["Location"].endswith("#pot-payments")
    assert CircleEntry.objects.get(pk=entry.pk).paid_at is None


def test_a_deposit_cannot_be_marked_paid_by_its_address(alice_client, alice, pot_circle):
    deposit = tab_and_pot.pot_deposit(circle=pot_circle, by=alice, amount=D("10"))
    url = reverse("ledger:circle_pot_paid", args=[pot_circle.pk, deposit.pk])
    assert alice_client.post(url, {"action": "paid"}).status_code == 404
    assert CircleEntry.objects.get(pk=deposit.pk).paid_at is None


# --------------------------------------------------------------------------------------------------------------
# Bob, a member with his personal link


def test_a_member_sees_what_he_owes_the_pot_with_a_qr_code_read_only(alice, pot_circle, client):
    won_evening(pot_circle)  # Ana pays 3 Kč into the pot Ben holds
    set_iban(alice, "Ben", BEN_IBAN)
    page = client.get(member_url(pot_circle, "Ana")).content.decode()
    payments = page[page.index('id="pot-payments"') :]
    assert "You pay into the pot" in payments and 'data-payment="Ana → Ben"' in payments
    assert "QR Platba · CZ6508000000192000145399" in payments and "3.00\xa0Kč" in payments
    assert "Mark paid" not in page and 'id="settings"' not in page
    page = client.get(member_url(pot_circle, "Cyril")).content.decode()
    assert "You pay into the pot" not in page  # Cyril lost: he owes the pot nothing


def test_a_member_link_opens_no_settings_and_no_pay_in_mark(alice, pot_circle, client):
    won_evening(pot_circle)
    member_url(pot_circle, "Ben")
    entry = CircleEntry.objects.get(kind="paid_in")
    for url in (
        reverse("ledger:circle_settings", args=[pot_circle.pk]),
        reverse("ledger:circle_pot_paid", args=[pot_circle.pk, entry.pk]),
    ):
        response = client.post(url, form_of(pot_circle, name="Bob's"))
        assert response.status_code == 302 and "/accounts/login/" in response["Location"], url
    assert Circle.objects.get(pk=pot_circle.pk).name == "Kasse"
    assert CircleEntry.objects.get(pk=entry.pk).paid_at is None


# --------------------------------------------------------------------------------------------------------------
# Charlie, a stranger


def test_a_stranger_gets_404_and_changes_nothing(charlie_client, pot_circle):
    won_evening(pot_circle)
    entry = CircleEntry.objects.get(kind="paid_in")
    response = charlie_client.post(
        reverse("ledger:circle_settings", args=[pot_circle.pk]), form_of(pot_circle, name="X")
    )
    assert response.status_code == 404
    response = charlie_client.post(
        reverse("ledger:circle_pot_paid", args=[pot_circle.pk, entry.pk]), {"action": "paid"}
    )
    assert response.status_code == 404
    assert Circle.objects.get(pk=pot_circle.pk).name == "Kasse"
    assert CircleEntry.objects.get(pk=entry.pk).paid_at is None


# --------------------------------------------------------------------------------------------------------------
# The API and the JSON export


def test_the_api_shows_the_pot_holder(alice, pot_circle):
    ben = pot_circle.members.get(name="Ben")
    body = token_client(alice).get(f"/api/circles/{pot_circle.pk}/").json()
    assert body["pot_holder"] == {"id": ben.pk, "name": "Ben"} and body["pot_share"] == "0.25"
    circles.circle_settings_change(circle=pot_circle, by=alice, **settings_of(pot_circle, pot_holder=None))
    assert token_client(alice).get(f"/api/circles/{pot_circle.pk}/").json()["pot_holder"] is None


def test_the_export_carries_the_pot_holder_and_paid_marks_through_an_import(alice, charlie, pot_circle):
    won_evening(pot_circle)
    tab_and_pot.pot_pay_in_mark_paid(entry=CircleEntry.objects.get(kind="paid_in"), by=alice)
    document = json.loads(json.dumps(circle_export(circle=pot_circle)))
    assert document["circle"]["pot_holder"] == "Ben"
    [pay_in] = [entry for entry in document["entries"] if entry["kind"] == "paid_in"]
    assert (pay_in["player"], pay_in["amount"], pay_in["paid_by"]) == ("Ana", "3.0000", "alice")
    imported = circle_import(data=document, owner=charlie)
    assert imported.pot_holder.name == "Ben" and imported.pot_holder.owner == charlie
    stored = CircleEntry.objects.get(circle=imported, kind="paid_in")
    assert (stored.amount, stored.paid_at.isoformat(), stored.paid_by) == (D("3"), pay_in["paid_at"], alice)


def test_a_circle_whose_settings_changed_still_round_trips(alice, charlie, pot_circle, tab_circle):
    won_evening(pot_circle)  # 3 Kč at 0.25
    circles.circle_settings_change(circle=pot_circle, by=alice, **settings_of(pot_circle, pot_share=D("0.5")))
    won_evening(pot_circle, date=DAY + datetime.timedelta(7))  # 6 Kč at 0.5
    circles.circle_settings_change(circle=pot_circle, by=alice, **settings_of(pot_circle, settle="evening"))
    won_evening(tab_circle)
    tab_and_pot.tab_settle(circle=tab_circle, by=alice)
    circles.circle_settings_change(circle=tab_circle, by=alice, **settings_of(tab_circle, settle="pot"))
    for circle in (pot_circle, tab_circle):
        document = json.loads(json.dumps(circle_export(circle=circle)))
        imported = circle_import(data=document, owner=charlie)
        assert circle_selectors.pot_balance(imported) == circle_selectors.pot_balance(circle)
        assert circle_selectors.tab_balances(imported) == circle_selectors.tab_balances(circle) == {}
    assert circle_selectors.pot_balance(Circle.objects.get(owner=charlie, name="Kasse")) == D("9")
    carried = Circle.objects.get(owner=charlie, name="Friday Šnapser").evenings.get()
    assert tab_and_pot.carries_into_tab(carried) and not carried.settlement.transfers.exists()


def test_an_export_without_the_new_keys_still_imports(charlie, pot_circle):
    won_evening(pot_circle)
    document = json.loads(json.dumps(circle_export(circle=pot_circle)))
    older = copy.deepcopy(document)
    del older["circle"]["pot_holder"]
    for entry in older["entries"]:
        del entry["paid_at"], entry["paid_by"]
    imported = circle_import(data=older, owner=charlie)
    assert imported.pot_holder is None
    assert CircleEntry.objects.get(circle=imported, kind="paid_in").amount == D("3")


def test_a_pot_holder_who_is_no_member_or_a_paid_deposit_is_refused(alice, charlie, pot_circle):
    from ledger.exchange import ImportRefused

    tab_and_pot.pot_deposit(circle=pot_circle, by=alice, amount=D("10"))
    document = json.loads(json.dumps(circle_export(circle=pot_circle)))
    forged = copy.deepcopy(document)
    forged["circle"]["pot_holder"] = "Zed"
    with pytest.raises(ImportRefused, match="pot_holder: must name one of the members"):
        circle_import(data=forged, owner=charlie)
    forged = copy.deepcopy(document)
    forged["entries"][0] |= {"paid_at": "2026-11-27T20:00:00+00:00", "paid_by": "alice"}
    with pytest.raises(ImportRefused, match="only a pot pay-in"):
        circle_import(data=forged, owner=charlie)
    assert not Circle.objects.filter(owner=charlie).exists()


def test_leaving_the_tab_is_refused_as_stored_not_as_the_caller_read_it(alice):
    # The page loaded the circle settling per evening; meanwhile another scorekeeper switched it to the tab and
    # an evening closed into it: the change back is refused while the tab holds balances.
    circle = Circle.objects.create(owner=alice, name="Tab", currency="EUR", settle=Circle.Settle.EVENING)
    read_before = Circle.objects.get(pk=circle.pk)
    Circle.objects.filter(pk=circle.pk).update(settle=Circle.Settle.TAB)
    evening = factories.make_evening(alice)
    Evening.objects.filter(pk=evening.pk).update(circle=circle)
    evening.refresh_from_db()
    factories.record(factories.make_table(evening, "skat"))
    for player in alice.players.all():
        CircleMember.objects.get_or_create(circle=circle, player=player)
    services.evening_close(evening=evening, by=alice)
    with pytest.raises(services.LedgerError) as refused:
        circles.circle_settings_change(
            circle=read_before, by=alice, name="Tab", settle="evening", currency="EUR", pot_share=Decimal("0.1")
        )
    assert refused.value.field == "settle"
    assert Circle.objects.get(pk=circle.pk).settle == Circle.Settle.TAB
