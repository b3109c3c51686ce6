"""Migrations 0009-0011: settlements stored with names keep their banker and transfers, now as Player rows."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest

from tests.ledger.migrations_support import migrate_to

BEFORE = [("ledger", "0008_hands_written_out_for_issue_15")]
AFTER = [("ledger", "0011_settlement_names_dropped")]


def _old_settlement(apps, owner, *, banker):
    """An evening closed before settlements pointed at Player rows: the banker and the transfers stored as names."""
    evening = apps.get_model("ledger", "Evening").objects.create(
        owner=owner, date=datetime.date(2026, 1, 1), currency="EUR", coin="1", share_token=owner.username.ljust(22, "x")
    )
    exact = {"Ana": "12.0000", "Ben": "-5.0000", "Cyril": "-7.0000"}
    settlement = apps.get_model("ledger", "Settlement").objects.create(
        evening=evening,
        mode="banker" if banker else "fewest",
        banker=banker,
        coin="1",
        exact=exact,
        rounded=exact,
        created_by=owner,
    )
    Transfer = apps.get_model("ledger", "Transfer")
    paid = Transfer.objects.create(
        settlement=settlement,
        payer="Cyril",
        payee="Ana",
        amount="7",
        paid_by=owner,
        paid_at=datetime.datetime(2026, 1, 1, 23, tzinfo=datetime.UTC),
    )
    unpaid = Transfer.objects.create(settlement=settlement, payer="Ben", payee="Ana", amount="5")
    return settlement, paid, unpaid


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("back_to_the_latest_schema")
def test_stored_names_become_the_owners_players_and_the_settlement_is_kept():
    apps = migrate_to(BEFORE)
    User, Player = apps.get_model("auth", "User"), apps.get_model("ledger", "Player")
    alice, bob = User.objects.create(username="alice"), User.objects.create(username="bob")
    players = {name: Player.objects.create(owner=alice, name=name, iban=f"IBAN-{name}") for name in ("Ana", "Ben")}
    Player.objects.create(owner=bob, name="Ana")  # a namesake of another owner's: not Alice's Ana
    # Cyril has no player row (a hand-edited database): the migration makes one rather than lose the transfer.
    banked, paid, unpaid = _old_settlement(apps, alice, banker="Ana")
    fewest, _paid, _unpaid = _old_settlement(apps, bob, banker="")

    apps = migrate_to(AFTER)
    Player, Settlement = apps.get_model("ledger", "Player"), apps.get_model("ledger", "Settlement")
    Transfer = apps.get_model("ledger", "Transfer")
    settlement = Settlement.objects.get(pk=banked.pk)
    assert settlement.banker_id == players["Ana"].pk
    assert settlement.exact == {"Ana": "12.0000", "Ben": "-5.0000", "Cyril": "-7.0000"}
    cyril = Player.objects.get(owner_id=alice.pk, name="Cyril")
    assert Transfer.objects.get(pk=paid.pk).payer_id == cyril.pk
    assert Transfer.objects.get(pk=paid.pk).payee_id == players["Ana"].pk
    assert Transfer.objects.get(pk=paid.pk).paid_at is not None
    assert (Transfer.objects.get(pk=unpaid.pk).payer_id, Transfer.objects.get(pk=unpaid.pk).amount) == (
        players["Ben"].pk,
        Decimal(5),
    )
    assert Settlement.objects.get(pk=fewest.pk).banker_id is None
    bobs = {transfer.payee.owner.username for transfer in Transfer.objects.filter(settlement_id=fewest.pk)}
    assert bobs == {"bob"}


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("back_to_the_latest_schema")
def test_going_back_writes_the_names_out_again():
    apps = migrate_to(BEFORE)
    alice = apps.get_model("auth", "User").objects.create(username="alice")
    for name in ("Ana", "Ben", "Cyril"):
        apps.get_model("ledger", "Player").objects.create(owner=alice, name=name)
    banked, _paid, _unpaid = _old_settlement(apps, alice, banker="Ana")
    migrate_to(AFTER)

    apps = migrate_to(BEFORE)
    Settlement, Transfer = apps.get_model("ledger", "Settlement"), apps.get_model("ledger", "Transfer")
    assert Settlement.objects.get(pk=banked.pk).banker == "Ana"
    assert [(t.payer, t.payee) for t in Transfer.objects.order_by("pk")] == [("Cyril", "Ana"), ("Ben", "Ana")]
