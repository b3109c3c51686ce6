"""Write out what stored hands left to the engine's old defaults, so that issue 15's engine can price them again.

Issue 15 made the engine refuse documents that no deal can produce, and some shapes it used to price by a default:
a Mariáš betl or durch, or a seven, without ``won`` (taken as lost), a hlášky side of ``null`` (none), a bid on a
Skat Ramsch or passed-in hand (ignored), a Šnapser ``end`` that contradicts the result (``end`` is informational).
A player's rename and an import price every stored hand and version again, so such a hand would block both.

Each refused document gets the old default written out, and the change is kept only when the engine now prices
it to exactly the amounts stored: this migration never changes who pays what. A hand that no rewrite can save (card
points that do not add up, say) stays as it is; its price stays as stored, and a rename names it.
"""

from decimal import Decimal

from django.db import migrations

import rules


def _written_out(game, hand):
    hand = dict(hand)
    if game == "marias":
        if hand.get("contract") in ("betl", "durch") and "won" not in hand and hand.get("played_out", True):
            hand["won"] = False
        if isinstance(hand.get("seven"), dict) and "won" not in hand["seven"]:
            hand["seven"] = {**hand["seven"], "won": False}
        if isinstance(hand.get("marriages"), dict):
            hand["marriages"] = {side: values for side, values in hand["marriages"].items() if values is not None}
    elif game == "skat" and hand.get("contract") in ("ramsch", "passed"):
        hand.pop("bid", None)
    elif game == "snapser" and hand.get("end") != "false_dost":  # a false dosť is priced; the other ends are not
        hand.pop("end", None)
    return hand


def _priced(table, hand):
    try:
        score = rules.score({"game": table.game, "players": table.seat_names, "rules": table.ruleset, "hand": hand})
    except rules.RulesError:
        return None
    return {name: Decimal(amount) for name, amount in score.amounts.items()}


def _repaired(table, row):
    """The written-out document when the engine refuses the stored one and prices the new one the same, else None."""
    if _priced(table, row.document) is not None:
        return None
    fixed = _written_out(table.game, row.document)
    stored = {name: Decimal(amount) for name, amount in (row.result or {}).get("amounts", {}).items()}
    return fixed if fixed != row.document and _priced(table, fixed) == stored else None


def forwards(apps, schema_editor):
    Hand = apps.get_model("ledger", "Hand")
    HandVersion = apps.get_model("ledger", "HandVersion")
    rows = [
        *((hand, hand.table) for hand in Hand.objects.select_related("table")),
        *((version, version.hand.table) for version in HandVersion.objects.select_related("hand__table")),
    ]
    for row, table in rows:
        fixed = _repaired(table, row)
        if fixed is not None:
            row.document = fixed
            row.save(update_fields=["document"])


class Migration(migrations.Migration):
    dependencies = [("ledger", "0007_skat_rules_of_issue_15")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
