"""A hand is confirmed exactly when the word the setting asks for is given on its current version: every needed OK
("everyone") or one ("opponent"), and no dispute; words on an older version never count."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger import services as books
from ledger.confirmations import services
from ledger.confirmations.selectors import state_of
from tests import factories
from tests.ledger.confirmations.support import asking_table, player

WORDS = st.lists(st.tuples(st.sampled_from(["Ana", "Ben", "Cyril", "Dana"]), st.sampled_from(["ok", "disputed"])))


@pytest.mark.parametrize("mode", ["opponent", "everyone"])
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(before=WORDS, after=WORDS, corrected=st.booleans())
def test_the_state_follows_the_words_on_the_current_version(alice, mode, before, after, corrected):
    table = asking_table(factories.make_evening(alice), "marias", mode)
    hand = factories.record(table)[0]
    needed = {"opponent": {"Ben", "Dana"}, "everyone": {"Ana", "Ben", "Cyril", "Dana"}}[mode]
    _say(table, hand, 1, before, needed, alice)
    words = before
    if corrected:
        hand = books.hand_correct(hand=hand, document=factories.MARIAS_M2 | {"points": 70}, by=alice, version=1)
        words = []
    _say(table, hand, hand.version, after, needed, alice)
    words = words + after
    first = {}
    for name, verdict in words:
        if name in needed:
            first.setdefault(name, verdict)
    oks = {name for name, verdict in first.items() if verdict == "ok"}
    expected = (
        "disputed"
        if "disputed" in first.values()
        else "confirmed"
        if (oks == needed if mode == "everyone" else oks)
        else "awaiting"
    )
    assert state_of(hand).code == expected


def _say(table, hand, version, words, needed, alice):
    for name, verdict in words:
        if name not in needed:
            continue  # refused: tested elsewhere
        act = services.confirm if verdict == "ok" else services.dispute
        act(hand=hand, version=version, player=player(table, name), by=alice)
