"""The names of 0010's links are dropped; the links take their field names and are required (the banker only in
banker mode)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("ledger", "0010_settlement_players_filled")]

    operations = [
        # A default first, so that going back can add the name columns again to rows that have none yet.
        *(
            migrations.AlterField(model_name=model, name=name, field=models.CharField(max_length=40, default=""))
            for model, name in (("transfer", "payer"), ("transfer", "payee"))
        ),
        migrations.RemoveField(model_name="settlement", name="banker"),
        migrations.RemoveField(model_name="transfer", name="payer"),
        migrations.RemoveField(model_name="transfer", name="payee"),
        migrations.RenameField(model_name="settlement", old_name="banker_player", new_name="banker"),
        migrations.RenameField(model_name="transfer", old_name="payer_player", new_name="payer"),
        migrations.RenameField(model_name="transfer", old_name="payee_player", new_name="payee"),
        migrations.AlterField(
            model_name="settlement",
            name="banker",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="ledger.player",
                verbose_name="banker",
            ),
        ),
        migrations.AlterField(
            model_name="transfer",
            name="payer",
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to="ledger.player"),
        ),
        migrations.AlterField(
            model_name="transfer",
            name="payee",
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to="ledger.player"),
        ),
    ]
