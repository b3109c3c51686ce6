"""A tournament's live standings, the projector and the printouts (ledger/tournaments/live.py, pdf.py).

Personas: Alice organises, Bob is a player with the standings link (no account), Charlie is a logged-in stranger.
The club night: seven Skat players (a four-seat and a three-seat table), two series, a 10 € entry fee; the first
seat of table 1 wins a grand with one matador (48 game value + 50 Seeger-Fabian = 98 list points, +2.94 € at the
default stake of a cent a point, the three others at that table −0.98 € each).

The stream runs through Django's AsyncClient (an ASGI request) with push's in-process mode (PUSH_URL empty), as
tests/ledger/live/test_push.py does; the database work comes back to the test's thread through ``async_to_sync``.
"""

from __future__ import annotations

import asyncio
import datetime
import io
import json
from decimal import Decimal
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.test import AsyncClient, override_settings
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from ledger import services
from ledger.live import fanout
from ledger.qr import qr_svg
from ledger.tournaments import live, pdf, selectors
from ledger.tournaments import services as tournaments
from ledger.tournaments.models import Round, Tournament, TournamentTable

HX = {"HX-Request": "true"}
WAIT = 5.0  # seconds a message may take on a busy shared machine
PLAYERS = ["Šárka", "Jürgen", "Ľubo", "Dana", "Emil", "Fritz", "Gábor"]
# The grand Šárka wins at table 1 (a four-seat table: the dealer sits out).
GRAND = {"contract": "grand", "matadors": 1, "declarer_points": 61}


@pytest.fixture(autouse=True)
def _fresh_push_state():
    fanout._redis_paused_until = 0.0
    yield
    assert not fanout._hubs, "a subscription was left open"


def _club_night(owner: Any, **options: Any) -> Tournament:
    return tournaments.tournament_create(
        owner=owner,
        game="skat",
        name="Skat im Löwen",
        players=PLAYERS,
        rounds=2,
        options={"fees": {"entry": "10"}, **options},
        date=datetime.date(2026, 12, 1),
        place="Gasthaus Löwe",
        start=True,
    )


@pytest.fixture
def night(alice):
    return _club_night(alice)


def _tables(tournament: Tournament) -> list[TournamentTable]:
    return list(
        TournamentTable.objects.filter(round__tournament=tournament)
        .select_related("table", "round")
        .order_by("round__number", "number")
    )


def _win_grand(table: TournamentTable, declarer: str | None = None) -> None:
    seats = table.table.seat_names
    declarer = declarer or seats[0]
    dealer = next(name for name in seats if name != declarer)
    services.hand_record(
        table=table.table, hand={"dealer": dealer, "declarer": declarer, **GRAND}, by=table.round.tournament.owner
    )


def _declarer(table: TournamentTable) -> str:
    return table.table.seat_names[0]


def _live_url(token: str) -> str:
    return reverse("ledger:tournament_live", args=[token])


def _stream_url(token: str) -> str:
    return reverse("ledger:tournament_stream", args=[token])


def _rows(html: str) -> list[list[str]]:
    """The standings' rows as the page draws them: the cells' texts."""
    body = html.split("<tbody data-rows>")[1].split("</tbody>")[0]
    rows = []
    for line in body.split("</tr>")[:-1]:
        cells = [part.split(">", 1)[1] for part in line.split("<t")[2:] if ">" in part]
        rows.append([cell.split("</")[0] for cell in cells])
    return rows


# --------------------------------------------------------------------------------------------------------------
# The players' live page: /r/<share_token>/


def test_a_player_with_the_link_reads_the_standings_and_the_round(bob_client, night):
    table = _tables(night)[0]
    _win_grand(table)
    winner = _declarer(table)
    html = bob_client.get(_live_url(night.share_token)).content.decode()
    assert "<h1>Skat im Löwen</h1>" in html and "1. 12. 2026 · Gasthaus Löwe" in html
    assert '<span data-round-label data-template="Series {number} of {rounds}">Series 1 of 2</span>' in html
    rows = _rows(html)
    assert rows[0] == ["1", winner, "98", "1", "0"]  # rank, player, points, won, lost
    assert sorted(row[1] for row in rows) == sorted(PLAYERS)
    assert all(row[2:] == ["0", "0", "0"] for row in rows[1:])
    assert "Money" not in html  # the tournament does not play for money
    assert f'data-stream="{_stream_url(night.share_token)}"' in html
    assert '<script src="/static/js/standings.js" defer></script>' in html


