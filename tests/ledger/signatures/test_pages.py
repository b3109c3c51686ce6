"""The signing pages and parts for the three personas: Ana's seated phone signs with one tap, Alice (the
scorekeeper) signs for a player who left and on a shared phone, Charlie (a stranger) and phones holding no seat get
404. Full pages and htmx answers alike."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.template.loader import render_to_string
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from ledger import hooks
from ledger import services as books
from ledger.seats import hooks as seat_hooks
from ledger.signatures import listeners, parts
from ledger.signatures.models import Signature
from ledger.signatures.selectors import signed_at
from ledger.signatures.services import signature_sign
from tests import factories
from tests.ledger.offline.test_offline import form_fields, tapped
from tests.ledger.signatures.conftest import ANA_PHONE, BEN_PHONE, HX, phone, seat


def text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def sign_url(table) -> str:
    return reverse("signatures:table_sign", args=[table.pk])


def test_the_seated_phone_sees_what_it_signs(ana_phone, table):
    page = ana_phone.get(sign_url(table))
    assert page.status_code == 200
    shown = text(page.content.decode())
    assert "You sign as Ana: hands 1–2, your balance +0.80" in shown
    assert 'name="revision" value="2"' in page.content.decode()
    part = ana_phone.get(sign_url(table), headers=HX).content.decode()
    assert part.startswith("\n<section") or part.lstrip().startswith("<section")
    assert "<html" not in part and "You sign as Ana" in text(part)


def test_one_tap_signs_and_the_part_says_when(ana_phone, table, ana_claim):
    answer = ana_phone.post(sign_url(table), {"revision": "2"}, headers=HX)
    assert answer.status_code == 200
    stored = Signature.objects.get()
    assert (stored.claim, stored.by, stored.player.name) == (ana_claim, ana_claim.acting, "Ana")
    assert f"Signed at {signed_at(stored)}" in text(answer.content.decode())
    assert "Ana signed the list." in text(answer.content.decode())


def test_without_javascript_the_tap_leads_back_to_the_page(ana_phone, table):
    answer = ana_phone.post(sign_url(table), {"revision": "2"})
    assert answer.status_code == 302 and answer["Location"] == sign_url(table)
    page = text(ana_phone.get(answer["Location"]).content.decode())
    assert f"Signed at {signed_at(Signature.objects.get())}" in page
    assert "Ana signed the list." in page  # the message


def test_a_double_tap_signs_once(ana_phone, table):
    first = ana_phone.post(sign_url(table), {"revision": "2"}, headers=HX)
    second = ana_phone.post(sign_url(table), {"revision": "2"}, headers=HX)
    assert first.status_code == second.status_code == 200
    assert Signature.objects.count() == 1


def test_hands_changed_since_ask_the_phone_to_sign_again(ana_phone, table):
    ana_phone.post(sign_url(table), {"revision": "2"}, headers=HX)
    factories.record(table)
    shown = text(ana_phone.get(sign_url(table), headers=HX).content.decode())
    assert "Hands changed since you signed: sign again" in shown
    assert "hands 1–3, your balance +1.20" in shown
    stale = ana_phone.post(sign_url(table), {"revision": "2"}, headers=HX)  # the form drawn before the hand
    assert stale.status_code == 200  # htmx swaps no 4xx: the part says it
    assert '<p class="error" role="status">The hands changed since this page was drawn' in stale.content.decode()
    assert ana_phone.post(sign_url(table), {"revision": "3"}, headers=HX).status_code == 200
    assert Signature.objects.filter(superseded_at__isnull=True).get().hands == 3


def test_strangers_and_phones_holding_no_seat_get_404(charlie_client, table, ana_claim):
    assert Client().get(sign_url(table)).status_code == 404
    assert charlie_client.get(sign_url(table)).status_code == 404
    assert charlie_client.post(sign_url(table), {"player": "1"}).status_code == 404
    other_phone = phone(BEN_PHONE)
    assert other_phone.get(sign_url(table)).status_code == 404
    assert other_phone.post(sign_url(table), {"revision": "2"}, headers=HX).status_code == 404
    ana_claim.status = ana_claim.Status.RELEASED
    ana_claim.save()
    assert phone(ana_claim.device).get(sign_url(table)).status_code == 404
    assert not Signature.objects.exists()


def test_the_scorekeepers_phone_is_shared_one_button_per_player(alice_client, table, players):
    page = text(alice_client.get(sign_url(table)).content.decode())
    assert "Sign as Ana" in page and "Sign as Ben" in page and "Sign as Cyril" in page
    answer = alice_client.post(sign_url(table), {"player": players["Ben"].pk, "revision": "2"}, headers=HX)
    shown = text(answer.content.decode())
    assert "Ben signed at" in shown and "on the phone of alice" in shown
    assert "Sign as Ben" not in shown and "Sign as Ana" in shown
    stored = Signature.objects.get()
    assert (stored.player.name, stored.claim, stored.for_absent, stored.by.username) == ("Ben", None, False, "alice")


def test_a_shared_phone_signs_only_the_tables_players(alice_client, alice, table):
    elsewhere = factories.make_table(
        factories.make_evening(alice, place="Elsewhere"), "snapser", ["Dana", "Emil", "Fero"]
    )
    dana = elsewhere.seats.get(position=0).player
    answer = alice_client.post(sign_url(table), {"player": dana.pk}, headers=HX)
    assert answer.status_code == 200
    assert '<p class="error" role="status">Choose a player of this table.</p>' in answer.content.decode()
    assert not Signature.objects.exists()


# --------------------------------------------------------------------------------------------------------------
# The close page's part


def evening_sign_url(evening) -> str:
    return reverse("signatures:evening_sign", args=[evening.pk])


def close_part(evening, request=None) -> str:
    context = listeners.settlement_page(hooks.PageShown(request, evening))
    assert context["settlement_page_parts"] == [parts.CLOSE_PART]
    return render_to_string(parts.CLOSE_PART, context | {"evening": evening})


def test_the_close_page_part_lists_who_signed_and_who_has_not(evening, players, alice, ana_claim):
    signature_sign(evening=evening, player=players["Ana"], by=ana_claim.acting, claim=ana_claim)
    signature_sign(evening=evening, player=players["Cyril"], by=alice, for_absent=True)
    shown = text(close_part(evening))
    at = {row.player.name: signed_at(row) for row in Signature.objects.select_related("player")}
    assert f"Ana : signed at {at['Ana']} on their own phone" in shown
    assert "Ben : has not signed Sign for a player who left : Ben" in shown
    assert f"Cyril : signed for by alice at {at['Cyril']}, left early" in shown
    assert "Everybody has signed." not in shown


def test_the_scorekeeper_signs_for_a_player_who_left(alice_client, evening, players):
    answer = alice_client.post(evening_sign_url(evening), {"player": players["Ben"].pk, "revision": "2"}, headers=HX)
    assert answer.status_code == 200
    stored = Signature.objects.get()
    assert (stored.player.name, stored.for_absent, stored.claim) == ("Ben", True, None)
    shown = text(answer.content.decode())
    assert "Signed for Ben, who left." in shown
    assert f"Ben : signed for by alice at {signed_at(stored)}, left early" in shown
    assert shown.count("Sign for a player who left") == 2  # Ana and Cyril


def test_without_javascript_signing_for_a_player_leads_back_to_the_close_page(alice_client, evening, players):
    answer = alice_client.post(evening_sign_url(evening), {"player": players["Ben"].pk})
    assert answer.status_code == 302
    assert answer["Location"] == reverse("ledger:evening_settlement", args=[evening.pk]) + "#signatures"
    assert Signature.objects.get().for_absent


def test_a_stranger_signs_for_nobody(charlie_client, evening, players):
    assert charlie_client.post(evening_sign_url(evening), {"player": players["Ben"].pk}).status_code == 404
    assert Client().post(evening_sign_url(evening), {"player": players["Ben"].pk}).status_code == 302  # log in
    assert not Signature.objects.exists()


def test_everybody_signed_and_a_closed_evening_offers_no_button(evening, players, alice):
    for name in ("Ana", "Ben", "Cyril"):
        signature_sign(evening=evening, player=players[name], by=alice)
    assert "Everybody has signed." in text(close_part(evening))
    factories.record(evening.tables.get())
    books.evening_close(evening=evening, by=alice)
    evening.refresh_from_db()
    shown = text(close_part(evening))
    assert "Sign for a player who left" not in shown
    assert "Ana : signed before hand #3 changed" in shown


def test_the_close_part_costs_the_same_at_10_and_30_hands(alice):
    counts = []
    for hands in (10, 30):
        table = factories.make_table(factories.make_evening(alice, place=f"{hands}"), "snapser")
        factories.record(table, times=hands)
        signature_sign(evening=table.evening, player=table.seats.get(position=1).player, by=alice)
        factories.record(table)  # one stale signature: the changed hand is looked up too
        with CaptureQueriesContext(connection) as queries:
            close_part(table.evening)
        counts.append(len(queries))
    assert counts[0] == counts[1] <= 6


# --------------------------------------------------------------------------------------------------------------
# The seated phone's page part and a tournament table's phone


def test_the_seat_page_hears_sign_the_list(rf, table, ana_claim):
    answers = seat_hooks.seat_page_context.send(seat_hooks.SeatPage(rf.get("/"), table, ana_claim))
    mine = [answer for answer in answers if parts.SEAT_PART in answer.get("seat_page_parts", [])]
    assert len(mine) == 1
    shown = text(render_to_string(parts.SEAT_PART, mine[0]))
    assert "Sign the list" in shown and "You sign as Ana: hands 1–2, your balance +0.80" in shown


@pytest.fixture
def tournament_phone(alice):
    from ledger.tournaments import services as tournaments
    from ledger.tournaments.models import TournamentTable

    night = tournaments.tournament_create(
        owner=alice, game="snapser", name="Night", players=["Ana", "Ben", "Cyril"], rounds=1,
        options={"hands": 2}, start=True,
    )  # fmt: skip
    found = TournamentTable.objects.select_related("table").get(round__tournament=night)
    client = Client()
    assert client.get(reverse("ledger:tournament_sheet", args=[found.token])).status_code == 302
    return client, found.table


def test_a_tournament_tables_phone_signs_once_the_series_is_played(tournament_phone):
    client, table = tournament_phone
    factories.record(table)
    page = client.get(table.get_absolute_url()).content.decode()
    assert 'id="sign-shared"' in page and "Sign as Ana" not in page  # its place waits
    factories.record(table)
    page = text(client.get(table.get_absolute_url()).content.decode())
    assert "Each player signs hands 1–2 on this phone." in page
    assert "Sign as Ana" in page and "Sign as Ben" in page and "Sign as Cyril" in page
    ana = table.seats.get(player__name="Ana").player
    answer = client.post(sign_url(table), {"player": ana.pk, "revision": "2"}, headers=HX)
    assert answer.status_code == 200
    stored = Signature.objects.get()
    assert (stored.player, stored.claim, stored.for_absent, stored.by.pk) == (
        ana,
        None,
        False,
        int(client.session["_auth_user_id"]),
    )
    assert "Sign as Ana" not in text(answer.content.decode())


def test_another_phone_at_the_table_page_sees_no_signing_row(alice_client, table):
    page = alice_client.get(table.get_absolute_url()).content.decode()
    assert 'id="sign-shared"' not in page


def test_signed_at_is_the_local_time(evening, players, alice, settings):
    signature = signature_sign(evening=evening, player=players["Ben"], by=alice).signature
    assert signed_at(signature) == timezone.localtime(signature.at).strftime("%H:%M")


def test_the_seated_phones_own_page_shows_sign_the_list_full_and_live(ana_phone, table):
    url = reverse("seats:seat_page", args=[table.pk])
    page = ana_phone.get(url)
    assert page.status_code == 200
    assert "You sign as Ana: hands 1–2, your balance +0.80" in text(page.content.decode())
    live = ana_phone.get(url, headers=HX).content.decode()
    assert "<html" not in live and 'id="sign-the-list"' in live
    ana_phone.post(sign_url(table), {"revision": "2"}, headers=HX)
    assert f"Signed at {signed_at(Signature.objects.get())}" in text(ana_phone.get(url, headers=HX).content.decode())


def test_the_close_page_shows_the_signatures_to_its_scorekeeper_only(alice_client, charlie, evening, players, alice):
    signature_sign(evening=evening, player=players["Cyril"], by=alice, for_absent=True)
    url = reverse("ledger:evening_settlement", args=[evening.pk])
    shown = text(alice_client.get(url).content.decode())
    assert "Signatures of the list" in shown
    assert "Ben : has not signed Sign for a player who left : Ben" in shown
    assert "Cyril : signed for by alice at" in shown
    stranger = Client()
    stranger.force_login(charlie)
    assert stranger.get(url).status_code == 404


def test_the_seat_part_costs_the_same_at_10_and_30_hands(alice):
    counts = []
    for hands in (10, 30):
        table = factories.make_table(factories.make_evening(alice, place=f"{hands}"), "snapser")
        factories.record(table, times=hands)
        claim = seat(table, "Ana", ANA_PHONE)
        signature_sign(evening=table.evening, player=claim.player, by=claim.acting, claim=claim)
        factories.record(table)
        table.refresh_from_db()
        with CaptureQueriesContext(connection) as queries:
            signing = parts.seat_signing(table, claim)
        assert signing["row"].changed_from == hands + 1
        counts.append(len(queries))
    assert counts[0] == counts[1] <= 6


def test_signing_for_a_player_of_a_closed_evening_is_refused_in_the_part(alice_client, evening, players, alice):
    books.evening_close(evening=evening, by=alice)
    answer = alice_client.post(evening_sign_url(evening), {"player": players["Ben"].pk}, headers=HX)
    assert answer.status_code == 200
    assert '<p class="error" role="status">This evening is closed: its list was to be signed before the close.</p>' in (
        answer.content.decode()
    )
    assert "Sign for a player who left" not in text(answer.content.decode())
    assert not Signature.objects.exists()


def test_the_hand_that_ends_the_series_brings_the_signing_row_to_the_table_phone(tournament_phone):
    client, table = tournament_phone
    factories.record(table)
    page = client.get(table.get_absolute_url()).content.decode()
    taps = {"declarer": "Ana", "trump": "leaves", "announcement": "hram", "winner": "declarer", "result": "s_vodou"}
    answer = client.post(
        reverse("ledger:hand_create", args=[table.pk]), dict(tapped(form_fields(page), taps)), headers=HX
    )
    assert answer.status_code == 200
    assert table.hands.count() == 2
    html = answer.content.decode()
    assert 'id="sign-shared" hx-swap-oob="true"' in html
    assert "Sign as Ana" in text(html)
