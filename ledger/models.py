"""The ledger: players, evenings, tables, hands (with their versions) and postings.

Money is Decimal everywhere (max_digits=14, decimal_places=4), exact until the settlement rounds to the coin.
Write-side logic lives in ``ledger/services.py``; models hold fields, queries and small read-side methods.
"""

from __future__ import annotations

import secrets
from decimal import Decimal
from typing import Any, TypedDict

from django.conf import settings
from django.db import models
from django.db.models import OuterRef, Q, Subquery, Sum
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from ledger import games
from ledger.result_texts import result_label, result_lines
from rules.i18n import plain_money


class MoneyDigits(TypedDict):
    """A DecimalField's size for money: ``models.DecimalField(**MONEY)``."""

    max_digits: int
    decimal_places: int


MONEY = MoneyDigits(max_digits=14, decimal_places=4)
MONEY_PLACES = Decimal("0.0001")


def exact_total(total: object) -> Decimal:
    """A database sum of amounts as an exact Decimal.

    SQLite adds decimals up as floats (a zero can come back as -5.55E-17); every amount is stored with four
    places, so rounding the sum back to four places makes it exact again. PostgreSQL sums exactly already.
    """
    if total is None:
        return Decimal(0)
    return Decimal(str(total)).quantize(MONEY_PLACES)


def amount_sum(**options: Any) -> Sum:
    """The database sum of posting amounts, for an aggregate or an annotation outside this module (the statistics,
    the exports); its result is read through ``exact_total``, as every sum of money is."""
    return Sum("amount", **options)


class Currency(models.TextChoices):
    CZK = "CZK", "CZK (Kč)"
    EUR = "EUR", "EUR (€)"


# One member per game of the ledger's adapter table (Game["MARIAS"] …), labelled with the engine's title.
# django-stubs types the class syntax of TextChoices only, not this functional one (Django documents both).
Game: type[models.TextChoices] = models.TextChoices(  # type: ignore[call-overload]
    "Game", [(name.upper(), (name, title)) for name, title in games.CHOICES]
)


def new_share_token() -> str:
    return secrets.token_urlsafe(18)


class Player(models.Model):
    """A person, reused across the evenings of one scorekeeper (stats, payment details)."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(_("name"), max_length=40)
    iban = models.CharField(_("IBAN"), max_length=34, blank=True)
    # The player asked to be left out of statistics: their money still counts, their numbers are not shown.
    hide_stats = models.BooleanField(_("hide from statistics"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["owner", "name"], name="player_name_unique_per_owner")]

    def __str__(self) -> str:
        return self.name


class UserPreference(models.Model):
    """What a user chose for themselves: the language the pages speak (remembered across sessions and devices)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="preference")
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES, blank=True)

    def __str__(self) -> str:
        return f"{self.user}: {self.language or '-'}"


class EveningQuerySet(models.QuerySet["Evening"]):
    def for_user(self, user: Any) -> EveningQuerySet:
        """Evenings the user keeps score of: as their creator or as a co-scorekeeper."""
        if not user.is_authenticated:
            return self.none()
        kept = Evening.scorekeepers.through.objects.filter(user=user).values("evening_id")
        return self.filter(Q(owner=user) | Q(pk__in=kept))

    def open(self) -> EveningQuerySet:
        return self.filter(status=Evening.Status.OPEN)


