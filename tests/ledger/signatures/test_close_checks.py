"""The close page's checks: a line per player who has not signed (or signed hands changed since); they block the
close (need the override) only where a table of the evening asks for confirmations."""

from __future__ import annotations

import pytest

from ledger import hooks
from ledger.models import Table
from ledger.signatures.listeners import close_checks
from ledger.signatures.services import signature_sign
from tests import factories


def _confirming(table, setting):
    Table.objects.filter(pk=table.pk).update(confirmation=setting)


def test_without_confirmations_the_missing_signatures_are_shown_not_blocking(evening, players, alice):
    signature_sign(evening=evening, player=players["Ana"], by=alice)
    assert close_checks(evening) == [
        hooks.CloseCheck(text="Ben has not signed", open=False),
        hooks.CloseCheck(text="Cyril has not signed", open=False),
    ]


@pytest.mark.parametrize("setting", [Table.Confirmation.OPPONENT, Table.Confirmation.EVERYONE])
def test_with_confirmations_on_they_need_the_override(evening, table, players, alice, setting):
    _confirming(table, setting)
    signature_sign(evening=evening, player=players["Ana"], by=alice)
    assert [(check.text, check.open) for check in close_checks(evening)] == [
        ("Ben has not signed", True),
        ("Cyril has not signed", True),
    ]


def test_one_confirming_table_of_two_is_enough_to_block(evening, table, alice):
    other = factories.make_table(evening, "skat", ["Dana", "Emil", "Fero"])
    _confirming(other, Table.Confirmation.OPPONENT)
    assert all(check.open for check in close_checks(evening))
    assert len(close_checks(evening)) == 6


def test_a_signature_made_stale_by_a_new_hand_is_a_line_again(evening, table, players, alice):
    for name in ("Ana", "Ben", "Cyril"):
        signature_sign(evening=evening, player=players[name], by=alice)
    assert close_checks(evening) == []
    factories.record(table)
    assert [check.text for check in close_checks(evening)] == [
        f"{name} signed before hand #3 changed: asked to sign again" for name in ("Ana", "Ben", "Cyril")
    ]


def test_an_evening_without_hands_asks_nobody(alice):
    table = factories.make_table(factories.make_evening(alice), "snapser")
    assert close_checks(table.evening) == []


def test_the_close_page_hears_them_among_the_other_features_checks(evening, table, alice):
    _confirming(table, Table.Confirmation.OPPONENT)
    texts = [(check.text, check.open) for check in hooks.close_checks(evening)]
    assert ("Ben has not signed", True) in texts
