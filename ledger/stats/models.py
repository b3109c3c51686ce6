"""The statistics summaries: what one table's counted hands say about each of its players, kept so that statistics
over years of evenings add up a few rows per table instead of reading every hand (``ledger.stats.summaries``
computes a table's from scratch, ``ledger.stats.increments`` adds what each changed hand changed; they are derived
data).

The summaries' tables are the ledger's (``app_label = "ledger"``, migrations in ``ledger/migrations``); the
changes waiting to be taken in (``StatsChange``) are this app's own (``talon_stats``, ``ledger/stats/migrations``).
"""

from __future__ import annotations

from django.db import models

from ledger.models import MONEY, Hand, Player, Table


class StatsLine(models.Model):
    """One player's figures over one table's counted hands (only players with postings there have a line)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="stats_lines")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    table_hands = models.PositiveIntegerField()  # the table's counted hands, the same on each of its lines
    hands = models.PositiveIntegerField()
    won = models.PositiveIntegerField()  # hands with the player's amount above zero
    net = models.DecimalField(**MONEY)
    most = models.DecimalField(**MONEY)  # the player's largest amount in one hand
    least = models.DecimalField(**MONEY)  # and the smallest
    # The first hands played with those amounts: the records point at them.
    most_hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="+")
    least_hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="+")
    flek_given = models.PositiveIntegerField()  # hands raised by the player's side
    flek_won = models.PositiveIntegerField()
    declared = models.PositiveIntegerField()  # hands the player declared
    declared_won = models.PositiveIntegerField()
    # Hands won in a row, in the order played: the longest run, the run the table opens with and the one it ends
    # with (a table won throughout has all three equal to ``hands``): runs across tables are joined from these.
    best_run = models.PositiveIntegerField()
    lead_run = models.PositiveIntegerField()
    tail_run = models.PositiveIntegerField()

    class Meta:
        app_label = "ledger"
        constraints = [models.UniqueConstraint(fields=["table", "player"], name="stats_line_unique")]

    def __str__(self) -> str:
        return f"{self.player_id} at {self.table_id}: {self.net}"


class StatsDeclared(models.Model):
    """How often one player declared one contract at one table, and won it."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    contract = models.CharField(max_length=20)
    played = models.PositiveIntegerField()
    won = models.PositiveIntegerField()

    class Meta:
        app_label = "ledger"
        constraints = [models.UniqueConstraint(fields=["table", "player", "contract"], name="stats_declared_unique")]

    def __str__(self) -> str:
        return f"{self.player_id} at {self.table_id}: {self.contract} {self.won}/{self.played}"


class StatsPair(models.Model):
    """One player's hands at one table with another player on the same side (``with_*``) and on the other side
    (``against_*``): how many, the player's own net over them and how many of them the player won."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    other = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    with_hands = models.PositiveIntegerField()
    with_net = models.DecimalField(**MONEY)
    with_won = models.PositiveIntegerField()
    against_hands = models.PositiveIntegerField()
    against_net = models.DecimalField(**MONEY)
    against_won = models.PositiveIntegerField()

    class Meta:
        app_label = "ledger"
        constraints = [models.UniqueConstraint(fields=["table", "player", "other"], name="stats_pair_unique")]

    def __str__(self) -> str:
        return f"{self.player_id} and {self.other_id} at {self.table_id}"


class StatsChange(models.Model):
    """A change to a table's hands that its summaries have not taken in yet: a hand recorded (``version`` None) or
    a hand about to change (``version``: the one it had, which the summaries hold). Written in the hand's own
    transaction (no commit of its own), so a change is never lost and never counted twice: whoever brings the table
    up to date (the request's end, the ``stats_catch_up`` job, a statistic read) takes in all of a table's changes
    at once, in the order written, and deletes them with the same commit."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="+")
    version = models.PositiveIntegerField(null=True, blank=True)

    def __str__(self) -> str:
        return f"hand {self.hand_id} at {self.table_id} from version {self.version}"
