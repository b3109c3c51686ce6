"""Fill the links of 0009 from the stored names: the players of the evening's owner (a name is unique per owner).

A name no player of the owner has any more (nothing in the app leaves one, but a hand-edited database might) gets
its player made, so that every settlement is kept as it was. Backwards, the names are written from the links.
"""

from django.db import migrations


def forwards(apps, schema_editor):
    Player = apps.get_model("ledger", "Player")
    Settlement = apps.get_model("ledger", "Settlement")
    Transfer = apps.get_model("ledger", "Transfer")
    for settlement in Settlement.objects.select_related("evening"):
        owner_id = settlement.evening.owner_id
        players = {player.name: player for player in Player.objects.filter(owner_id=owner_id)}

        def player(name, owner_id=owner_id, players=players):
            if name not in players:
                players[name] = Player.objects.create(owner_id=owner_id, name=name)
            return players[name]

        if settlement.banker:
            settlement.banker_player = player(settlement.banker)
            settlement.save(update_fields=["banker_player"])
        transfers = list(Transfer.objects.filter(settlement=settlement))
        for transfer in transfers:
            transfer.payer_player, transfer.payee_player = player(transfer.payer), player(transfer.payee)
        Transfer.objects.bulk_update(transfers, ["payer_player", "payee_player"])


def backwards(apps, schema_editor):
    Settlement = apps.get_model("ledger", "Settlement")
    Transfer = apps.get_model("ledger", "Transfer")
    settlements = list(Settlement.objects.select_related("banker_player").filter(banker_player__isnull=False))
    for settlement in settlements:
        settlement.banker = settlement.banker_player.name
    Settlement.objects.bulk_update(settlements, ["banker"])
    transfers = list(Transfer.objects.select_related("payer_player", "payee_player"))
    for transfer in transfers:
        transfer.payer, transfer.payee = transfer.payer_player.name, transfer.payee_player.name
    Transfer.objects.bulk_update(transfers, ["payer", "payee"])


class Migration(migrations.Migration):
    dependencies = [("ledger", "0009_settlement_player_links")]

    operations = [migrations.RunPython(forwards, backwards)]
