"""The answer to Record carries only what the hand changed, and the table page reads the same few rows
and sums at any length of the evening while showing what it showed when it read every hand."""

from __future__ import annotations

import re
from decimal import Decimal
from types import SimpleNamespace

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from ledger import selectors, services
from ledger.models import Hand, Table
from tests import factories

N1 = factories.SNAPSER_N1 | {"raises": "0", "dealer": "0"}


def _record(client, table, key, revision=None, page=None):
    data = N1 | {"key": key}
    if revision is not None:
        data["table_revision"] = str(revision)
    headers = {"HX-Request": "true", "HX-Current-URL": f"http://testserver{page or table.get_absolute_url()}"}
    return client.post(reverse("ledger:hand_create", args=[table.pk]), data, headers=headers)


def _revision(table):
    return Table.objects.get(pk=table.pk).revision


def test_record_answers_with_what_changed_out_of_band(alice_client, snapser_table):
    factories.record(snapser_table, times=2)
    response = _record(alice_client, snapser_table, "k3", revision=_revision(snapser_table))
    html = response.content.decode()
    assert response.status_code == 200
    assert response.headers["HX-Reswap"] == "none"
    assert 'id="table-live"' not in html
    assert html.count('class="hand-row card') == 1  # the new row only, put on top of the log
    assert re.search(r'<ol hx-swap-oob="afterbegin:#log-list"><li class="hand-row card" id="hand-3">', html)
    for part in ("scoreboard", "next-dealer", "hand-form", "undo-last", "balance-chart", "log-more"):
        assert re.search(rf'id="{part}"[^>]* hx-swap-oob="true"', html), part
    # The status line is the page's one live region: it stays, and the answer swaps what is inside it.
    assert re.search(r'id="table-status" role="status" hx-swap-oob="innerHTML"', html)
    assert '<span class="muted" id="hand-total" hx-swap-oob="true">(3)</span>' in html
    status = r'role="status"[^>]*>\s*<div class="recorded card" id="hand-recorded"[^>]*>'
    assert re.search(status + r"\s*<p><strong>Hand #3:</strong>\s*Ana", html)
    assert "+1.20" in html  # Ana's balance after three N1 hands
    # The fresh form says which state of the table it was drawn on.
    assert f'name="table_revision" value="{_revision(snapser_table)}"' in html
    assert "polyline" in html


def test_the_row_that_falls_off_the_log_is_taken_away(alice_client, snapser_table):
    factories.record(snapser_table, times=11)
    html = _record(alice_client, snapser_table, "k12", revision=_revision(snapser_table)).content.decode()
    assert '<li id="hand-2" hx-swap-oob="delete"></li>' in html  # the page showed #2..#11, now #3..#12
    assert "Show all 12 hands" in html
    assert 'hx-get="?log=30&amp;before=3"' in html  # the next page starts below the oldest row shown


def test_a_log_shown_longer_keeps_its_length(alice_client, snapser_table):
    factories.record(snapser_table, times=31)
    page = snapser_table.get_absolute_url() + "?log=30"  # two taps on "Earlier hands" less one: as the page says
    html = _record(alice_client, snapser_table, "k32", revision=_revision(snapser_table), page=page).content.decode()
    assert '<li id="hand-2" hx-swap-oob="delete"></li>' in html  # the page showed #2..#31, now #3..#32
    assert 'hx-get="?log=50&amp;before=3"' in html


def test_earlier_hands_come_under_the_log_a_page_at_a_time(alice_client, snapser_table):
    factories.record(snapser_table, times=31)
    url = snapser_table.get_absolute_url()
    page = alice_client.get(url).content.decode()
    assert page.count('class="hand-row card') == 10  # #31..#22
    assert 'hx-get="?log=30&amp;before=22"' in page and 'hx-push-url="?log=30"' in page
    html = alice_client.get(url, {"log": "30", "before": "22"}, headers={"HX-Request": "true"}).content.decode()
    assert html.count('class="hand-row card') == 20
    assert re.search(r'<ol hx-swap-oob="beforeend:#log-list"><li class="hand-row card[^"]*" id="hand-21">', html)
    assert 'id="hand-2"' in html and 'id="hand-1"' not in html
    assert 'hx-get="?log=50&amp;before=2"' in html  # and one more page: #1
    last = alice_client.get(url, {"log": "50", "before": "2"}, headers={"HX-Request": "true"}).content.decode()
    assert last.count('class="hand-row card') == 1 and "Earlier hands" not in last
    # Reloaded, the page shows as many as the address says.
    assert alice_client.get(url, {"log": "30"}).content.decode().count('class="hand-row card') == 30


