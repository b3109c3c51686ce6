"""Transfers and the banker point at Player rows (issue 16, part 5): the links, empty for now.

Three steps, each its own migration and so its own transaction on PostgreSQL, which refuses to alter a table
whose rows were just written in the same transaction (deferred foreign-key checks still pending): add the links
(0009), fill them from the stored names (0010), drop the names and make the links required (0011).
"""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("ledger", "0008_hands_written_out_for_issue_15")]

    operations = [
        migrations.AddField(
            model_name="settlement",
            name="banker_player",
            field=models.ForeignKey(
                null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to="ledger.player"
            ),
        ),
        migrations.AddField(
            model_name="transfer",
            name="payer_player",
            field=models.ForeignKey(
                null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to="ledger.player"
            ),
        ),
        migrations.AddField(
            model_name="transfer",
            name="payee_player",
            field=models.ForeignKey(
                null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to="ledger.player"
            ),
        ),
    ]
