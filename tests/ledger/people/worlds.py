"""Bob's world: he is Ben at Alice's (EUR evenings, paid at the table) and Bobby in Dana's circle with a tab (CZK).

Šnapser N1 at the default stake: the chooser +0.40, the opponents −0.20 each; at 3.10: +12.40 and −6.20 each.
"""

from __future__ import annotations

import datetime
from typing import Any

from ledger import services
from ledger.circles import services as circles
from ledger.circles import tab_and_pot
from ledger.models import Evening, Player
from ledger.people import services as people
from ledger.people.models import PlayerClaim
from tests import factories

DAY = datetime.date(2026, 11, 6)


def won_by(table_owner_evening: Evening, winner: str, seats: list[str], **rules: Any) -> Evening:
    table = factories.make_table(table_owner_evening, "snapser", players=seats, **rules)
    factories.record(table, factories.SNAPSER_N1 | {"declarer": winner})
    return table_owner_evening


def alice_evening(alice: Any, winner: str, day: datetime.date) -> Evening:
    evening = factories.make_evening(alice, date=day, place="U Fleků")  # EUR, coin 0.01
    return won_by(evening, winner, [winner, *[n for n in ("Ana", "Ben", "Cyril") if n != winner]])


def bobs_world(alice: Any, bob: Any) -> dict[str, Any]:
    dana = factories.make_user("dana")
    # Alice's first evening: Ana wins, Ben pays her 0.20 (unpaid).
    first = alice_evening(alice, "Ana", DAY)
    services.evening_close(evening=first, by=alice)
    # Her second: Ben wins 0.40; Ana pays him (marked paid), Cyril not yet.
    second = alice_evening(alice, "Ben", DAY + datetime.timedelta(days=7))
    settlement = services.evening_close(evening=second, by=alice)
    services.transfer_mark_paid(transfer=settlement.transfers.get(payer__name="Ana"), by=alice)
    # Dana's circle keeps a tab in crowns: Eva wins the first evening (Bobby −6.20, carried as −6), the tab is
    # settled (Bobby pays Eva 6, unpaid), then Bobby wins the next (+12.40, carried as +12, not yet settled).
    circle = circles.circle_create(owner=dana, name="Friday Šnapser", members=["Eva", "Bobby", "Fred"], settle="tab")
    tab_first = circles.circle_evening_create(circle=circle, by=dana, date=DAY + datetime.timedelta(days=1))
    won_by(tab_first, "Eva", ["Eva", "Bobby", "Fred"], stake="3.10")
    services.evening_close(evening=tab_first, by=dana)
    tab_and_pot.tab_settle(circle=circle, by=dana)
    tab_second = circles.circle_evening_create(circle=circle, by=dana, date=DAY + datetime.timedelta(days=8))
    won_by(tab_second, "Bobby", ["Bobby", "Eva", "Fred"], stake="3.10")
    services.evening_close(evening=tab_second, by=dana)

    ben = Player.objects.get(owner=alice, name="Ben")
    bobby = Player.objects.get(owner=dana, name="Bobby")
    claim = people.player_claim_request(user=bob, player=ben, how=PlayerClaim.How.SHARE_LINK)
    people.player_claim_decide(claim=claim, by=alice, approve=True)
    people.player_claim_grant(user=bob, player=bobby, granted_by=dana, how=PlayerClaim.How.INVITATION)
    return {"dana": dana, "circle": circle, "ben": ben, "bobby": bobby, "evenings": [first, second]}
