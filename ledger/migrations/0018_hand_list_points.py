"""At a game that keeps a list of points beside the money (Skat), each hand keeps the table's list after it
(``Hand.list_points``): written here for the hands stored so far, from their scores, as
``ledger.running_balances`` writes them for new ones."""

from django.db import migrations, models


def fill(apps, schema_editor):
    Table, Hand = apps.get_model("ledger", "Table"), apps.get_model("ledger", "Hand")
    # Skat is the one game whose results carry list points (``result["score"]``) at this migration.
    for table_id, seat_names in Table.objects.filter(game="skat").order_by("pk").values_list("pk", "seat_names"):
        seats = {name: position for position, name in enumerate(seat_names)}
        running = [0] * len(seats)
        hands = list(Hand.objects.filter(table_id=table_id).order_by("number").only("pk", "status", "result"))
        for hand in hands:
            score = hand.result.get("score") if isinstance(hand.result, dict) else None
            if hand.status == "counted" and isinstance(score, dict):
                for name, points in score.items():
                    if name in seats and isinstance(points, int):
                        running[seats[name]] += points
            hand.list_points = list(running)
        Hand.objects.bulk_update(hands, ["list_points"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("ledger", "0017_tournaments")]

    operations = [
        migrations.AddField(
            model_name="hand",
            name="list_points",
            field=models.JSONField(blank=True, editable=False, null=True),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
