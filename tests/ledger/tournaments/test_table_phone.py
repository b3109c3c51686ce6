"""A tournament table's phone shows the game, not the money, when the tournament is not played for money, and reaches
its table's hand entry, log and standings only: no evening page, no settlement, no exports.

Personas: Alice organises; the phone is the table's guest, logged in through the score-sheet link.
"""

from __future__ import annotations

import datetime
import re
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from ledger import services
from ledger.models import Hand
from ledger.tournaments import services as tournaments
from ledger.tournaments.models import TournamentTable
from tests.ledger.offline.test_offline import form_fields, tapped

HX = {"HX-Request": "true"}
DAY = datetime.date(2026, 12, 4)


def running(alice, game: str, *, for_money: bool = False):
    players = ["Ana", "Ben", "Cyril", "Dana"] if game == "marias" else ["Ana", "Ben", "Cyril"]
    return tournaments.tournament_create(
        owner=alice,
        game=game,
        name="Club night",
        players=players,
        rounds=1,
        options={"for_money": for_money},
        date=DAY,
        start=True,
    )


def phone_of(tournament) -> tuple[Client, TournamentTable]:
    table = TournamentTable.objects.select_related("table").get(round__tournament=tournament)
    client = Client()
    assert client.get(reverse("ledger:tournament_sheet", args=[table.token])).status_code == 302
    return client, table


def status_line(html: str) -> str:
    """The status line's text after Record: "Hand #1: Ana +74 (Clubs with 1)", tags and spacing dropped."""
    found = re.search(r'<div class="recorded card" id="hand-recorded".*?</p>', html, re.S)
    assert found, html
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(0)).split())


def record_skat_clubs(phone: Client, table: TournamentTable) -> str:
    """Ana wins Clubs with 1 (24, and 50 for the won game on the Seeger-Fabian list: 74) from the phone."""
    page = phone.get(f"/tables/{table.table_id}/").content.decode()
    taps = {"declarer": "Ana", "contract": "clubs", "matadors": "1", "declarer_points": "70"}
    answer = phone.post(reverse("ledger:hand_create", args=[table.table_id]), dict(tapped(form_fields(page), taps)),
                        headers=HX)  # fmt: skip
    assert answer.status_code == 200
    return answer.content.decode()


def test_a_skat_phone_says_the_list_points_not_the_money(alice):
    phone, table = phone_of(running(alice, "skat"))
    answer = record_skat_clubs(phone, table)
    hand = Hand.objects.get(table_id=table.table_id)
    assert hand.result["score"]["Ana"] == 74 and Decimal(hand.amounts["Ana"]) > 0  # the books keep both
    assert status_line(answer) == "Hand #1: Ana +74 (Clubs with 1)"
    # The log's new row: the list points, no money; no chart of the money.
    row = re.search(r'<li class="hand-row card" id="hand-1">.*?</li>\s*</ol>', answer, re.S).group(0)
    assert 'class="amounts"' not in row and "Ana <span" in row and "+74" in row
    assert "Why?" not in row  # the explanation is the money's arithmetic
    assert "<svg" not in answer
    # The page after it (the redirect without JavaScript) says the same, and its scoreboard shows the list only.
    page = phone.get(f"/tables/{table.table_id}/?recorded=1").content.decode()
    assert status_line(page) == "Hand #1: Ana +74 (Clubs with 1)"
    balances = re.findall(r'<div class="balance[^"]*">([^<]*)</div>', page)
    assert balances and not any(balances), balances
    assert '<div class="role points">Seeger-Fabian points: <span class="num">+74</span></div>' in page


def test_a_mariás_phone_says_the_game_points_not_the_money(alice):
    tournament = running(alice, "marias")
    phone, table = phone_of(tournament)
    hand = services.hand_record(
        table=table.table,
        hand={"declarer": "Ana", "partner": "Cyril", "contract": "hra", "trump": "bells", "points": 60},
        by=alice,
    )
    stake = Decimal(table.table.ruleset["stake"])
    points = Decimal(hand.amounts["Ana"]) / stake
    assert points == points.to_integral_value() and points > 0
    page = phone.get(f"/tables/{table.table_id}/?recorded=1").content.decode()
    assert status_line(page) == f"Hand #1: Ana +{int(points)} ({hand.label})"
    assert "Points: <span" in page  # the scoreboard counts game points
    row = re.search(r'<li class="hand-row card" id="hand-1">.*?</details>', page, re.S).group(0)
    assert f'<span>Ana</span> <span class="num plus">+{int(points)}</span>' in row
    assert "<svg" not in page.split('id="balance-chart"')[1].split("</div>")[0]
    # Its correction page tells the versions apart without the money.
    edit = phone.get(reverse("ledger:hand_edit", args=[hand.pk])).content.decode()
    assert "Hra in bells" in edit and 'class="amounts"' not in edit
    money = re.findall(r'<div class="balance[^"]*">([^<]*)</div>', page)
    assert money and not any(money), money


def test_a_phone_of_a_tournament_for_money_says_the_money(alice):
    phone, table = phone_of(running(alice, "skat", for_money=True))
    answer = record_skat_clubs(phone, table)
    amount = Decimal(Hand.objects.get(table_id=table.table_id).amounts["Ana"])
    assert status_line(answer) == f"Hand #1: Ana +{amount:.2f} (Clubs with 1)"


@pytest.mark.parametrize("for_money", [False, True])
def test_the_phone_reaches_its_table_not_its_evening(alice, for_money):
    phone, table = phone_of(running(alice, "skat", for_money=for_money))
    page = phone.get(f"/tables/{table.table_id}/").content.decode()
    assert "Close the evening and settle" not in page
    assert reverse("ledger:evening_detail", args=[table.evening_id]) not in page
    assert reverse("ledger:evening_settlement", args=[table.evening_id]) not in page
    for path in (
        reverse("ledger:evening_detail", args=[table.evening_id]),
        reverse("ledger:evening_summary_pdf", args=[table.evening_id]),
        reverse("ledger:evening_export_xlsx", args=[table.evening_id]),
        reverse("ledger:evening_export_csv", args=[table.evening_id, "hands"]),
        reverse("ledger:evening_settlement", args=[table.evening_id]),
    ):
        answer = phone.get(path)
        assert answer.status_code == 302 and answer["Location"] == f"/tables/{table.table_id}/", path
    leave = reverse("ledger:evening_scorekeeper_remove", args=[table.evening_id])
    assert phone.post(leave, {"username": "x"}).status_code == 404
    # The standings stay one tap away (the tournament's share link), and the organiser keeps the evening.
    assert phone.get(f"/r/{table.round.tournament.share_token}/").status_code == 200
    organiser = Client()
    organiser.force_login(alice)
    assert organiser.get(reverse("ledger:evening_detail", args=[table.evening_id])).status_code == 200
    assert "Close the evening and settle" in organiser.get(f"/tables/{table.table_id}/").content.decode()