class Evening(models.Model):
    """One get-together: date, place, currency and the coin to round to. Balances and settlement are per evening."""

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        CLOSED = "closed", _("closed")

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="evenings_owned")
    scorekeepers = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="evenings_kept", blank=True)
    date = models.DateField(_("date"))
    place = models.CharField(_("place"), max_length=80, blank=True)
    currency = models.CharField(_("currency"), max_length=3, choices=Currency.choices, default=Currency.CZK)
    coin = models.DecimalField(_("coin to round to"), **MONEY, default=Decimal("1"))
    status = models.CharField(max_length=6, choices=Status.choices, default=Status.OPEN)
    # NULL, not "", when switched off: many evenings may have no link, but each link is unique.
    share_token = models.CharField(max_length=32, unique=True, null=True, blank=True, default=new_share_token)
    # The circle of regulars this evening belongs to (``ledger.circles``). SET_NULL: deleting a circle leaves its
    # evenings as evenings of their own, with their hands and settlements; only the circle's tab and pot go with it.
    circle = models.ForeignKey(
        "ledger.Circle",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="evenings",
        verbose_name=_("circle"),
    )
    # False: left out of statistics (a training evening, a guest night); its money is settled all the same.
    counted = models.BooleanField(_("counted in statistics"), default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = EveningQuerySet.as_manager()

    class Meta:
        ordering = ["-date", "-id"]
        constraints = [models.CheckConstraint(condition=Q(coin__gt=0), name="evening_coin_positive")]

    def __str__(self) -> str:
        return f"{self.date:%Y-%m-%d} {self.place}".strip()

    def get_absolute_url(self) -> str:
        return reverse("ledger:evening_detail", args=[self.pk])

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN

    def can_keep_score(self, user: Any) -> bool:
        return bool(user.is_authenticated) and Evening.objects.for_user(user).filter(pk=self.pk).exists()


class InvitationQuerySet(models.QuerySet["Invitation"]):
    def for_user(self, user: Any) -> InvitationQuerySet:
        """Invitations waiting for the user to accept or decline them: to their name (in any case), and not from
        before they joined (an earlier holder of a freed name had them)."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(username__iexact=user.get_username(), created_at__gte=user.date_joined)


class Invitation(models.Model):
    """The owner of an evening asks a user to keep score too; the user becomes a co-scorekeeper by accepting.

    Addressed to a user name, not to a user: the owner's page reads the same whether or not somebody has that
    name, so the form tells nobody which user names exist.
    """

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="invitations")
    username = models.CharField(max_length=150)
    invited_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    objects = InvitationQuerySet.as_manager()

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [models.UniqueConstraint(fields=["evening", "username"], name="invitation_unique_per_evening")]

    def __str__(self) -> str:
        return f"{self.evening}: {self.username}"


class Table(models.Model):
    """One run of hands of one game within an evening: seat order, frozen ruleset, dealer rotation."""

    class Recording(models.TextChoices):
        SCOREKEEPER = "scorekeeper", _("only the scorekeeper records")
        SEATED = "seated", _("any seated player records")

    class Confirmation(models.TextChoices):
        NONE = "none", _("no confirmation")
        OPPONENT = "opponent", _("one opponent of the declarer confirms")
        EVERYONE = "everyone", _("every other player confirms")

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="tables")
    game = models.CharField(_("game"), max_length=10, choices=Game.choices)
    # The full resolved ruleset (preset + every option), frozen so later preset changes never re-price old hands.
    ruleset = models.JSONField()
    # Seat order, clockwise, as player names; names are what the hand document speaks of.
    seat_names = models.JSONField()
    first_dealer = models.PositiveSmallIntegerField(default=0)
    # Hands recorded so far (voided included): the next hand's number, incremented under the table's row lock.
    hand_count = models.PositiveIntegerField(default=0)
    # Bumped on every change to the table's hands; the share link's ETag, so polling costs one tiny query.
    revision = models.PositiveIntegerField(default=0)
    # The revision the table's statistics summaries (``StatsLine`` and its kin) were computed at; None: never.
    # Statistics bring the summaries of the tables whose revision moved on up to date (``ledger.stats``).
    stats_revision = models.PositiveIntegerField(null=True, blank=True, editable=False)
    # Who may record at this table and whose OK a recorded hand needs; chosen with the ruleset and frozen with it.
    recording = models.CharField(
        _("who records"), max_length=11, choices=Recording.choices, default=Recording.SCOREKEEPER
    )
    confirmation = models.CharField(
        _("confirmation"), max_length=8, choices=Confirmation.choices, default=Confirmation.NONE
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.get_game_display()} ({', '.join(self.seat_names)})"

    def get_absolute_url(self) -> str:
        return reverse("ledger:table_detail", args=[self.pk])

    def document(self, hand: dict[str, Any]) -> dict[str, Any]:
        """The whole hand document the rules engine prices: this table's game, seats and frozen ruleset."""
        return {"game": self.game, "players": list(self.seat_names), "rules": dict(self.ruleset), "hand": hand}


class Seat(models.Model):
    """A player's place at a table; postings reference players through the seats of their table."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["table", "player"], name="seat_player_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player} @ {self.position}"


class Hand(models.Model):
    """One deal at a table: the hand document, its priced result, who entered it, and a version for corrections."""

    class Status(models.TextChoices):
        COUNTED = "counted", _("counted")
        VOIDED = "voided", _("voided")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField()
    version = models.PositiveIntegerField(default=1)
    dealer = models.PositiveSmallIntegerField(help_text="seat position of the dealer")
    document = models.JSONField(help_text="the hand part of the hand document")
    result = models.JSONField(help_text="the priced result (rules.Score.as_dict) at the frozen ruleset")
    status = models.CharField(max_length=7, choices=Status.choices, default=Status.COUNTED)
    # The table's balances after this hand, one exact decimal string per seat in seat order: the counted postings
    # of this hand and of every earlier one, summed (a voided hand carries the balances before it). Kept by
    # ``ledger.running_balances`` whenever a hand's postings or status change; the scoreboard and the chart read them
    # instead of summing the table's postings. NULL only until the hand's postings are written.
    balances = models.JSONField(null=True, blank=True, editable=False)
    # Where the table's game keeps a list of points beside the money (Skat), the list after this hand, one integer
    # per seat in seat order: the counted hands' ``result["score"]`` up to this one, summed (Seeger-Fabian's bonuses
    # included where the ruleset counts them); a voided hand carries the list before it. Kept with ``balances`` by
    # ``ledger.running_balances``; NULL at a game priced in money only, and while ``balances`` are.
    list_points = models.JSONField(null=True, blank=True, editable=False)
    # The client's token for this submission: a double tap or a retried request finds the hand already there.
    key = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001 - NULL: no token, unique otherwise
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    entered_at = models.DateTimeField(auto_now_add=True)
    changed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    changed_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="hand_number_unique_per_table"),
            models.UniqueConstraint(fields=["table", "key"], name="hand_key_unique_per_table"),
        ]

    def __str__(self) -> str:
        return f"#{self.number} {self.label}"

    @property
    def label(self) -> str:
        return result_label(self.result)

    @property
    def amounts(self) -> dict[str, Decimal]:
        return {name: Decimal(amount) for name, amount in self.result.get("amounts", {}).items()}

    @property
    def lines(self) -> list[dict[str, Any]]:
        return result_lines(self.result)

    @property
    def is_counted(self) -> bool:
        return self.status == self.Status.COUNTED

    @property
    def balances_after(self) -> list[Decimal] | None:
        """``balances`` as Decimals (seat order), or None while they are not written yet."""
        return None if self.balances is None else [Decimal(value) for value in self.balances]


class HandVersion(models.Model):
    """A superseded version of a hand, kept as it was (the audit trail of corrections and voids)."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="versions")
    version = models.PositiveIntegerField()
    dealer = models.PositiveSmallIntegerField()
    document = models.JSONField()
    result = models.JSONField()
    status = models.CharField(max_length=7, choices=Hand.Status.choices)
    changed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    changed_at = models.DateTimeField()

    class Meta:
        ordering = ["-version"]
        constraints = [models.UniqueConstraint(fields=["hand", "version"], name="hand_version_unique")]

    def __str__(self) -> str:
        return f"{self.hand} v{self.version}"

    @property
    def label(self) -> str:
        return result_label(self.result)

    @property
    def lines(self) -> list[dict[str, Any]]:
        return result_lines(self.result)


class PostingQuerySet(models.QuerySet["Posting"]):
    """Sums of postings. Every balance (``ledger.selectors``) is read through ``total``, ``totals`` or
    ``totals_of``, which pass each database sum through ``exact_total``: no reader turns SQLite's float sum into
    money by itself."""

    def counted(self) -> PostingQuerySet:
        return self.filter(hand__status=Hand.Status.COUNTED)

    def total(self) -> Decimal:
        """The exact sum of the amounts: one aggregate query."""
        return exact_total(self.aggregate(total=Sum("amount"))["total"])

    def totals(self, *keys: str) -> dict[Any, Decimal]:
        """Exact sums grouped by ``keys`` in one aggregate query: {key: total}, or {(key, key…): total}."""
        rows = self.order_by().values_list(*keys).annotate(total=Sum("amount")).values_list(*keys, "total")
        return {(row[0] if len(keys) == 1 else tuple(row[:-1])): exact_total(row[-1]) for row in rows}

    def totals_of(self, players: models.QuerySet[Player]) -> dict[str, Decimal]:
        """{name: exact sum} for each of ``players``, zero for those without postings here: one query, each sum a
        subquery, so nothing is summed in Python."""
        sums = self.filter(player=OuterRef("pk")).order_by().values("player").annotate(total=Sum("amount"))
        rows = players.annotate(total=Subquery(sums.values("total"))).values_list("name", "total")
        return {name: exact_total(total) for name, total in rows}


class Posting(models.Model):
    """One player's money for one hand (exact Decimal); the postings of a hand sum to zero."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="postings")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="postings")
    amount = models.DecimalField(**MONEY)

    objects = PostingQuerySet.as_manager()

    class Meta:
        ordering = ["hand", "player"]
        constraints = [models.UniqueConstraint(fields=["hand", "player"], name="posting_unique_per_player")]

    def __str__(self) -> str:
        return f"{self.player}: {self.amount}"


# --------------------------------------------------------------------------------------------------------------
# The close-out: settlement, transfers and the evening's history


class Settlement(models.Model):
    """The close-out of an evening: balances frozen at the close, rounded to the coin, and who pays whom.

    ``exact`` and ``rounded`` map each player to a decimal string, in the order shown (largest gain first).
    """

    class Mode(models.TextChoices):
        FEWEST = "fewest", _("fewest transfers")
        BANKER = "banker", _("everybody settles with one banker")
        PAIRWISE = "pairwise", _("everybody with everybody")

    evening = models.OneToOneField(Evening, on_delete=models.CASCADE, related_name="settlement")
    mode = models.CharField(_("how to settle"), max_length=8, choices=Mode.choices, default=Mode.FEWEST)
    banker = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("banker")
    )
    coin = models.DecimalField(**MONEY)
    exact = models.JSONField()
    rounded = models.JSONField()
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    # Not auto_now_add: closing again after a reopen re-plans the same row and dates it anew.
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.evening} ({self.get_mode_display()})"

    def rows(self) -> list[dict[str, Any]]:
        """Per player: the exact balance, what rounding did to it, and the rounded balance (Decimals)."""
        return balance_rows(self.exact, self.rounded)


def balance_rows(exact: dict[str, str], rounded: dict[str, str]) -> list[dict[str, Any]]:
    """A settlement's (an evening's or a tab's) rows: per player the exact balance, what rounding did to it, and the
    rounded balance (Decimals), in the order of ``exact``."""
    rows = []
    for player, amount in exact.items():
        rounded_amount = Decimal(rounded[player])
        rows.append(
            {
                "player": player,
                "exact": Decimal(amount),
                "adjustment": rounded_amount - Decimal(amount),
                "rounded": rounded_amount,
            }
        )
    return rows


class TransferBase(models.Model):
    """What an evening's ``Transfer`` and a tab's ``CircleTransfer`` are alike: ``payer`` gives ``payee`` the
    positive ``amount``, markable as paid. Abstract: each keeps its own table, settlement and constraint name.

    Read it with ``select_related("payer", "payee")``: its text names them.
    """

    payer = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    payee = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    amount = models.DecimalField(**MONEY)
    paid_at = models.DateTimeField(null=True, blank=True)
    paid_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    class Meta:
        abstract = True
        # The plan's order (largest first); transfers paid before a reopen keep their older, lower ids.
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.payer} → {self.payee} {self.amount_text}"

    @property
    def amount_text(self) -> str:
        """The amount as plain text, without the database's trailing zeros: 7.0000 → "7.00", 0.5050 → "0.505"."""
        return plain_money(self.amount)

    @property
    def is_paid(self) -> bool:
        return self.paid_at is not None


class Transfer(TransferBase):
    """One payment of the settlement, marked paid at the table."""

    settlement = models.ForeignKey(Settlement, on_delete=models.CASCADE, related_name="transfers")

    class Meta(TransferBase.Meta):
        constraints = [models.CheckConstraint(condition=Q(amount__gt=0), name="transfer_amount_positive")]


class EveningEvent(models.Model):
    """One step in the evening's history: closed, reopened, a transfer marked paid or its paid mark taken back."""

    class Kind(models.TextChoices):
        CLOSED = "closed", _("closed")
        REOPENED = "reopened", _("reopened")
        TRANSFER_PAID = "transfer_paid", _("transfer paid")
        TRANSFER_UNPAID = "transfer_unpaid", _("transfer marked unpaid")
        # Closed although hands were unconfirmed or disputed, or players had not signed: the note says what.
        CLOSE_OVERRIDDEN = "close_overridden", _("closed despite open confirmations")

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(default=timezone.now)
    note = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.evening}: {self.get_kind_display()}"

    @property
    def description(self) -> str:
        """The note in the reader's language: the history stores codes and numbers, never a sentence."""
        if self.kind == self.Kind.CLOSED:
            mode, _sep, banker = self.note.partition(":")
            label = str(dict(Settlement.Mode.choices).get(mode, mode))
            return f"{label} ({banker})" if banker else label
        if self.kind == self.Kind.REOPENED and self.note.isdecimal() and int(self.note):
            count = int(self.note)
            return ngettext("%(count)s unpaid transfer dropped", "%(count)s unpaid transfers dropped", count) % {
                "count": count
            }
        return "" if self.kind == self.Kind.REOPENED else self.note
