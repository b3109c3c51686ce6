"""A hand's correction page keeps the answers given to its older versions: a correction asks again, and the OK of
the version it replaced stays on record."""

from __future__ import annotations

from ledger import services as books
from ledger.confirmations import services
from tests import factories
from tests.ledger.confirmations.support import asking_table, player


def test_the_correction_page_lists_the_answers_of_every_version(alice, client):
    table = asking_table(factories.make_evening(alice), "snapser", "opponent")
    hand = factories.record(table)[0]
    services.dispute(hand=hand, version=1, player=player(table, "Ben"), by=alice, reason="It was bez vody")
    corrected = books.hand_correct(
        hand=hand, document=factories.SNAPSER_N1 | {"result": "bez_vody"}, by=alice, version=1
    )
    services.confirm(hand=corrected, version=2, player=player(table, "Cyril"), by=alice)
    client.force_login(alice)
    page = client.get(f"/hands/{hand.pk}/edit/")
    assert page.status_code == 200
    history = page.text.split('class="summary-list confirmation-history"')[1].split("</ul>")[0]
    v2, v1 = history.split("<li>")[1:]
    assert v2.startswith("<strong>v2</strong> OK from Cyril at ")
    assert v1.startswith("<strong>v1</strong> Disputed by Ben at ") and v1.rstrip().endswith("It was bez vody</li>")


def test_a_table_without_confirmation_shows_no_confirmations_in_the_history(alice, client):
    table = factories.make_table(factories.make_evening(alice), "snapser")
    hand = factories.record(table)[0]
    client.force_login(alice)
    assert "confirmation-history" not in client.get(f"/hands/{hand.pk}/edit/").text
