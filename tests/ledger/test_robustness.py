"""Nothing lost, nothing half-stored: the database's invariants, and junk through the service and the pages.

Every write either stores a whole hand (one posting per seat, summing to zero, numbered next) or nothing at all;
bad input ends as ``rules.RulesError`` / ``services.LedgerError`` in the service and as a 4xx page, never a 500.
"""

from __future__ import annotations

from decimal import Decimal
from types import SimpleNamespace
from typing import Any

import pytest
from django.db import DatabaseError, IntegrityError, transaction
from django.urls import reverse
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import rules
from ledger import selectors, services
from ledger.games import form_class
from ledger.models import Hand, HandVersion, Player, Posting
from ledger.services import hands
from tests import factories, junk
from tests.rules.strategies import skat_documents
from tests.rules.strategies_marias import marias_documents
from tests.rules.strategies_snapser import snapser_documents

D = Decimal
FAST = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
DOCUMENTS = {"skat": skat_documents(), "marias": marias_documents(), "snapser": snapser_documents()}


def _without_bock(document: dict) -> dict:
    """The ledger keeps the Bock queue; a generated hand's own pending Bock count would be refused."""
    return document | {"hand": {field: value for field, value in document["hand"].items() if field != "bock"}}


ANY_DOCUMENT = st.one_of(*DOCUMENTS.values()).map(_without_bock)


def _counts() -> tuple[int, int, int]:
    return Hand.objects.count(), Posting.objects.count(), HandVersion.objects.count()


def _assert_whole(table) -> None:
    """Every hand of the table is whole: numbered 1..n, its postings are its result, they sum to zero."""
    table.refresh_from_db()
    hands = list(table.hands.prefetch_related("postings__player", "versions"))
    assert sorted(hand.number for hand in hands) == list(range(1, table.hand_count + 1))
    for hand in hands:
        postings = {posting.player.name: posting.amount for posting in hand.postings.all()}
        assert postings == hand.amounts, f"hand #{hand.number}"
        assert set(postings) <= set(table.seat_names)
        assert sum(postings.values(), D(0)) == 0
        assert len(hand.versions.all()) == hand.version - 1


def _table_for(evening, document: dict[str, Any]):
    return services.table_create(
        evening=evening, game=document["game"], players=document["players"], rules_override=document["rules"]
    )


# --------------------------------------------------------------------------------------------------------------
# Invariants the database keeps, whatever the code above it does


def _blank(user) -> dict[str, Any]:
    return {"dealer": 0, "document": {}, "result": {}, "entered_by": user, "changed_by": user}


def test_a_duplicate_hand_number_is_refused_by_the_database(snapser_table, alice):
    hand = factories.record(snapser_table)[0]
    with pytest.raises(IntegrityError), transaction.atomic():
        Hand.objects.create(
            table=snapser_table,
            number=hand.number,
            dealer=0,
            document={},
            result={},
            entered_by=alice,
            changed_by=alice,
        )


def test_a_duplicate_key_at_a_table_is_refused_by_the_database(snapser_table, alice):
    services.hand_record(table=snapser_table, hand=factories.SNAPSER_N1, by=alice, key="tap")
    with pytest.raises(IntegrityError), transaction.atomic():
        Hand.objects.create(
            table=snapser_table,
            number=99,
            key="tap",
            dealer=0,
            document={},
            result={},
            entered_by=alice,
            changed_by=alice,
        )


def test_a_second_posting_for_the_same_player_in_a_hand_is_refused(snapser_table):
    hand = factories.record(snapser_table)[0]
    ana = Player.objects.get(name="Ana")
    with pytest.raises(IntegrityError), transaction.atomic():
        Posting.objects.create(hand=hand, player=ana, amount=D("1"))


def test_a_posting_for_a_player_not_at_the_table_is_refused_by_the_database(snapser_table, alice):
    hand = factories.record(snapser_table)[0]
    stranger = services.player_get_or_create(owner=alice, name="Zora")
    try:
        with transaction.atomic():
            Posting.objects.create(hand=hand, player=stranger, amount=D("0"))
    except IntegrityError:
        return
    raise AssertionError("a posting for a player who does not sit at the table was stored")


def test_nothing_is_stored_when_the_postings_cannot_be_written(snapser_table, alice, monkeypatch):
    def broken(*args, **kwargs):
        raise DatabaseError("disk full")

    monkeypatch.setattr(Posting.objects, "bulk_create", broken)
    with pytest.raises(DatabaseError):
        services.hand_record(table=snapser_table, hand=factories.SNAPSER_N1, by=alice)
    snapser_table.refresh_from_db()
    assert (_counts(), snapser_table.hand_count, snapser_table.revision) == ((0, 0, 0), 0, 0)