def test_the_whole_log_keeps_every_row(alice_client, snapser_table):
    factories.record(snapser_table, times=31)
    page = snapser_table.get_absolute_url() + "?all=1"
    html = _record(alice_client, snapser_table, "k32", revision=_revision(snapser_table), page=page).content.decode()
    assert 'hx-swap-oob="delete"' not in html
    assert "Show all" not in html


@pytest.mark.parametrize("why", ["changed meanwhile", "no revision", "first hand"])
def test_the_whole_live_part_is_redrawn_unless_the_page_was_current(alice_client, snapser_table, why):
    revision = _revision(snapser_table)
    if why == "changed meanwhile":
        factories.record(snapser_table, times=2)  # another phone: the page does not show these
        revision = revision + 1
    elif why == "first hand":
        pass
    else:
        factories.record(snapser_table)
        revision = None
    response = _record(alice_client, snapser_table, "mine", revision=revision)
    html = response.content.decode()
    assert "HX-Reswap" not in response.headers
    assert html.startswith('<div id="table-live">')
    hands = Hand.objects.filter(table=snapser_table).count()
    assert html.count('class="hand-row card') == hands
    assert f"Hand #{hands}:" in html


def _running_balances(players, hands):
    """The chart's series the slow way: each player's exact balance after each of ``hands``, from zero (a voided
    hand moves nobody's)."""
    totals = dict.fromkeys(players, Decimal(0))
    series = [[Decimal(0)] for _ in players]
    for hand in hands:
        for name, amount in hand.amounts.items():
            totals[name] += amount if hand.is_counted else 0
        for index, name in enumerate(players):
            series[index].append(totals[name])
    return series


def _skat_evening(evening):
    table = factories.make_table(evening, "skat", players=["Ana", "Ben", "Cyril", "Dana"])
    seated = [
        ("Ana", "Ben", "grand"),
        ("Ben", "Cyril", "clubs"),
        ("Cyril", "Dana", "hearts"),
        ("Dana", "Ana", "spades"),
    ]
    hands = [  # four seats: the dealer sits out, with no money in the hand
        factories.record(
            table, {"dealer": dealer, "declarer": declarer, "contract": contract, "matadors": 1, "declarer_points": 70}
        )[0]
        for dealer, declarer, contract in seated * 2
    ]
    services.hand_void(hand=hands[2], by=evening.owner)
    corrected = {"dealer": "Ben", "declarer": "Dana", "contract": "grand", "matadors": 2, "declarer_points": 40}
    services.hand_correct(hand=hands[5], document=corrected, by=evening.owner, version=1)
    table.refresh_from_db()
    return table, _running_balances(table.seat_names, list(Hand.objects.filter(table=table).order_by("number")))


def test_the_chart_series_is_the_running_balance_after_each_hand(evening):
    table, expected = _skat_evening(evening)
    numbers, series = selectors.chart_series(table)
    assert numbers == list(range(9))
    assert series == [[pytest.approx(float(value)) for value in line] for line in expected]
    assert [line[3] for line in series] == [line[2] for line in series]  # the voided hand #3: flat
    assert any(line[-1] != 0 for line in expected)


def test_a_long_evening_draws_a_bounded_sample_of_its_hands(evening, monkeypatch):
    monkeypatch.setattr(selectors, "CHART_POINTS", 3)
    table, expected = _skat_evening(evening)
    numbers, series = selectors.chart_series(table)
    assert numbers == [0, 3, 5, 8]  # three evenly spread, the newest among them
    assert series == [[pytest.approx(float(line[number])) for number in numbers] for line in expected]