def test_the_clock_counts_down_to_the_end_of_the_round(bob_client, night):
    played = Round.objects.get(tournament=night)
    played.ends_at = timezone.now() + datetime.timedelta(minutes=12, seconds=30)
    played.save()
    html = bob_client.get(_live_url(night.share_token)).content.decode()
    clock = html.split("data-clock")[1].split("</span>")[0]
    assert f'data-ends="{played.ends_at.isoformat(timespec="seconds")}"' in clock
    assert clock.endswith(">12:29") or clock.endswith(">12:30")
    played.ends_at = timezone.now() - datetime.timedelta(seconds=1)
    played.save()
    html = bob_client.get(_live_url(night.share_token)).content.decode()
    assert 'class="clock over"' in html and html.split("data-clock")[1].split("</span>")[0].endswith(">Time")


def test_the_clock_texts():
    now = timezone.now()
    at = live.clock_text
    assert at(now + datetime.timedelta(hours=1, minutes=5, seconds=9), now) == "1:05:09"
    assert at(now + datetime.timedelta(minutes=12, seconds=4), now) == "12:04"
    assert at(now + datetime.timedelta(seconds=59.9), now) == "0:59"
    assert at(now, now) == "" and at(None, now) == ""


def test_money_is_shown_where_the_tournament_plays_for_money_in_the_readers_language(bob_client, alice):
    night = _club_night(alice, for_money=True)
    table = _tables(night)[0]
    _win_grand(table)
    bob_client.cookies["django_language"] = "cs"
    html = bob_client.get(_live_url(night.share_token), headers={"Accept-Language": "cs"}).content.decode()
    rows = _rows(html)
    assert rows[0][:5] == ["1", _declarer(table), "98", "1", "0"]
    assert rows[0][5] == "+2,94"  # Czech: decimal comma
    losers = [row for row in rows if row[5] == "−0,98"]
    assert len(losers) == 3 and all('class="num money minus"' in html for _ in losers)
    assert 'data-decimal=","' in html


def test_a_wrong_or_switched_off_link_is_404_for_the_page_the_refresh_and_the_stream(bob_client, night):
    token = night.share_token
    assert bob_client.get(_live_url("x" * 24)).status_code == 404
    night.share_token = None
    night.save(update_fields=["share_token"])
    page = bob_client.get(_live_url(token))
    assert page.status_code == 404 and "These standings are not shared" in page.content.decode()
    refresh = bob_client.get(_live_url(token), headers=HX)
    assert refresh.status_code == 404 and "data-missing" in refresh.content.decode()
    assert "<html" not in refresh.content.decode()
    assert bob_client.get(_stream_url(token)).status_code == 404


def test_the_refresh_is_the_standings_only_and_304_until_a_hand_changes_them(bob_client, night):
    url = _live_url(night.share_token)
    first = bob_client.get(url, headers=HX)
    html = first.content.decode()
    assert first.status_code == 200 and "<html" not in html and "<script" not in html
    assert "<tbody data-rows>" in html
    etag = first["ETag"]
    assert bob_client.get(url, headers={**HX, "If-None-Match": etag}).status_code == 304
    _win_grand(_tables(night)[0])
    again = bob_client.get(url, headers={**HX, "If-None-Match": etag})
    assert again.status_code == 200 and again["ETag"] != etag
    assert ">98<" in again.content.decode()
    # The full page is never answered 304: it carries the server's clock for the countdown.
    assert "ETag" not in bob_client.get(url)


def test_the_refresh_costs_few_queries_when_nothing_changed(bob_client, night, django_assert_max_num_queries):
    url = _live_url(night.share_token)
    etag = bob_client.get(url, headers=HX)["ETag"]
    with django_assert_max_num_queries(3):  # the session, the fingerprint
        assert bob_client.get(url, headers={**HX, "If-None-Match": etag}).status_code == 304


# --------------------------------------------------------------------------------------------------------------
# The live line: /r/<share_token>/stream/


def _run(coroutine):
    return async_to_sync(coroutine)()


async def _open(url: str) -> tuple[Any, Any]:
    response = await AsyncClient().get(url)
    return response, (response.streaming_content if response.status_code == 200 else None)


def _event(chunk: bytes) -> dict[str, Any]:
    data = [line for line in chunk.decode().splitlines() if line.startswith("data: ")]
    assert len(data) == 1, chunk
    parsed: dict[str, Any] = json.loads(data[0][len("data: ") :])
    return parsed


