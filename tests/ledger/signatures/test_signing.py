"""Signing the list (the service): what a signature names, the same tap again, staleness after a change, signing
again, for a player who left, and the refusals, each naming its field."""

from __future__ import annotations

from decimal import Decimal

import pytest

from ledger import services as books
from ledger.errors import LedgerError
from ledger.signatures import selectors
from ledger.signatures.models import Signature
from ledger.signatures.services import signature_sign
from tests import factories
from tests.ledger.signatures.conftest import BEN_PHONE, seat


def test_a_seated_phone_signs_the_hands_as_they_stand(evening, table, players, ana_claim):
    signed = signature_sign(evening=evening, player=players["Ana"], by=ana_claim.acting, claim=ana_claim)
    assert signed.made
    stored = Signature.objects.get()
    assert (stored.player, stored.by, stored.claim, stored.for_absent) == (
        players["Ana"],
        ana_claim.acting,
        ana_claim,
        False,
    )
    assert stored.hands == 2
    assert stored.revision == table.revision == 2
    assert stored.tables == {str(table.pk): [2, 2]}
    assert stored.balance == Decimal("0.80")
    assert stored.superseded_at is None


def test_the_same_tap_again_is_answered_with_the_stored_signature(evening, players, ana_claim):
    first = signature_sign(evening=evening, player=players["Ana"], by=ana_claim.acting, claim=ana_claim, revision=2)
    again = signature_sign(evening=evening, player=players["Ana"], by=ana_claim.acting, claim=ana_claim, revision=2)
    assert not again.made
    assert again.signature.pk == first.signature.pk
    assert Signature.objects.count() == 1


def test_a_new_hand_makes_the_signature_stale_from_that_hand(evening, table, players, ana_claim):
    signature_sign(evening=evening, player=players["Ana"], by=ana_claim.acting, claim=ana_claim)
    factories.record(table)
    row = selectors.signatures(evening).rows[0]
    assert (row.player.name, row.signed, row.stale, row.changed_from) == ("Ana", False, True, 3)
    assert selectors.stale_text(row) == "signed before hand #3 changed: asked to sign again"


def test_a_correction_makes_it_stale_from_the_corrected_hand(evening, table, players, alice):
    signature_sign(evening=evening, player=players["Ben"], by=alice, for_absent=True)
    first = table.hands.get(number=1)
    books.hand_void(hand=first, by=alice, version=first.version)
    row = next(row for row in selectors.signatures(evening).rows if row.player.name == "Ben")
    assert (row.stale, row.changed_from) == (True, 1)


def test_signing_again_after_a_change_keeps_the_older_signature(evening, table, players, ana_claim):
    first = signature_sign(evening=evening, player=players["Ana"], by=ana_claim.acting, claim=ana_claim).signature
    factories.record(table)
    second = signature_sign(evening=evening, player=players["Ana"], by=ana_claim.acting, claim=ana_claim, revision=3)
    assert second.made
    first.refresh_from_db()
    assert first.superseded_at == second.signature.at
    assert (second.signature.hands, second.signature.balance) == (3, Decimal("1.20"))
    assert list(Signature.objects.filter(superseded_at__isnull=True)) == [second.signature]
    assert selectors.signatures(evening).rows[0].signed


def test_the_scorekeeper_signs_for_a_player_who_left(evening, players, alice):
    signed = signature_sign(evening=evening, player=players["Cyril"], by=alice, for_absent=True)
    assert (signed.signature.for_absent, signed.signature.claim, signed.signature.by) == (True, None, alice)
    assert signed.signature.balance == Decimal("-0.40")
    assert "signed for by alice at " in selectors.signature_text(signed.signature)
    assert selectors.signature_text(signed.signature).endswith(", left early")


def test_every_seated_player_must_sign(evening, players, alice, ana_claim):
    signature_sign(evening=evening, player=players["Ana"], by=ana_claim.acting, claim=ana_claim)
    listed = selectors.signatures(evening)
    assert [row.player.name for row in listed.rows] == ["Ana", "Ben", "Cyril"]
    assert [row.player.name for row in listed.missing] == ["Ben", "Cyril"]
    assert not listed.complete
    for name in ("Ben", "Cyril"):
        signature_sign(evening=evening, player=players[name], by=alice)
    assert selectors.signatures(evening).complete


def _refused(**kwargs) -> LedgerError:
    with pytest.raises(LedgerError) as refused:
        signature_sign(**kwargs)
    return refused.value


def test_a_player_not_at_the_evening_is_refused(evening, alice):
    other = factories.make_table(factories.make_evening(alice, place="Elsewhere"), "snapser", ["Dana", "Emil", "Fero"])
    dana = other.seats.get(position=0).player
    error = _refused(evening=evening, player=dana, by=alice, for_absent=True)
    assert (error.field, error.message) == ("player", "Dana does not sit at a table of this evening.")


def test_a_closed_evening_is_signed_no_more(evening, players, alice):
    books.evening_close(evening=evening, by=alice)
    error = _refused(evening=evening, player=players["Ben"], by=alice, for_absent=True)
    assert error.field == "evening"
    assert "closed" in error.message
    assert not Signature.objects.exists()


def test_nothing_to_sign_before_the_first_hand(alice):
    table = factories.make_table(factories.make_evening(alice), "snapser")
    player = table.seats.get(position=1).player
    error = _refused(evening=table.evening, player=player, by=alice)
    assert (error.field, error.message) == ("evening", "There is nothing to sign yet: no hand was recorded.")


def test_hands_the_phone_did_not_show_are_not_signed(evening, table, players, ana_claim):
    factories.record(table)  # the phone still showed revision 2
    error = _refused(evening=evening, player=players["Ana"], by=ana_claim.acting, claim=ana_claim, revision=2)
    assert error.field == "revision"
    assert not Signature.objects.exists()


def test_a_phone_signs_only_for_its_own_player(evening, table, players, ana_claim):
    error = _refused(evening=evening, player=players["Ben"], by=ana_claim.acting, claim=ana_claim)
    assert (error.field, error.message) == ("player", "This phone holds no seat of Ben this evening.")
    ben = seat(table, "Ben", BEN_PHONE)
    ben.status = ben.Status.RELEASED
    ben.save()
    error = _refused(evening=evening, player=players["Ben"], by=ben.acting, claim=ben)
    assert error.field == "player"


def test_a_player_on_their_own_phone_is_not_absent(evening, players, ana_claim):
    error = _refused(evening=evening, player=players["Ana"], by=ana_claim.acting, claim=ana_claim, for_absent=True)
    assert error.field == "for_absent"


def test_a_signature_tells_the_evenings_live_pages(
    evening, players, alice, monkeypatch, django_capture_on_commit_callbacks
):
    heard = []
    monkeypatch.setattr("ledger.live.fanout.publish", lambda topic, data: heard.append((topic, data)))
    with django_capture_on_commit_callbacks(execute=True):
        signature_sign(evening=evening, player=players["Ben"], by=alice)
    assert heard == [(f"evening:{evening.pk}", {"signature": players["Ben"].pk, "revision": 2})]


def test_the_admin_shows_signatures_and_writes_none(admin_client, evening, players, alice):
    signature = signature_sign(evening=evening, player=players["Ben"], by=alice, for_absent=True).signature
    listed = admin_client.get("/admin/talon_signatures/signature/")
    assert listed.status_code == 200 and "Ben" in listed.content.decode()
    assert admin_client.get(f"/admin/talon_signatures/signature/{signature.pk}/change/").status_code == 200
    assert admin_client.get("/admin/talon_signatures/signature/add/").status_code == 403