def test_a_hand_whose_amounts_do_not_balance_is_refused_whole(snapser_table, alice, monkeypatch):
    unbalanced = SimpleNamespace(
        amounts={"Ana": D("1"), "Ben": D("0"), "Cyril": D("0")},
        as_dict=lambda: {"label": "?", "amounts": {}},
        text_source=lambda: {"label": "?", "lines": []},
    )
    monkeypatch.setattr(hands, "hand_price", lambda **kwargs: unbalanced)
    with pytest.raises(services.LedgerError):
        services.hand_record(table=snapser_table, hand=factories.SNAPSER_N1, by=alice)
    snapser_table.refresh_from_db()
    assert (_counts(), snapser_table.hand_count) == ((0, 0, 0), 0)


def test_the_balances_are_exact_sums_of_the_postings(snapser_table, alice):
    # Four hands between Ana and Ben that cancel out exactly; summed as floats they leave -5.55E-17.
    for number, amount in enumerate(["2.82", "-2.36", "-0.39", "-0.07"], start=1):
        hand = Hand.objects.create(table=snapser_table, number=number, **_blank(alice))
        seats = {seat.player.name: seat.player for seat in snapser_table.seats.select_related("player")}
        Posting.objects.bulk_create(
            [
                Posting(hand=hand, player=seats["Ana"], amount=D(amount)),
                Posting(hand=hand, player=seats["Ben"], amount=-D(amount)),
                Posting(hand=hand, player=seats["Cyril"], amount=D(0)),
            ]
        )
    assert selectors.table_balances(snapser_table) == {"Ana": 0, "Ben": 0, "Cyril": 0}
    assert all(amount == 0 for amount in selectors.evening_balances(snapser_table.evening).values())


@settings(FAST, max_examples=40)
@given(documents=st.lists(ANY_DOCUMENT, min_size=1, max_size=10), undo=st.integers(0, 3))
def test_the_balances_of_an_evening_after_random_hands_sum_to_exactly_zero(alice, documents, undo):
    evening = factories.make_evening(alice)
    for document in documents:
        table = _table_for(evening, document)
        services.hand_record(table=table, hand=document["hand"], by=alice)
    for _ in range(undo):
        services.hand_undo_last(table=table, by=alice)
    # Summed here, exactly: what SQLite's own sum does to decimals is the test above.
    counted = Posting.objects.filter(hand__table__evening=evening, hand__status=Hand.Status.COUNTED)
    assert sum(counted.values_list("amount", flat=True), D(0)) == 0
    per_player: dict[int, Decimal] = {}
    for player, amount in counted.values_list("player", "amount"):
        per_player[player] = per_player.get(player, D(0)) + amount
    assert sum(per_player.values(), D(0)) == 0
    for table in evening.tables.all():
        _assert_whole(table)


# --------------------------------------------------------------------------------------------------------------
# Junk through the service: only the two domain errors, and then nothing written

# Every JSON type, NUL characters, lone surrogates, and nesting deeper than any reader recurses (tests/junk.py).
JSON = junk.JSON | st.builds(junk.nested, st.sampled_from([40, 3000]))


@st.composite
def junk_hands(draw: st.DrawFn, hand: dict[str, Any], game: str) -> Any:
    """A valid hand spoiled: fields set to junk, removed or added, nested values replaced, or junk outright."""
    if draw(st.integers(0, 9)) == 0:
        return draw(JSON)
    spoiled = dict(hand)
    names = st.sampled_from(sorted(rules.game(game).hand_schema()["properties"])) | junk.TEXT
    for _ in range(draw(st.integers(1, 3))):
        action = draw(st.sampled_from(["set", "drop", "nest"]))
        if action == "drop" and spoiled:
            spoiled.pop(draw(st.sampled_from(sorted(spoiled))))
        elif action == "nest" and any(isinstance(v, dict) for v in spoiled.values()):
            name = draw(st.sampled_from(sorted(k for k, v in spoiled.items() if isinstance(v, dict))))
            spoiled[name] = dict(spoiled[name]) | {draw(junk.TEXT): draw(JSON)}
        else:
            spoiled[draw(names)] = draw(JSON)
    return spoiled


@st.composite
def junk_cases(draw: st.DrawFn) -> tuple[dict[str, Any], Any]:
    document = draw(ANY_DOCUMENT)
    return document, draw(junk_hands(document["hand"], document["game"]))


