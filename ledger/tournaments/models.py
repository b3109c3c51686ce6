"""A tournament's books: the tournament, its registered players, its rounds and their tables.

A club night of many tables. Each table of each round (a Skat series, a Mariáš or Šnapser round) is an evening of
its own with one table, kept by the organiser and by the table's phone (a guest account reached through the table's
link), so that the table's money, undo, audit and offline queue are an evening's, and the link opens nothing but
that table. The tables keep their names in the ``ledger`` app (``app_label``): their migrations stay in
``ledger/migrations``.
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledger.models import MONEY, Currency, Evening, Game, Player, Table, new_share_token
from rules import tournament as rt


class Tournament(models.Model):
    """A tournament: its players (``Entrant``), its rounds and their tables, the format and the fees."""

    class Status(models.TextChoices):
        REGISTERING = "registering", _("registering")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournaments")
    name = models.CharField(_("name"), max_length=80)
    game = models.CharField(_("game"), max_length=10, choices=Game.choices)
    date = models.DateField(_("date"))
    place = models.CharField(_("place"), max_length=80, blank=True)
    currency = models.CharField(_("currency"), max_length=3, choices=Currency.choices, default=Currency.EUR)
    coin = models.DecimalField(_("coin to round to"), **MONEY, default=Decimal("1"))
    status = models.CharField(max_length=11, choices=Status.choices, default=Status.REGISTERING)
    rounds = models.PositiveSmallIntegerField(_("series or rounds"))
    # The format (``ledger.tournaments.formats.Format``): rules of the tables, games per series or hands per round,
    # fees, the prize scheme, the placement points, whether the tables play for money, minutes per round.
    options = models.JSONField(default=dict)
    # Seeds the draw and the movement, so both can be replayed.
    seed = models.PositiveIntegerField()
    # Mariáš and Šnapser: every round's tables as start numbers, planned when the first round starts.
    plan = models.JSONField(default=list, blank=True)
    # The standings for players' phones and the projector, read only; NULL when switched off.
    share_token = models.CharField(max_length=32, unique=True, null=True, blank=True, default=new_share_token)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "ledger"
        ordering = ["-date", "-id"]
        constraints = [models.CheckConstraint(condition=Q(coin__gt=0), name="tournament_coin_positive")]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("ledger:tournament_detail", args=[self.pk])

    @property
    def play(self) -> rt.TournamentPlay:
        """How its game plays a tournament (series or rounds, list or placement points): asked of the game."""
        return rt.play(self.game)


class Entrant(models.Model):
    """A player registered for a tournament, with a start number, checked in at the door or not."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    number = models.PositiveSmallIntegerField()
    checked_in = models.BooleanField(_("checked in"), default=False)

    class Meta:
        app_label = "ledger"
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="entrant_unique_player"),
            models.UniqueConstraint(fields=["tournament", "number"], name="entrant_unique_number"),
        ]

    def __str__(self) -> str:
        return f"{self.number}. {self.player}"


class Round(models.Model):
    """One series (Skat) or round (Mariáš, Šnapser) of a tournament; ``ends_at`` drives the projector's clock."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField(default=timezone.now)
    ends_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        app_label = "ledger"
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number")]

    def __str__(self) -> str:
        return f"{self.tournament} {self.number}"


class TournamentTable(models.Model):
    """One table of one round: an evening with one table, its link for the table's phone, and its result."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    evening = models.OneToOneField(Evening, on_delete=models.CASCADE, related_name="tournament_table")
    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="tournament_table")
    # The score sheet's link: opening it logs the phone in as ``guest``, who keeps score of this evening alone.
    token = models.CharField(max_length=32, unique=True, default=new_share_token)
    guest = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="tournament_table"
    )
    # Per seat, the table's result so far (``ledger.tournaments.results.table_result``), as of the table's revision.
    result = models.JSONField(default=dict, blank=True)
    result_revision = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        app_label = "ledger"
        ordering = ["round", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="tournament_table_unique_number")]

    def __str__(self) -> str:
        return f"{self.round} / {self.number}"
