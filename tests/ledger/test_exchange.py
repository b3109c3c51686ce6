"""ledger.exchange and its commands: an evening exported to JSON and imported back is the same evening."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from django.core.management import CommandError, call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger import exchange, selectors, services
from ledger.models import Evening, Hand, HandVersion, Player, Posting, Table
from tests import factories
from tests.rules.strategies import skat_documents
from tests.rules.strategies_marias import marias_documents
from tests.rules.strategies_snapser import snapser_documents

D = Decimal


@pytest.fixture
def bob(db):
    return factories.make_user("bob")


@pytest.fixture
def full_evening(evening, alice, charlie):
    """Three games, keys, a correction by a co-scorekeeper, a void, and a settlement with one transfer paid."""
    services.evening_add_scorekeeper(evening=evening, user=charlie)
    snapser = factories.make_table(evening, "snapser")
    first, second, _third = (
        services.hand_record(table=snapser, hand=factories.SNAPSER_N1, by=alice, key=f"tap-{n}") for n in range(3)
    )
    services.hand_correct(hand=first, document=factories.SNAPSER_N1 | {"result": "bez_vody"}, by=charlie, version=1)
    services.hand_void(hand=second, by=alice)
    factories.record(factories.make_table(evening, "skat", stake="0.05"), times=2)
    marias = factories.make_table(evening, "marias")
    services.hand_record(table=marias, hand=factories.MARIAS_M2, by=charlie)
    Player.objects.filter(owner=alice, name="Ana").update(iban="CZ6508000000192000145399")
    settlement = services.evening_close(evening=evening, by=alice)
    services.transfer_mark_paid(transfer=settlement.transfers.first(), by=charlie)
    # Settings no hand is stored differently for, which the copy must still carry.
    Table.objects.filter(pk=marias.pk).update(recording="seated", confirmation="everyone")
    evening.refresh_from_db()
    return evening


def _exported(evening: Evening) -> dict:
    """The export as it travels (through JSON text), without what legitimately differs after an import."""
    evening.refresh_from_db()
    data = json.loads(json.dumps(exchange.evening_export(evening=evening)))
    del data["exported_at"], data["evening"]["owner"], data["evening"]["scorekeepers"]
    return data


def _counts() -> tuple[int, ...]:
    return tuple(model.objects.count() for model in (Evening, Player, Hand, HandVersion, Posting))


def test_an_evening_round_trips_with_identical_hands_versions_and_balances(full_evening, bob):
    before = _exported(full_evening)
    copy = exchange.evening_import(
        data=json.loads(json.dumps(exchange.evening_export(evening=full_evening))), owner=bob
    )
    assert copy.pk != full_evening.pk
    assert (copy.owner, copy.status) == (bob, "closed")
    assert copy.share_token != full_evening.share_token
    assert _exported(copy) == before
    assert selectors.evening_balances(copy) == selectors.evening_balances(full_evening)
    for original, imported in zip(full_evening.tables.all(), copy.tables.all(), strict=True):
        assert selectors.table_balances(imported) == selectors.table_balances(original)
        assert [(h.number, h.version, h.status) for h in imported.hands.all()] == [
            (h.number, h.version, h.status) for h in original.hands.all()
        ]
    postings = Posting.objects.filter(hand__table__evening__in=[full_evening, copy])
    assert postings.filter(hand__table__evening=copy).count() == postings.count() / 2 == 3 * 3 + 2 * 3 + 4
    assert Player.objects.get(owner=bob, name="Ana").iban == "CZ6508000000192000145399"
    assert copy.tables.get(game="marias").confirmation == "everyone"


def test_the_users_of_the_document_are_kept_when_known_and_become_the_importer_otherwise(full_evening, bob, charlie):
    data = exchange.evening_export(evening=full_evening)
    data["tables"][0]["hands"][1]["changed_by"] = "ghost"
    copy = exchange.evening_import(data=data, owner=bob)
    hands = {hand.number: hand for hand in copy.tables.first().hands.all()}
    assert hands[1].changed_by == charlie
    assert hands[2].changed_by == bob
    assert not copy.scorekeepers.exists()  # access is granted anew on the importing side


def test_a_document_cannot_name_somebody_who_did_not_keep_its_score(full_evening, bob):
    """A forged document that says an administrator here corrected a hand and marked the payment: they are not the
    document's owner or one of its scorekeepers, so the importer's name goes there instead."""
    factories.make_user("admin")
    data = exchange.evening_export(evening=full_evening)
    data["tables"][0]["hands"][0]["changed_by"] = "admin"
    (paid,) = [transfer for transfer in data["settlement"]["transfers"] if transfer["paid_by"]]
    paid["paid_by"] = "admin"
    copy = exchange.evening_import(data=data, owner=bob)
    hand = copy.tables.get(game="snapser").hands.get(number=1)
    assert hand.changed_by == bob
    assert copy.settlement.transfers.get(paid_at__isnull=False).paid_by == bob
    # Named as a scorekeeper in the document, the same user keeps the name: the round trip of a real evening.
    data["evening"]["scorekeepers"].append("admin")
    again = exchange.evening_import(data=data, owner=bob)
    assert again.tables.get(game="snapser").hands.get(number=1).changed_by.get_username() == "admin"


def test_a_hand_that_no_longer_prices_as_exported_refuses_the_whole_import(full_evening, bob):
    data = exchange.evening_export(evening=full_evening)
    data["tables"][1]["hands"][1]["result"]["amounts"] = {"Ana": "9.60", "Ben": "-4.80", "Cyril": "-4.80"}
    before = _counts()
    with pytest.raises(exchange.ImportRefused, match=r"table 2 \(skat\), hand #2: re-prices to"):
        exchange.evening_import(data=data, owner=bob)
    assert _counts() == before


@pytest.mark.parametrize(
    ("spoil", "message"),
    [
        (lambda d: d.update(format="talon-backup"), "not a talon-evening document"),
        (lambda d: d["evening"].update(coin="0"), "coin must be more than zero"),
        (lambda d: d["tables"][0]["hands"][0].update(dealer=7), "hand #1: dealer must be a seat"),
        (lambda d: d["tables"][0]["hands"][2]["result"]["amounts"].update(Ana="1"), "hand #3: result.amounts do not"),
        (lambda d: d["tables"][0]["hands"][0]["document"].update(raises=9), "hand #1: the rules refuse it now"),
        (lambda d: d["tables"][0]["hands"].append(d["tables"][0]["hands"][0]), "hand numbers must be distinct"),
        (lambda d: d["tables"][2].update(seat_names=["Ana", "Ana", "Ben", "Dana"]), "table 3 \\(marias\\): players"),
        (lambda d: d["settlement"]["transfers"][0].update(amount="-1"), "amount must be more than zero"),
        (lambda d: d["tables"][0].update(hands="none"), "hands must be a list"),
    ],
)
def test_a_spoilt_document_is_refused_naming_where_and_stores_nothing(full_evening, bob, spoil, message):
    data = exchange.evening_export(evening=full_evening)
    spoil(data)
    before = _counts()
    with pytest.raises(exchange.ImportRefused, match=message):
        exchange.evening_import(data=data, owner=bob)
    assert _counts() == before


def test_a_voided_hand_is_priced_too_since_it_can_be_counted_again(full_evening, bob):
    data = exchange.evening_export(evening=full_evening)
    data["tables"][0]["hands"][1]["document"]["raises"] = 9  # hand #2 is voided
    before = _counts()
    with pytest.raises(exchange.ImportRefused, match="hand #2: the rules refuse it now"):
        exchange.evening_import(data=data, owner=bob)
    assert _counts() == before


def test_the_commands_export_to_a_file_and_import_it_for_another_owner(full_evening, bob, tmp_path, capsys):
    path = tmp_path / "evening.json"
    call_command("export_evening", str(full_evening.pk), "--output", str(path))
    call_command("import_evening", str(path), "--owner", "bob")
    assert "Imported evening" in capsys.readouterr().out
    copy = Evening.objects.get(owner=bob)
    assert _exported(copy) == _exported(full_evening)


def test_the_import_command_names_the_hand_it_refuses(full_evening, bob, tmp_path):
    data = exchange.evening_export(evening=full_evening)
    data["tables"][2]["hands"][0]["result"]["amounts"]["Ana"] = "0"
    data["tables"][2]["hands"][0]["result"]["amounts"]["Ben"] = "0"
    path = tmp_path / "evening.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CommandError, match=r"Nothing imported: table 3 \(marias\), hand #1"):
        call_command("import_evening", str(path), "--owner", "bob")
    assert not Evening.objects.filter(owner=bob).exists()


def test_the_commands_refuse_an_unknown_owner_evening_or_file(full_evening, tmp_path):
    with pytest.raises(CommandError, match="No evening"):
        call_command("export_evening", "999999")
    with pytest.raises(CommandError, match="No user"):
        call_command("import_evening", "-", "--owner", "nobody")
    (tmp_path / "bad.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("import_evening", str(tmp_path / "bad.json"), "--owner", "alice")


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(documents=st.lists(st.one_of(skat_documents(), marias_documents(), snapser_documents()), max_size=8))
def test_random_evenings_round_trip(alice, documents):
    evening = factories.make_evening(alice)
    for document in documents:
        table = services.table_create(
            evening=evening, game=document["game"], players=document["players"], rules_override=document["rules"]
        )
        # The ledger keeps the Bock queue: a fresh table has none pending, whatever the generated hand says.
        played = {field: value for field, value in document["hand"].items() if field != "bock"}
        hand = services.hand_record(table=table, hand=played, by=alice)
        services.hand_correct(hand=hand, document=played, by=alice, version=1)
    copy = exchange.evening_import(data=json.loads(json.dumps(exchange.evening_export(evening=evening))), owner=alice)
    assert _exported(copy) == _exported(evening)
    assert selectors.evening_balances(copy) == selectors.evening_balances(evening)


def test_an_export_with_the_old_engine_defaults_still_imports_at_the_same_prices(evening, alice, bob):
    """Betl without won (the old engine: lost) and a pub Skat table frozen before bock_per_trigger existed."""
    marias = factories.make_table(evening, "marias")
    services.hand_record(table=marias, hand={"declarer": "Ben", "contract": "betl", "won": False}, by=alice)
    skat = factories.make_table(evening, "skat", preset="pub")
    grand_hand = {"declarer": "Ana", "contract": "grand", "matadors": 2, "hand": True, "declarer_points": 61}
    services.hand_record(table=skat, hand=grand_hand, by=alice)  # worth 72: fires two Bock triggers
    data = json.loads(json.dumps(exchange.evening_export(evening=evening)))
    old_marias, old_skat = data["tables"][0], data["tables"][1]
    del old_marias["hands"][0]["document"]["won"]
    old_skat["ruleset"] = {k: v for k, v in old_skat["ruleset"].items() if k != "bock_per_trigger"}
    assert old_skat["ruleset"]["bock"] and not skat.ruleset["bock_per_trigger"]

    copy = exchange.evening_import(data=data, owner=bob)
    betl = Hand.objects.get(table__evening=copy, table__game="marias")
    assert betl.document == {"declarer": "Ben", "contract": "betl", "won": False}
    assert betl.amounts == Hand.objects.get(table=marias).amounts
    assert copy.tables.get(game="skat").ruleset["bock_per_trigger"] is True  # what the old table meant
