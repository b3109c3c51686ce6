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
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from ledger import games
from rules.base import said
from rules.i18n import normalize_language, plain_money, render


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
    # The player asked to be left out of statistics (issue 19): their money still counts, their numbers are not shown.
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


def result_label(result: dict[str, Any]) -> str:
    """The label of a stored result in the reader's (active) language.

    The ledger prices a hand once and stores how its texts were made (``result["source"]``, message ids and their
    parameters: :meth:`rules.Score.text_source`); they are said here, when read. A result without a source, written
    before issue 16 (an old export read back as it was, or a release still running while migration 0013 ran), has
    its texts as copies: the reader's language's, else the English one.
    """
    source = result.get("source")
    if isinstance(source, dict):
        return render(source.get("label", ""), _reader_language())
    return str(_copy(result).get("label", ""))


def result_lines(result: dict[str, Any]) -> list[dict[str, Any]]:
    """The explanation lines of a stored result in the reader's language (see :func:`result_label`)."""
    source = result.get("source")
    if isinstance(source, dict):
        return list(said(source, _reader_language())["lines"])
    return list(_copy(result).get("lines", []))


def _copy(result: dict[str, Any]) -> dict[str, Any]:
    copies = result.get("texts")
    copy = copies.get(_reader_language()) if isinstance(copies, dict) else None
    return copy if isinstance(copy, dict) else result


