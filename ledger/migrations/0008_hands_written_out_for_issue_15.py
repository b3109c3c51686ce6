"""Write out what stored hands left to the engine's old defaults, so that the engine, which now refuses hands no
deal can produce, can price them again.

A player's rename and an import price every stored hand and version again, so a hand the engine now refuses would
block both. See ``ledger.old_documents``: a document is rewritten only when the engine prices the rewrite to exactly the
amounts stored with it, so this never changes who pays what. A hand that no rewrite can save (card points that do
not add up, say) stays as it is, its price as stored; a rename then names it.
"""

from decimal import Decimal

from django.db import migrations

from ledger import old_documents


def forwards(apps, schema_editor):
    Hand = apps.get_model("ledger", "Hand")
    HandVersion = apps.get_model("ledger", "HandVersion")
    rows = [
        *((hand, hand.table) for hand in Hand.objects.select_related("table")),
        *((version, version.hand.table) for version in HandVersion.objects.select_related("hand__table")),
    ]
    for row, table in rows:
        stored = {name: Decimal(amount) for name, amount in (row.result or {}).get("amounts", {}).items()}
        fixed = old_documents.repaired(table.game, table.seat_names, table.ruleset, row.document, stored)
        if fixed is not None:
            row.document = fixed
            row.save(update_fields=["document"])


class Migration(migrations.Migration):
    dependencies = [("ledger", "0007_skat_rules_of_issue_15")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