@given(rounds=st.lists(st.integers(0, 3), max_size=30), seats=st.integers(3, 4))
def test_the_last_hands_hold_the_whole_bock_queue(rounds, seats):
    table = SimpleNamespace(seat_names=["Ana", "Ben", "Cyril", "Dana"][:seats])
    hands = [SimpleNamespace(result={"bock_rounds": count}) for count in rounds]
    assert selectors.bock_pending(table, hands[-seats:]) == selectors.bock_pending(table, hands)


def test_without_numbers_to_go_by_the_answer_asks_which_row_falls_off(alice_client, snapser_table):
    factories.record(snapser_table, times=12)
    Hand.objects.filter(table=snapser_table, number=1).delete()  # as an imported evening may skip a number
    html = _record(alice_client, snapser_table, "k13", revision=_revision(snapser_table)).content.decode()
    assert '<li id="hand-3" hx-swap-oob="delete"></li>' in html  # the page showed #3..#12, now #4..#13
    assert 'hx-get="?log=30&amp;before=4"' in html and "Show all 12 hands" in html


# --------------------------------------------------------------------------------------------------------------
# The fresh form: drawn once, stamped for each request


def _form(html: str) -> str:
    return re.search(r'<form id="hand-form".*?</form>', html, re.DOTALL).group(0)


def _stamps(form: str) -> dict[str, str]:
    return {
        name: re.search(rf'name="{name}" value="([^"]*)"', form).group(1)
        for name in ("csrfmiddlewaretoken", "key", "table_revision")
    }


def _unstamped(form: str) -> str:
    for name, value in _stamps(form).items():
        form = form.replace(f'name="{name}" value="{value}"', f'name="{name}" value=""')
    return form


def test_a_fresh_form_is_drawn_once_and_stamped_for_each_request(client, alice, charlie, snapser_table):
    from ledger.views import tables

    services.evening_add_scorekeeper(evening=snapser_table.evening, user=charlie)
    factories.record(snapser_table, times=2)
    url = snapser_table.get_absolute_url()
    tables._FRESH_FORMS.clear()
    client.force_login(alice)
    drawn = _form(client.get(url).content.decode())  # drawn now
    again = _form(client.get(url).content.decode())  # stamped only
    assert _unstamped(again) == _unstamped(drawn)
    assert _stamps(again)["key"] != _stamps(drawn)["key"]  # a new submission each time
    assert _stamps(again)["table_revision"] == str(_revision(snapser_table))
    client.force_login(charlie)
    other = _form(client.get(url).content.decode())
    assert _unstamped(other) == _unstamped(drawn)
    assert _stamps(other)["csrfmiddlewaretoken"] != _stamps(drawn)["csrfmiddlewaretoken"]
    # Each stamp is the request's own: the form posts back, CSRF checked.
    checked = Client(enforce_csrf_checks=True)
    checked.force_login(alice)
    form = _form(checked.get(url).content.decode())
    posted = N1 | _stamps(form)
    assert checked.post(reverse("ledger:hand_create", args=[snapser_table.pk]), posted).status_code == 302
    assert Hand.objects.filter(table=snapser_table).count() == 3


def test_the_fresh_form_follows_the_dealer_the_contract_and_the_language(alice_client, skat_table):
    url = skat_table.get_absolute_url()
    first = _form(alice_client.get(url).content.decode())
    factories.record(skat_table, times=2)  # two Grands: Grand pre-selected, another dealer
    second = _form(alice_client.get(url).content.decode())
    assert _unstamped(second) != _unstamped(first)
    czech = _form(alice_client.get(url, headers={"accept-language": "cs"}).content.decode())
    assert "Další: rozdávající a méně častá pole" in czech and "More: dealer" in second


def test_the_usual_contract_counts_the_newest_hands_only(skat_table, monkeypatch):
    factories.record(skat_table, times=3)  # Grand
    factories.record(skat_table, factories.SKAT_S1 | {"contract": "clubs"}, times=2)
    played = selectors.contracts_played(skat_table, "contract")
    assert [(row["contract"], row["count"], row["latest"]) for row in played] == [("clubs", 2, 5), ("grand", 3, 3)]
    monkeypatch.setattr(selectors, "CONTRACTS_WINDOW", 3)
    played = selectors.contracts_played(skat_table, "contract")
    assert [(row["contract"], row["count"], row["latest"]) for row in played] == [("clubs", 2, 5), ("grand", 1, 3)]
