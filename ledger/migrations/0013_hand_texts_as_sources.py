"""Issue 16, part 4: a hand is priced once and its texts are said in the reader's language when read.

Before, a stored result held its label and lines as copies, English in ``label``/``lines`` and one copy per language
in ``texts``. Now ``source`` holds how they were made (message ids and parameters, ``rules.Score.text_source``).
See ``ledger.old_documents.text_source``: a hand's texts become message ids only when the engine, pricing it
again, comes to exactly the stored amounts and English text; otherwise they keep their copies. Money never changes
here. Backwards, the copies are written out again from the sources.
"""

from django.db import migrations

from ledger import old_documents

BATCH = 500


def _rows(apps):
    Hand = apps.get_model("ledger", "Hand")
    HandVersion = apps.get_model("ledger", "HandVersion")
    yield Hand, ((hand, hand.table) for hand in Hand.objects.select_related("table").iterator(BATCH))
    versions = HandVersion.objects.select_related("hand__table").iterator(BATCH)
    yield HandVersion, ((version, version.hand.table) for version in versions)


def _save(model, changed):
    model.objects.bulk_update(changed, ["result"], batch_size=BATCH)


def forwards(apps, schema_editor):
    for model, rows in _rows(apps):
        changed = []
        for row, table in rows:
            if not isinstance(row.result, dict) or "source" in row.result:
                continue  # already a source, or nothing the ledger wrote
            result = dict(row.result)
            source = old_documents.text_source(table.game, table.seat_names, table.ruleset, result, row.document)
            result.pop("texts", None)
            row.result = result | {"source": source}
            changed.append(row)
        _save(model, changed)


def backwards(apps, schema_editor):
    for model, rows in _rows(apps):
        changed = []
        for row, _table in rows:
            result = dict(row.result) if isinstance(row.result, dict) else {}
            source = result.pop("source", None)
            if isinstance(source, dict):
                row.result = result | {"texts": old_documents.text_copies(source)}
                changed.append(row)
        _save(model, changed)


class Migration(migrations.Migration):
    dependencies = [("ledger", "0012_hand_balances")]

    operations = [migrations.RunPython(forwards, backwards)]
