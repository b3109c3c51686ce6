"""Circles of regulars: members across evenings, a running tab or a pot, the members' own links.

The tables are the ledger's (``app_label = "ledger"``, migrations in ``ledger/migrations``); the books know a
circle only through ``Evening.circle``, a reference by name.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q, Sum
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledger.models import (
    MONEY,
    Currency,
    Evening,
    Player,
    Settlement,
    TransferBase,
    balance_rows,
    exact_total,
)
from rules.i18n import plain_money


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
        app_label = "ledger"
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
        app_label = "ledger"
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
        app_label = "ledger"
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
        app_label = "ledger"
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
        app_label = "ledger"
        constraints = [models.CheckConstraint(condition=Q(amount__gt=0), name="circle_transfer_amount_positive")]