@FAST
@given(case=junk_cases())
def test_junk_hands_through_the_service_are_refused_cleanly_or_stored_whole(evening, case):
    document, junk = case
    table = _table_for(evening, document)
    first = services.hand_record(table=table, hand=document["hand"], by=evening.owner)
    stored = first.document  # as the ledger keeps it (with the Bock factor it gave the hand)

    before = _counts()
    try:
        services.hand_record(table=table, hand=junk, by=evening.owner)
    except (rules.RulesError, services.LedgerError):
        assert _counts() == before
    else:
        assert _counts() == (before[0] + 1, before[1] + len(table.seat_names), before[2])

    before = _counts()
    try:
        services.hand_correct(hand=first, document=junk, by=evening.owner, version=1)
    except (rules.RulesError, services.LedgerError):
        assert _counts() == before
        first.refresh_from_db()
        assert (first.version, first.document) == (1, stored)
    else:
        assert _counts() == (before[0], before[1], before[2] + 1)
    _assert_whole(table)


# --------------------------------------------------------------------------------------------------------------
# Junk through the pages: never a server error, never half a hand


def test_a_hand_posted_without_a_dealer_takes_the_rotations_dealer(alice_client, snapser_table):
    factories.record(snapser_table)
    url = reverse("ledger:hand_create", args=[snapser_table.pk])
    response = alice_client.post(url, factories.SNAPSER_N1 | {"key": "no-dealer"})
    assert response.status_code == 302
    assert snapser_table.hands.get(key="no-dealer").dealer == 1


TEXT = st.text(max_size=12) | st.sampled_from(["", "0", "1", "-1", "²", "1e9", "99999999999999999999", "on", "x"])
TEXT |= st.sampled_from(["\x00", "a\x00", "x" * 5000])  # a NUL, which PostgreSQL cannot be asked about; a flood


@st.composite
def junk_posts(draw: st.DrawFn, names: list[str], choices: dict[str, list[str]]) -> dict[str, Any]:
    """Form data as a browser (or anybody with curl) may post it: known fields with valid or junk values."""
    data: dict[str, Any] = {}
    for name in draw(st.lists(st.sampled_from(names) | st.text(max_size=8), max_size=12)):
        valid = choices.get(name) or ["1"]
        value = draw(st.sampled_from(valid) | TEXT)
        data[name] = draw(st.lists(st.just(value) | TEXT, min_size=2, max_size=3)) if draw(st.booleans()) else value
    return data


def _form_vocabulary(table) -> tuple[list[str], dict[str, list[str]]]:
    form = form_class(table.game)(table)
    choices = {
        name: [str(value) for value, _label in getattr(field, "choices", [])]
        for name, field in form.fields.items()
        if getattr(field, "choices", None)
    }
    return [*form.fields, "_refresh", "version"], choices


@pytest.mark.parametrize("game", ["snapser", "skat", "marias"])
def test_junk_posted_to_the_hand_pages_never_breaks_the_server_nor_half_stores(alice_client, evening, game):
    table = factories.make_table(evening, game)
    hand = factories.record(table)[0]
    names, choices = _form_vocabulary(table)
    headers = st.sampled_from([{}, {"HX-Request": "true"}])

    @settings(FAST, max_examples=30)  # three requests each, with the whole table page drawn
    @example(data={"dealer": "x"}, htmx={})  # the form drew itself for an uncleaned dealer
    @example(data={"contract": "x"}, htmx={})  # Mariáš: the flek fields of an unknown contract
    @example(data={"dealer": "²", "_refresh": "1"}, htmx={})  # "²".isdigit(), but int("²") fails
    @given(data=junk_posts(names, choices), htmx=headers)
    def post_junk(data, htmx):
        before = _counts()
        created = alice_client.post(reverse("ledger:hand_create", args=[table.pk]), data, headers=htmx)
        assert created.status_code < 500
        assert _counts()[0] - before[0] in (0, 1)
        drawn = alice_client.get(reverse("ledger:hand_form", args=[table.pk]), data)
        assert drawn.status_code < 500
        before = _counts()
        edited = alice_client.post(reverse("ledger:hand_edit", args=[hand.pk]), data)
        assert edited.status_code < 500
        assert _counts()[0] == before[0]
        _assert_whole(table)

    post_junk()


def test_a_superscript_digit_as_the_hand_to_edit_is_not_found_rather_than_a_server_error(alice_client, snapser_table):
    response = alice_client.get(reverse("ledger:hand_form", args=[snapser_table.pk]), {"edit": "²"})
    assert response.status_code == 404
