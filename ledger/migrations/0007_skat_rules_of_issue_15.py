"""Keep Skat tables and hands created before the Skat rules below changed priced as they were.

- ``bock_per_trigger``: a table's ruleset is frozen when it is created, so later rule changes never re-price its
  hands. Tables frozen before the option existed counted one Bock round per trigger; a missing key would now
  resolve to the new default (one round per hand), so they get the old behaviour written out.
- An ouvert suit or Grand game is a hand game, and the engine now refuses one without ``hand``. Hands stored without
  it (the form let Ouvert be ticked alone; the engine priced it as a hand game anyway) get ``hand: true`` written
  out, so that a correction or a player's rename can still price them, to the same amounts.
"""

from django.db import migrations

OUVERT_GAMES = {"clubs", "spades", "hearts", "diamonds", "grand"}


def _needs_hand(document):
    """``document`` is the hand part of the hand document, as Hand and HandVersion store it."""
    return document.get("contract") in OUVERT_GAMES and document.get("ouvert") and not document.get("hand")


def forwards(apps, schema_editor):
    Table = apps.get_model("ledger", "Table")
    Hand = apps.get_model("ledger", "Hand")
    HandVersion = apps.get_model("ledger", "HandVersion")
    for table in Table.objects.filter(game="skat"):
        if table.ruleset.get("bock") and "bock_per_trigger" not in table.ruleset:
            table.ruleset = {**table.ruleset, "bock_per_trigger": True}
            table.save(update_fields=["ruleset"])
    rows = [*Hand.objects.filter(table__game="skat"), *HandVersion.objects.filter(hand__table__game="skat")]
    for row in rows:
        if _needs_hand(row.document):
            row.document = {**row.document, "hand": True}
            row.save(update_fields=["document"])


class Migration(migrations.Migration):
    dependencies = [("ledger", "0006_invitation")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