@override_settings(PUSH_URL="")
def test_the_stream_starts_with_the_standings_then_carries_each_stored_hand_once(
    night, django_capture_on_commit_callbacks
):
    table = _tables(night)[0]

    def record() -> None:
        with django_capture_on_commit_callbacks(execute=True):
            _win_grand(table)

    async def scenario():
        response, stream = await _open(_stream_url(night.share_token))
        try:
            first = await asyncio.wait_for(anext(stream), WAIT)
            await sync_to_async(record)()
            second = await asyncio.wait_for(anext(stream), WAIT)
            try:  # nothing more: one hand, one message
                extra = await asyncio.wait_for(anext(stream), 0.5)
            except TimeoutError:
                extra = None
        finally:
            await stream.aclose()
        return response, first, second, extra

    response, first, second, extra = _run(scenario)
    assert response.status_code == 200 and response["Content-Type"] == "text/event-stream"
    assert first.startswith(b"retry: 3000\n")
    before, after = _event(first), _event(second)
    assert [row["points"] for row in before["standings"]] == ["0"] * 7
    assert {row["player"] for row in before["standings"]} == set(PLAYERS)
    played = Round.objects.get(tournament=night)
    assert before["round"] == {"number": 1, "rounds": 2, "ends_at": played.ends_at.isoformat(timespec="seconds")}
    assert before["status"] == "running"
    top = after["standings"][0]
    assert top == {"rank": 1, "player": _declarer(table), "points": "98", "won": 1, "lost": 0,
                   "money": "2.9400", "fees": "0.00", "rounds": 1}  # fmt: skip
    assert extra is None or extra == b": heartbeat\n\n"


@pytest.fixture
def published(monkeypatch):
    sent: list[tuple[str, dict[str, Any]]] = []
    monkeypatch.setattr(fanout, "publish", lambda topic, data: sent.append((topic, data)))
    return sent


def test_a_hand_at_a_tournament_table_publishes_the_standings_once_after_the_commit(
    night, published, django_capture_on_commit_callbacks
):
    table = _tables(night)[0]
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        _win_grand(table)
        assert published == []  # not before the commit
    for callback in callbacks:
        callback()
    topics = [topic for topic, _ in published]
    assert topics.count(selectors.topic(night.pk)) == 1  # and the table's own evening topic, as any table
    (message,) = [data for topic, data in published if topic == selectors.topic(night.pk)]
    assert message["standings"][0]["player"] == _declarer(table) and message["standings"][0]["points"] == "98"