def _reader_language() -> str:
    return normalize_language(translation.get_language())


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
    # The circle of regulars this evening belongs to (issue 19). SET_NULL: deleting a circle leaves its evenings as
    # evenings of their own, with their hands and settlements; only the circle's tab and pot go with it.
    circle = models.ForeignKey(
        "Circle", on_delete=models.SET_NULL, null=True, blank=True, related_name="evenings", verbose_name=_("circle")
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
        """Invitations waiting for the user to accept or decline them."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(username=user.get_username())


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
    # Statistics recompute the summaries of the tables whose revision moved on (``ledger.stats_summaries``).
    stats_revision = models.PositiveIntegerField(null=True, blank=True, editable=False)
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
    # ``ledger.running`` whenever a hand's postings or status change; the scoreboard and the chart read them
    # instead of summing the table's postings. NULL only until the hand's postings are written.
    balances = models.JSONField(null=True, blank=True, editable=False)
    # Where the table's game keeps a list of points beside the money (Skat), the list after this hand, one integer
    # per seat in seat order: the counted hands' ``result["score"]`` up to this one, summed (Seeger-Fabian's bonuses
    # included where the ruleset counts them); a voided hand carries the list before it. Kept with ``balances`` by
    # ``ledger.running``; NULL at a game priced in money only, and while ``balances`` are.
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


# --------------------------------------------------------------------------------------------------------------
# Circles of regulars (issue 19): members across evenings, a running tab or a pot, the members' own links


class CircleQuerySet(models.QuerySet["Circle"]):
    def for_user(self, user: Any) -> CircleQuerySet:
        """Circles the user keeps score of: as their owner or as one of their scorekeepers."""
        if not user.is_authenticated:
            return self.none()
        kept = Circle.scorekeepers.through.objects.filter(user=user).values("circle_id")
        return self.filter(Q(owner=user) | Q(pk__in=kept))


class Circle(models.Model):
    """A named group of regulars: its members (the owner's Players), its scorekeepers and how it settles.

    ``settle`` says what closing one of its evenings does with the rounded balances: pay them tonight (as any
    evening), carry them into the circle's running tab, or pay tonight and have the winners pay a share
    (``pot_share``) of their gain into the circle's pot. The tab and the pot are ``CircleEntry`` rows.
    """

    class Settle(models.TextChoices):
        EVENING = "evening", _("pay each evening")
        TAB = "tab", _("carry the balances into the tab")
        POT = "pot", _("winners pay into the pot")

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="circles_owned")
    scorekeepers = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="circles_kept", blank=True)
    name = models.CharField(_("name"), max_length=80)
    members = models.ManyToManyField(Player, through="CircleMember", related_name="circles", blank=True)
    settle = models.CharField(_("how to settle"), max_length=7, choices=Settle.choices, default=Settle.EVENING)
    # The money of the circle's evenings, its tab and its pot.
    currency = models.CharField(_("currency"), max_length=3, choices=Currency.choices, default=Currency.CZK)
    coin = models.DecimalField(_("coin to round to"), **MONEY, default=Decimal("1"))
    # The part of each winner's rounded evening gain paid into the pot (settle="pot"): 0.1 is a tenth.
    pot_share = models.DecimalField(_("share paid into the pot"), **MONEY, default=Decimal("0.1"))
    # The member who keeps the pot's money: pot pay-ins are paid to them (QR code with their IBAN). SET_NULL: a
    # deleted player leaves the pot without a holder rather than taking the circle with it.
    pot_holder = models.ForeignKey(
        Player,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("who holds the pot"),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = CircleQuerySet.as_manager()

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(coin__gt=0), name="circle_coin_positive"),
            models.CheckConstraint(condition=Q(pot_share__gte=0, pot_share__lte=1), name="circle_pot_share_part"),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("ledger:circle_detail", args=[self.pk])


class CircleMember(models.Model):
    """A player's membership of a circle, with their personal read-only link (``token``; None: no link)."""

    circle = models.ForeignKey(Circle, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="memberships")
    # NULL, not "", when revoked: many members may have no link, but each link is unique.
    token = models.CharField(max_length=32, unique=True, null=True, blank=True, default=None)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["player__name"]
        constraints = [models.UniqueConstraint(fields=["circle", "player"], name="circle_member_unique")]

    def __str__(self) -> str:
        return f"{self.circle}: {self.player}"


class CircleEntryQuerySet(models.QuerySet["CircleEntry"]):
    TAB_KINDS = ("carried", "settled")
    POT_KINDS = ("paid_in", "deposit", "withdrawal")

    def tab(self) -> CircleEntryQuerySet:
        return self.filter(kind__in=self.TAB_KINDS)

    def pot(self) -> CircleEntryQuerySet:
        return self.filter(kind__in=self.POT_KINDS)

    def total(self) -> Decimal:
        """The exact sum of the amounts: one aggregate query (``exact_total``, as postings)."""
        return exact_total(self.aggregate(total=Sum("amount"))["total"])

    def totals(self, *keys: str) -> dict[Any, Decimal]:
        """Exact sums grouped by ``keys`` in one aggregate query: {key: total}, or {(key, key…): total}."""
        rows = self.order_by().values_list(*keys).annotate(total=Sum("amount")).values_list(*keys, "total")
        return {(row[0] if len(keys) == 1 else tuple(row[:-1])): exact_total(row[-1]) for row in rows}


class CircleEntry(models.Model):
    """One booking in a circle's tab or pot (exact Decimal).

    Tab (``carried``, ``settled``): ``amount`` is what the circle owes the ``player`` (a loss is negative), as a
    balance reads. The ``carried`` entries of one evening are its rounded balances and sum to zero; settling the tab
    books each player's tab balance back out (``settled``, summing to zero) and plans who pays whom
    (``CircleSettlement``). So a tab balance is the sum of the player's tab entries, and all of them sum to zero.

    Pot (``paid_in``, ``deposit``, ``withdrawal``): ``amount`` is what went into the pot (a withdrawal is negative);
    ``player`` who paid in or took out, None for the pot itself. The pot's balance is the sum of its entries.
    """

    class Kind(models.TextChoices):
        CARRIED = "carried", _("carried from an evening")
        SETTLED = "settled", _("tab settled")
        PAID_IN = "paid_in", _("paid into the pot")
        DEPOSIT = "deposit", _("deposit")
        WITHDRAWAL = "withdrawal", _("withdrawal")

    circle = models.ForeignKey(Circle, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, null=True, blank=True, related_name="circle_entries")
    # SET_NULL: the money stays booked if the evening is ever deleted (``note`` keeps its date).
    evening = models.ForeignKey(
        Evening, on_delete=models.SET_NULL, null=True, blank=True, related_name="circle_entries"
    )
    settlement = models.ForeignKey(
        "CircleSettlement", on_delete=models.CASCADE, null=True, blank=True, related_name="entries"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    amount = models.DecimalField(**MONEY)
    note = models.CharField(max_length=200, blank=True)
    # A pot pay-in (``paid_in``) marked as paid to the pot holder; None: still owed. Unused for other kinds.
    paid_at = models.DateTimeField(null=True, blank=True)
    paid_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    objects = CircleEntryQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "circle entries"
        constraints = [
            models.UniqueConstraint(
                fields=["evening", "player", "kind"], name="circle_entry_once_per_evening", condition=Q(kind="carried")
            ),
        ]

    def __str__(self) -> str:
        return f"{self.circle}: {self.get_kind_display()} {self.player or ''} {plain_money(self.amount)}"


class CircleSettlement(models.Model):
    """The settling of a circle's tab: its balances, rounded to the circle's coin, and who pays whom.

    As an evening's ``Settlement``: ``exact`` and ``rounded`` map each player's name to a decimal string; the plan
    comes from ``services.settlement_plan`` (same modes, same rounding).
    """

    circle = models.ForeignKey(Circle, on_delete=models.CASCADE, related_name="settlements")
    mode = models.CharField(
        _("how to settle"), max_length=8, choices=Settlement.Mode.choices, default=Settlement.Mode.FEWEST
    )
    banker = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("banker")
    )
    coin = models.DecimalField(**MONEY)
    exact = models.JSONField()
    rounded = models.JSONField()
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.circle} {self.created_at:%Y-%m-%d}"

    def rows(self) -> list[dict[str, Any]]:
        """Per player: the exact tab balance, what rounding did to it, and the rounded balance (Decimals)."""
        return balance_rows(self.exact, self.rounded)


class CircleTransfer(TransferBase):
    """One payment of a tab's settlement, markable as paid."""

    settlement = models.ForeignKey(CircleSettlement, on_delete=models.CASCADE, related_name="transfers")

    class Meta(TransferBase.Meta):
        constraints = [models.CheckConstraint(condition=Q(amount__gt=0), name="circle_transfer_amount_positive")]


# --------------------------------------------------------------------------------------------------------------
# Statistics summaries: what one table's counted hands say about each of its players, kept so that statistics over
# years of evenings add up a few rows per table instead of reading every hand (``ledger.stats_summaries`` writes
# them; they are derived data, recomputed whenever the table's revision moves on).


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
        constraints = [models.UniqueConstraint(fields=["table", "player", "other"], name="stats_pair_unique")]

    def __str__(self) -> str:
        return f"{self.player_id} and {self.other_id} at {self.table_id}"


# --------------------------------------------------------------------------------------------------------------
# Tournaments (issue 20): a club night of many tables. Each table of each round (a Skat series, a Mariáš or
# Šnapser round) is an evening of its own with one table, kept by the organiser and by the table's phone (a guest
# account reached through the table's link), so that the table's money, undo, audit and offline queue are an
# evening's, and the link opens nothing but that table.


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
    # The format (``ledger.tournaments.Format``): rules of the tables, games per series or hands per round,
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
        ordering = ["-date", "-id"]
        constraints = [models.CheckConstraint(condition=Q(coin__gt=0), name="tournament_coin_positive")]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("ledger:tournament_detail", args=[self.pk])


class Entrant(models.Model):
    """A player registered for a tournament, with a start number, checked in at the door or not."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    number = models.PositiveSmallIntegerField()
    checked_in = models.BooleanField(_("checked in"), default=False)

    class Meta:
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
    # Per seat, the table's result so far (``ledger.tournaments.table_result``), as of the table's revision.
    result = models.JSONField(default=dict, blank=True)
    result_revision = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["round", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="tournament_table_unique_number")]

    def __str__(self) -> str:
        return f"{self.round} / {self.number}"
