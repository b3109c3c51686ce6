"""Each hand keeps the table's balances after it (``Hand.balances``, issue 16 part 7): written here for the hands
stored so far, from their postings, as ``ledger.running_balances`` writes them for new ones."""

from collections import defaultdict
from decimal import Decimal

from django.db import migrations, models

PLACES = Decimal("0.0001")


def fill(apps, schema_editor):
    Table, Seat = apps.get_model("ledger", "Table"), apps.get_model("ledger", "Seat")
    Hand, Posting = apps.get_model("ledger", "Hand"), apps.get_model("ledger", "Posting")
    for table_id in Table.objects.order_by("pk").values_list("pk", flat=True):
        seated = Seat.objects.filter(table_id=table_id).order_by("position").values_list("player_id", flat=True)
        positions = {player: position for position, player in enumerate(seated)}
        amounts = defaultdict(list)
        for hand_id, player_id, amount in Posting.objects.filter(hand__table_id=table_id).values_list(
            "hand_id", "player_id", "amount"
        ):
            amounts[hand_id].append((player_id, amount))
        running = [Decimal(0)] * len(positions)
        hands = list(Hand.objects.filter(table_id=table_id).order_by("number").only("pk", "status"))
        for hand in hands:
            if hand.status == "counted":
                for player_id, amount in amounts[hand.pk]:
                    if player_id in positions:  # as the balances read by name: only the seated players
                        running[positions[player_id]] += amount
            hand.balances = [str(value.quantize(PLACES)) for value in running]
        Hand.objects.bulk_update(hands, ["balances"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("ledger", "0011_settlement_names_dropped")]

    operations = [
        migrations.AddField(
            model_name="hand",
            name="balances",
            field=models.JSONField(blank=True, editable=False, null=True),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