def test_a_new_series_and_the_end_are_published_for_the_clock(night, published, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        tournaments.round_start(tournament=night, number=2, confirm_unfinished=True)
    with django_capture_on_commit_callbacks(execute=True):
        tournaments.tournament_finish(tournament=night)
    messages = [data for topic, data in published if topic == selectors.topic(night.pk)]
    assert [(m["round"]["number"], m["status"]) for m in messages] == [(2, "running"), (2, "finished")]


def test_under_wsgi_the_stream_is_the_standings_alone(bob_client, night):
    response = bob_client.get(_stream_url(night.share_token))
    body = b"".join(response.streaming_content)
    assert response["Content-Type"] == "text/event-stream"
    assert body.count(b"data:") == 1 and len(_event(body)["standings"]) == 7


# --------------------------------------------------------------------------------------------------------------
# The projector


def test_the_organiser_puts_the_standings_on_the_projector(alice_client, night):
    table = _tables(night)[0]
    _win_grand(table)
    response = alice_client.get(reverse("ledger:tournament_projector", args=[night.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert 'class="projector"' in html and "<h1>Skat im Löwen</h1>" in html
    assert "Series 1 of 2" in html and 'role="timer"' in html
    assert _rows(html)[0] == ["1", _declarer(table), "98", "1", "0"]
    # Live through the players' line, which the room can scan from the wall.
    assert f'data-stream="{_stream_url(night.share_token)}"' in html
    assert "<svg" in html and "The standings on your phone" in html
    partial = alice_client.get(reverse("ledger:tournament_projector", args=[night.pk]), headers=HX)
    assert partial.status_code == 200 and "<html" not in partial.content.decode()


def test_with_the_link_switched_off_the_projector_still_follows_by_asking(alice_client, night):
    night.share_token = None
    night.save(update_fields=["share_token"])
    html = alice_client.get(reverse("ledger:tournament_projector", args=[night.pk])).content.decode()
    assert 'data-stream=""' in html and f'hx-get="{reverse("ledger:tournament_projector", args=[night.pk])}"' in html


@pytest.mark.parametrize("name", ["tournament_projector", "tournament_draw_pdf", "tournament_sheets_pdf",
                                  "tournament_results_pdf"])  # fmt: skip
def test_the_organisers_pages_are_404_for_a_stranger(charlie_client, client, night, name):
    url = reverse(f"ledger:{name}", args=[night.pk])
    assert charlie_client.get(url).status_code == 404
    client.logout()
    assert client.get(url).status_code == 302  # to the log-in page, as every organiser's page


# --------------------------------------------------------------------------------------------------------------
# The printouts, read back


def _pdf_text(client, name: str, tournament: Tournament) -> str:
    response = client.get(reverse(f"ledger:{name}", args=[tournament.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(response.content))
    return "\n".join(page.extract_text() for page in reader.pages)


def test_the_draw_says_who_sits_where_with_each_tables_score_sheet_link(alice_client, night):
    text = _pdf_text(alice_client, "tournament_draw_pdf", night)
    flat = " ".join(text.split())
    assert "Skat im Löwen" in text and "Series 1 of 2" in text
    for table in _tables(night):
        assert f"Table {table.number}" in text
        seated = " ".join(table.table.seat_names)
        assert seated in flat, (seated, flat)
        assert table.token in text.replace("\n", "")  # the link under the QR code
    for name in PLAYERS:
        assert name in text


def test_the_draw_shows_each_tables_score_sheet_link_as_a_qr_code(alice_client, night, monkeypatch):
    printed: list[str] = []
    real = pdf.HTML
    monkeypatch.setattr(pdf, "HTML", lambda string: printed.append(string) or real(string=string))
    alice_client.get(reverse("ledger:tournament_draw_pdf", args=[night.pk]))
    (html,) = printed
    for table in _tables(night):
        link = "http://testserver" + reverse("ledger:tournament_sheet", args=[table.token])
        assert qr_svg(link, label=str(table.number), scale=3) in html  # the code of exactly that link


def test_the_score_sheets_have_a_row_per_game_and_the_players_as_columns(alice_client, night):
    text = _pdf_text(alice_client, "tournament_sheets_pdf", night)
    four, three = _tables(night)
    assert len(four.table.seat_names) == 4 and len(three.table.seat_names) == 3
    assert "48 games" in text and "36 games" in text  # Skat: by the table's size
    assert "Declarer" in text and "Game" in text and "Points" in text
    for table in (four, three):
        assert f"Skat im Löwen · Table {table.number}" in text
        header = " ".join(table.table.seat_names)
        assert header in " ".join(text.split())
    lines = text.split()
    assert "48" in lines and "49" not in lines


def test_a_marias_sheet_has_the_formats_hands(alice_client, alice):
    players = [f"Hráč {n}" for n in range(1, 9)]
    cup = tournaments.tournament_create(
        owner=alice, game="marias", name="Mariášový turnaj", players=players, rounds=3, options={"hands": 20},
        start=True,
    )  # fmt: skip
    text = _pdf_text(alice_client, "tournament_sheets_pdf", cup)
    assert text.count("20 hands") == len(_tables(cup))
    assert "Round 1 of 3" in text and "Hráč 8" in text


def test_the_results_list_the_standings_fees_and_prizes(alice_client, night):
    table = _tables(night)[0]
    _win_grand(table)
    tournaments.tournament_finish(tournament=night)
    standings = selectors.standings(night)
    prizes = selectors.prize_list(night, standings)
    # 7 × 10 € entry: 70 € in prizes, top3 (50 / 30 / 20 %). The winner 35 €; the three at the other table tie
    # second (0 € beats −0.98 €) and share 30 + 20 %: 35 / 3 = 11.66 each, the 2 cents left over to the winner.
    winner = _declarer(table)
    assert sum(prizes.values()) == Decimal("70")
    assert prizes[winner] == Decimal("35.02")
    assert sorted(prizes.values()) == [0, 0, 0, Decimal("11.66"), Decimal("11.66"), Decimal("11.66"), Decimal("35.02")]
    text = _pdf_text(alice_client, "tournament_results_pdf", night)
    flat = " ".join(text.split())
    assert "Final results" in text
    assert f"1 {winner} 98 1 0 €0.00 €10.00 €35.02" in flat, flat
    for prize in prizes.values():
        if prize:
            assert f"€{prize:.2f}" in flat
    assert "Prizes in all €70.00" in flat and "Fees paid in all €70.00" in flat


def test_the_lines_first_standings_wait_for_a_writer_holding_the_table(monkeypatch):
    # SQLite's shared cache refuses a read while a writer holds the table: the read is tried again a moment later;
    # any other database error is not.
    from django.db import OperationalError

    calls: list[int] = []

    def locked_twice(tournament_id: int) -> dict[str, Any]:
        calls.append(tournament_id)
        if len(calls) < 3:
            raise OperationalError("database table is locked: ledger_round")
        return {"standings": []}

    monkeypatch.setattr(live, "_message", locked_twice)
    assert live._message_when_free(7) == {"standings": []} and calls == [7, 7, 7]

    def missing(tournament_id: int) -> dict[str, Any]:
        raise OperationalError("no such table: ledger_round")

    monkeypatch.setattr(live, "_message", missing)
    with pytest.raises(OperationalError):
        live._message_when_free(7)
